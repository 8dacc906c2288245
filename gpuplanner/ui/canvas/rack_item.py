"""One rack on the canvas: a frame with its U slots and a header with name, kW against budget and a
cooling badge, coloured by status (ok / near budget / over budget or cooling too weak).

While a device is dragged over it, the rack shows where it would go (green) or that it cannot (red).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gpuplanner.topology.placement import U_PX
from gpuplanner.ui import theme
from gpuplanner.ui.canvas import lod
from gpuplanner.ui.canvas.geometry import RACK_HEADER_H, RACK_W
from gpuplanner.ui.canvas.painting import draw_lines

_TICKS: dict[int, QPainterPath] = {}


def _ticks(ru: int) -> QPainterPath:
    """The U marks at both sides of a frame of ``ru`` units (built once per height)."""
    if ru not in _TICKS:
        path = QPainterPath()
        for u in range(1, ru):
            y = u * U_PX
            path.moveTo(0, y)
            path.lineTo(5, y)
            path.moveTo(RACK_W - 5, y)
            path.lineTo(RACK_W, y)
        _TICKS[ru] = path
    return _TICKS[ru]


class RackItem(QGraphicsItem):
    kind = "rack"

    def __init__(self, rack_id: str, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.rack_id = rack_id
        self.name = ""
        self.ru = 42
        self.kw_text = ""
        self.status = theme.RACK_OK
        self.badge: theme.Badge | None = None
        self.drop_hint: tuple[int, int, bool] | None = None  # (u, ru, ok)
        self.on_moved: Callable[[RackItem, QPointF], None] | None = None
        self._syncing = False
        self.setFlags(
            QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
            | QGraphicsItem.GraphicsItemFlag.ItemIsMovable
            | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges
        )
        self.setZValue(1.5)  # above the link layer: lines pass behind racks, headers stay legible
        self._bounds = self._compute_bounds()

    def _compute_bounds(self) -> QRectF:
        return QRectF(0, -RACK_HEADER_H, RACK_W, RACK_HEADER_H + self.ru * U_PX).adjusted(-2, -2, 2, 2)

    def frame(self) -> QRectF:
        return QRectF(0, 0, RACK_W, self.ru * U_PX)

    def header(self) -> QRectF:
        return QRectF(0, -RACK_HEADER_H, RACK_W, RACK_HEADER_H)

    def set_shape(self, name: str, ru: int) -> None:
        if ru != self.ru:
            self.prepareGeometryChange()
            self.ru = ru
            self._bounds = self._compute_bounds()
        if name != self.name:
            self.name = name
            self.update()

    def set_model_pos(self, x: float, y: float) -> None:
        self._syncing = True
        self.setPos(x, y)
        self._syncing = False

    def set_annotation(self, kw_text: str, status: int, badge: theme.Badge | None) -> bool:
        if (kw_text, status, badge) == (self.kw_text, self.status, self.badge):
            return False
        self.kw_text, self.status, self.badge = kw_text, status, badge
        self.update()
        return True

    def set_drop_hint(self, hint: tuple[int, int, bool] | None) -> None:
        if hint != self.drop_hint:
            self.drop_hint = hint
            self.update()

    # -- Qt ---------------------------------------------------------------------------------------------
    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value):  # noqa: N802 (Qt API)
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionChange and not self._syncing:
            self._before = self.pos()
        elif (
            change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged
            and not self._syncing
            and self.on_moved is not None
        ):
            self.on_moved(self, self.pos() - self._before)
        return super().itemChange(change, value)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt API)
        return self._bounds

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = p.worldTransform().m11()
        color = theme.RACK_STATUS_COLORS[self.status]
        frame = self.frame()
        pen = QPen(theme.SELECTION if self.isSelected() else color, 2.5 if self.isSelected() else 1.2)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(QBrush(theme.RACK_FILL))
        p.drawRect(frame)
        if scale * U_PX >= 3:
            self._paint_units(p, scale)
        header = self.header()
        tint = QColor(color)
        tint.setAlpha(40 if self.status == theme.RACK_OK else 70)
        p.setBrush(QBrush(theme.RACK_FILL))  # opaque first: the links behind must not show through the text
        p.drawRect(header)
        p.setBrush(QBrush(tint))
        p.drawRect(header)
        if self.drop_hint is not None:
            self._paint_drop_hint(p)
        if scale >= lod.DEVICE_TEXT_SCALE * 0.8:
            self._paint_header_text(p, header, color)

    def _paint_units(self, p: QPainter, scale: float) -> None:
        p.setPen(QPen(QColor(200, 205, 212), 0))
        p.drawPath(_ticks(self.ru))
        if scale * U_PX >= 9:
            for u in range(1, self.ru + 1, 1 if scale * U_PX >= 14 else 5):
                r = QRectF(-1, (self.ru - u) * U_PX, 9, U_PX)
                draw_lines(p, r, [(str(u), QColor(120, 125, 135), False)], px=8, margin=0)

    def _paint_drop_hint(self, p: QPainter) -> None:
        u, ru, ok = self.drop_hint  # type: ignore[misc]
        top = (self.ru - (u + ru - 1)) * U_PX
        color = QColor(40, 170, 70, 110) if ok else QColor(220, 40, 40, 110)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(color))
        if ok:
            p.drawRect(QRectF(2, top, RACK_W - 4, ru * U_PX))
        else:
            p.drawRect(self.frame())

    def _paint_header_text(self, p: QPainter, header: QRectF, color: QColor) -> None:
        badge_w = 0.0
        if self.badge is not None:
            badge_w = 46.0
            b = QRectF(header.right() - badge_w - 2, header.top() + 2, badge_w, 17)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(self.badge.color))
            p.drawRoundedRect(b, 3, 3)
            white = QColor("white")
            draw_lines(
                p, b, [(self.badge.text, white, True)], px=10, align=Qt.AlignmentFlag.AlignHCenter, margin=1
            )
        kw_color = color if self.status != theme.RACK_OK else QColor(40, 40, 40)
        bad = self.status != theme.RACK_OK
        if header.height() * p.worldTransform().m11() >= 2 * 12:
            top = QRectF(header.left(), header.top() + 1, header.width() - badge_w - 4, 19)
            draw_lines(p, top, [(self.name, QColor(20, 20, 20), True)], px=11)
            bottom = QRectF(header.left(), header.top() + 20, header.width(), 19)
            draw_lines(p, bottom, [(self.kw_text, kw_color, bad)], px=11)
        else:  # too small for two lines: the kW figure matters most
            line = QRectF(header.left(), header.top() + 18, header.width(), 22)
            draw_lines(p, line, [(self.kw_text, kw_color, bad)], px=10)
