"""The scene's level-of-detail switch and its selection, mixed into ``scene.PlannerScene``.

Racks and devices that cannot be selected as items right now — disabled below the overview zoom, or without
an item inside a collapsed group — wait in ``pending_selected``: ``selected_ids`` reports them, and they are
handed to their items when those are enabled or made.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QTimer
from PySide6.QtWidgets import QGraphicsItem

from gpuplanner.ui.canvas import lod
from gpuplanner.ui.canvas.device_item import DeviceItem
from gpuplanner.ui.canvas.geometry import RACK_HEADER_H, rack_frame
from gpuplanner.ui.canvas.rack_item import RackItem


class SelectionMixin:
    # -- level of detail --------------------------------------------------------------------------------
    def set_scale(self, scale: float) -> None:
        overview = scale < lod.OVERVIEW_BELOW
        if overview != self.overview_mode:
            self.overview_mode = overview
            for item in list(self.device_items.values()) + list(self.rack_items.values()):
                item.setOpacity(0.0 if overview else 1.0)
            QTimer.singleShot(0, self._apply_enabled)  # after this frame: 4,000 calls cost ~6 ms

    def _apply_enabled(self) -> None:
        for item in list(self.device_items.values()) + list(self.rack_items.values()):
            item.setEnabled(not self.overview_mode)
        if not self.overview_mode and self.pending_selected:
            self._selecting = True
            for i in list(self.pending_selected):
                item = self.device_items.get(i) or self.rack_items.get(i)
                if item is not None:  # (ids without an item wait until their group is expanded)
                    item.setSelected(True)
                    self.pending_selected.discard(i)
            self._selecting = False
            self._on_selection()

    def _apply_lod(self, item: QGraphicsItem) -> None:
        item.setOpacity(0.0 if self.overview_mode else 1.0)
        item.setEnabled(not self.overview_mode)

    # -- selection --------------------------------------------------------------------------------------
    def selected_ids(self) -> list[str]:
        ids = [i.device_id for i in self.selectedItems() if isinstance(i, DeviceItem)]
        ids += [i.rack_id for i in self.selectedItems() if isinstance(i, RackItem)]
        p = self.project
        ids += sorted(i for i in self.pending_selected if i in p.devices or i in p.racks)
        return ids + sorted(self.layer.selected)

    def select_ids(self, ids: list[str] | set[str], add: bool = False) -> None:
        self._selecting = True
        if not add:
            self.clearSelection()
            self.layer.selected = set()
            self.pending_selected = set()
        for i in ids:
            item = self.device_items.get(i) or self.rack_items.get(i)
            if item is not None:
                if item.isEnabled():
                    item.setSelected(True)
                else:
                    self.pending_selected.add(i)
            elif i in self.project.devices or i in self.project.racks:
                self.pending_selected.add(i)  # inside a collapsed group: selected when its item is made
            elif i in self.layer.index:
                self.layer.selected.add(i)
        self.layer.update()
        self._selecting = False
        self._on_selection()

    def toggle_link(self, link_id: str | None, add: bool) -> None:
        if not add:
            self._selecting = True
            self.clearSelection()
            self._selecting = False
            self.layer.selected = set()
            self.pending_selected = set()
        if link_id is not None:
            self.layer.selected ^= {link_id}
        self.layer.update()
        self._on_selection()

    def _on_selection(self) -> None:
        if not self._selecting:
            ids = self.selected_ids()
            self.selectionIdsChanged.emit(ids)
            self.doc.view.select(ids)

    def items_rect(self, ids: list[str]) -> QRectF:
        r = QRectF()
        for i in ids:
            item = self.device_items.get(i) or self.rack_items.get(i)
            if item is not None:
                r = r.united(item.sceneBoundingRect())
            elif i in self.geom.index:  # a device inside a collapsed group
                r = r.united(self._geom_rect(self.geom.index[i]))
            elif i in self.project.racks:
                x, y, w, h = rack_frame(self.project, self.project.racks[i])
                r = r.united(QRectF(x, y - RACK_HEADER_H, w, h + RACK_HEADER_H))
            elif i in self.layer.index:
                x1, y1, x2, y2 = self.layer.xy[self.layer.index[i]]
                r = r.united(QRectF(QPointF(min(x1, x2), min(y1, y2)), QPointF(max(x1, x2), max(y1, y2))))
        return r
