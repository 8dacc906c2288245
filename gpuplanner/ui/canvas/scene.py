"""The canvas scene: id → item maps kept in step with the model, ChangeSet by ChangeSet, and annotations
from the engine's Results applied to the items whose text or colour bucket changed.

Racks and devices are top-level items (under a common parent Qt would visit every child on every paint,
calling each Python ``boundingRect``); below ``lod.OVERVIEW_BELOW`` they are made transparent and disabled
(Qt skips them in C++) and the link layer's tiles draw them instead.

Items exist only for racks and devices outside the collapsed groups: collapsing a group removes its items,
expanding it creates them (with the latest annotations). A plan of more than ``OPEN_COLLAPSED_ABOVE``
devices opens with its groups collapsed, so a 131k-GPU plan opens with a few thousand items, not 31,791.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QTimer, Signal
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from gpuplanner.engine.analysis import Results
from gpuplanner.model import ChangeSet, Project, TableChange
from gpuplanner.ui import fmt, theme
from gpuplanner.ui.canvas import annotations as notes
from gpuplanner.ui.canvas import groups as grp
from gpuplanner.ui.canvas import lod
from gpuplanner.ui.canvas.collapse import GroupsMixin
from gpuplanner.ui.canvas.device_item import DeviceItem, Pad
from gpuplanner.ui.canvas.geometry import (
    RACK_HEADER_H,
    DeviceGeometry,
    device_size,
    is_framed,
    rack_frame,
    rack_frames,
    rack_ru,
)
from gpuplanner.ui.canvas.link_item import LinkLayer
from gpuplanner.ui.canvas.ports import port_groups, ports_used, speed_label
from gpuplanner.ui.canvas.rack_item import RackItem
from gpuplanner.ui.canvas.selection import SelectionMixin
from gpuplanner.ui.document import Document
from gpuplanner.ui.floor.layout import phase_allowed

OPEN_COLLAPSED_ABOVE = 10_000  # devices: a larger plan opens with its groups collapsed
# links: a plan with more opens in two steps — racks, devices and collapsed blocks are drawn first, its links
# are laid out right after that first paint (``add_links``; a 131k-GPU plan: 393,216 links, ~0.5 s)
LINKS_AFTER_PAINT_ABOVE = 100_000
LINKS_AT_THE_LATEST_MS = 250  # (also when nothing paints: a hidden window)
# fields of racks and devices that change a group's members or its block's rectangle
GROUP_FIELDS = frozenset({"*", "x", "y", "group", "rack_id", "u_position", "type_id", "row", "role"})


def _moves_groups(tc: TableChange | None) -> bool:
    """Whether a table change can change the groups or their blocks (a rack's budget or cooling cannot)."""
    if tc is None or tc.is_empty():
        return False
    return bool(tc.added or tc.removed or any(f & GROUP_FIELDS for f in tc.updated.values()))


class PlannerScene(SelectionMixin, GroupsMixin, QGraphicsScene):
    selectionIdsChanged = Signal(list)  # noqa: N815 (Qt signal naming)
    annotationsUpdated = Signal(int)  # noqa: N815 — number of items whose annotation changed
    groupsChanged = Signal()  # noqa: N815 — a group was collapsed or expanded
    linksAdded = Signal()  # noqa: N815 — a large plan's links are laid out (the second step of its open)

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.overview = lod.OverviewData()
        self.layer = LinkLayer(self.overview)
        self.layer.blocks = lambda: self.blocks.values()
        self.addItem(self.layer)
        self.overview_mode = False
        self.device_items: dict[str, DeviceItem] = {}
        self.rack_items: dict[str, RackItem] = {}
        self.geom: DeviceGeometry = DeviceGeometry.build(doc.project)
        self.busiest: dict[str, list[str]] = {}
        self._rack_status: dict[str, int] = {}
        self._selecting = False
        # Devices and racks selected while the overview disables their items (Qt cannot select a disabled
        # item): kept here, reported by selected_ids, and handed to the items when they are enabled again.
        self.pending_selected: set[str] = set()
        self._pad_cache: dict[str, tuple[Pad, ...]] = {}
        self.phase_id: str | None = None  # None = all phases
        self._allowed: set[str] | None = None  # the phases shown (None: all)
        self.collapsed: list[str] = []  # keys of the collapsed groups (groups.build_groups)
        self.blocks: dict[str, grp.GroupBlock] = {}
        self._group_hidden: set[str] = set()  # rack and device ids inside collapsed groups
        self._block_groups: list[grp.Group] = []
        self._block_index = grp.BlockIndex([])
        self._links_pending = False  # a large plan's links are laid out after its first paint
        self._overview_rack_row: dict[str, int] = {}  # rack id → its row in the overview's arrays
        self._groups: dict[str, grp.Group] | None = None  # (GroupsMixin.groups)
        self.selectionChanged.connect(self._on_selection)
        doc.changed.connect(self.apply_changes)
        doc.resultsReady.connect(self.apply_results)
        doc.projectReplaced.connect(self.rebuild)
        self.rebuild()

    @property
    def project(self) -> Project:
        return self.doc.project

    # -- building ---------------------------------------------------------------------------------------
    def rebuild(self) -> None:
        self._pad_cache.clear()  # (a new project may carry other catalog types under the same ids)
        for item in list(self.device_items.values()) + list(self.rack_items.values()):
            self.removeItem(item)
        for block in self.blocks.values():
            self.removeItem(block)
        self.device_items.clear()
        self.rack_items.clear()
        self.blocks.clear()
        self._group_hidden = set()
        self._block_groups = []
        self.pending_selected = set()
        self._rack_status.clear()
        self.forget_groups()
        self._allowed = phase_allowed(self.project, self.phase_id)
        self._links_pending = len(self.project.links) > LINKS_AFTER_PAINT_ABOVE
        self._rebuild_arrays()
        if self._links_pending:
            self.layer.after_paint = self.add_links
            QTimer.singleShot(LINKS_AT_THE_LATEST_MS, self.add_links)
        groups = None
        if len(self.project.devices) > OPEN_COLLAPSED_ABOVE:
            groups = self.groups()
            self.collapsed = [k for k, g in groups.items() if g.kind in ("su", "tier")]
        self._apply_groups(groups, sync_items=False)  # first: no items are made for what is collapsed
        hidden = self._group_hidden
        for rid in self.project.racks:
            if rid not in hidden:
                self._sync_rack(rid)
        g = self.geom  # (sizes computed once, for the arrays)
        for did, w, h in zip(g.ids, g.w.tolist(), g.h.tolist(), strict=True):
            if did not in hidden:
                self._sync_device(did, (w, h))
        if self.doc.results is not None:
            self.apply_results(self.doc.results)
        self._apply_phase()
        self._fit_scene_rect()

    # -- phases -----------------------------------------------------------------------------------------
    def set_phase(self, phase_id: str | None) -> None:
        """Show the project as it stands at the end of ``phase_id`` (its racks, devices and links and those
        of the phases before); None shows everything."""
        self.phase_id = phase_id or None
        self._apply_phase()

    def _apply_phase(self) -> None:
        allowed = self._allowed = phase_allowed(self.project, self.phase_id)
        if allowed is None and not self.layer.phase_off.any() and not self.overview.rack_off.any():
            return  # nothing filtered before or now: leave the items alone (a 16k canvas has 4,000)

        def shown(row) -> bool:
            return allowed is None or row.phase_id in allowed

        hidden = self._group_hidden
        for rid, item in self.rack_items.items():
            item.setVisible(shown(self.project.racks[rid]) and rid not in hidden)
        for did, item in self.device_items.items():
            item.setVisible(shown(self.project.devices[did]) and did not in hidden)
        racks = self.project.racks
        self.overview.rack_off = np.array([not shown(racks[i]) for i in self.overview.rack_ids], dtype=bool)
        devices = self.project.devices
        self.overview.device_off = np.array([not shown(devices[i]) for i in self.geom.ids], dtype=bool)
        links = self.project.links
        self.layer.phase_off = np.array([not shown(links[i]) for i in self.layer.ids], dtype=bool)
        self.layer.selected = {i for i in self.layer.selected if shown(links[i])}
        self.layer.invalidate_all()

    def _rebuild_arrays(self) -> None:
        self.geom = DeviceGeometry.build(self.project)
        self.overview.geom = self.geom
        self._sync_overview_racks()
        self.layer.rebuild(self.project, self.geom, with_links=not self._links_pending)
        self.layer.invalidate_all()

    def add_links(self) -> None:
        """The second step of opening a large plan: its links, their bundles at the collapsed blocks, the
        blocks' busiest uplinks and the links' colours from the results already there (nothing to do when
        the links are in)."""
        if not self._links_pending:
            return
        self._links_pending = False
        self.layer.after_paint = None
        self.layer.rebuild(self.project, self.geom)
        self._apply_phase()
        self._apply_groups()  # (the blocks' bundles and uplink figures)
        if self.doc.results is not None:
            self.apply_results(self.doc.results)
        self.layer.invalidate_all()
        self._fit_scene_rect()
        self.linksAdded.emit()

    @property
    def links_pending(self) -> bool:
        """True between the first paint of a large plan and its links being laid out."""
        return self._links_pending

    def _sync_overview_racks(self, only: set[str] | None = None) -> None:
        """The overview's rack frames and status colours: every rack, or only the racks ``only`` when no
        rack was added or removed since the last full sync (an edit of one rack's budget: one row, not
        5,167 frames)."""
        ov, racks = self.overview, self.project.racks
        pos = self._overview_rack_row
        if only is not None and len(pos) == len(racks) and all(i in pos for i in only):
            for i in only:
                k = pos[i]
                ov.rack_xywh[k] = rack_frame(self.project, racks[i])
                ov.rack_status[k] = self._rack_status.get(i, theme.RACK_OK)
            return
        ids = list(racks)
        xywh = rack_frames(self.project, racks.values())
        status = np.array([self._rack_status.get(i, theme.RACK_OK) for i in ids], dtype=np.int8)
        ov.set_racks(ids, xywh, status)
        self._overview_rack_row = {r: k for k, r in enumerate(ids)}

    def extent(self) -> QRectF:
        """What zoom to fit shows: the links' extent and every visible rack and device item (a rack dropped
        away from the fabric counts too)."""
        r = self.layer.fit_rect()
        hidden = self._group_hidden
        ov, g = self.overview, self.geom
        boxes = []
        if len(ov.rack_xywh) == len(ov.rack_ids) and len(ov.rack_ids):
            shown = ~ov.rack_off if len(ov.rack_off) == len(ov.rack_ids) else np.ones(len(ov.rack_ids), bool)
            if hidden:
                shown &= np.array([i not in hidden for i in ov.rack_ids], dtype=bool)
            boxes.append(ov.rack_xywh[shown])
        if len(g.ids):
            shown = ~ov.device_off if len(ov.device_off) == len(g.ids) else np.ones(len(g.ids), bool)
            if hidden:
                shown &= np.array([i not in hidden for i in g.ids], dtype=bool)
            boxes.append(np.column_stack([g.x, g.y, g.w, g.h])[shown])
        xywh = np.concatenate(boxes) if boxes else np.zeros((0, 4))
        if len(xywh):  # (arrays, not 30,000 sceneBoundingRect calls; 2 px for the items' pens)
            x0, y0 = xywh[:, 0].min() - 2, xywh[:, 1].min() - 2
            x1, y1 = (xywh[:, 0] + xywh[:, 2]).max() + 2, (xywh[:, 1] + xywh[:, 3]).max() + 2
            r = r.united(QRectF(x0, y0, x1 - x0, y1 - y0))
        return r

    def _fit_scene_rect(self) -> None:
        r = self.extent()
        if r.isNull():
            r = QRectF(0, 0, 1600, 1000)
        self.setSceneRect(r.adjusted(-2000, -1500, 2000, 1500))

    def _sync_rack(self, rid: str) -> None:
        """Make, update or remove the rack's item (none while the rack is inside a collapsed group)."""
        rack = self.project.racks.get(rid)
        item = self.rack_items.get(rid)
        if rack is None or rid in self._group_hidden:
            if item is not None:
                self.removeItem(item)
                del self.rack_items[rid]
            return
        if item is None:
            item = RackItem(rid)
            item.on_moved = self._rack_dragged
            self._new_item(item, rid, rack.phase_id)
            self.rack_items[rid] = item
            res = self.doc.results
            note = notes.rack_note_maker(res).get(rid) if res is not None else None
            if note is not None:
                item.set_annotation(note.kw_text, note.status, note.badge)
        item.set_shape(rack.name, rack_ru(self.project, rack))
        item.set_model_pos(rack.x, rack.y)

    def _sync_device(self, did: str, size: tuple[float, float] | None = None) -> None:
        """Make, update or remove the device's item (none while it is inside a collapsed group)."""
        dev = self.project.devices.get(did)
        item = self.device_items.get(did)
        if dev is None or did in self._group_hidden:
            if item is not None:
                self.removeItem(item)
                del self.device_items[did]
            return
        if item is None:
            item = DeviceItem(did)
            self._new_item(item, did, dev.phase_id)
            self.device_items[did] = item
            if self.doc.results is not None:
                item.set_annotation(self._device_kw_text(self.doc.results, did, {}))
        w, h = size if size is not None else device_size(self.project, dev)
        item.set_shape(dev.name, dev.role, w, h, self._pads(dev.id, dev.type_id))
        item.setPos(dev.x, dev.y)

    def _new_item(self, item: QGraphicsItem, item_id: str, phase_id: str) -> None:
        """A new rack or device item: the level of detail, the phase shown and a waiting selection."""
        self._apply_lod(item)
        if self._allowed is not None and phase_id not in self._allowed:
            item.setVisible(False)
        self.addItem(item)
        if item_id in self.pending_selected and item.isEnabled():
            self.pending_selected.discard(item_id)
            was, self._selecting = self._selecting, True
            item.setSelected(True)
            self._selecting = was

    def _pads(self, device_id: str, type_id: str) -> tuple[Pad, ...]:
        """The port-group pads of a device model (the same for every device of it: cached per model; what is
        in use goes into the tooltip, built on hover by ``pad_tooltip``)."""
        pads = self._pad_cache.get(type_id)
        if pads is None:
            pads = tuple(Pad(pg.name, pg.name) for pg in port_groups(self.project, type_id))
            self._pad_cache[type_id] = pads
        return pads

    def pad_tooltip(self, device_id: str, group: str) -> str:
        dev = self.project.devices.get(device_id)
        pg = (
            next((g for g in port_groups(self.project, dev.type_id) if g.name == group), None)
            if dev
            else None
        )
        if pg is None:
            return ""
        used = ports_used(self.project, device_id, pg.name, pg)
        return self.tr(
            "{name}: {n} × {speed} {type} — {used} in use; drag from here to another device's port group to link"
        ).format(
            name=pg.name,
            n=fmt.number(pg.count),
            speed=speed_label(pg.speed_gbps),
            type=pg.type,
            used=fmt.number(used, 0 if float(used).is_integer() else 1),
        )

    # -- model changes ----------------------------------------------------------------------------------
    def apply_changes(self, cs: ChangeSet) -> None:
        self.add_links()  # (an edit before a large plan's links are in: they come first)
        racks, devs, links = cs.tables.get("racks"), cs.tables.get("devices"), cs.tables.get("links")
        if (racks and not racks.is_empty()) or (devs and not devs.is_empty()):
            self.forget_groups()  # (names, rows and labels of groups come from these tables)
        structural = False
        if racks and not racks.is_empty():
            old = [self._rack_rect(r) for r in racks.updated if r in self.rack_items]
            for rid in racks.added | racks.removed | set(racks.updated):
                self._sync_rack(rid)
            self._sync_overview_racks(None if racks.added or racks.removed else set(racks.updated))
            self.layer.invalidate_rects(
                old + [self._rack_rect(r) for r in racks.added | set(racks.updated) if r in self.rack_items]
            )
            structural |= bool(racks.removed)  # devices may have been unracked (sizes change)
        if devs and not devs.is_empty():
            structural |= bool(devs.added or devs.removed)
            for did in devs.added | devs.removed | set(devs.updated):
                self._sync_device(did)
        if links and not links.is_empty():
            structural = True
        if structural:
            self._rebuild_arrays()
        elif devs and devs.updated:
            self._devices_moved(set(devs.updated))
        if self.phase_id is not None or "phases" in cs.tables:
            self._apply_phase()
        if self.collapsed and (structural or _moves_groups(racks) or _moves_groups(devs)):
            self._apply_groups()
        self._fit_scene_rect()

    def _rack_rect(self, rid: str) -> QRectF:
        item = self.rack_items[rid]
        return item.mapRectToScene(item.boundingRect())

    def _devices_moved(self, ids: set[str]) -> None:
        rows = np.array([self.geom.index[i] for i in ids if i in self.geom.index], dtype=np.int64)
        old_rects = [self._geom_rect(r) for r in rows]
        link_rows = self.layer.rows_of_devices(rows)
        self.layer.invalidate_rows(link_rows)
        self.geom.update(self.project, ids)
        self.layer.recompute(self.geom, link_rows)
        self.layer.invalidate_rows(link_rows)
        self.layer.invalidate_rects(old_rects + [self._geom_rect(r) for r in rows])

    def _geom_rect(self, row: int) -> QRectF:
        g = self.geom
        return QRectF(g.x[row], g.y[row], g.w[row], g.h[row]).adjusted(-2, -2, 2, 2)

    def sync_positions(self, ids: list[str]) -> None:
        """Put items back where the model says (after a refused or partly refused drag)."""
        for i in ids:
            if i in self.device_items:
                d = self.project.devices[i]
                self.device_items[i].setPos(d.x, d.y)
            elif i in self.rack_items:
                r = self.project.racks[i]
                self.rack_items[i].set_model_pos(r.x, r.y)
        self.geom.update(self.project, {i for i in ids if i in self.device_items})
        self.layer.recompute(self.geom)

    # -- live drag --------------------------------------------------------------------------------------
    def begin_live(self, device_ids: set[str]) -> None:
        # (a rack's device inside a collapsed group has no item and does not move with the rack)
        rows = np.array(
            [self.geom.index[i] for i in device_ids if i in self.geom.index and i in self.device_items],
            dtype=np.int64,
        )
        self._live_rows = rows
        self._live_links = self.layer.rows_of_devices(rows)
        self.layer.set_hidden(self._live_links)

    def update_live(self) -> None:
        rows = getattr(self, "_live_rows", None)
        if rows is None:
            return
        for r in rows:
            item = self.device_items[self.geom.ids[r]]
            p = item.scenePos()
            self.geom.x[r], self.geom.y[r] = p.x(), p.y()
        self.layer.recompute(self.geom, self._live_links)
        self.layer.update()

    def end_live(self) -> None:
        if getattr(self, "_live_rows", None) is None:
            return
        self._live_rows = None
        self.layer.set_hidden(None)

    def _rack_dragged(self, rack: RackItem, delta: QPointF) -> None:
        for did, item in self.device_items.items():
            d = self.project.devices[did]
            if d.rack_id == rack.rack_id and not item.isSelected() and is_framed(self.project, d):
                item.moveBy(delta.x(), delta.y())

    def rack_members(self, rack_id: str) -> list[str]:
        return [
            d.id for d in self.project.devices.values() if d.rack_id == rack_id and is_framed(self.project, d)
        ]

    def rack_at(self, x: float, y: float) -> str | None:
        """The rack whose frame (or header) contains the scene point (racks with an item: the others are
        inside collapsed groups)."""
        for rid, item in self.rack_items.items():
            r = item.mapRectToScene(item.frame().adjusted(0, -RACK_HEADER_H, 0, 0))
            if r.contains(QPointF(x, y)):
                return rid
        return None

    # -- results ----------------------------------------------------------------------------------------
    def apply_results(self, res: Results) -> None:
        changed = 0
        util = notes.link_util_for(res, self.layer.ids, self.layer.index)
        changed += len(self.layer.set_util(util))
        self.busiest = notes.busiest_kinds(res)
        rack_dirty: dict[str, QRectF] = {}
        note_of = notes.rack_note_maker(res)  # notes only for the racks with an item (not 5,167 at 131k)
        for rid, item in self.rack_items.items():
            note = note_of.get(rid)
            if note is None:
                continue
            if item.set_annotation(note.kw_text, note.status, note.badge):
                changed += 1
            if self._rack_status.get(rid) != note.status:
                self._rack_status[rid] = note.status
                rack_dirty[rid] = self._rack_rect(rid)
        if rack_dirty:
            self._sync_overview_racks(set(rack_dirty))
            self.layer.invalidate_rects(list(rack_dirty.values()))
        changed += self._device_annotations(res)
        if self.collapsed:
            changed += self._block_figures()
        self.annotationsUpdated.emit(changed)

    def _device_annotations(self, res: Results) -> int:
        """The kW line of every device that has an item (those in collapsed groups get theirs when made)."""
        changed = 0
        texts: dict[float, str] = {}  # devices of one model at one load share their text
        for did, item in self.device_items.items():
            if item.set_annotation(self._device_kw_text(res, did, texts)):
                changed += 1
        return changed

    def _device_kw_text(self, res: Results, did: str, texts: dict[float, str]) -> str:
        i = res.compiled.devices.row.get(did)
        load = res.power.device_load_w
        if i is None or load[i] <= 0:
            return ""
        kw = round(float(load[i]) / 1000, 1)
        text = texts.get(kw)
        if text is None:
            text = texts[kw] = self.tr("{kw} kW").format(kw=fmt.number(kw, 1))
        return text

    def link_tooltip(self, link_id: str) -> str:
        return notes.link_tooltip(self.project, self.doc.results, link_id, self.busiest)

    def item_tooltip(self, item: QGraphicsItem) -> str:
        """Built when the mouse rests on the item, from the latest results (not for every item per edit)."""
        res = self.doc.results
        if isinstance(item, DeviceItem):
            return notes.device_tooltip(self.project, res, item.device_id)
        if isinstance(item, RackItem):
            if res is None or item.rack_id not in res.compiled.racks.row:
                return self.project.racks[item.rack_id].name if item.rack_id in self.project.racks else ""
            return notes.rack_tooltip(res, item.rack_id)
        return ""
