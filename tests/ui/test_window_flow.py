"""The real window, driven as a user would: a server dragged from the palette into a rack, a link drawn
between port groups, both undone and redone, the workload changed — and the canvas annotations (link label
text and colour, rack kW text) equal to the engine's figures each time."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.ui import theme
from gpuplanner.ui.canvas.annotations import fmt_kw, rack_notes
from gpuplanner.ui.canvas.link_item import speed_text
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from tests.ui.conftest import drag, drop_from_palette, focus_on


def rack_by_name(w, name: str):
    return next(r for r in w.doc.project.racks.values() if r.name == name)


def expected_rack_text(w, rack_id: str) -> str:
    """What the rack header must say: the engine's kW at load against budget, computed afresh."""
    res = analyze_project(w.doc.project)
    i = res.compiled.racks.row[rack_id]
    return f"{fmt_kw(res.power.rack_kw_load[i])} / {fmt_kw(res.power.rack_budget_kw[i])} kW"


def expected_link(w, link_id: str) -> tuple[str, object]:
    res = analyze_project(w.doc.project)
    i = res.compiled.links.row[link_id]
    lk = w.doc.project.links[link_id]
    util = res.link_util[i]
    text = f"{util * 100:.0f}% · {speed_text(lk.speed_gbps, lk.multiplicity)}"
    return text, theme.bucket_color(int(theme.util_buckets([util])[0]))


def test_drop_server_into_rack_updates_rack_kw(window):
    w = window
    rack = rack_by_name(w, "R01-02")
    item = w.scene.rack_items[rack.id]
    before = item.kw_text
    assert before == expected_rack_text(w, rack.id)
    focus_on(w, item.sceneBoundingRect().center())
    drop_from_palette(w, "nvidia-dgx-h100", item.sceneBoundingRect().center())
    added = [d for d in w.doc.project.devices_in_rack(rack.id) if d.name != "node-0006"]
    assert len(added) == 1
    assert added[0].u_position == 9  # the first free slots above node-0006 (U1–U8)
    assert item.kw_text == expected_rack_text(w, rack.id) != before
    assert w.doc.undo_stack.count() == 1


def test_drop_refused_when_the_rack_is_full(window):
    w = window
    rack = rack_by_name(w, "R01-01")  # five 8U servers in U1–U40: room for one more
    item = w.scene.rack_items[rack.id]
    messages = []
    w.view.message.connect(messages.append)
    focus_on(w, item.sceneBoundingRect().center())
    drop_from_palette(w, "nvidia-dgx-h100", item.sceneBoundingRect().center())
    assert len(w.doc.project.devices_in_rack(rack.id)) == 6
    n = len(w.doc.project.devices)
    drop_from_palette(w, "nvidia-dgx-h100", item.sceneBoundingRect().center())
    assert len(w.doc.project.devices) == n
    assert (
        messages and "R01-01 has no 8 free consecutive U" in messages[-1] and "0 U free of 48" in messages[-1]
    )


def visible_leaf(w):
    """A leaf whose ndr pad is not covered by another box (generated leaves may overlap on the canvas)."""
    for d in w.doc.project.devices.values():
        if d.role == "leaf":
            item = w.scene.device_items[d.id]
            focus_on(w, item.pad_scene_pos("ndr"))
            top = w.view._device_at(w.view.mapFromScene(item.pad_scene_pos("ndr")))  # noqa: SLF001
            if top is item:
                return d
    raise AssertionError("no leaf with a visible pad")


def _draw_link(w, server_id: str, leaf_id: str) -> None:
    s_item, l_item = w.scene.device_items[server_id], w.scene.device_items[leaf_id]
    a, b = s_item.pad_scene_pos("compute"), l_item.pad_scene_pos("ndr")
    focus_on(w, a, b, scale=1.0)
    drag(w, a, b)


