"""Semantic zoom and layout through real input: scalable units collapse into blocks (keys through the
shortcut system) whose figures match a direct count over the model and the engine's results, expand on a
double-click on the viewport; Arrange puts switches in tiers above the racks as one undo step; the minimap
moves the view where it is clicked."""

from __future__ import annotations

import dataclasses

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gpuplanner.commands import AddRows, ReplaceRows
from gpuplanner.model import Project, Workload
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.ui.canvas.geometry import RACK_HEADER_H, rack_frame


def two_su_project() -> Project:
    """Eight DGX H100 in two scalable units of four (leaves in their SU, spines outside), with a job."""
    p = Project()
    generate(
        p, GenerateOptions(template="rail-leaf-spine", servers=8, su_size=4, rack_budget_kw=80)
    ).to_command("g").apply(p)
    wl = Workload(
        id=p.new_id("workloads"), name="Llama 3 8B", model_id="llama3-8b", tp=8, pp=1, dp=8, global_batch=64
    )
    AddRows("workloads", [wl]).apply(p)
    return p


def _focus(w, qtbot):
    # a window shortcut reaches its action only while the window is active: wait for that, not just for
    # some focus widget (under load the activation arrives late and the key press found no receiver)
    w.activateWindow()
    w.raise_()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=10000)
    w.view.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=10000)


def _key(w, key, mods):
    QTest.keyClick(w.view.viewport(), key, mods)
    QApplication.processEvents()


CTRL, ALT, SHIFT = (
    Qt.KeyboardModifier.ControlModifier,
    Qt.KeyboardModifier.AltModifier,
    Qt.KeyboardModifier.ShiftModifier,
)


