"""The link layer's labels ("37 % · 400G"): drawn live at link midpoints when zoomed in, busiest first, for
at most ``MAX_LABELS`` links in view, on a grid of screen cells so that no label overlaps another, a device
or a rack (``LinkLayer.paint`` calls ``paint_labels``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen, QTransform

from gpuplanner.ui import theme
from gpuplanner.ui.canvas import lod
from gpuplanner.ui.canvas.geometry import RACK_HEADER_H
from gpuplanner.ui.canvas.painting import saved

if TYPE_CHECKING:
    from gpuplanner.ui.canvas.link_item import LinkLayer

MAX_LABELS = 200
LABEL_CELL_W, LABEL_CELL_H = 24, 16


def blocked_cells(overview: lod.OverviewData, exposed: QRectF, t: QTransform) -> set[tuple[int, int]]:
    """Label cells covered by devices and racks in view (racks are drawn above the links and would hide
    a label; a label over a device would hide its text)."""
    rects = []
    g = overview.geom
    if g is not None and len(g.ids):
        m = (
            (g.x + g.w >= exposed.left())
            & (g.x <= exposed.right())
            & (g.y + g.h >= exposed.top())
            & (g.y <= exposed.bottom())
        )
        rects.append(np.column_stack((g.x[m], g.y[m], g.w[m], g.h[m])))
    r = overview.rack_xywh
    if len(r):
        top = r[:, 1] - RACK_HEADER_H
        m = (
            (r[:, 0] + r[:, 2] >= exposed.left())
            & (r[:, 0] <= exposed.right())
            & (r[:, 1] >= exposed.top())
            & (top <= exposed.bottom())
        )
        rects.append(np.column_stack((r[m, 0], top[m], r[m, 2], r[m, 3] + RACK_HEADER_H)))
    cells: set[tuple[int, int]] = set()
    if not rects:
        return cells
    a = np.vstack(rects)
    x0 = (a[:, 0] * t.m11() + t.dx()) // LABEL_CELL_W
    x1 = ((a[:, 0] + a[:, 2]) * t.m11() + t.dx()) // LABEL_CELL_W
    y0 = (a[:, 1] * t.m22() + t.dy()) // LABEL_CELL_H
    y1 = ((a[:, 1] + a[:, 3]) * t.m22() + t.dy()) // LABEL_CELL_H
    for cx0, cx1, cy0, cy1 in zip(
        x0.astype(int), x1.astype(int), y0.astype(int), y1.astype(int), strict=True
    ):
        cells.update((cx, cy) for cx in range(cx0, cx1 + 1) for cy in range(cy0, cy1 + 1))
    return cells


def visible_label_rows(layer: LinkLayer, exposed: QRectF) -> np.ndarray:
    """Drawn links (bundles: their busiest link) whose midpoint is in view, busiest first."""
    cand = layer.drawable()[0]
    cand = cand[~layer.hidden[cand]]
    mx, my = layer.mid[cand, 0], layer.mid[cand, 1]
    m = (mx >= exposed.left()) & (mx <= exposed.right()) & (my >= exposed.top()) & (my <= exposed.bottom())
    rows = cand[m]
    order = np.argsort(-layer.util[rows], kind="stable")  # the busiest first when there are too many
    out: np.ndarray = rows[order[:MAX_LABELS]]
    return out


def paint_labels(p: QPainter, layer: LinkLayer, exposed: QRectF) -> None:
    """Labels at link midpoints, busiest first, skipping any that would overlap one already drawn."""
    rows = visible_label_rows(layer, exposed)
    if not len(rows):
        return
    t = p.worldTransform()
    mids = layer.mid[rows] * [t.m11(), t.m22()] + [t.dx(), t.dy()]
    font = layer.label_font
    with saved(p):
        p.setWorldTransform(QTransform())
        p.setFont(font)
        fm = QFontMetricsF(font)
        taken = blocked_cells(layer.overview, exposed, t)
        white = QBrush(QColor(255, 255, 255, 230))
        for i, (mx, my) in zip(rows, mids, strict=True):
            cys = range(int((my - 7) // LABEL_CELL_H), int((my + 7) // LABEL_CELL_H) + 1)
            cx0, cx1 = int((mx - 30) // LABEL_CELL_W), int((mx + 30) // LABEL_CELL_W)
            cells = {(cx, cy) for cx in range(cx0, cx1 + 1) for cy in cys}
            if cells & taken:  # checked before any text is measured: most candidates stop here
                continue
            text = layer.label_text(layer.ids[i])
            w = fm.horizontalAdvance(text) + 6
            box = QRectF(mx - w / 2, my - 7, w, 14)
            span = range(int(box.left() // LABEL_CELL_W), int(box.right() // LABEL_CELL_W) + 1)
            taken |= {(cx, cy) for cx in span for cy in cys}
            p.setPen(QPen(theme.bucket_color(int(layer.bucket[i])), 1))
            p.setBrush(white)
            p.drawRoundedRect(box, 3, 3)
            p.setPen(QColor(30, 30, 30))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
