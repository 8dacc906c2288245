"""Arrange: lay a hand-drawn (or messy) plan out in tiers, as one undoable command.

From the top: switches by role (core, spine, leaf, storage and management switches, then other free
devices), one tier each, centred over the racks; then the racks, one line per row (rows in label order,
racks by their position in the row), each keeping the devices framed in it; devices that sit in no rack
frame go into their role's tier. Positions are canvas positions only: rack rows, positions and U slots
stay as they are.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from gpuplanner.commands import Command, Compound, ReplaceRows
from gpuplanner.model import Project
from gpuplanner.ui.canvas.geometry import RACK_HEADER_H, RACK_W, device_size, is_framed, rack_frame

TIER_ORDER = ("core", "spine", "leaf", "storage-switch", "management", "storage", "other", "compute")
TIER_GAP_Y = 90.0
DEVICE_GAP_X = 24.0
RACK_GAP_X = 36.0
ROW_GAP_Y = 120.0
MAX_TIER_W = 12000.0  # a tier wider than this wraps onto a second line


def _natural(text: str) -> tuple:
    head = text.rstrip("0123456789")
    tail = text[len(head) :]
    return (head, int(tail) if tail else -1, text)


def arrange_positions(
    project: Project,
) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]:
    """New (x, y) per rack and per device, in scene coordinates."""
    racks = sorted(project.racks.values(), key=lambda r: (_natural(r.row), r.position, _natural(r.name)))
    rows: dict[str, list] = {}
    for r in racks:
        rows.setdefault(r.row, []).append(r)
    framed = {d.id for d in project.devices.values() if is_framed(project, d)}
    free = [d for d in project.devices.values() if d.id not in framed]
    row_w = max(
        (sum(rack_frame(project, r)[2] + RACK_GAP_X for r in rr) - RACK_GAP_X for rr in rows.values()),
        default=0.0,
    )
    tiers: dict[str, list] = {}
    for d in sorted(free, key=lambda d: (_natural(d.group), _natural(d.name))):
        role = d.role if d.role in TIER_ORDER else "other"
        tiers.setdefault(role, []).append(d)
    dev_pos: dict[str, tuple[float, float]] = {}
    y = 0.0
    width = max(row_w, RACK_W)
    for role in TIER_ORDER:
        members = tiers.get(role, [])
        if not members:
            continue
        sizes = [device_size(project, d, framed=False) for d in members]
        lines: list[list[int]] = [[]]
        line_w = 0.0
        for k, (w, _h) in enumerate(sizes):
            if lines[-1] and line_w + w > max(width, MAX_TIER_W):
                lines.append([])
                line_w = 0.0
            lines[-1].append(k)
            line_w += w + DEVICE_GAP_X
        for line in lines:
            total = sum(sizes[k][0] for k in line) + DEVICE_GAP_X * (len(line) - 1)
            # Spread a short tier over the racks' width (as generated plans are), centred.
            gap = DEVICE_GAP_X if len(line) < 2 else max(DEVICE_GAP_X, (width - total) / (len(line) - 1))
            gap = min(gap, 4 * sizes[line[0]][0])
            span = sum(sizes[k][0] for k in line) + gap * (len(line) - 1)
            x = (width - span) / 2
            tall = max(sizes[k][1] for k in line)
            for k in line:
                dev_pos[members[k].id] = (round(x, 1), round(y, 1))
                x += sizes[k][0] + gap
            y += tall + TIER_GAP_Y
    rack_pos: dict[str, tuple[float, float]] = {}
    y += RACK_HEADER_H
    for rr in rows.values():
        x = 0.0
        tallest = 0.0
        for r in rr:
            _x, _y, w, h = rack_frame(project, r)
            rack_pos[r.id] = (round(x, 1), round(y, 1))
            x += w + RACK_GAP_X
            tallest = max(tallest, h)
        y += tallest + RACK_HEADER_H + ROW_GAP_Y
    for d in project.devices.values():
        if d.id in framed:
            r = project.racks[d.rack_id]
            nx, ny = rack_pos[r.id]
            dev_pos[d.id] = (round(d.x + nx - r.x, 1), round(d.y + ny - r.y, 1))
    return rack_pos, dev_pos


def arrange_command(project: Project, text: str = "Arrange") -> Command | None:
    """One command that moves every rack and device to its arranged place; None when all are there."""
    rack_pos, dev_pos = arrange_positions(project)
    racks = [
        dataclasses.replace(project.racks[i], x=x, y=y)
        for i, (x, y) in rack_pos.items()
        if not np.allclose((project.racks[i].x, project.racks[i].y), (x, y))
    ]
    devs = [
        dataclasses.replace(project.devices[i], x=x, y=y)
        for i, (x, y) in dev_pos.items()
        if not np.allclose((project.devices[i].x, project.devices[i].y), (x, y))
    ]
    children: list[Command] = []
    if racks:
        children.append(ReplaceRows("racks", racks, text=text))
    if devs:
        children.append(ReplaceRows("devices", devs, text=text))
    return Compound(text, children) if children else None