def test_collapse_all_sus_and_expand_one_by_double_click(make_window, qtbot):
    w = make_window(two_su_project())
    p, sc = w.doc.project, w.scene
    w.view.zoom_to_fit()
    _focus(w, qtbot)
    _key(w, Qt.Key.Key_G, CTRL | ALT)  # View ▸ Collapse all scalable units
    qtbot.waitUntil(lambda: sorted(sc.collapsed) == ["su:su1", "su:su2"], timeout=5000)
    su1 = {d.id for d in p.devices.values() if d.group == "su1"}
    # a collapsed group's devices have no items at all (they are made again when it expands)
    assert su1 and not su1 & set(sc.device_items)
    spines = [d.id for d in p.devices.values() if d.role == "spine"]
    assert spines and all(sc.device_items[i].isVisible() for i in spines)
    # Links inside an SU are gone from the layer; links leaving it start on the block's edge.
    layer = sc.layer
    block = sc.blocks["su:su1"].boundingRect().adjusted(2, 2, -2, -2)
    for lid, lk in p.links.items():
        k = layer.index[lid]
        ga, gb = p.devices[lk.a_device].group, p.devices[lk.b_device].group
        inside = ga == gb and ga in ("su1", "su2")  # both ends in one collapsed SU
        assert bool(layer.group_off[k]) == inside
        if (lk.a_device in su1) != (lk.b_device in su1):
            x, y = layer.xy[k, :2] if lk.a_device in su1 else layer.xy[k, 2:]
            assert block.left() <= x <= block.right() and y in (
                block.top(),
                block.bottom(),
                block.center().y(),
            )
    # The block's figures, counted directly from the model and the engine's results.
    res = w.doc.results
    gpus = sum(getattr(p.catalog.entries[p.devices[i].type_id], "gpu_count", 0) or 0 for i in su1)
    kw = sum(res.power.device_load_w[res.compiled.devices.row[i]] for i in su1) / 1000
    up = max(
        res.link_util[res.compiled.links.row[lid]]
        for lid, lk in p.links.items()
        if (lk.a_device in su1) != (lk.b_device in su1)
    )
    lines = sc.blocks["su:su1"].lines
    assert lines[0] == "Group su1"
    assert f"{gpus} GPUs" in lines and gpus == 32
    assert f"{kw:,.1f} kW at load" in lines
    assert f"busiest uplink {up * 100:.{1 if up < 0.1 else 0}f} %" in lines
    # Double-click on the block (real mouse events on the viewport) expands that SU only.
    pos = w.view.mapFromScene(sc.blocks["su:su1"].boundingRect().center())
    QTest.mouseDClick(w.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    QApplication.processEvents()
    assert sc.collapsed == ["su:su2"]
    assert all(sc.device_items[i].isVisible() for i in su1)
    assert not layer.group_off[[layer.index[i] for i, lk in p.links.items() if lk.a_device in su1]].any()
    _key(w, Qt.Key.Key_G, CTRL | SHIFT)  # Expand all groups
    assert sc.collapsed == [] and not sc.blocks and not layer.group_off.any()


def test_collapse_the_selections_group_and_the_findings_count(make_window, qtbot):
    w = make_window(two_su_project())
    p, sc = w.doc.project, w.scene
    node = next(d for d in p.devices.values() if d.group == "su2" and d.role == "compute")
    sc.select_ids([node.id])
    _focus(w, qtbot)
    _key(w, Qt.Key.Key_G, CTRL)
    assert sc.collapsed == ["su:su2"]
    members = {d.id for d in p.devices.values() if d.group == "su2"}
    members |= {r for r in p.racks if {d.group for d in p.devices_in_rack(r)} == {"su2"}}
    members |= {i for i, lk in p.links.items() if lk.a_device in members and lk.b_device in members}
    n = sum(1 for f in w.doc.results.findings if set(f.items) & members)
    word = "finding" if n == 1 else "findings"
    assert f"{n} {word}" in sc.blocks["su:su2"].lines


def test_arrange_puts_switches_in_tiers_above_the_racks_in_one_undo_step(make_window, qtbot):
    w = make_window(two_su_project())
    p = w.doc.project
    rng = np.random.default_rng(7)
    # A hand-drawn mess: every switch and rack somewhere random.
    messy_devs = [
        dataclasses.replace(d, x=float(rng.uniform(-3000, 3000)), y=float(rng.uniform(-2000, 2000)))
        for d in p.devices.values()
        if d.role != "compute"
    ]
    w.doc.push(ReplaceRows("devices", messy_devs, text="mess"))
    before = {i: (d.x, d.y) for i, d in p.devices.items()} | {i: (r.x, r.y) for i, r in p.racks.items()}
    depth = w.doc.undo_stack.count()
    _focus(w, qtbot)
    _key(w, Qt.Key.Key_R, CTRL | SHIFT)
    assert w.doc.undo_stack.count() == depth + 1, "Arrange is one undo step"
    spines = [d for d in p.devices.values() if d.role == "spine"]
    leaves = [d for d in p.devices.values() if d.role == "leaf"]
    rack_top = min(r.y - RACK_HEADER_H for r in p.racks.values())
    assert max(d.y for d in spines) < min(d.y for d in leaves)
    assert max(d.y + 28 for d in leaves) < rack_top
    frames = [rack_frame(p, r) for r in p.racks.values()]
    for i, (x1, y1, w1, h1) in enumerate(frames):  # racks never overlap
        for x2, y2, w2, h2 in frames[i + 1 :]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1
    # servers stay in their racks' frames, in the same U slots
    for d in p.devices.values():
        if d.role == "compute":
            x, y, fw, fh = rack_frame(p, p.racks[d.rack_id])
            assert x <= d.x + 50 <= x + fw and y <= d.y <= y + fh
    _key(w, Qt.Key.Key_Z, CTRL)
    after_undo = {i: (d.x, d.y) for i, d in p.devices.items()} | {i: (r.x, r.y) for i, r in p.racks.items()}
    assert after_undo == before


def test_minimap_click_and_drag_move_the_view(make_window, qtbot):
    w = make_window(two_su_project())
    view, mm = w.view, w.view.minimap
    view.set_zoom(0.5)
    qtbot.waitUntil(lambda: mm._image is not None and not mm._world.isEmpty(), timeout=3000)
    target = QPoint(30, mm.height() - 30)
    QTest.mouseClick(mm, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, target)
    centre = view.mapToScene(view.viewport().rect().center())
    want = mm.scene_point(QPointF(target))
    tol = 4 / view.scale_now()
    assert abs(centre.x() - want.x()) < tol and abs(centre.y() - want.y()) < tol
    # a drag across the minimap follows the mouse
    QTest.mousePress(mm, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(40, 40))
    QTest.mouseMove(mm, QPoint(mm.width() - 40, 60))
    QTest.mouseRelease(
        mm, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(mm.width() - 40, 60)
    )
    centre = view.mapToScene(view.viewport().rect().center())
    want = mm.scene_point(QPointF(mm.width() - 40, 60))
    assert abs(centre.x() - want.x()) < tol and abs(centre.y() - want.y()) < tol


def test_legend_folds_to_its_title_with_a_click(make_window):
    w = make_window(two_su_project())
    box = w.view.legend_box
    QApplication.processEvents()
    open_h = box.height()
    assert box.isExpanded() and w.view.legend.isVisible() and open_h > 40
    QTest.mouseClick(box.toggleButton(), Qt.MouseButton.LeftButton)
    QTest.qWait(50)
    assert not box.isExpanded()
    assert box.height() < open_h / 2, "folded, the legend no longer covers the canvas"
    vp = w.view.viewport().geometry()
    assert box.geometry().bottom() <= vp.bottom() and box.geometry().left() >= vp.left()
    QTest.mouseClick(box.toggleButton(), Qt.MouseButton.LeftButton)
    QTest.qWait(50)
    assert box.isExpanded() and box.height() == open_h
