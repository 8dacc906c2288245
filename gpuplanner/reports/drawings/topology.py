"""The topology drawing: one row per tier, blocks left to right in canvas order, bundles coloured by the
utilisation of their busiest link and as wide as their cable count warrants, with a legend."""

from __future__ import annotations

import math

import numpy as np
from reportlab.graphics.shapes import Drawing, Group, Line, Path, Rect, String
from reportlab.lib import colors

from gpuplanner.reports import i18n
from gpuplanner.reports.doc import fit
from gpuplanner.reports.drawings.topology_model import TopologyModel
from gpuplanner.reports.fonts import FontSet, has_non_latin1
from gpuplanner.reports.styles import INK, MUTED, ROLE_FILL, UTIL_COLOURS, util_bucket

LABEL_W = 92.0
LEGEND_H = 34.0


def text(
    x: float,
    y: float,
    s: str,
    fonts: FontSet,
    size: float,
    *,
    anchor: str = "start",
    colour=INK,
    bold: bool = False,
) -> String:
    """A string in the right font: the CJK font when it holds non-Latin-1 characters."""
    font = fonts.bold if bold else fonts.body
    if not fonts.all_cjk and has_non_latin1(s):
        font = fonts.cjk
    return String(x, y, s, fontName=font, fontSize=size, fillColor=colour, textAnchor=anchor)


def _geometry(model: TopologyModel, width: float, height: float) -> tuple[np.ndarray, ...]:
    """Centre x and y, width and height of every block. Rows with room get wide blocks with a horizontal
    label; crowded rows get tall narrow blocks with the label turned upright."""
    top, bottom = height - 8.0, LEGEND_H + 14.0
    gap = (top - bottom) / max(len(model.rows), 1)
    span = width - LABEL_W - 6.0
    per_row: dict[int, list[int]] = {}
    for i, b in enumerate(model.blocks):
        per_row.setdefault(b.row, []).append(i)
    n = len(model.blocks)
    cx, cy, bw, bh = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    for r, idx in per_row.items():
        idx = sorted(idx, key=lambda i: model.blocks[i].order)
        step = span / len(idx)
        crowded = step < 46
        for k, i in enumerate(idx):
            cx[i] = LABEL_W + step * (k + 0.5)
            cy[i] = top - gap * (r + 0.5)
            bw[i] = min(64.0, step * 0.78) if crowded else min(90.0, step * 0.8)
            bh[i] = min(gap * 0.42, 40.0) if crowded else min(gap * 0.3, 18.0)
    return cx, cy, bw, bh


def _bundles(model: TopologyModel, cx, cy, bh, row_gap: float) -> Group:
    g = Group()
    order = np.lexsort((model.bundle_cables, model.bundle_util))  # hot bundles drawn last, on top
    rows = np.array([b.row for b in model.blocks])
    pair = np.minimum(rows[model.bundle_a], rows[model.bundle_b]) * 1000 + np.maximum(
        rows[model.bundle_a], rows[model.bundle_b]
    )
    _, inv, per_pair = np.unique(pair, return_inverse=True, return_counts=True)
    for k in order.tolist():
        a, b = int(model.bundle_a[k]), int(model.bundle_b[k])
        if a == b:
            continue
        colour = UTIL_COLOURS[util_bucket(float(model.bundle_util[k]))]
        cap = 3.2 if per_pair[inv[k]] <= 48 else 1.0  # a dense mesh stays see-through
        w = min(0.35 + 0.4 * math.log2(1 + float(model.bundle_cables[k])), cap)
        if abs(cy[a] - cy[b]) < 1e-6:  # same tier: an arc above the row
            x1, x2, y = cx[a], cx[b], cy[a] + bh[a] / 2
            rise = min(10 + 0.12 * abs(x2 - x1), row_gap * 0.4)
            p = Path(strokeColor=colour, strokeWidth=w, fillColor=None)
            p.moveTo(x1, y)
            p.curveTo(x1, y + rise, x2, y + rise, x2, y)
            g.add(p)
            continue
        up, down = (a, b) if cy[a] > cy[b] else (b, a)
        g.add(
            Line(
                cx[up],
                cy[up] - bh[up] / 2,
                cx[down],
                cy[down] + bh[down] / 2,
                strokeColor=colour,
                strokeWidth=w,
            )
        )
    return g


