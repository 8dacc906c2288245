"""Arrange: lay a hand-drawn (or messy) plan out in tiers, as one undoable command.

From the top: switches by role (core, spine, leaf, storage and management switches, then other free
devices), one tier each, centred over the racks; then the racks, one line per row (rows in label order,
racks by their position in the row, rows side by side on lines as wide as give the plan a screen's shape), each keeping the devices framed in it; devices that sit in no rack
frame go into their role's tier. Positions are canvas positions only: rack rows, positions and U slots
stay as they are.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from gpuplanner.commands import Command, Compound, ReplaceRows
from gpuplanner.model import Project
from gpuplanner.ui.canvas.geometry import (
    FREE_SWITCH_H,
    RACK_HEADER_H,
    RACK_W,
    device_size,
    is_framed,
    rack_frame,
)

TIER_ORDER = ("core", "spine", "leaf", "storage-switch", "management", "storage", "other", "compute")
TIER_GAP_Y = 90.0
DEVICE_GAP_X = 24.0
RACK_GAP_X = 36.0
ROW_GAP_Y = 120.0
COL_GAP_X = 240.0
ASPECT = 1.6  # rows go into as many columns as bring the whole plan nearest to a screen's shape


def _natural(text: str) -> tuple:
    head = text.rstrip("0123456789")
    tail = text[len(head) :]
    return (head, int(tail) if tail else -1, text)


def _shelves(widths: list[float], width: float) -> list[list[int]]:
    """Rows (by index) on lines no wider than ``width``, in order (a row wider than that gets a line)."""
    lines: list[list[int]] = [[]]
    x = 0.0
    for k, w in enumerate(widths):
        if lines[-1] and x + w > width:
            lines.append([])
            x = 0.0
        lines[-1].append(k)
        x += w + COL_GAP_X
    return lines


def _width(widths: list[float], row_h: float, tier_w: dict[str, float]) -> float:
    """The layout width that makes the plan (tiers included) nearest to ``ASPECT`` wide."""
    best, best_err = max(widths, default=RACK_W), float("inf")
    candidates = sorted({sum(widths[: k + 1]) + COL_GAP_X * k for k in range(len(widths))} | set(widths))
    for width in candidates:
        width = max(width, max(widths, default=RACK_W))
        tiers_h = sum(math.ceil(w / width) * (FREE_SWITCH_H + TIER_GAP_Y) for w in tier_w.values())
        height = tiers_h + len(_shelves(widths, width)) * row_h
        err = abs(math.log(width / max(height, 1.0) / ASPECT))
        if err < best_err:
            best, best_err = width, err
    return best


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
    tiers: dict[str, list] = {}
    for d in sorted(free, key=lambda d: (_natural(d.group), _natural(d.name))):
        role = d.role if d.role in TIER_ORDER else "other"
        tiers.setdefault(role, []).append(d)
    row_widths = [
        sum(rack_frame(project, r)[2] + RACK_GAP_X for r in rr) - RACK_GAP_X for rr in rows.values()
    ]
    row_h = max((rack_frame(project, r)[3] for r in racks), default=0.0) + RACK_HEADER_H + ROW_GAP_Y
    tier_w = {
        role: sum(device_size(project, d, framed=False)[0] + DEVICE_GAP_X for d in members)
        for role, members in tiers.items()
    }
    width = _width(row_widths, row_h, tier_w)
    dev_pos: dict[str, tuple[float, float]] = {}
    y = 0.0
    for role in TIER_ORDER:
        members = tiers.get(role, [])
        if not members:
            continue
        sizes = [device_size(project, d, framed=False) for d in members]
        lines: list[list[int]] = [[]]
        line_w = 0.0
        for k, (w, _h) in enumerate(sizes):
            if lines[-1] and line_w + w > width:
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
    row_list = list(rows.values())
    for line_no, line in enumerate(_shelves(row_widths, width)):
        x = 0.0
        for k in line:
            for r in row_list[k]:
                rack_pos[r.id] = (round(x, 1), round(y + line_no * row_h, 1))
                x += rack_frame(project, r)[2] + RACK_GAP_X
            x += COL_GAP_X - RACK_GAP_X
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
