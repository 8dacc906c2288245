"""The generator's canvas placement: each scalable unit's racks (its leaf racks included) sit together, so
the collapsed blocks of a generated plan never overlap, at every size; plans far wider than tall wrap into a
grid whose zoom-to-fit view is a readable picture, not a thin line.

Oracles: pairwise rectangle intersection over every pair of blocks (and of rack frames), computed with plain
comparisons; the window's own zoom to fit, measured on the viewport.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from gpuplanner.model import Project
from gpuplanner.topology import placement
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.ui.canvas import groups as grp
from gpuplanner.ui.canvas import scene as scene_module
from gpuplanner.ui.canvas.geometry import DeviceGeometry, is_framed, rack_frame, rack_frames


def _generated(template: str, servers: int, planes: int = 1, **kw) -> Project:
    p = Project()
    opts = GenerateOptions(template=template, servers=servers, planes=planes, rack_budget_kw=42, **kw)
    generate(p, opts).to_command("g").apply(p)
    return p


def _overlapping_pairs(boxes: list[tuple[float, float, float, float]]) -> list[tuple[int, int]]:
    """Pairs (i, j) of (left, top, right, bottom) boxes whose interiors meet."""
    out = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                out.append((i, j))
    return out


CASES = [
    ("rail-leaf-spine", 8, 1, {}),
    ("rail-leaf-spine", 32, 1, {"su_size": 8}),
    ("rail-leaf-spine", 256, 1, {}),
    ("fat-tree-3tier", 128, 1, {}),
    ("fat-tree-3tier", 512, 1, {}),
    ("fat-tree-3tier", 1024, 2, {}),
    ("fat-tree-3tier", 2048, 1, {}),
    ("fat-tree-3tier", 256, 1, {"storage_fabric": True, "management_fabric": True}),
]


@pytest.mark.parametrize(("template", "servers", "planes", "extra"), CASES)
def test_no_two_collapsed_blocks_overlap(template, servers, planes, extra):
    p = _generated(template, servers, planes, **extra)
    geom = DeviceGeometry.build(p)
    blocks = [
        g for g in grp.build_groups(p).values() if g.kind in ("su", "tier")
    ]  # what a large plan collapses
    assert blocks
    rects = [grp.block_rect(p, geom, g) for g in blocks]
    boxes = [(r.left(), r.top(), r.right(), r.bottom()) for r in rects]
    pairs = _overlapping_pairs(boxes)
    assert not pairs, [(blocks[i].key, blocks[j].key) for i, j in pairs[:5]]
    # no two racks share canvas space either, and every generated server still sits in its rack's frame
    frames = [rack_frame(p, r) for r in p.racks.values()]
    assert not _overlapping_pairs([(x, y, x + w, y + h) for x, y, w, h in frames])
    servers_ = [d for d in p.devices.values() if d.role == "compute"]
    assert len(servers_) == servers and all(d.rack_id and is_framed(p, d) for d in servers_)
    # a scalable unit's block is its racks side by side: no wider than its racks and one gap
    for g, r in zip(blocks, rects, strict=True):
        if g.kind == "su" and g.rack_ids:
            assert r.width() <= len(g.rack_ids) * placement.X_SERVER
    # the plan (racks, devices) is at most WRAP_ASPECT times as wide as tall
    x0 = min(min(x for x, *_ in frames), float(geom.x.min()))
    x1 = max(max(x + w for x, _, w, _ in frames), float((geom.x + geom.w).max()))
    y0 = min(min(y for _, y, *_ in frames), float(geom.y.min()))
    y1 = max(max(y + h for _, y, _, h in frames), float((geom.y + geom.h).max()))
    assert (x1 - x0) / (y1 - y0) <= placement.WRAP_ASPECT * 1.15


def test_a_wide_plan_wraps_into_a_grid_and_zoom_to_fit_shows_a_picture(make_window, monkeypatch):
    """2,048 servers in 64 scalable units: on one line the plan was 90 times as wide as tall; wrapped, zoom to
    fit fills the viewport's height with the blocks, which the tiles draw at a readable size."""
    monkeypatch.setattr(scene_module, "OPEN_COLLAPSED_ABOVE", 100)
    p = _generated("fat-tree-3tier", 2048)
    lines = sorted({r.y for r in p.racks.values()})
    assert len(lines) >= 4  # wrapped
    w = make_window(p)
    assert len(w.scene.blocks) >= 64
    w.resize(1400, 900)
    QApplication.processEvents()
    w.view.zoom_to_fit()
    QApplication.processEvents()
    vp = w.view.viewport().rect()
    shown = w.view.mapFromScene(w.scene.extent()).boundingRect()
    # the picture spans most of the viewport in both directions (a one-line plan: a few pixels high)
    assert shown.height() >= 0.5 * vp.height() or shown.width() >= 0.9 * vp.width()
    assert shown.height() >= 0.25 * vp.height()
    heights = np.array(
        [w.view.mapFromScene(b.rect()).boundingRect().height() for b in w.scene.blocks.values()]
    )
    assert np.median(heights) >= 6  # a scalable unit's block is a block, not a line


