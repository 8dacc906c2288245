"""Undo/redo of every model operation restores the exact previous state; one command → one ChangeSet."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuplanner.commands import AddRows, MoveDevices, RemoveRows, SetFields, UndoStack
from gpuplanner.core.errors import ValidationError
from gpuplanner.model import Device, Project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.strategies import projects


def _ops(p: Project, data) -> list:
    """A random applicable command on the current state."""
    choice = data.draw(st.sampled_from(["add", "remove_dev", "remove_rack", "move", "set", "rack"]))
    devs = list(p.devices)
    if choice == "add" or not devs:
        return AddRows("devices", [Device(id=p.new_id("devices"), name="new", type_id="nvidia-dgx-h100")])
    if choice == "remove_dev":
        return RemoveRows(
            "devices", data.draw(st.lists(st.sampled_from(devs), min_size=1, max_size=3, unique=True))
        )
    if choice == "remove_rack" and p.racks:
        return RemoveRows("racks", [data.draw(st.sampled_from(list(p.racks)))])
    if choice == "move":
        d = data.draw(st.sampled_from(devs))
        return MoveDevices(p, {d: (data.draw(st.floats(-500, 500)), 3.0)})
    if choice == "rack" and p.racks:
        return SetFields(
            p, "devices", data.draw(st.sampled_from(devs)), rack_id=data.draw(st.sampled_from(list(p.racks)))
        )
    return SetFields(p, "devices", data.draw(st.sampled_from(devs)), name=data.draw(st.text(max_size=5)))


@settings(max_examples=60, deadline=None)
@given(project=projects(), data=st.data())
def test_undo_redo_restores_exact_states(project, data):
    stack = UndoStack(project)
    states = [project.snapshot()]
    for _ in range(data.draw(st.integers(1, 6))):
        stack.push(_ops(project, data))
        if stack.done and len(states) > len(stack.done):  # merged move: same step
            states[-1] = project.snapshot()
        else:
            states.append(project.snapshot())
    for expected in reversed(states[:-1]):
        stack.undo()
        assert project.snapshot() == expected
    for expected in states[1:]:
        stack.redo()
        assert project.snapshot() == expected


def test_one_command_emits_one_changeset_naming_what_changed():
    p = Project()
    generate_into(p, GenerateOptions(servers=4, template="single-switch"))
    seen = []
    p.changed.connect(seen.append)
    server = next(d for d in p.devices.values() if d.role == "compute")
    UndoStack(p).push(RemoveRows("devices", [server.id]))
    assert len(seen) == 1
    cs = seen[0]
    assert cs.tables["devices"].removed == {server.id}
    assert len(cs.tables["links"].removed) == 1  # its link went with it


def test_drag_is_one_undo_step():
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    d = next(iter(p.devices))
    x0 = p.devices[d].x
    stack = UndoStack(p)
    for i in range(10):
        stack.push(MoveDevices(p, {d: (x0 + i, 0.0)}))
    assert len(stack.done) == 1
    stack.undo()
    assert p.devices[d].x == x0


def test_bad_edit_changes_nothing():
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    before = p.snapshot()
    link = next(iter(p.links.values()))
    with pytest.raises(ValidationError, match="multiplicity"):
        UndoStack(p).push(SetFields(p, "links", link.id, multiplicity=0))
    with pytest.raises(ValidationError, match="port group"):
        UndoStack(p).push(SetFields(p, "links", link.id, a_group="nope"))
    bad_rows = [dataclasses.replace(next(iter(p.devices.values())), id="dX", rack_id="missing")]
    with pytest.raises(ValidationError, match="missing rack"):
        UndoStack(p).push(AddRows("devices", bad_rows))
    assert p.snapshot() == before
