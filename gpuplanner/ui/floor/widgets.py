"""The floor plan's graphics view (wheel zoom about the cursor, a scale bar, Delete for units) and the
legend's colour swatches."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPen, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QHBoxLayout, QLabel, QWidget

from gpuplanner.ui.floor.scene import PX_PER_M, FloorScene


class FloorGraphicsView(QGraphicsView):
    """Wheel zoom about the cursor, a scale bar in the corner."""

    def __init__(self, scene: FloorScene) -> None:
        super().__init__(scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.FullViewportUpdate)

    def scale_now(self) -> float:
        return self.transform().m11()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt API)
        dy = event.angleDelta().y()
        if dy:
            f = 1.0015**dy
            s = self.scale_now() * f
            if 0.02 <= s <= 8:
                self.scale(f, f)
                self.scene().update_lod(self.scale_now())
        event.accept()

    def fit(self) -> None:
        rect = self.scene().sceneRect()
        if not rect.isEmpty():
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
            if self.scale_now() > 2.5:
                self.resetTransform()
                self.scale(2.5, 2.5)
                self.centerOn(rect.center())
        self.scene().update_lod(self.scale_now())

    def drawForeground(self, p: QPainter, rect: QRectF) -> None:  # noqa: N802 (Qt API)
        """Scale bar: a round number of metres about 120 px long, bottom left of the viewport."""
        s = self.scale_now() * PX_PER_M  # px per metre on screen
        if s <= 0:
            return
        target = 120 / s
        metres = next((m for m in (0.5, 1, 2, 5, 10, 20, 50, 100, 200) if m >= target), 500)
        p.save()
        p.resetTransform()
        h = self.viewport().height()
        x0, y0, length = 14.0, h - 18.0, metres * s
        p.setPen(QPen(QColor(40, 40, 50), 2))
        p.drawLine(QPointF(x0, y0), QPointF(x0 + length, y0))
        p.drawLine(QPointF(x0, y0 - 5), QPointF(x0, y0 + 5))
        p.drawLine(QPointF(x0 + length, y0 - 5), QPointF(x0 + length, y0 + 5))
        p.drawText(QPointF(x0 + length + 6, y0 + 4), f"{metres:g} m")
        p.restore()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        # Delete reaches here only when no window shortcut took it (Edit ▸ Delete knows the floor tab too).
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            panel = self.parent()
            while panel is not None and not hasattr(panel, "delete_selected_units"):
                panel = panel.parent()  # the FloorPlanPanel that holds this view
            if panel is not None:
                panel.delete_selected_units()
                event.accept()
                return
        super().keyPressEvent(event)


def swatch(color: QColor, text: str, dashed: bool = False) -> QWidget:
    w = QWidget()
    lay = QHBoxLayout(w)
    lay.setContentsMargins(0, 0, 6, 0)
    lay.setSpacing(4)
    box = QLabel()
    box.setFixedSize(14, 14)
    border = "2px dashed" if dashed else "1px solid"
    box.setStyleSheet(f"background:{color.name()}; border:{border} #555;")
    lay.addWidget(box)
    lay.addWidget(QLabel(text))
    return w
