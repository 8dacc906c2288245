"""The selected rack's cable runs drawn on the floor plan: one path per rack it connects to (along the row,
then across the aisles, the way trays run), with the longest run's length and the number of runs written at
the far rack. Runs no medium reaches are drawn red. Figures come from the engine's results (link lengths
from the floor positions, media from the cable plan), grouped per far rack with numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gpuplanner.ui import fmt
from gpuplanner.ui.i18n import translate

RUN_COLOR = QColor(30, 90, 200)
TOO_LONG = QColor(210, 30, 30)
LABEL_PX = 11  # label text height on screen, at every zoom
TRAY_OFFSET = 15.0  # scene px (0.3 m) in front of the rack row, where the drawn runs travel


@dataclass(frozen=True)
class RackRun:
    """The runs between the selected rack and one other rack."""

    rack_id: str
    runs: int  # cables (links × multiplicity)
    longest_m: float
    too_long: int  # cables no medium reaches


def rack_runs(res, rack_id: str) -> list[RackRun]:
    """Per other rack: the cables between it and ``rack_id`` (none when there are no results)."""
    if res is None or rack_id not in res.compiled.racks.row:
        return []
    c = res.compiled
    r = c.racks.row[rack_id]
    ra, rb = c.devices.rack[c.links.a], c.devices.rack[c.links.b]
    sel = np.flatnonzero(((ra == r) | (rb == r)) & (ra != rb) & (ra >= 0) & (rb >= 0))
    if sel.size == 0:
        return []
    other = np.where(ra[sel] == r, rb[sel], ra[sel])
    mult = c.links.multiplicity[sel].astype(np.int64)
    keys, inv = np.unique(other, return_inverse=True)
    runs = np.bincount(inv, weights=mult, minlength=keys.size)
    longest = np.full(keys.size, 0.0)
    np.maximum.at(longest, inv, c.links.length_m[sel])
    bad = np.bincount(inv, weights=mult * res.fabric.cables.too_long[sel], minlength=keys.size)
    return [
        RackRun(c.racks.ids[int(k)], int(n), float(m), int(b))
        for k, n, m, b in zip(keys, runs, longest, bad, strict=True)
    ]


def run_label(run: RackRun) -> str:
    return translate("floor", "{m} m · × {n}").format(m=fmt.number(run.longest_m, 1), n=fmt.number(run.runs))


class CableRunsItem(QGraphicsItem):
    """Paths from one rack to the racks it connects to, labelled at the far end (labels keep their screen
    size and step aside rather than overlap)."""

    def __init__(self) -> None:
        super().__init__()
        self.origin = QPointF()
        self.ends: list[tuple[QPointF, str, bool]] = []  # far rack centre, label, too long
        self._rect = QRectF()
        self.setZValue(5)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_runs(self, origin: QPointF, ends: list[tuple[QPointF, str, bool]]) -> None:
        self.prepareGeometryChange()
        self.origin, self.ends = QPointF(origin), list(ends)
        rect = QRectF(origin, origin).adjusted(0, -TRAY_OFFSET, 0, 0)
        for pt, _text, _bad in ends:
            rect = rect.united(QRectF(pt, pt))
        # room for the labels, whose size is fixed on screen (generous: they are re-placed in paint)
        self._rect = rect.adjusted(-400, -400, 400, 400)
        self.setVisible(bool(ends))
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._rect

    def path(self, a: QPointF, b: QPointF) -> QPainterPath:
        """Out of the rack's front into the aisle, along the aisle (the tray), then to the far rack's front:
        the rack labels in the row stay readable."""
        tray = a.y() - TRAY_OFFSET
        path = QPainterPath(a)
        path.lineTo(QPointF(a.x(), tray))
        path.lineTo(QPointF(b.x(), tray))
        path.lineTo(b)
        return path

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lod = max(option.levelOfDetailFromTransform(p.worldTransform()), 1e-6)
        for pt, _text, bad in self.ends:
            pen = QPen(TOO_LONG if bad else RUN_COLOR, 2)
            pen.setCosmetic(True)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(self.path(self.origin, pt))
            p.setBrush(TOO_LONG if bad else RUN_COLOR)
            p.drawEllipse(pt, 3 / lod, 3 / lod)
        font = QFont()
        font.setPixelSize(max(1, round(LABEL_PX / lod)))
        p.setFont(font)
        fm = QFontMetricsF(font)
        placed: list[QRectF] = []
        for pt, text, bad in sorted(self.ends, key=lambda e: (e[0].y(), e[0].x())):
            w, h = fm.horizontalAdvance(text) + 6 / lod, fm.height() + 2 / lod
            box = QRectF(pt.x() + 5 / lod, pt.y() - h / 2, w, h)
            while any(box.intersects(o) for o in placed):
                box.translate(0, h)
            placed.append(box)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(255, 255, 255, 225))
            p.drawRect(box)
            p.setPen(TOO_LONG if bad else RUN_COLOR.darker(130))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def label_texts(self) -> list[str]:
        return [text for _pt, text, _bad in self.ends]
