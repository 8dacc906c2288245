"""The foreign keys declared in model/refs.py drive validation and delete cascades.

Oracle: a plain per-row loop over the declared FOREIGN_KEYS (no link index, no child commands) on random
projects built through the model API: it says which references dangle and what a delete must leave.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuplanner.commands import AddRows, RemoveRows, ReplaceRows, UndoStack
from gpuplanner.core.errors import ProjectFileError, ValidationError
from gpuplanner.model import ROW_TYPES, Fabric, FloorItem, Phase, Project
from gpuplanner.model.refs import FOREIGN_KEYS, REFERRING_TABLES, ForeignKey
from gpuplanner.model.validate import validate_project
from gpuplanner.storage import open_project, save_project
from tests.strategies import projects

# Columns that name catalog entries (checked against the catalog, not another table) and columns that are
# labels, not references. A new *_id / *_device column must be declared in FOREIGN_KEYS or listed here.
CATALOG_COLUMNS = {"type_id", "cooling_id", "cable_id", "model_id"}
NOT_CHECKED: set[tuple[str, str]] = set()


def test_every_reference_column_is_declared_once():
    declared = [(fk.table, fk.column) for fk in FOREIGN_KEYS]
    assert len(declared) == len(set(declared))
    for table, cls in ROW_TYPES.items():
        for f in dataclasses.fields(cls):
            if f.name == "id" or not (f.name.endswith("_id") or f.name.endswith("_device")):
                continue
            if f.name in CATALOG_COLUMNS or (table, f.name) in NOT_CHECKED:
                continue
            assert (table, f.name) in declared, f"{table}.{f.name} names rows but is not a declared key"
    for fk in FOREIGN_KEYS:
        assert fk.target in ROW_TYPES and fk.column in {
            f.name for f in dataclasses.fields(ROW_TYPES[fk.table])
        }
        assert set(fk.also_clear) <= {f.name for f in dataclasses.fields(ROW_TYPES[fk.table])}


# -- the oracle -----------------------------------------------------------------------------------------


def dangling(tables: dict[str, dict[str, Any]]) -> set[tuple[str, str, str]]:
    """(table, row id, column) of every declared reference naming a missing row: a per-row loop."""
    out = set()
    for fk in FOREIGN_KEYS:
        for row in tables[fk.table].values():
            value = getattr(row, fk.column)
            if value != fk.empty and value not in tables[fk.target]:
                out.add((fk.table, row.id, fk.column))
    return out


def after_delete(
    tables: dict[str, dict[str, Any]], table: str, ids: set[str]
) -> dict[str, dict[str, Any]] | None:
    """The tables after deleting ``ids`` from ``table`` as FOREIGN_KEYS declare, or None when a "restrict"
    key refuses it: a fixed-point loop over every key and every row."""
    out = {t: dict(rows) for t, rows in tables.items()}
    gone: dict[str, set[str]] = {table: set(ids)}
    changed = True
    while changed:
        changed = False
        for fk in FOREIGN_KEYS:
            for row in list(out[fk.table].values()):
                if getattr(row, fk.column) not in gone.get(fk.target, ()):
                    continue
                if fk.on_delete == "cascade" and row.id not in gone.setdefault(fk.table, set()):
                    gone[fk.table].add(row.id)
                    changed = True
    for t, dead in gone.items():
        for i in dead:
            out[t].pop(i, None)
    for fk in FOREIGN_KEYS:
        for row in list(out[fk.table].values()):
            if getattr(row, fk.column) in gone.get(fk.target, ()):
                if fk.on_delete == "restrict":
                    return None
                if fk.on_delete == "set_null":
                    out[fk.table][row.id] = dataclasses.replace(
                        row, **{fk.column: None, **dict.fromkeys(fk.also_clear)}
                    )
    return out


# -- random projects with phases, fabrics and floor items ------------------------------------------------


@st.composite
def phased_projects(draw) -> Project:
    p = draw(projects())
    phases = [Phase(id=p.new_id("phases"), name=f"P{i}", order=i + 1) for i in range(draw(st.integers(0, 3)))]
    AddRows("phases", phases).apply(p)
    phase_ids = [""] + [ph.id for ph in phases]
    fabrics = [Fabric(id=p.new_id("fabrics"), name=f"F{i}") for i in range(draw(st.integers(0, 2)))]
    AddRows("fabrics", fabrics).apply(p)
    fabric_ids = [None] + [f.id for f in fabrics]
    for table in ("devices", "links"):
        rows = list(p.tables[table].values())
        placed = [dataclasses.replace(r, fabric_id=draw(st.sampled_from(fabric_ids))) for r in rows]
        if placed:
            ReplaceRows(table, placed).apply(p)
    items = [
        FloorItem(id=p.new_id("floor_items"), name=f"crah {i}", phase_id=draw(st.sampled_from(phase_ids)))
        for i in range(draw(st.integers(0, 3)))
    ]
    AddRows("floor_items", items).apply(p)
    for table in ("racks", "devices", "links"):
        rows = list(p.tables[table].values())
        moved = [dataclasses.replace(r, phase_id=draw(st.sampled_from(phase_ids))) for r in rows]
        if moved:
            ReplaceRows(table, moved).apply(p)
    return p


def _some_row(p: Project, fk: ForeignKey, data) -> Any:
    rows = list(p.tables[fk.table].values())
    return data.draw(st.sampled_from(rows)) if rows else None


@settings(max_examples=60, deadline=None)
@given(p=phased_projects(), data=st.data())
def test_every_declared_key_is_validated(p, data):
    assert dangling(p.tables) == set()
    validate_project(p)  # a project built through the model API has no dangling reference
    fk = data.draw(st.sampled_from(FOREIGN_KEYS))
    row = _some_row(p, fk, data)
    if row is None:
        return
    bad = dataclasses.replace(row, **{fk.column: "nowhere-404"})
    # the model refuses the edit ...
    with pytest.raises(ValidationError) as exc:
        p.replace(fk.table, bad)
    assert exc.value.field == fk.column
    # ... and a project holding it (written past the model) is refused naming that row and column
    p.tables[fk.table][row.id] = bad
    assert dangling(p.tables) == {(fk.table, row.id, fk.column)}
    with pytest.raises(ValidationError) as exc:
        validate_project(p)
    assert exc.value.entry == row.id and exc.value.field == fk.column
    assert "missing" in exc.value.message


@settings(max_examples=80, deadline=None)
@given(p=phased_projects(), data=st.data())
def test_delete_cascades_exactly_as_declared(p, data):
    table = data.draw(st.sampled_from(sorted({fk.target for fk in FOREIGN_KEYS})))
    ids = sorted(p.tables[table])
    if not ids:
        return
    chosen = set(data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=4, unique=True)))
    before = p.snapshot()
    expected = after_delete(before, table, chosen)
    stack = UndoStack(p)
    if expected is None:
        with pytest.raises(ValidationError, match="still referred to"):
            stack.push(RemoveRows(table, sorted(chosen)))
        assert p.snapshot() == before
        return
    stack.push(RemoveRows(table, sorted(chosen)))
    assert p.snapshot() == expected
    assert dangling(p.tables) == set()
    validate_project(p)
    stack.undo()
    assert p.snapshot() == before


def test_the_declared_policies_on_a_small_project():
    """The table's content, pinned: a rack's devices are unracked, a device's links go, a phase in use
    stays."""
    from gpuplanner.model import Device, Link, Rack

    p = Project()
    AddRows("phases", [Phase(id="ph1", name="one")]).apply(p)
    AddRows("racks", [Rack(id="r1", name="R1", type_id="generic-42u-600x1200", phase_id="ph1")]).apply(p)
    AddRows(
        "devices",
        [
            Device(id="d1", name="s1", type_id="nvidia-dgx-h100", rack_id="r1", u_position=3),
            Device(id="d2", name="sw", type_id="nvidia-quantum-2-qm9700", role="leaf"),
        ],
    ).apply(p)
    group = p.catalog.get("nvidia-quantum-2-qm9700").fabric_ports()[0].name
    AddRows("links", [Link(id="l1", a_device="d1", a_group="compute", b_device="d2", b_group=group)]).apply(p)
    stack = UndoStack(p)
    stack.push(RemoveRows("racks", ["r1"]))
    assert p.devices["d1"].rack_id is None and p.devices["d1"].u_position is None and "l1" in p.links
    stack.push(RemoveRows("devices", ["d2"]))
    assert "l1" not in p.links and "d1" in p.devices
    stack.undo()
    stack.undo()
    assert p.devices["d1"].rack_id == "r1" and "l1" in p.links
    with pytest.raises(ValidationError, match="still referred to by r1"):
        stack.push(RemoveRows("phases", ["ph1"]))


def test_a_file_whose_floor_item_names_a_missing_phase_is_refused_on_open(tmp_path):
    """Opening checks every referring table (it skipped floor items, which saving checked)."""
    assert "floor_items" in REFERRING_TABLES
    p = Project()
    AddRows("floor_items", [FloorItem(id="fi1", name="crah")]).apply(p)
    path = tmp_path / "p.gpuplan"
    save_project(p, path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE floor_items SET phase_id = 'ph-404'")
    conn.commit()
    conn.close()
    with pytest.raises(ProjectFileError, match="missing phase"):
        open_project(path)


def _fabric_plan() -> tuple[Project, str]:
    from gpuplanner.topology import GenerateOptions, generate_into

    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=8, management_fabric=True))
    compute = next(f.id for f in p.tables["fabrics"].values() if f.kind == "compute")
    return p, compute


def test_deleting_a_fabric_leaves_its_switches_and_links_in_none():
    p, fid = _fabric_plan()
    before = p.snapshot()
    named = {(t, r.id) for t in ("devices", "links") for r in p.tables[t].values() if r.fabric_id == fid}
    assert any(t == "devices" for t, _ in named) and any(t == "links" for t, _ in named)
    stack = UndoStack(p)
    stack.push(RemoveRows("fabrics", [fid]))
    assert p.snapshot() == after_delete(before, "fabrics", {fid})  # the per-row oracle
    for t, rid in named:
        assert p.tables[t][rid].fabric_id is None
    assert len(p.devices) == len(before["devices"]) and len(p.links) == len(before["links"])
    stack.undo()
    assert p.snapshot() == before


def test_a_dangling_fabric_id_is_refused_by_an_edit_and_by_open(tmp_path):
    p, _ = _fabric_plan()
    dev = next(d for d in p.devices.values() if d.fabric_id)
    with pytest.raises(ValidationError, match="missing fabric") as exc:
        p.replace("devices", dataclasses.replace(dev, fabric_id="f-404"))
    assert exc.value.field == "fabric_id"
    path = tmp_path / "p.gpuplan"
    save_project(p, path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE links SET fabric_id = 'f-404' WHERE rowid = 3")
    conn.commit()
    conn.close()
    with pytest.raises(ProjectFileError, match="refers to a missing fabric") as err:
        open_project(path)
    assert err.value.field == "fabric_id" and err.value.value == "f-404"


def test_a_format_3_file_with_a_dangling_fabric_id_opens_with_it_cleared(tmp_path):
    """Before format 4 nothing checked fabric ids: the migration clears one that names no fabric (and
    only that: every other cell, and every fabric id that names a fabric, is as it was)."""
    p, fid = _fabric_plan()
    path = tmp_path / "old.gpuplan"
    save_project(p, path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE devices SET fabric_id = 'f-gone' WHERE rowid = 2")
    conn.execute("UPDATE links SET fabric_id = 'f-gone' WHERE rowid IN (1, 5)")
    conn.execute("PRAGMA user_version=3")
    conn.commit()
    gone_dev = conn.execute("SELECT id FROM devices WHERE rowid = 2").fetchone()[0]
    gone_links = {r[0] for r in conn.execute("SELECT id FROM links WHERE rowid IN (1, 5)")}
    conn.close()
    q = open_project(path)
    expected = p.snapshot()
    expected["devices"][gone_dev] = dataclasses.replace(expected["devices"][gone_dev], fabric_id=None)
    for lid in gone_links:
        expected["links"][lid] = dataclasses.replace(expected["links"][lid], fabric_id=None)
    assert q.snapshot() == expected
    assert sum(d.fabric_id == fid for d in q.devices.values()) > 0
