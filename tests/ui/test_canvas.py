"""Canvas behaviour: level of detail, the tile cache, rubber band, copy / paste / delete, zoom to fit,
link hit tests and tooltips; and a generated 3-tier fat tree laid out in tiers."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QApplication

from gpuplanner.model import Project
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.ui import actions
from gpuplanner.ui.canvas import lod
from gpuplanner.ui.canvas.link_item import clip_segments, merge_segments
from tests.ui.conftest import drag, focus_on, small_project


def test_low_zoom_draws_the_overview_from_tiles(window):
    w = window
    sc = w.scene
    before = sc.layer.tiles.rendered
    w.view.set_zoom(lod.OVERVIEW_BELOW / 2)
    w.view.viewport().repaint()
    assert sc.layer.tiles.rendered > before, "the overview is rendered into tiles"
    QApplication.processEvents()
    assert sc.overview_mode
    assert all(i.opacity() == 0 and not i.isEnabled() for i in sc.device_items.values())
    cached = sc.layer.tiles.rendered
    for _ in range(3):
        w.view.viewport().repaint()
    w.view.viewport().repaint()
    assert sc.layer.tiles.rendered - cached <= 2, "repainting the same view reuses the tiles"
    w.view.set_zoom(1.0)
    assert not sc.overview_mode and all(i.opacity() == 1 for i in sc.device_items.values())


def test_utilisation_change_invalidates_only_tiles_of_changed_links(window):
    layer = window.scene.layer
    window.view.set_zoom(0.5, layer.fit_rect().center())
    for _ in range(6):
        window.view.viewport().repaint()
    n = len(layer.tiles)
    assert n > 0
    layer.set_util(layer.util.copy())  # same figures: nothing to redraw
    assert len(layer.tiles) == n
    util = layer.util.copy()
    util[0] = 0.95  # one link becomes the bottleneck
    changed = layer.set_util(util)
    assert list(changed) == [0]
    assert 0 < n - len(layer.tiles) < n or n == 1


def test_rubber_band_selects_devices_and_the_links_between_them(window):
    w = window
    p = w.doc.project
    rack = next(r for r in p.racks.values() if r.name == "R01-01")
    frame = w.scene.rack_items[rack.id].sceneBoundingRect()
    focus_on(w, frame.topLeft(), frame.bottomRight(), scale=0.6)
    drag(w, frame.topLeft() + QPointF(-5, 45), frame.bottomRight() + QPointF(5, 5))
    selected = set(w.scene.selected_ids())
    servers = {d.id for d in p.devices_in_rack(rack.id)}
    assert servers <= selected
    assert rack.id not in selected, "the rack header was outside the band"


def test_copy_paste_and_delete(window):
    w = window
    p = w.doc.project
    leaves = [d.id for d in p.devices.values() if d.role == "leaf"][:2]
    spine = next(d.id for d in p.devices.values() if d.role == "spine")
    w.scene.select_ids(leaves + [spine])
    n_dev, n_links = len(p.devices), len(p.links)
    between = [lk for lk in p.links.values() if {lk.a_device, lk.b_device} <= set(leaves + [spine])]
    actions.copy(w)
    actions.paste(w)
    assert len(p.devices) == n_dev + 3
    assert len(p.links) == n_links + len(between)
    pasted = w.scene.selected_ids()
    assert len([i for i in pasted if i in p.devices]) == 3
    actions.delete(w)
    assert (len(p.devices), len(p.links)) == (n_dev, n_links)
    w.doc.undo_stack.undo()
    assert len(p.devices) == n_dev + 3


def test_click_on_a_link_selects_it_and_hover_explains_it(window):
    w = window
    layer = w.scene.layer
    res = w.doc.results
    lid = max(layer.ids, key=lambda i: res.link_util[res.compiled.links.row[i]])
    x1, y1, x2, y2 = layer.xy[layer.index[lid]]
    t = 0.3
    pt = QPointF(x1 + t * (x2 - x1), y1 + t * (y2 - y1))
    assert layer.hit(pt, 2.0) is not None
    text = w.scene.link_tooltip(lid)
    assert "utilisation over a training step" in text and "400 Gb/s" in text
    busiest = w.scene.busiest
    assert busiest, "the engine names the busiest link per collective kind"
    some = next(iter(busiest))
    assert "busiest link for" in w.scene.link_tooltip(some)
    w.scene.toggle_link(lid, add=False)
    assert w.scene.selected_ids() == [lid]
    assert w.inspector.title.text().count("↔") == 1


def test_zoom_to_fit_shows_everything(window):
    w = window
    w.view.zoom_to_fit()
    vis = w.view.mapToScene(w.view.viewport().rect()).boundingRect()
    for item in list(w.scene.device_items.values()) + list(w.scene.rack_items.values()):
        assert vis.contains(item.sceneBoundingRect().center())


def test_generated_fat_tree_is_laid_out_in_tiers(make_window):
    p = Project()
    generate(p, GenerateOptions(template="fat-tree-3tier", servers=64, su_size=16)).to_command("g").apply(p)
    w = make_window(p)
    tops = {}
    for d in p.devices.values():
        tops.setdefault(d.role, []).append(w.scene.device_items[d.id].sceneBoundingRect().top())
    assert max(tops["core"]) < min(tops["spine"])
    assert max(tops["spine"]) < min(tops["leaf"])
    assert max(tops["leaf"]) < min(tops["compute"])
    assert len(w.scene.layer.ids) == len(p.links)


def test_clip_and_merge_keep_what_is_visible():
    xy = np.array([[0, 0, 100, 0], [0, 0, 100, 0.1], [-50, 5, 150, 5], [200, 200, 300, 300]], dtype=float)
    rows, clipped = clip_segments(xy, QRectF(10, -10, 80, 20), np.ones(4, dtype=bool))
    assert list(rows) == [0, 1, 2]
    assert np.allclose(clipped[2], [10, 5, 90, 5])
    bucket = np.zeros(4, dtype=np.uint8)
    kept, _ = merge_segments(rows, clipped, QRectF(10, -10, 80, 20), 1.0, bucket, np.zeros(3, dtype=np.int64))
    assert sorted(kept) == [0, 2] or sorted(kept) == [1, 2], "lines on the same pixels are drawn once"


def test_large_project_uses_few_items_per_frame(make_window):
    p = small_project(servers=40)
    w = make_window(p)
    w.view.zoom_to_fit()
    QApplication.processEvents()
    w.view.viewport().repaint()
    assert len(w.scene.items()) == len(p.devices) + len(p.racks) + 1, "all links are one layer item"
