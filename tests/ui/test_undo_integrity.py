"""Undo that cannot desynchronise, and the inspector's model list, in the real window (issue 13):

- change a server's model in the inspector (its list offers only servers), save, reopen: the file opens;
- then delete a leaf switch and press Undo twice through the menu action: every link comes back;
- an undo whose revert fails leaves the model and the stack where they were and says why — through the menu
  action and through the stack itself (as a QUndoView would move it);
- the inspector's number editors take their limits from the model's ranges.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import QApplication, QComboBox, QSpinBox

from gpuplanner.commands import Command, RemoveRows
from gpuplanner.core.errors import ValidationError
from gpuplanner.model import Project
from gpuplanner.model.bounds import bounds
from gpuplanner.storage import open_project


def _select(w, ids):
    w.scene.select_ids(ids)
    QApplication.processEvents()


def _choose(combo: QComboBox, type_id: str) -> None:
    k = next(i for i in range(combo.count()) if f"({type_id})" in combo.itemText(i))
    combo.setCurrentIndex(k)
    combo.activated.emit(k)


def test_model_list_holds_only_the_role_and_a_change_saves_reopens_and_undoes(window, tmp_path):
    w = window
    p = w.doc.project
    node = next(d for d in p.devices.values() if d.role == "compute")
    _select(w, [node.id])
    combo = w.inspector.editors[("devices", node.id, "type_id")].widget
    listed = {combo.itemText(i).rsplit("(", 1)[1].rstrip(")") for i in range(combo.count())}
    servers = {e.id for e in p.catalog.of_kind("server")}
    assert listed == servers  # no switch, no storage system offered for a compute node
    start = p.snapshot()
    n_links = len(p.links)
    _choose(combo, "huawei-atlas-800t-a2")
    assert p.devices[node.id].type_id == "huawei-atlas-800t-a2"
    assert w.inspector.error.text() == ""
    note = w.inspector.note.text()
    assert "compute → param" in note  # says which links moved
    assert len(p.links) == n_links
    path = tmp_path / "changed.gpuplan"
    w.doc.save(path)
    assert open_project(path).snapshot() == p.snapshot()

    leaf = next(d for d in p.devices.values() if d.role == "leaf")
    leaf_links = p.links_of(leaf.id)
    w.doc.push(RemoveRows("devices", [leaf.id]))
    assert leaf.id not in p.devices
    failures = []
    w.doc.editFailed.connect(failures.append)
    w.actions["undo"].trigger()
    assert p.links_of(leaf.id) == leaf_links  # the switch is back with every link
    w.actions["undo"].trigger()
    assert failures == []
    assert p.snapshot() == start
    assert w.doc.undo_stack.index() == 0


class _BrokenRevert(Command):
    """A command whose revert changes something and then fails (a bug, or a state it cannot undo from)."""

    text = "broken"

    def apply(self, project: Project) -> None:
        with project.batch():
            d = next(iter(sorted(project.devices)))
            project.replace("devices", dataclasses.replace(project.devices[d], name="renamed"))

    def revert(self, project: Project) -> None:
        with project.batch():
            project.delete("links", next(iter(sorted(project.links))))
            raise ValidationError("cannot go back")


def test_failed_undo_leaves_model_and_stack_and_says_why(window):
    w = window
    p = w.doc.project
    w.doc.push(_BrokenRevert())
    after = p.snapshot()
    index = w.doc.undo_stack.index()
    failures = []
    w.doc.editFailed.connect(failures.append)
    w.actions["undo"].trigger()
    assert p.snapshot() == after  # the half-done revert was rolled back
    assert w.doc.undo_stack.index() == index  # the stack did not move
    assert len(failures) == 1 and "broken" in failures[0] and "cannot go back" in failures[0]
    assert "cannot go back" in w.statusBar().currentMessage()


def test_failed_undo_through_the_stack_itself_is_put_back(window, qtbot):
    w = window
    p = w.doc.project
    w.doc.push(_BrokenRevert())
    after = p.snapshot()
    index = w.doc.undo_stack.index()
    failures = []
    w.doc.editFailed.connect(failures.append)
    w.doc.undo_stack.undo()  # as a QUndoView click would: the stack moves first
    qtbot.waitUntil(lambda: w.doc.undo_stack.index() == index, timeout=2000)
    assert p.snapshot() == after
    assert len(failures) == 1
    # and the command is still undoable state-wise: a redo is not offered, the step is still "done"
    assert not w.doc.undo_stack.canRedo()


def test_undo_action_moves_the_stack_once(window):
    """The menu action calls Document.undo only (the stack's own slot is disconnected): one step per press."""
    w = window
    p = w.doc.project
    ids = sorted(p.devices)[:2]
    for i in ids:
        w.doc.push(RemoveRows("devices", [i]))
    assert w.doc.undo_stack.index() == 2
    w.actions["undo"].trigger()
    assert w.doc.undo_stack.index() == 1
    assert ids[1] in p.devices and ids[0] not in p.devices
    w.actions["redo"].trigger()
    assert w.doc.undo_stack.index() == 2 and ids[1] not in p.devices


def test_number_editors_take_the_model_ranges(window):
    w = window
    _select(w, [])  # project and site
    spin = w.inspector.editors[("site", "site", "tco_years")].widget
    assert isinstance(spin, QSpinBox)
    assert (spin.minimum(), spin.maximum()) == bounds("site", "tco_years", int)
    link = next(iter(w.doc.project.links))
    _select(w, [link])
    mult = w.inspector.editors[("links", link, "multiplicity")].widget
    assert mult.maximum() == bounds("links", "multiplicity", int)[1]


def test_multi_selection_model_list_holds_what_every_role_can_take(window):
    w = window
    p = w.doc.project
    leaves = sorted(d.id for d in p.devices.values() if d.role == "leaf")[:2]
    _select(w, leaves)
    combo = w.inspector.multi.editors["type_id"].widget
    listed = {combo.itemText(i).rsplit("(", 1)[1].rstrip(")") for i in range(combo.count())}
    assert listed == {e.id for e in p.catalog.of_kind("switch")}
    node = next(d.id for d in p.devices.values() if d.role == "compute")
    _select(w, [leaves[0], node])
    combo = w.inspector.multi.editors["type_id"].widget
    listed = {combo.itemText(i) for i in range(combo.count())}
    # no model is both a switch and a server: only the first row's current value (shown as its id) is left
    assert len(listed) == 1 and listed <= {p.devices[leaves[0]].type_id, p.devices[node].type_id}
