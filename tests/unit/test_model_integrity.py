"""The model's integrity rules, each on the case that broke a user's file (issue 13):

- a device's model change moves its links to the new model's port groups of the same kind (DGX H100 → Atlas
  800T A2: compute → param; QM9700 → Spectrum-4: ndr → osfp800) in one undo step, or is refused naming the
  links; the saved file reopens;
- a batch that fails half-way leaves the project exactly as it was;
- every numeric field has its range in ``model.bounds``, enforced for edits and for files alike;
- save refuses a project that would not reopen, writing nothing.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import typing

import pytest

from gpuplanner.commands import AddRows, Command, EditDevices, RemoveRows, SetFields, UndoStack
from gpuplanner.core.errors import PlannerError, ProjectFileError, ValidationError
from gpuplanner.model import ROW_TYPES, Device, Link, Project
from gpuplanner.model.bounds import bounds, has_explicit_bounds
from gpuplanner.model.validate import validate_project
from gpuplanner.storage import open_project, save_project
from gpuplanner.topology.presets import PRESETS


@pytest.fixture(scope="module")
def su_base() -> Project:
    preset = next(p for p in PRESETS if p.id == "ib-su-32-node")
    return dataclasses.replace(preset, options=preset.options.with_(servers=8, su_size=8)).build()


@pytest.fixture
def su(su_base) -> Project:
    q = Project(su_base.catalog)
    for table, rows in su_base.tables.items():
        if table in ("project", "site"):
            q.tables[table] = dict(rows)
        else:
            q.load_rows(table, list(rows.values()))
    return q


def _first(p: Project, role: str):
    return next(d for d in sorted(p.devices.values(), key=lambda d: d.id) if d.role == role)


def _groups_of(p: Project, device_id: str) -> set[str]:
    out = set()
    for lid in p.links_of(device_id):
        lk = p.links[lid]
        out.add(lk.a_group if lk.a_device == device_id else lk.b_group)
    return out


def test_server_model_change_moves_links_to_same_kind_ports_and_reopens(su, tmp_path):
    node = _first(su, "compute")
    assert _groups_of(su, node.id) >= {"compute"}
    n_links = len(su.links_of(node.id))
    stack = UndoStack(su)
    before = su.snapshot()
    cmd = SetFields(su, "devices", node.id, type_id="huawei-atlas-800t-a2")
    assert isinstance(cmd, EditDevices)
    stack.push(cmd)
    atlas = su.catalog.get("huawei-atlas-800t-a2")
    assert _groups_of(su, node.id) <= {pg.name for pg in atlas.port_groups}
    # the DGX's compute links (role compute, NDR) went to the Atlas's compute-role group "param"
    assert {(r.old_group, r.new_group) for r in cmd.remapped} >= {("compute", "param")}
    assert len(su.links_of(node.id)) == n_links  # no link lost
    validate_project(su)
    save_project(su, tmp_path / "a.gpuplan")
    assert open_project(tmp_path / "a.gpuplan").snapshot() == su.snapshot()
    stack.undo()
    assert su.snapshot() == before


def test_switch_model_change_ndr_to_spectrum4(su, tmp_path):
    leaf = _first(su, "leaf")
    assert _groups_of(su, leaf.id) == {"ndr", "mgmt"}
    cmd = SetFields(su, "devices", leaf.id, type_id="nvidia-spectrum-4-sn5600")
    UndoStack(su).push(cmd)
    # NDR fabric ports → the Spectrum-4's fabric-role group; the management port keeps its name
    assert _groups_of(su, leaf.id) == {"osfp800", "mgmt"}
    assert {(r.old_group, r.new_group) for r in cmd.remapped} == {("ndr", "osfp800")}
    save_project(su, tmp_path / "b.gpuplan")
    open_project(tmp_path / "b.gpuplan")


def test_change_model_then_delete_leaf_then_undo_twice_brings_every_link_back(su):
    """The sequence that used to raise inside Qt and bring the switch back without its links."""
    stack = UndoStack(su)
    start = su.snapshot()
    node = _first(su, "compute")
    stack.push(SetFields(su, "devices", node.id, type_id="huawei-atlas-800t-a2"))
    leaf = _first(su, "leaf")
    n = len(su.links_of(leaf.id))
    assert n > 0
    stack.push(RemoveRows("devices", [leaf.id]))
    stack.undo()
    assert len(su.links_of(leaf.id)) == n
    stack.undo()
    assert su.snapshot() == start


def test_a_model_of_another_kind_is_refused(su):
    store = _first(su, "storage")
    before = su.snapshot()
    with pytest.raises(ValidationError, match="must be a storage"):
        UndoStack(su).push(SetFields(su, "devices", store.id, type_id="nvidia-dgx-h100"))
    assert su.snapshot() == before


def test_no_group_of_the_role_falls_back_to_the_same_interface_type(su):
    """The L40S box has no storage-role ports; the DGX's storage links (400G QSFP112) go to its compute group,
    which is of that interface type."""
    node = _first(su, "compute")
    assert "storage" in _groups_of(su, node.id)
    n = len(su.links_of(node.id))
    cmd = SetFields(su, "devices", node.id, type_id="supermicro-sys-421ge-tnrt-l40s")
    UndoStack(su).push(cmd)
    assert ("storage", "compute") in {(r.old_group, r.new_group) for r in cmd.remapped}
    assert len(su.links_of(node.id)) == n
    validate_project(su)


def test_refused_naming_the_links_when_no_port_fits():
    """A BMC link (management, 1000BASE-T) on a device that becomes a storage system (HDR data ports only):
    nothing of that role or type → refused, the link named, nothing changed."""
    p = Project()
    AddRows(
        "devices",
        [
            Device(id="d1", name="box", type_id="nvidia-dgx-h100", role="other"),
            Device(id="d2", name="sw", type_id="nvidia-spectrum-sn2201", role="management"),
        ],
    ).apply(p)
    AddRows("links", [Link(id="l7", a_device="d1", a_group="bmc", b_device="d2", b_group="rj45")]).apply(p)
    before = p.snapshot()
    with pytest.raises(ValidationError, match="'l7'") as err:
        UndoStack(p).push(SetFields(p, "devices", "d1", type_id="ddn-ai400x2"))
    assert "bmc" in str(err.value)
    assert p.snapshot() == before


def test_model_list_roles():
    from gpuplanner.model.validate import kinds_for_role

    assert kinds_for_role("compute") == ("server",)
    assert kinds_for_role("leaf") == ("switch",)
    assert kinds_for_role("storage") == ("storage",)


# -- all-or-nothing ------------------------------------------------------------------------------------------


class _HalfWay(Command):
    """Changes a row, then fails: stands for any bug or refusal in the middle of a command."""

    text = "half way"

    def apply(self, project: Project) -> None:
        with project.batch():
            d = next(iter(project.devices.values()))
            project.replace("devices", dataclasses.replace(d, name="changed"))
            project.delete("links", next(iter(project.links)))
            raise ValidationError("refused half way")

    def revert(self, project: Project) -> None:  # pragma: no cover - never applied
        raise AssertionError


def test_a_failing_command_leaves_the_project_exactly_as_it_was(su):
    before = su.snapshot()
    index_before = {d: su.links_of(d) for d in su.devices}
    seen = []
    su.changed.connect(seen.append)
    stack = UndoStack(su)
    with pytest.raises(ValidationError):
        stack.push(_HalfWay())
    assert su.snapshot() == before
    assert {d: su.links_of(d) for d in su.devices} == index_before  # the link index too
    assert seen == []  # nothing changed: no ChangeSet
    assert stack.done == []


# -- ranges ----------------------------------------------------------------------------------------------------


def _numeric_fields():
    for table, cls in ROW_TYPES.items():
        for name, hint in typing.get_type_hints(cls).items():
            args = set(typing.get_args(hint)) or {hint}
            if args & {int, float} and bool not in args:
                yield table, name


def test_every_numeric_field_has_an_explicit_range():
    missing = [f"{t}.{n}" for t, n in _numeric_fields() if not has_explicit_bounds(t, n)]
    assert missing == [], "give these fields a range in gpuplanner/model/bounds.py: " + ", ".join(missing)


@pytest.mark.parametrize(
    ("table", "name", "value"),
    [
        ("links", "multiplicity", 10**9),
        ("devices", "u_position", 40000),
        ("racks", "floor_x_m", 1e308),
        ("site", "tco_years", 10**9),
        ("site", "electricity_usd_per_kwh", float("nan")),
        ("devices", "price_usd", -1.0),
    ],
)
def test_values_that_hung_or_overflowed_are_refused_naming_the_field(su, table, name, value):
    rid = next(iter(su.tables[table]))
    before = su.snapshot()
    with pytest.raises(ValidationError) as err:
        UndoStack(su).push(SetFields(su, table, rid, **{name: value}))
    assert err.value.field == name
    assert su.snapshot() == before


def test_u_position_must_be_inside_its_rack(su):
    d = next(d for d in su.devices.values() if d.rack_id)
    rack_u = su.catalog.get(su.racks[d.rack_id].type_id).ru
    UndoStack(su).push(SetFields(su, "devices", d.id, u_position=rack_u))
    with pytest.raises(ValidationError, match="above the top"):
        SetFields(su, "devices", d.id, u_position=rack_u + 1).apply(su)


def test_bounds_apply_to_files_too(su, tmp_path):
    path = tmp_path / "c.gpuplan"
    save_project(su, path)
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE links SET multiplicity = 1000000000")
    con.close()
    with pytest.raises(ProjectFileError, match="multiplicity"):
        open_project(path)


def test_the_range_of_a_field_is_what_validation_enforces():
    lo, hi = bounds("site", "tco_years", int)
    p = Project()
    for v, ok in ((lo, True), (hi, True), (lo - 1, False), (hi + 1, False)):
        try:
            SetFields(p, "site", "site", tco_years=v).apply(p)
            accepted = True
        except PlannerError:
            accepted = False
        assert accepted == ok, v


# -- save ------------------------------------------------------------------------------------------------------


def test_save_refuses_a_project_that_would_not_reopen_and_writes_nothing(su, tmp_path):
    path = tmp_path / "d.gpuplan"
    save_project(su, path)
    good = path.read_bytes()
    node = _first(su, "compute")
    # bypass the commands (as a bug elsewhere would): the links now name ports the model lacks
    su.tables["devices"][node.id] = dataclasses.replace(node, type_id="huawei-atlas-800t-a2")
    with pytest.raises(ProjectFileError, match="would not reopen") as err:
        save_project(su, path)
    assert "port group" in str(err.value)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.gpuplan"]  # no temp file left either


def test_generators_check_feasibility_before_building():
    """`generate --servers 1000000000` used to try to allocate tens of GiB; now it is refused at once."""
    import time

    from gpuplanner.core.errors import GenerationError
    from gpuplanner.model.bounds import MAX_SERVERS
    from gpuplanner.topology import GenerateOptions
    from gpuplanner.topology.generators import generate

    t = time.perf_counter()
    with pytest.raises(GenerationError, match="servers"):
        generate(Project(), GenerateOptions(servers=10**9))
    with pytest.raises(GenerationError):
        generate(Project(), GenerateOptions(servers=MAX_SERVERS + 1))
    assert time.perf_counter() - t < 5.0