def test_draw_link_undo_redo_and_workload_change(window):
    w = window
    p = w.doc.project
    rack = rack_by_name(w, "R01-02")
    rack_item = w.scene.rack_items[rack.id]
    focus_on(w, rack_item.sceneBoundingRect().center())
    text0 = rack_item.kw_text
    drop_from_palette(w, "nvidia-dgx-h100", rack_item.sceneBoundingRect().center())
    server = next(d for d in p.devices_in_rack(rack.id) if d.name != "node-0006")
    text1 = rack_item.kw_text
    leaf = visible_leaf(w)
    links_before = set(p.links)
    from gpuplanner.ui.canvas import ports

    ndr = next(g for g in p.catalog.entries[leaf.type_id].port_groups if g.name == "ndr")
    _leaf_links_free_before = ports.links_fit(p, leaf.id, ndr, 400)
    assert _leaf_links_free_before >= 1
    _draw_link(w, server.id, leaf.id)
    new = set(p.links) - links_before
    assert len(new) == 1, "dragging from the compute pad to the leaf's ndr pad draws one link"
    lid = new.pop()
    lk = p.links[lid]
    assert (lk.a_device, lk.a_group, lk.b_device, lk.b_group) == (server.id, "compute", leaf.id, "ndr")
    # the server's whole compute group, as far as the leaf has room: a DGX H100 has 8 × 400G compute ports
    compute = next(g for g in p.catalog.entries[server.type_id].port_groups if g.name == "compute")
    assert compute.count == 8 and lk.speed_gbps == 400
    assert lk.multiplicity == min(8, _leaf_links_free_before) > 1
    assert (w.scene.layer.label_text(lid), w.scene.layer.color_of(lid)) == expected_link(w, lid)
    # Undo the link, then the server: the annotations go back to the engine's figures for each state.
    w.doc.undo_stack.undo()
    assert lid not in p.links and lid not in w.scene.layer.index
    w.doc.undo_stack.undo()
    assert server.id not in p.devices
    assert rack_item.kw_text == text0 == expected_rack_text(w, rack.id)
    w.doc.undo_stack.redo()
    assert rack_item.kw_text == text1 == expected_rack_text(w, rack.id)
    w.doc.undo_stack.redo()
    assert lid in p.links and w.scene.layer.label_text(lid) == expected_link(w, lid)[0]
    # A workload change moves the busiest link's label to the engine's new figure.
    busiest = max(p.links, key=lambda i: w.doc.results.link_util[w.doc.results.compiled.links.row[i]])
    label_before = w.scene.layer.label_text(busiest)
    dlg = WorkloadDialog(w.doc, w)
    dlg.editors["global_batch"].set(192)
    assert dlg.apply(), dlg.error.text()
    assert p.tables["workloads"][dlg.row.id].global_batch == 192
    label_after = w.scene.layer.label_text(busiest)
    assert label_after != label_before
    assert (label_after, w.scene.layer.color_of(busiest)) == expected_link(w, busiest)


def test_incompatible_link_is_refused_with_the_reason(window):
    w = window
    p = w.doc.project
    server = next(d for d in p.devices.values() if d.name == "node-0006")
    leaf = visible_leaf(w)
    messages = []
    w.view.message.connect(messages.append)
    s_item, l_item = w.scene.device_items[server.id], w.scene.device_items[leaf.id]
    a, b = s_item.pad_scene_pos("bmc"), l_item.pad_scene_pos("ndr")
    focus_on(w, a, b)
    n = len(p.links)
    drag(w, a, b)
    assert len(p.links) == n
    assert messages and "InfiniBand and Ethernet" in messages[-1]


def test_move_server_out_of_and_back_into_a_rack(window):
    w = window
    p = w.doc.project
    server = next(d for d in p.devices.values() if d.name == "node-0006")
    item = w.scene.device_items[server.id]
    start = item.sceneBoundingRect().center()
    away = QPointF(start.x() + 40, start.y() + 600)
    focus_on(w, start, scale=0.5)
    w.view.centerOn(QPointF(start.x(), start.y() + 300))
    drag(w, start, away)
    assert p.devices[server.id].rack_id is None, "dragged out of its rack frame: unracked"
    assert w.doc.undo_stack.count() == 1
    r2 = next(r for r in p.racks.values() if r.name == "R01-02")
    target = w.scene.rack_items[r2.id].sceneBoundingRect().center()
    drag(w, item.sceneBoundingRect().center(), target)
    assert p.devices[server.id].rack_id == r2.id and p.devices[server.id].u_position == 1
    w.doc.undo_stack.undo()
    w.doc.undo_stack.undo()
    assert p.devices[server.id].rack_id == r2.id and (p.devices[server.id].x, p.devices[server.id].y) == (
        server.x,
        server.y,
    )


def test_rack_notes_follow_thermal_and_budget(window):
    w = window
    res = w.doc.results
    notes = rack_notes(res)
    for rid, note in notes.items():
        i = res.compiled.racks.row[rid]
        bad = bool(res.power.rack_over_budget[i] or not res.thermal.rack_cooling_ok[i])
        assert (note.status == theme.RACK_BAD) == bad
        assert w.scene.rack_items[rid].kw_text == note.kw_text
        tip = w.scene.item_tooltip(w.scene.rack_items[rid])
        assert "CFM" in tip and "L/min" in tip and "cooling" in tip