def _blocks(model: TopologyModel, cx, cy, bw, bh, fonts: FontSet, lang: str) -> Group:
    g = Group()
    for i, b in enumerate(model.blocks):
        fill = ROLE_FILL.get(b.role, ROLE_FILL["other"])
        g.add(
            Rect(
                cx[i] - bw[i] / 2,
                cy[i] - bh[i] / 2,
                bw[i],
                bh[i],
                fillColor=fill,
                strokeColor=colors.white,
                strokeWidth=0.5,
            )
        )
        label = b.label if b.count == 1 else i18n.tr("block_count", lang, name=b.label, n=b.count)
        vertical = bh[i] > bw[i]
        size = 5.0 if vertical else 6.0
        room = (bh[i] if vertical else bw[i]) - 4
        s = text(0, 0, fit(label, fonts, fonts.body, size, room), fonts, size, anchor="middle")
        if vertical:
            t = Group(s)
            t.transform = (0, 1, -1, 0, cx[i] + size * 0.35, cy[i])
            g.add(t)
        else:
            s.x, s.y = cx[i], cy[i] - size * 0.35
            g.add(s)
    return g


def _row_labels(model: TopologyModel, height: float, fonts: FontSet, lang: str) -> Group:
    g = Group()
    top, bottom = height - 8.0, LEGEND_H + 14.0
    gap = (top - bottom) / max(len(model.rows), 1)
    for r, role in enumerate(model.rows):
        y = top - gap * (r + 0.5)
        name = fit(i18n.label("role", role, lang), fonts, fonts.bold, 7, LABEL_W - 8)
        g.add(text(0, y + 1, name, fonts, 7, bold=True))
        g.add(text(0, y - 8, f"{model.row_devices[r]:,}", fonts, 7, colour=MUTED))
    return g


def legend(width: float, fonts: FontSet, lang: str, roles: list[str]) -> Group:
    g = Group()
    y1, y2 = LEGEND_H - 10, LEGEND_H - 26
    g.add(text(0, y1, i18n.tr("legend_util", lang), fonts, 7, bold=True))
    step = (width - LABEL_W) / len(UTIL_COLOURS)
    for k, colour in enumerate(UTIL_COLOURS):
        x = LABEL_W + k * step
        g.add(Line(x, y1 + 2.5, x + 18, y1 + 2.5, strokeColor=colour, strokeWidth=2.4))
        g.add(text(x + 22, y1, i18n.tr(f"util_{k}", lang), fonts, 7))
    g.add(text(0, y2, i18n.tr("legend_devices", lang), fonts, 7, bold=True))
    step = (width - LABEL_W) / max(len(roles), 1)
    for k, role in enumerate(roles):
        x = LABEL_W + k * step
        g.add(Rect(x, y2 - 1, 14, 8, fillColor=ROLE_FILL.get(role, ROLE_FILL["other"]), strokeColor=None))
        name = fit(i18n.label("role", role, lang), fonts, fonts.body, 7, step - 22)
        g.add(text(x + 18, y2, name, fonts, 7))
    return g


def topology_drawing(model: TopologyModel, width: float, height: float, fonts: FontSet, lang: str) -> Drawing:
    d = Drawing(width, height)
    d.initialFontName = fonts.body  # the renderer starts in this font, not the non-embedded Helvetica
    if not model.blocks:
        return d
    cx, cy, bw, bh = _geometry(model, width, height)
    row_gap = (height - 8.0 - LEGEND_H - 14.0) / max(len(model.rows), 1)
    d.add(_bundles(model, cx, cy, bh, row_gap))
    d.add(_blocks(model, cx, cy, bw, bh, fonts, lang))
    d.add(_row_labels(model, height, fonts, lang))
    d.add(legend(width, fonts, lang, model.rows))
    return d
