"""The inspector: room for the form (at least eight field rows of a device in a 1500 × 950 window, the
figures folding away), and editing several selected rows of one table at once as one undo step, with
"(mixed)" for the fields whose values differ."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit

from gpuplanner.commands import ReplaceRows


def _visible_rows(w) -> int:
    ins = w.inspector
    vp = ins.scroll.viewport()
    n = 0
    for ed in ins.editors.values():
        wid = ed.widget
        if wid.isVisible() and vp.rect().contains(QRect(wid.mapTo(vp, QPoint(0, 0)), wid.size())):
            n += 1
    return n


def test_a_device_shows_at_least_eight_field_rows(window, qtbot):
    w = window
    w.resize(1500, 950)
    QApplication.processEvents()
    node = next(d for d in w.doc.project.devices.values() if d.role == "compute")
    w.scene.select_ids([node.id])
    QApplication.processEvents()
    assert w.inspector.targets == [("devices", node.id)]
    assert w.inspector.figures.isVisible() and "node" in w.inspector.figures.text()
    assert _visible_rows(w) >= 8
    # the figures fold away (and stay folded for the next selection), the form keeps its rows
    w.inspector.summary.click()
    assert not w.inspector.figures.isVisible()
    leaf = next(d for d in w.doc.project.devices.values() if d.role == "leaf")
    w.scene.select_ids([leaf.id])
    QApplication.processEvents()
    assert not w.inspector.figures.isVisible() and w.inspector.summary.isVisible()
    # the fold and the new form are laid out by posted layout requests: wait for them, as a user's eye would
    qtbot.waitUntil(lambda: _visible_rows(w) >= 8, timeout=2000)


def test_three_racks_cooling_set_together_as_one_undo_step(window):
    w = window
    p = w.doc.project
    # up to three racks of one model (switches sit in network racks of their own model)
    server_model = next(p.racks[d.rack_id].type_id for d in p.devices.values() if d.role == "compute")
    racks = sorted(r for r in p.racks if p.racks[r].type_id == server_model)[:3]
    assert len(racks) >= 2
    coolers = [e.id for e in p.catalog.of_kind("cooling")]
    # one rack has its own cooling first: the field is mixed
    first = dataclasses.replace(p.racks[racks[0]], cooling_id=coolers[0])
    w.doc.push(ReplaceRows("racks", [first]))
    before = {r: p.racks[r] for r in racks}
    w.scene.select_ids(racks)
    QApplication.processEvents()
    ins = w.inspector
    assert f"{len(racks)} racks selected" in ins.title.text()
    cooling = ins.multi.editors["cooling_id"].widget
    assert isinstance(cooling, QComboBox)
    assert cooling.currentIndex() == -1 and cooling.placeholderText() == "(mixed)"
    assert "name" not in ins.multi.editors and "position" not in ins.multi.editors
    rack_type = ins.multi.editors["type_id"].widget
    assert rack_type.currentIndex() >= 0  # the same rack model everywhere: shown, not mixed
    # a mixed field not edited is left alone
    budget = ins.multi.editors["power_budget_kw"]
    depth = w.doc.undo_stack.count()
    budget.changed.emit()
    assert w.doc.undo_stack.count() == depth
    # choose a cooling: all the selected racks take it, in one undo step
    k = next(i for i in range(cooling.count()) if f"({coolers[1]})" in cooling.itemText(i))
    cooling.setCurrentIndex(k)
    cooling.activated.emit(k)
    assert all(p.racks[r].cooling_id == coolers[1] for r in racks)
    assert w.doc.undo_stack.count() == depth + 1
    assert cooling.currentIndex() == k  # no longer mixed
    assert all(p.racks[r].power_budget_kw == before[r].power_budget_kw for r in racks)
    w.doc.undo_stack.undo()
    assert {r: p.racks[r] for r in racks} == before
    assert cooling.currentIndex() == -1  # mixed again


def test_two_switches_model_and_a_number_set_together(window):
    w = window
    p = w.doc.project
    leaves = sorted(d.id for d in p.devices.values() if d.role == "leaf")[:2]
    old_type = p.devices[leaves[0]].type_id
    w.scene.select_ids(leaves)
    QApplication.processEvents()
    ins = w.inspector
    assert "2 devices selected" in ins.title.text()
    model = ins.multi.editors["type_id"].widget
    other = next(
        e.id
        for e in p.catalog.of_kind("switch")
        if e.id != old_type and getattr(e, "technology", "") == "infiniband"
    )
    k = next(i for i in range(model.count()) if f"({other})" in model.itemText(i))
    depth = w.doc.undo_stack.count()
    model.setCurrentIndex(k)
    model.activated.emit(k)
    assert [p.devices[i].type_id for i in leaves] == [other, other], ins.error.text()
    assert w.doc.undo_stack.count() == depth + 1
    # a typed number goes to both too
    price = ins.multi.editors["price_usd"].widget
    assert isinstance(price, QLineEdit)
    price.setText("25000")
    price.setModified(True)
    price.editingFinished.emit()
    assert [p.devices[i].price_usd for i in leaves] == [25000.0, 25000.0]
    w.doc.undo_stack.undo()
    w.doc.undo_stack.undo()
    assert [p.devices[i].type_id for i in leaves] == [old_type, old_type]
    assert [p.devices[i].price_usd for i in leaves] == [None, None]


def test_rows_of_several_tables_are_not_edited_together(window):
    w = window
    p = w.doc.project
    ids = [sorted(p.racks)[0], sorted(p.devices)[0]]
    w.scene.select_ids(ids)
    QApplication.processEvents()
    assert "one kind" in w.inspector.title.text() and not w.inspector.multi.editors