def test_rack_frames_equal_the_per_rack_rule():
    p = _generated("fat-tree-3tier", 128)
    racks = list(p.racks.values())
    assert np.array_equal(rack_frames(p, racks), np.array([rack_frame(p, r) for r in racks], dtype=float))


def test_a_cell_wider_than_a_line_wraps_over_lines_of_its_own():
    """60 scalable units of 8 racks and 400 racks of unlabelled core switches (wider than any line of the
    grid): the core racks take whole lines of their own, so no cell's bounding box meets another's."""
    from gpuplanner.model import Device, Rack
    from gpuplanner.topology.plan import Plan

    plan = Plan(Project())
    x = 0.0

    def rack(row: str, pos: int, group: str, role: str) -> None:
        nonlocal x
        r = Rack(
            id=plan.new_id("racks"), name=f"{row}-{pos}", type_id="?", row=row, position=pos, x=x, y=660.0
        )
        plan.racks.append(r)
        plan.devices.append(
            Device(
                id=plan.new_id("devices"), name=f"d-{r.id}", type_id="?", role=role, group=group,
                rack_id=r.id, u_position=1, x=r.x + placement.FRAME_INSET, y=r.y + 100,
            )
        )  # fmt: skip
        x += placement.X_SERVER

    for su in range(60):
        for k in range(8):
            rack(f"R{su + 1:02d}", k + 1, f"su{su + 1}", "compute")
        x += placement.X_SERVER
    for k in range(400):
        rack("R31N", k + 1, "", "core")
    placement.lay_out_cells(plan)
    frames = {r.id: (r.x, r.y, r.x + 130.0, r.y + 42 * placement.U_PX) for r in plan.racks}
    assert not _overlapping_pairs(list(frames.values()))
    cells: dict[str, list[str]] = {}
    for d in plan.devices:
        cells.setdefault(d.group or "core", []).append(d.rack_id)
    core_lines = {frames[r][1] for r in cells["core"]}
    assert len(core_lines) >= 2  # wrapped
    boxes = {
        k: (
            min(frames[r][0] for r in rs),
            min(frames[r][1] for r in rs),
            max(frames[r][2] for r in rs),
            max(frames[r][3] for r in rs),
        )
        for k, rs in cells.items()
    }
    keys = list(boxes)
    assert not [(keys[i], keys[j]) for i, j in _overlapping_pairs(list(boxes.values()))]
    width = max(b[2] for b in boxes.values()) - min(b[0] for b in boxes.values())
    height = max(b[3] for b in boxes.values()) - min(b[1] for b in boxes.values())
    assert 0.5 <= width / height <= placement.WRAP_ASPECT
