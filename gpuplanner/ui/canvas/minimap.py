"""The minimap: a small picture of the whole plan in a corner of the canvas with the part in view outlined;
a click or a drag on it moves the view there.

The picture (links, racks, devices and collapsed groups' blocks, drawn by the link layer's own overview
renderer) is made once per change, at most every ``REDRAW_MS``; moving the view only repaints the outline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from gpuplanner.ui import theme

if TYPE_CHECKING:
    from gpuplanner.ui.canvas.view import PlannerView

SIZE_W, SIZE_H = 220, 150
REDRAW_MS = 250
MARGIN = 6


class Minimap(QWidget):
    def __init__(self, view: PlannerView) -> None:
        super().__init__(view)
        self.view = view
        self.setFixedSize(SIZE_W, SIZE_H)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(self.tr("The whole plan: click or drag to move the view"))
        self._image: QImage | None = None
        self._world = QRectF()  # the scene rectangle the picture shows
        self._redraw = QTimer(self)
        self._redraw.setSingleShot(True)
        self._redraw.setInterval(REDRAW_MS)
        self._redraw.timeout.connect(self._render)
        sc = view.planner
        sc.annotationsUpdated.connect(lambda n: self.schedule() if n else None)  # (0: the same picture)
        sc.doc.changed.connect(lambda _cs: self.schedule())
        sc.doc.projectReplaced.connect(self.schedule)
        sc.groupsChanged.connect(self.schedule)
        sc.linksAdded.connect(self.schedule)
        view.horizontalScrollBar().valueChanged.connect(lambda _v: self.update())
        view.verticalScrollBar().valueChanged.connect(lambda _v: self.update())
        view.scaleChanged.connect(lambda _s: self.update())
        self.schedule()

    def schedule(self) -> None:
        if self.isVisible():
            self._redraw.start()
        else:
            self._image = None  # drawn when shown

    # -- the picture ------------------------------------------------------------------------------------
    def _transform(self) -> tuple[float, float, float]:
        """scale, dx, dy mapping scene → widget for the current picture."""
        w = self._world
        if w.isEmpty():
            return 1.0, 0.0, 0.0
        s = min((SIZE_W - 2 * MARGIN) / w.width(), (SIZE_H - 2 * MARGIN) / w.height())
        dx = MARGIN + (SIZE_W - 2 * MARGIN - w.width() * s) / 2 - w.left() * s
        dy = MARGIN + (SIZE_H - 2 * MARGIN - w.height() * s) / 2 - w.top() * s
        return s, dx, dy

    def _render(self) -> None:
        sc = self.view.planner
        self._world = sc.extent()
        ratio = self.devicePixelRatioF()
        img = QImage(int(SIZE_W * ratio), int(SIZE_H * ratio), QImage.Format.Format_ARGB32_Premultiplied)
        img.setDevicePixelRatio(ratio)
        img.fill(QColor(255, 255, 255, 235))
        if not self._world.isEmpty():
            s, dx, dy = self._transform()
            p = QPainter(img)
            p.translate(dx, dy)
            p.scale(s, s)
            sc.layer.render_overview(p, self._world, s)
            for block in sc.blocks.values():
                p.setPen(QPen(theme.RACK_STATUS_COLORS[0], 0))
                p.setBrush(QColor(200, 214, 236))
                p.drawRect(block.boundingRect())
            p.end()
        self._image = img
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        if self._image is None:
            self._render()
        p = QPainter(self)
        p.drawImage(0, 0, self._image)
        p.setPen(QPen(QColor(150, 158, 170)))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(self.rect().adjusted(0, 0, -1, -1))
        s, dx, dy = self._transform()
        seen = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        box = QRectF(seen.left() * s + dx, seen.top() * s + dy, seen.width() * s, seen.height() * s)
        box = box.intersected(QRectF(self.rect()))
        p.setPen(QPen(theme.SELECTION, 2))
        p.setBrush(QColor(30, 110, 250, 40))
        p.drawRect(box)
        p.end()

    # -- input ------------------------------------------------------------------------------------------
    def scene_point(self, pos: QPointF) -> QPointF:
        s, dx, dy = self._transform()
        return QPointF((pos.x() - dx) / s, (pos.y() - dy) / s)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if event.button() == Qt.MouseButton.LeftButton:
            self.view.centerOn(self.scene_point(event.position()))
            self.update()
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.view.centerOn(self.scene_point(event.position()))
            self.update()
        event.accept()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self._redraw.start()
