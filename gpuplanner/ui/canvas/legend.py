"""The canvas legend: link utilisation buckets (with link counts), rack status colours and cooling badges,
laid out as a compact strip that wraps to the canvas width."""

from __future__ import annotations

import os
from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from gpuplanner.ui import fmt, theme
from gpuplanner.ui.i18n import translate

PAD = 6
ROW_H = 18
CHIP_W = 18
GAP = 12


@dataclass(frozen=True)
class Entry:
    kind: str  # title | line | box | badge
    text: str
    color: QColor
    badge: str = ""


class Legend(QWidget):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.counts: list[int] = [0] * theme.N_BUCKETS
        self.max_width = 900
        self._layout: list[tuple[Entry, float, float, float]] = []  # entry, x, y, width
        self._pixmap: QPixmap | None = None
        self._relayout()

    def set_counts(self, counts: list[int]) -> None:
        if counts != self.counts:
            self.counts = counts
            self._relayout()
            self.update()

    def set_max_width(self, width: int) -> None:
        if width != self.max_width:
            self.max_width = max(200, width)
            self._relayout()
            self.update()

    def entries(self) -> list[Entry]:
        out = [Entry("title", self.tr("Links (utilisation over a training step):"), QColor())]
        for label, color, n in zip(theme.bucket_labels(), theme.BUCKET_COLORS, self.counts, strict=True):
            out.append(Entry("line", self.tr("{label} ({n})").format(label=label, n=fmt.number(n)), color))
        out.append(Entry("title", self.tr("Racks (kW at load / budget):"), QColor()))
        for label, color in zip(theme.rack_status_labels(), theme.RACK_STATUS_COLORS, strict=True):
            out.append(Entry("box", label, color))
        out.append(Entry("title", self.tr("Cooling:"), QColor()))
        for method in ("air", "rear-door", "cold-plate", "immersion"):
            badge = theme.cooling_badge(method)
            out.append(Entry("badge", theme.cooling_method_name(method), badge.color, badge.text))
        return out

    def _entry_width(self, e: Entry, fm: QFontMetrics, bold: QFontMetrics) -> float:
        if e.kind == "title":
            return bold.horizontalAdvance(e.text) + 4
        chip = CHIP_W + 12 if e.kind == "badge" else CHIP_W
        return chip + 5 + fm.horizontalAdvance(e.text)

    def _relayout(self) -> None:
        fm = QFontMetrics(self.font())
        bf = self.font()
        bf.setBold(True)
        bold = QFontMetrics(bf)
        x, y, widest = PAD, PAD, 0.0
        self._layout = []
        for e in self.entries():
            w = self._entry_width(e, fm, bold)
            if x > PAD and (e.kind == "title" or x + w > self.max_width - PAD):  # each group starts a row
                x, y = PAD, y + ROW_H
            self._layout.append((e, x, y, w))
            x += w + GAP
            widest = max(widest, x)
        self._size = QSize(int(min(widest, self.max_width)), int(y + ROW_H + PAD))
        self.resize(self._size)
        self.updateGeometry()
        self._pixmap = None

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API) — the box around it lays it out at this size
        return self._size

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        """Blit the legend, drawn once per change (it sits over the canvas, so it is repainted every frame)."""
        ratio = self.devicePixelRatioF()
        if self._pixmap is None or self._pixmap.size() != self.size() * ratio:
            self._pixmap = QPixmap(self.size() * ratio)
            self._pixmap.setDevicePixelRatio(ratio)
            self._pixmap.fill(Qt.GlobalColor.transparent)
            self._draw(QPainter(self._pixmap))
        p = QPainter(self)
        p.drawPixmap(0, 0, self._pixmap)
        p.end()

    def _draw(self, p: QPainter) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(QColor(180, 186, 196)))
        p.setBrush(QColor(255, 255, 255, 235))
        p.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5)
        bold = self.font()
        bold.setBold(True)
        small = self.font()
        small.setPointSizeF(max(6.0, self.font().pointSizeF() - 2))
        small.setBold(True)
        for e, x, y, w in self._layout:
            mid = y + ROW_H / 2
            tx = x
            if e.kind == "line":
                p.setPen(QPen(e.color, 3))
                p.drawLine(int(x), int(mid), int(x + CHIP_W), int(mid))
                tx = x + CHIP_W + 5
            elif e.kind == "box":
                p.setPen(QPen(e.color, 2))
                p.setBrush(theme.RACK_FILL)
                p.drawRect(QRectF(x + 2, y + 3, CHIP_W - 4, ROW_H - 6))
                tx = x + CHIP_W + 5
            elif e.kind == "badge":
                chip = QRectF(x, y + 2, CHIP_W + 12, ROW_H - 4)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(e.color)
                p.drawRoundedRect(chip, 3, 3)
                p.setPen(QColor("white"))
                p.setFont(small)
                p.drawText(chip, Qt.AlignmentFlag.AlignCenter, e.badge)
                tx = x + CHIP_W + 17
            p.setFont(bold if e.kind == "title" else self.font())
            p.setPen(QColor(30, 30, 30))
            p.drawText(QRectF(tx, y, x + w - tx + 2, ROW_H), int(Qt.AlignmentFlag.AlignVCenter), e.text)
        p.end()


def collapsible(legend: Legend, parent: QWidget) -> QWidget:
    """The legend in a collapsible box (superqt's QCollapsible): a click on its title folds it down to the
    title, so that it does not hide the canvas."""
    os.environ.setdefault("QT_API", "pyside6")  # superqt goes through qtpy: the binding the app uses
    from superqt import QCollapsible

    box = QCollapsible(translate("Legend", "Legend"), parent, expandedIcon="▼", collapsedIcon="▶")
    box.setObjectName("legendBox")
    box.setDuration(0)  # no animation: the box is re-placed at the viewport's corner on each change
    box.setStyleSheet(
        "#legendBox { background: rgba(255, 255, 255, 235); border: 1px solid #b4bac4; border-radius: 5px; }"
    )
    box.layout().setContentsMargins(2, 0, 2, 2)
    box.toggleButton().setStyleSheet("text-align: left; border: none; padding: 2px 4px; font-weight: bold;")
    legend.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
    box.addWidget(legend)
    box.expand(animate=False)
    return box
