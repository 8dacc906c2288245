"""The canvas view: zoom (wheel), pan (middle button or Space + drag, arrow keys), zoom to fit, rubber band
(devices, racks and the links inside), palette drops, link drawing from port-group pads, and moves that end
in one command. Link hover tooltips come from the link layer's hit test.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QPen, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsView, QToolTip, QWidget

from gpuplanner.commands import Command
from gpuplanner.core.errors import PlannerError
from gpuplanner.ui import field_labels, theme
from gpuplanner.ui.canvas import interactions, lod
from gpuplanner.ui.canvas.device_item import DeviceItem
from gpuplanner.ui.canvas.geometry import device_ru
from gpuplanner.ui.canvas.legend import Legend
from gpuplanner.ui.canvas.legend import collapsible as legend_box
from gpuplanner.ui.canvas.minimap import Minimap
from gpuplanner.ui.canvas.rack_item import RackItem
from gpuplanner.ui.canvas.scene import PlannerScene

MIN_SCALE, MAX_SCALE = 0.002, 6.0
HIT_PX = 5.0


class PlannerView(QGraphicsView):
    message = Signal(str)
    scaleChanged = Signal(float)  # noqa: N815 (Qt signal naming)

    def __init__(self, scene: PlannerScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ItemSelectionMode.ContainsItemShape)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setAcceptDrops(True)
        self.setMouseTracking(True)
        self.link_tool = False
        self._pan: QPoint | None = None
        self._space = False
        self._link_src: tuple[DeviceItem, str | None] | None = None
        self._link_line: QGraphicsLineItem | None = None
        self._live = False
        self._rubber = QRectF()
        self._hint_rack: RackItem | None = None
        self.rubberBandChanged.connect(self._on_rubber)
        self.legend = Legend(self)
        self.legend_box = legend_box(self.legend, self)
        self._legend_open = True
        self.legend_box.toggled.connect(self._legend_toggled)
        scene.layer.tiles  # noqa: B018 (the layer exists before the first paint)
        scene.annotationsUpdated.connect(lambda _n: self._legend_counts())
        self.legend.set_counts(list(map(int, scene.layer.bucket_counts())))
        self.minimap = Minimap(self)
        self.viewport().installEventFilter(self)

    @property
    def planner(self) -> PlannerScene:
        return self.scene()  # type: ignore[return-value]

    def scale_now(self) -> float:
        return self.transform().m11()

    # -- commands ---------------------------------------------------------------------------------------
    def push(self, cmd: Command | None, refusal: str = "") -> bool:
        if cmd is None:
            if refusal:
                self.message.emit(refusal)
            return False
        try:
            self.planner.doc.push(cmd)
        except PlannerError as exc:
            self.message.emit(field_labels.plain_error(exc))
            return False
        if refusal:
            self.message.emit(refusal)
        return True

    # -- zoom -------------------------------------------------------------------------------------------
    def zoom_by(self, factor: float) -> None:
        s = self.scale_now()
        factor = max(MIN_SCALE / s, min(MAX_SCALE / s, factor))
        self.scale(factor, factor)
        self._after_zoom()

    def set_zoom(self, scale: float, center: QPointF | None = None) -> None:
        self.resetTransform()
        self.scale(scale, scale)
        if center is not None:
            self.centerOn(center)
        self._after_zoom()

    def zoom_to_fit(self) -> None:
        rect = self.planner.extent()
        scene_rect = self.planner.sceneRect()
        if not scene_rect.contains(rect):  # scroll bars would clamp the fit to the old scene rect
            self.planner.setSceneRect(scene_rect.united(rect.adjusted(-2000, -1500, 2000, 1500)))
        if rect.isNull() or rect.isEmpty():
            rect = QRectF(0, 0, 800, 600)
        self.fitInView(rect.adjusted(-40, -40, 40, 40), Qt.AspectRatioMode.KeepAspectRatio)
        if self.scale_now() > 1.5:
            self.set_zoom(1.5, rect.center())
        self._after_zoom()

    def show_ids(self, ids: list[str]) -> None:
        """Bring the items into view, zoomed in far enough to see them as items."""
        rect = self.planner.items_rect(ids)
        if rect.isNull():
            return
        vp = self.viewport().rect()
        fit = min(vp.width() / max(rect.width() + 200, 1), vp.height() / max(rect.height() + 200, 1))
        self.set_zoom(max(min(fit, 1.0), lod.OVERVIEW_BELOW * 2.5), rect.center())

    def _after_zoom(self) -> None:
        s = self.scale_now()
        self.planner.set_scale(s)
        self.scaleChanged.emit(s)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt API)
        dy = event.angleDelta().y()
        if dy:
            self.zoom_by(1.0015**dy)
        event.accept()

    # -- mouse ------------------------------------------------------------------------------------------
    def _device_at(self, pos: QPoint) -> DeviceItem | None:
        if self.planner.overview_mode:
            return None
        for item in self.items(pos):
            if isinstance(item, DeviceItem):
                return item
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        pos = event.position().toPoint()
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space
        ):
            self._pan = pos
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton and self._block_at(pos) is not None:
            event.accept()  # a collapsed group: double-click expands it; a press selects nothing
            return
        if event.button() == Qt.MouseButton.LeftButton:
            add = bool(
                event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
            )
            sp = self.mapToScene(pos)
            item = self._device_at(pos)
            if item is not None:
                pad = item.pad_at(item.mapFromScene(sp)) if self.scale_now() >= lod.PADS_SCALE else None
                if pad is not None or self.link_tool:
                    self._start_link(item, pad, sp)
                    event.accept()
                    return
            elif not any(isinstance(i, RackItem) for i in self.items(pos)):
                hit = self.planner.layer.hit(sp, HIT_PX / self.scale_now())
                if hit is not None:
                    self.planner.toggle_link(hit, add)
                    event.accept()
                    return
                if not add:
                    self.planner.toggle_link(None, False)
        super().mousePressEvent(event)

    def _block_at(self, pos: QPoint) -> str | None:
        sp = self.mapToScene(pos)
        return self.planner.block_at(sp.x(), sp.y())

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        """Double-click on a collapsed group expands it."""
        key = self._block_at(event.position().toPoint())
        if key is not None and event.button() == Qt.MouseButton.LeftButton:
            self.planner.expand(key)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        pos = event.position().toPoint()
        if self._pan is not None:
            d = pos - self._pan
            self._pan = pos
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - d.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - d.y())
            return
        if self._link_line is not None:
            line = self._link_line.line()
            line.setP2(self.mapToScene(pos))
            self._link_line.setLine(line)
            return
        super().mouseMoveEvent(event)
        grabber = self.planner.mouseGrabberItem()
        if event.buttons() & Qt.MouseButton.LeftButton and isinstance(grabber, DeviceItem | RackItem):
            if not self._live:
                self._live = True
                self.planner.begin_live(set(self._moving_ids()[0]))
            self.planner.update_live()
            self._show_move_hint(grabber)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        if self._pan is not None:
            self._pan = None
            self.viewport().unsetCursor()
            event.accept()
            return
        if self._link_line is not None:
            self._finish_link(event.position().toPoint())
            event.accept()
            return
        rubber = QRectF(self._rubber)
        super().mouseReleaseEvent(event)
        if not rubber.isNull():
            add = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            self.planner.select_ids(self.planner.selected_ids() + self.planner.layer.in_rect(rubber), add=add)
            self._rubber = QRectF()
        if self._live:
            self._live = False
            self._finish_move()

    def _on_rubber(self, rect: QPoint, from_scene: QPointF, to_scene: QPointF) -> None:
        if not rect.isNull():
            self._rubber = QRectF(from_scene, to_scene).normalized()

    # -- moves ------------------------------------------------------------------------------------------
    def _moving_ids(self) -> tuple[list[str], list[str]]:
        sel = self.planner.selectedItems()
        racks = [i.rack_id for i in sel if isinstance(i, RackItem)]
        devs = [i.device_id for i in sel if isinstance(i, DeviceItem)]
        for r in racks:
            devs += [d for d in self.planner.rack_members(r) if d not in devs]
        return devs, racks

    def _finish_move(self) -> None:
        sc = self.planner
        devs, racks = self._moving_ids()
        if self._hint_rack is not None:
            self._hint_rack.set_drop_hint(None)
            self._hint_rack = None
        project = sc.project
        dev_pos = {}
        for d in devs:
            if d not in sc.device_items:  # (a rack's device inside a collapsed group stays where it is)
                continue
            p = sc.device_items[d].pos()
            if (p.x(), p.y()) != (project.devices[d].x, project.devices[d].y):
                dev_pos[d] = (round(p.x(), 1), round(p.y(), 1))
        rack_pos = {}
        for r in racks:
            p = sc.rack_items[r].pos()
            if (p.x(), p.y()) != (project.racks[r].x, project.racks[r].y):
                rack_pos[r] = (round(p.x(), 1), round(p.y(), 1))
        sc.end_live()
        if dev_pos or rack_pos:
            cmd, refusals = interactions.move_command(project, dev_pos, rack_pos, sc.rack_at)
            self.push(cmd, "; ".join(refusals))
        sc.sync_positions(devs + racks)

    def _show_move_hint(self, grabber: DeviceItem | RackItem) -> None:
        if not isinstance(grabber, DeviceItem):
            return
        c = grabber.sceneBoundingRect().center()
        rid = self.planner.rack_at(c.x(), c.y())
        item = self.planner.rack_items.get(rid) if rid else None
        if self._hint_rack is not None and self._hint_rack is not item:
            self._hint_rack.set_drop_hint(None)
        self._hint_rack = item
        if item is not None:
            d = self.planner.project.devices[grabber.device_id]
            ru = device_ru(self.planner.project, d)
            occ = interactions.Occupancy(self.planner.project, frozenset({d.id}))
            u = occ.first_free(rid, ru) if d.rack_id != rid else max(1, d.u_position or 1)
            item.set_drop_hint((u, ru, True) if u is not None else (1, ru, False))

    # -- link drawing -----------------------------------------------------------------------------------
    def _start_link(self, item: DeviceItem, group: str | None, sp: QPointF) -> None:
        start = item.pad_scene_pos(group) if group else item.sceneBoundingRect().center()
        self._link_src = (item, group)
        line = QGraphicsLineItem(start.x(), start.y(), sp.x(), sp.y())
        pen = QPen(theme.SELECTION, 2, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        line.setPen(pen)
        line.setZValue(10)
        self.planner.addItem(line)
        self._link_line = line

    def _finish_link(self, pos: QPoint) -> None:
        src, group = self._link_src  # type: ignore[misc]
        self.planner.removeItem(self._link_line)
        self._link_line = None
        self._link_src = None
        target = self._device_at(pos)
        if target is None or target is src:
            return
        sp = self.mapToScene(pos)
        tgroup = target.pad_at(target.mapFromScene(sp)) if self.scale_now() >= lod.PADS_SCALE else None
        cmd, why = interactions.link_command(
            self.planner.project, src.device_id, group, target.device_id, tgroup
        )
        if cmd is None:
            QToolTip.showText(self.viewport().mapToGlobal(pos), why, self.viewport())
        self.push(cmd, why)

    # -- palette drops ----------------------------------------------------------------------------------
    def _catalog_id(self, event) -> str | None:
        mime = event.mimeData()
        if mime.hasFormat(interactions.CATALOG_MIME):
            return bytes(mime.data(interactions.CATALOG_MIME).data()).decode("utf-8")
        return None

    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if self._catalog_id(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 (Qt API)
        type_id = self._catalog_id(event)
        if not type_id:
            event.ignore()
            return
        event.acceptProposedAction()
        sp = self.mapToScene(event.position().toPoint())
        rid = self.planner.rack_at(sp.x(), sp.y())
        item = self.planner.rack_items.get(rid) if rid else None
        if self._hint_rack is not None and self._hint_rack is not item:
            self._hint_rack.set_drop_hint(None)
        self._hint_rack = item
        entry = self.planner.project.catalog.entries.get(type_id)
        ru = int(getattr(entry, "ru", 0) or 0)
        if item is not None and ru:
            u = interactions.Occupancy(self.planner.project).first_free(rid, ru)
            item.set_drop_hint((u, ru, True) if u is not None else (1, ru, False))

    def dragLeaveEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if self._hint_rack is not None:
            self._hint_rack.set_drop_hint(None)
            self._hint_rack = None

    def dropEvent(self, event) -> None:  # noqa: N802 (Qt API)
        type_id = self._catalog_id(event)
        self.dragLeaveEvent(event)
        if not type_id:
            event.ignore()
            return
        sp = self.mapToScene(event.position().toPoint())
        rid = self.planner.rack_at(sp.x(), sp.y())
        cmd, note = interactions.drop_command(self.planner.project, type_id, sp.x(), sp.y(), rid)
        self.push(cmd, note)
        event.acceptProposedAction()

    # -- tooltips, keys, resize -------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        """Link tooltips (an event filter on the viewport: overriding viewportEvent crashes during the
        base class constructor)."""
        if watched is self.viewport() and event.type() == QEvent.Type.ToolTip:
            pos = event.pos()
            items = [i for i in self.items(pos) if isinstance(i, DeviceItem | RackItem)]
            text = ""
            if items and not self.planner.overview_mode:
                item = items[0]
                pad = (
                    item.pad_at(item.mapFromScene(self.mapToScene(pos)))
                    if isinstance(item, DeviceItem)
                    else None
                )
                text = self.planner.pad_tooltip(item.device_id, pad) if pad else ""
                text = text or self.planner.item_tooltip(item)
            else:
                hit = self.planner.layer.hit(self.mapToScene(pos), HIT_PX / self.scale_now())
                text = self.planner.link_tooltip(hit) if hit is not None else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        step = 60
        keys = {
            Qt.Key.Key_Left: (-step, 0),
            Qt.Key.Key_Right: (step, 0),
            Qt.Key.Key_Up: (0, -step),
            Qt.Key.Key_Down: (0, step),
        }
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
        elif event.key() in keys:
            dx, dy = keys[event.key()]
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + dx)
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() + dy)
        elif event.key() == Qt.Key.Key_Escape and self._link_line is not None:
            self.planner.removeItem(self._link_line)
            self._link_line = None
            self._link_src = None
        else:
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
        else:
            super().keyReleaseEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self._place_legend()

    def _legend_counts(self) -> None:
        self.legend.set_counts([int(n) for n in self.planner.layer.bucket_counts()])
        self._place_legend()

    def _legend_toggled(self, on: bool) -> None:
        self._legend_open = on
        QTimer.singleShot(0, self._place_legend)  # after the box has laid its content out

    def _place_legend(self) -> None:
        vp = self.viewport().geometry()
        self.legend.set_max_width(vp.width() - 24)
        box = self.legend_box
        btn = box.toggleButton().sizeHint()
        if self._legend_open:
            hint = self.legend.sizeHint()
            w, h = max(hint.width(), btn.width()) + 6, btn.height() + hint.height() + 6
        else:
            w, h = btn.width() + 8, btn.height() + 4
        box.setFixedSize(w, h)
        box.move(vp.left() + 8, vp.bottom() - h - 8)
        self.minimap.move(vp.right() - self.minimap.width() - 8, vp.top() + 8)
