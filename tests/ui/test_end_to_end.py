"""One customer session with real input only: a rack dropped from the palette onto empty floor, a server
dropped into it, a link drawn by dragging between port pads, a field typed into the inspector, Ctrl+Z,
Ctrl+S (the save dialog answered programmatically), and the file reopened in a fresh window holds exactly
the tables and rows the window held when it saved — checked twice: against the in-memory project, and
against the file's SQLite tables read with the standard library (an independent reader)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit

from tests.ui.conftest import drag, drop_from_palette, focus_on, view_pos
from tests.ui.test_window_flow import visible_leaf

CTRL = Qt.KeyboardModifier.ControlModifier


def _key(w, key, mods=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(w.view.viewport(), key, mods)
    QApplication.processEvents()


def _click(w, scene_pt: QPointF) -> None:
    QTest.mouseClick(
        w.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view_pos(w, scene_pt)
    )
    QApplication.processEvents()


def _file_rows(path: Path) -> dict[str, set[str]]:
    """Row ids per table, read straight from the SQLite file (not through gpuplanner.storage)."""
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute("select name from sqlite_master where type='table'")]
        out: dict[str, set[str]] = {}
        for t in tables:
            cols = [r[1] for r in con.execute(f'pragma table_info("{t}")')]
            if "id" in cols:
                out[t] = {str(r[0]) for r in con.execute(f'select id from "{t}"')}
        return out
    finally:
        con.close()


def test_drop_link_edit_undo_save_reopen_gives_the_same_file(make_window, tmp_path: Path, monkeypatch):
    from tests.ui.conftest import small_project

    w = make_window(small_project())
    p = w.doc.project
    w.activateWindow()
    w.view.setFocus()
    # 1. a rack dropped on empty floor to the right of everything, then a server dropped into it
    rack_type = next(e.id for e in p.catalog.of_kind("rack") if e.id in {r.type_id for r in p.racks.values()})
    right = max(it.sceneBoundingRect().right() for it in w.scene.rack_items.values())
    top = min(it.sceneBoundingRect().top() for it in w.scene.rack_items.values())
    spot = QPointF(right + 400, top + 200)
    focus_on(w, spot, scale=0.5)
    racks_before = set(p.racks)
    drop_from_palette(w, rack_type, spot)
    new_racks = set(p.racks) - racks_before
    assert len(new_racks) == 1, "a rack dropped on empty floor adds one rack"
    rack_id = new_racks.pop()
    rack_item = w.scene.rack_items[rack_id]
    centre = rack_item.sceneBoundingRect().center()
    focus_on(w, centre, scale=0.5)
    drop_from_palette(w, "nvidia-dgx-h100", centre)
    servers = p.devices_in_rack(rack_id)
    assert len(servers) == 1 and servers[0].type_id == "nvidia-dgx-h100"
    server = servers[0]
    # 2. a link drawn with the link tool (key L): a drag from the server onto a leaf, zoomed out so both show
    leaf = visible_leaf(w)
    a = w.scene.device_items[server.id].sceneBoundingRect().center()
    b = w.scene.device_items[leaf.id].pad_scene_pos("ndr")  # a point of the leaf no other box covers
    links_before = set(p.links)
    mid = QPointF((a.x() + b.x()) / 2, (a.y() + b.y()) / 2)
    scale = 0.5
    while True:
        w.view.set_zoom(scale, mid)
        QApplication.processEvents()
        if all(w.view.viewport().rect().contains(view_pos(w, q)) for q in (a, b)):
            break
        scale *= 0.8
    assert scale > 0.1, "both ends are on screen above the overview threshold"
    assert w.view._device_at(view_pos(w, b)) is w.scene.device_items[leaf.id]  # noqa: SLF001
    w.view.setFocus()
    _key(w, Qt.Key.Key_L)
    assert w.view.link_tool
    drag(w, a, b)
    _key(w, Qt.Key.Key_L)
    assert not w.view.link_tool
    new_links = set(p.links) - links_before
    assert len(new_links) == 1
    link = p.links[new_links.pop()]
    assert {link.a_device, link.b_device} == {server.id, leaf.id}
    # 3. the server clicked on the canvas, its name typed into the inspector
    focus_on(w, w.scene.device_items[server.id].sceneBoundingRect().center(), scale=1.0)
    _click(w, w.scene.device_items[server.id].sceneBoundingRect().center())
    assert w.inspector.targets == [("devices", server.id)]
    name_edit = w.inspector.editors[("devices", server.id, "name")].widget
    assert isinstance(name_edit, QLineEdit)
    w.inspector.scroll.ensureWidgetVisible(name_edit)
    QTest.mouseClick(name_edit, Qt.MouseButton.LeftButton)
    name_edit.selectAll()
    QTest.keyClicks(name_edit, "gpu-node-new")
    QTest.keyClick(name_edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert p.devices[server.id].name == "gpu-node-new"
    state_before_edit_name = server.name
    # 4. Ctrl+Z on the canvas undoes the typed name (and only that)
    w.view.setFocus()
    n_links, n_devices = len(p.links), len(p.devices)
    _key(w, Qt.Key.Key_Z, CTRL)
    assert p.devices[server.id].name == state_before_edit_name
    assert (len(p.links), len(p.devices)) == (n_links, n_devices)
    # 5. Ctrl+S: an untitled project asks where to save; the dialog is answered programmatically
    target = tmp_path / "session.gpuplan"
    asked = []
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: asked.append(a) or (str(target.with_suffix("")), "")
    )
    saved = p.snapshot()
    _key(w, Qt.Key.Key_S, CTRL)
    assert len(asked) == 1 and target.exists(), "Ctrl+S saved (with the .gpuplan suffix added)"
    assert not w.is_modified()
    # 6. reopened in a fresh window: the same tables and rows
    w2 = make_window()
    assert w2.open_file(target)
    reopened = w2.doc.project.snapshot()
    assert set(reopened) == set(saved)
    for table in saved:
        assert reopened[table] == saved[table], f"table {table} differs after save and reopen"
    assert server.id in reopened["devices"] and reopened["devices"][server.id].rack_id == rack_id
    assert link.id in reopened["links"]
    # the file itself, read without gpuplanner: every table's row ids are the window's
    on_disk = _file_rows(target)
    for table, rows in saved.items():
        if table in on_disk:
            assert on_disk[table] == set(rows), f"table {table} in the file"
    assert {"racks", "devices", "links"} <= set(on_disk)
