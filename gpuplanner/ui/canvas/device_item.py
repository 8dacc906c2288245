"""One device on the canvas: a box coloured by role, its name, its port-group pads and its power figure.

The item draws only what is legible at the current zoom (text at a fixed screen size, pads from
``lod.PADS_SCALE``). Annotations are set by the scene and repaint the item only when their text changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gpuplanner.ui import theme
from gpuplanner.ui.canvas import lod
from gpuplanner.ui.canvas.painting import draw_lines


@dataclass(frozen=True)
class Pad:
    name: str
    text: str  # e.g. "8×400G"


class DeviceItem(QGraphicsItem):
    kind = "device"

    def __init__(self, device_id: str, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.device_id = device_id
        self.name = ""
        self.role = "other"
        self.pads: tuple[Pad, ...] = ()
        self.annotation = ""
        self.warn = False
        self._rect = QRectF(0, 0, 100, 28)
        self._bounds = self._rect.adjusted(-2, -2, 2, 2)
        self.setFlags(
            QGraphicsItem.GraphicsItemFlag.ItemIsSelectable | QGraphicsItem.GraphicsItemFlag.ItemIsMovable
        )
        self.setAcceptHoverEvents(False)
        self.setZValue(2)

    # -- state set by the scene -------------------------------------------------------------------------
    def set_shape(self, name: str, role: str, w: float, h: float, pads: tuple[Pad, ...]) -> None:
        rect = QRectF(0, 0, w, h)
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self._bounds = rect.adjusted(-2, -2, 2, 2)
        if (name, role, pads) != (self.name, self.role, self.pads):
            self.name, self.role, self.pads = name, role, pads
            self.update()

    def set_annotation(self, text: str, warn: bool = False) -> bool:
        """Returns True when the text or warning state changed (and the item was scheduled for repaint)."""
        if (text, warn) == (self.annotation, self.warn):
            return False
        self.annotation, self.warn = text, warn
        self.update()
        return True

    def rect(self) -> QRectF:
        return self._rect

    # -- pads -------------------------------------------------------------------------------------------
    def pad_rect(self, index: int) -> QRectF:
        n = max(1, len(self.pads))
        w = self._rect.width() / n
        h = min(12.0, self._rect.height() * 0.4)
        return QRectF(index * w + 1, 1, w - 2, h)

    def pad_at(self, local: QPointF) -> str | None:
        for i, pad in enumerate(self.pads):
            if self.pad_rect(i).contains(local):
                return pad.name
        return None

    def pad_scene_pos(self, group: str) -> QPointF:
        names = [p.name for p in self.pads]
        i = names.index(group) if group in names else 0
        return self.mapToScene(self.pad_rect(i).center())

    # -- painting ---------------------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._bounds

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = p.worldTransform().m11()
        selected = self.isSelected()
        pen = QPen(theme.SELECTION, 2.5) if selected else QPen(theme.ROLE_BORDER, 1)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(QBrush(theme.role_color(self.role)))
        p.drawRect(self._rect)
        if self.warn:
            p.setPen(QPen(theme.ERROR_TEXT, 2, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(self._rect.adjusted(2, 2, -2, -2))
        pads_shown = scale >= lod.PADS_SCALE and self._rect.height() * scale >= 18 and self.pads
        if pads_shown:
            self._paint_pads(p)
        if scale >= lod.DEVICE_TEXT_SCALE:
            top = self.pad_rect(0).bottom() + 1 if pads_shown else 0.0
            body = QRectF(self._rect.left(), top, self._rect.width(), self._rect.height() - top)
            lines = [(self.name, QColor(20, 20, 20), True)]
            if self.annotation:
                lines.append((self.annotation, theme.ERROR_TEXT if self.warn else QColor(60, 60, 60), False))
            draw_lines(p, body, lines, px=11)

    def _paint_pads(self, p: QPainter) -> None:
        p.setPen(QPen(QColor(90, 100, 115), 0))
        p.setBrush(QBrush(QColor(255, 255, 255, 200)))
        for i, pad in enumerate(self.pads):
            r = self.pad_rect(i)
            p.drawRect(r)
            draw_lines(
                p,
                r,
                [(pad.text, QColor(40, 40, 40), False)],
                px=9,
                align=Qt.AlignmentFlag.AlignHCenter,
                margin=1,
            )
