"""The links table kept a column at a time (model/link_table.py) against the plain dict of frozen rows it
replaced. Oracles: a ``dict`` put through the same operations (order, contents, look-ups), the rows'
own attributes (every column, every field), the row-by-row open (``FAST_OPEN = False``) on the shipped
examples and random plans, and a hand-built device → links index.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.selection import select
from gpuplanner.model import Link, Project
from gpuplanner.model.link_table import LINK_FIELDS, LinkColumns, LinkTable
from gpuplanner.storage import open_project, projectfile, save_project
from gpuplanner.topology import GenerateOptions, generate_into

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.gpuplan"))


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same type (NaN equal to NaN)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def assert_columns_are_the_rows(cols: LinkColumns, rows: list[Link]) -> None:
    """Every column holds, position by position, the attribute of the row at that position."""
    assert len(cols) == len(rows)
    for name in LINK_FIELDS:
        col = getattr(cols, name)
        want = [getattr(r, name) for r in rows]
        if name == "length_m":
            assert col.dtype == np.float64
            assert [None if math.isnan(v) else v for v in col.tolist()] == want
        elif name in ("multiplicity", "speed_gbps"):
            assert col.dtype == (np.int64 if name == "multiplicity" else np.float64)
            assert col.tolist() == want
        else:
            assert isinstance(col, tuple) and list(col) == want
        assert all(_same(cols.value(name, i), w) for i, w in enumerate(want))
    if rows:
        with pytest.raises(ValueError):
            cols.speed_gbps[0] = 1.0  # read-only


def _index(rows: list[Link]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for lk in rows:
        out.setdefault(lk.a_device, set()).add(lk.id)
        out.setdefault(lk.b_device, set()).add(lk.id)
    return out


_LINK = st.builds(
    Link,
    id=st.sampled_from([f"l{i}" for i in range(12)]),
    a_device=st.sampled_from(["d1", "d2", "d3"]),
    a_group=st.sampled_from(["p0", "p1"]),
    b_device=st.sampled_from(["d4", "d5"]),
    b_group=st.sampled_from(["p0", "p1"]),
    multiplicity=st.integers(1, 8),
    speed_gbps=st.sampled_from([0.0, 100.0, 400.0]),
    medium=st.sampled_from(["", "dac", "aoc"]),
    cable_id=st.sampled_from(["", "c1"]),
    length_m=st.one_of(st.none(), st.floats(0, 100)),
    fabric_id=st.sampled_from([None, "f1"]),
    phase_id=st.sampled_from(["", "ph1"]),
)


class LinkTableMachine(RuleBasedStateMachine):
    """Random inserts, replacements, deletes, bulk loads and copies: the table stays equal to a dict put
    through the same operations (and a copy taken on the way stays equal to the dict it was)."""

    def __init__(self) -> None:
        super().__init__()
        self.table = LinkTable()
        self.oracle: dict[str, Link] = {}
        self.copies: list[tuple[LinkTable, dict[str, Link]]] = []

    @rule(row=_LINK)
    def put(self, row: Link) -> None:
        self.table[row.id] = row
        self.oracle[row.id] = row

    @precondition(lambda self: self.oracle)
    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        rid = data.draw(st.sampled_from(sorted(self.oracle)))
        assert self.table.pop(rid) == self.oracle.pop(rid)

    @rule(rows=st.lists(_LINK, max_size=5, unique_by=lambda r: r.id), by_column=st.booleans())
    def bulk(self, rows: list[Link], by_column: bool) -> None:
        fresh = [r for r in rows if r.id not in self.oracle]
        if by_column:
            self.table.extend_columns({n: [getattr(r, n) for r in fresh] for n in LINK_FIELDS})
        else:
            self.table.extend_rows(fresh, [r.id for r in fresh])
        self.oracle.update((r.id, r) for r in fresh)

    @rule()
    def copy(self) -> None:
        self.copies.append((self.table.copy(), dict(self.oracle)))

    @rule()
    def read_columns(self) -> None:
        self.table.columns()  # cached: a later change must not leave it stale

    @invariant()
    def same_as_the_dict(self) -> None:
        for table, oracle in [(self.table, self.oracle), *self.copies]:
            assert list(table) == list(oracle)
            assert list(table.items()) == list(oracle.items())
            assert len(table) == len(oracle)
            for rid in ("l0", "l5", "l11"):
                assert (rid in table) == (rid in oracle)
                assert table.get(rid) == oracle.get(rid)
            assert_columns_are_the_rows(table.columns(), list(oracle.values()))
            assert table.device_index() == _index(list(oracle.values()))
            assert table == oracle


TestLinkTableMachine = LinkTableMachine.TestCase
TestLinkTableMachine.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)


def test_many_deletes_compact_and_keep_dict_order():
    table, oracle = LinkTable(), {}
    rows = [Link(f"l{i}", "d1", "p", "d2", "p", multiplicity=1 + i % 3) for i in range(300)]
    for r in rows:
        table[r.id], oracle[r.id] = r, r
    first = table["l7"]
    for r in rows[::3] + rows[1::3]:
        del table[r.id], oracle[r.id]
    table["l0"] = oracle["l0"] = rows[0]  # re-inserted: at the end, as a dict puts it
    assert list(table.items()) == list(oracle.items())
    assert table._dead < 64  # noqa: SLF001 (compacted once half were dead)
    assert table["l8"] is table["l8"] and first not in table.values()
    with pytest.raises(KeyError):
        del table["l7"]
    with pytest.raises(ValueError):
        table["x"] = rows[2]  # a row goes under its own id


def _plan(template: str, servers: int, management: bool) -> Project:
    p = Project()
    generate_into(
        p,
        GenerateOptions(template=template, servers=servers, rack_budget_kw=42, management_fabric=management),
    )
    return p


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    template=st.sampled_from(["leaf-spine", "rail-leaf-spine", "fat-tree-3tier"]),
    servers=st.integers(4, 48),
    management=st.booleans(),
)
def test_columns_are_the_rows_and_open_fills_them_as_the_rows_read_one_by_one(
    tmp_path_factory, template, servers, management
):
    p = _plan(template, servers, management)
    assert_columns_are_the_rows(p.link_columns(), list(p.links.values()))
    path = tmp_path_factory.mktemp("plan") / "p.gpuplan"
    save_project(p, path)
    fast = open_project(path)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(projectfile, "FAST_OPEN", False)
        slow = open_project(path)
    assert isinstance(fast.links, LinkTable) and isinstance(slow.links, LinkTable)
    assert list(fast.links.items()) == list(slow.links.items()) == list(p.links.items())
    assert_columns_are_the_rows(fast.link_columns(), list(slow.links.values()))
    assert fast.links_by_device() == _index(list(p.links.values()))


@pytest.mark.parametrize("path", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_example_opens_the_same_by_columns_and_row_by_row(path):
    fast = open_project(path)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(projectfile, "FAST_OPEN", False)
        slow = open_project(path)
    for table, rows in slow.tables.items():
        got = list(fast.tables[table].items())
        assert got == list(rows.items()), table
        assert [tuple(map(type, dataclasses.astuple(r))) for _, r in got] == [
            tuple(map(type, dataclasses.astuple(r))) for r in rows.values()
        ]
    assert_columns_are_the_rows(fast.link_columns(), list(slow.links.values()))
    assert fast.links_by_device() == slow.links_by_device()


def test_undo_and_a_failed_batch_restore_the_columns_and_a_snapshot_keeps_its_own():
    from gpuplanner.commands import RemoveRows, SetFields, UndoStack
    from gpuplanner.core.errors import ValidationError

    p = _plan("leaf-spine", 16, False)
    before = list(p.links.items())
    cols0 = p.link_columns()
    snap = p.links.copy()
    stack = UndoStack(p)
    lid = before[3][0]
    stack.push(SetFields(p, "links", lid, multiplicity=4))
    assert p.link_columns() is not cols0 and p.link_columns().multiplicity[3] == 4
    stack.push(RemoveRows("links", [before[0][0], before[5][0]]))
    assert len(p.link_columns()) == len(before) - 2
    assert list(snap.items()) == before and snap.columns() is cols0  # the copy did not move
    stack.undo()
    stack.undo()
    assert sorted(p.links.items()) == sorted(before)
    assert_columns_are_the_rows(p.link_columns(), list(p.links.values()))
    state = list(p.links.items())
    with pytest.raises(ValidationError), p.batch():
        p.replace("links", dataclasses.replace(p.links[lid], multiplicity=2))
        p.delete("links", before[1][0])
        raise ValidationError("stop")
    assert sorted(p.links.items()) == sorted(state)
    assert_columns_are_the_rows(p.link_columns(), list(p.links.values()))
    assert p.links_by_device() == _index(list(p.links.values()))


def test_compile_reads_the_columns_as_the_rows_would_give_them():
    p = _plan("rail-leaf-spine", 32, True)
    c = compile_project(p)
    rows = list(p.links.values())
    d_row = c.devices.row
    assert c.links.ids == [r.id for r in rows]
    assert c.links.a.tolist() == [d_row[r.a_device] for r in rows]
    assert c.links.b.tolist() == [d_row[r.b_device] for r in rows]
    assert c.links.a_group == [r.a_group for r in rows] and c.links.cable_ids == [r.cable_id for r in rows]
    assert c.links.multiplicity.tolist() == [r.multiplicity for r in rows]
    given = [r.length_m is not None for r in rows]
    assert c.links.length_given.tolist() == given
    # a scenario's column override and a phase filter read the same columns
    sel = select(p)
    assert sel.links == rows
