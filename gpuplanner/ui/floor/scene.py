"""The floor-plan scene: the hall, its rows and aisles, racks coloured by kW density, cooling and power units
with their load against capacity. Scene units are metres × ``PX_PER_M``; racks and units are dragged with the
mouse and dropped through ``layout.move_rack`` / ``layout.move_unit`` (one undo step per drop).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from gpuplanner.engine.analysis import Results
from gpuplanner.model import FloorItem, Project
from gpuplanner.ui import fmt, theme
from gpuplanner.ui.canvas.annotations import rack_status, rack_tooltip
from gpuplanner.ui.floor import layout as fl
from gpuplanner.ui.floor.cable_runs import CableRunsItem, rack_runs, run_label
from gpuplanner.ui.i18n import translate

PX_PER_M = 50.0
# kW density buckets (upper edges, kW at max): the usual limits of open air, contained air, passive rear
# doors and active rear doors (catalogs/cooling max_kw_per_rack: 10, 25, 32, 75); above: liquid.
DENSITY_EDGES_KW = (10.0, 25.0, 45.0, 75.0)
DENSITY_COLORS = (
    QColor(120, 190, 120),
    QColor(190, 215, 90),
    QColor(245, 190, 70),
    QColor(235, 120, 50),
    QColor(200, 50, 60),
)
EMPTY_RACK = QColor(235, 237, 240)
AISLE_COLORS = {"cold": QColor(220, 235, 252), "hot": QColor(252, 228, 222)}
UNIT_COLORS = {"cooling": QColor(70, 140, 210), "power": QColor(200, 140, 40)}
OVERLOAD = QColor(210, 30, 30)


def density_labels() -> list[str]:
    e, n = DENSITY_EDGES_KW, fmt.number
    return [
        translate("floor", "≤ {a} kW").format(a=n(e[0])),
        translate("floor", "{a}–{b} kW").format(a=n(e[0]), b=n(e[1])),
        translate("floor", "{a}–{b} kW").format(a=n(e[1]), b=n(e[2])),
        translate("floor", "{a}–{b} kW").format(a=n(e[2]), b=n(e[3])),
        translate("floor", "> {a} kW").format(a=n(e[3])),
    ]


def density_color(kw: float) -> QColor:
    if not math.isfinite(kw) or kw <= 0:
        return EMPTY_RACK
    return DENSITY_COLORS[int(np.searchsorted(DENSITY_EDGES_KW, kw, side="left"))]


def px(m: float) -> float:
    return m * PX_PER_M


def _font(px_size: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPixelSize(max(1, int(px_size)))
    f.setBold(bold)
    return f


class _Draggable(QGraphicsRectItem):
    """A rack or unit tile: moved by the mouse; the scene turns the drop into a command."""

    def __init__(self, item_id: str, rect: QRectF) -> None:
        super().__init__(QRectF(0, 0, rect.width(), rect.height()))
        self.item_id = item_id
        self.setPos(rect.topLeft())
        self.home = QPointF(rect.topLeft())
        self.setFlags(
            QGraphicsItem.GraphicsItemFlag.ItemIsMovable | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
        )
        self.setAcceptHoverEvents(True)

    def moved(self) -> bool:
        return (self.pos() - self.home).manhattanLength() > 0.5


def short_rack_name(name: str, row: str) -> str:
    """What a rack tile shows when its full name does not fit: the part after the row's name ("R03-07" in
    row R03: "07"), else the trailing number, else the name."""
    if row and name.startswith(row) and name[len(row) :].strip("-_ ./"):
        return name[len(row) :].strip("-_ ./")
    m = re.search(r"(\d+)$", name)
    return m.group(1) if m else name


LABEL_PX = 10  # rack label height on screen when zoomed out (larger when zoomed in)


class RackTile(_Draggable):
    def __init__(self, rack_id: str, name: str, rect: QRectF, row: str = "") -> None:
        super().__init__(rack_id, rect)
        self.name = name
        self.short = short_rack_name(name, row)
        self.kw_max = float("nan")
        self.status = theme.RACK_OK
        self.cooling = ""
        self.setZValue(2)

    def label_lines(self, lod: float) -> list[str]:
        """The label that fits the tile at ``lod`` (screen px per scene px): name and kW, the name, the
        short name, or nothing. Racks are narrow and deep: text runs along the depth."""
        font = _font(max(LABEL_PX / lod, LABEL_PX))
        fm = QFontMetricsF(font)
        r = self.rect()
        across, along = r.width() - 2, r.height() - 4
        if self.cooling:
            along -= 12
        kw = f"{fmt.number(self.kw_max)} kW" if math.isfinite(self.kw_max) else ""
        width = fm.horizontalAdvance
        if kw and across >= 2 * fm.height() and max(width(self.name), width(kw)) <= along:
            return [self.name, kw]
        for text in (self.name, self.short):
            if across >= fm.height() * 0.95 and width(text) <= along:
                return [text]
        return []

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        r = self.rect()
        p.setBrush(QBrush(density_color(self.kw_max)))
        border = theme.SELECTION if self.isSelected() else theme.RACK_STATUS_COLORS[self.status]
        p.setPen(QPen(border, 3 if self.isSelected() or self.status else 1))
        p.drawRect(r)
        lod = max(option.levelOfDetailFromTransform(p.worldTransform()), 1e-6)
        if self.cooling:  # the cooling's colour strip; its word only where it can be read (≥ 7 px)
            badge = theme.cooling_badge(self.cooling)
            box = QRectF(r.left() + 1, r.top() + 1, r.width() - 2, 11)
            p.fillRect(box, badge.color)
            p.setFont(_font(8, bold=True))
            if lod * 8 >= 7 and QFontMetricsF(p.font()).horizontalAdvance(badge.text) <= box.width():
                p.setPen(QColor("white"))
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, badge.text)
        lines = self.label_lines(lod)
        if not lines:
            return
        p.setPen(QColor(20, 24, 30))
        p.setFont(_font(max(LABEL_PX / lod, LABEL_PX)))
        top = 12 if self.cooling else 0
        p.save()
        p.translate(QPointF(r.center().x(), r.center().y() + top / 2))
        p.rotate(-90)  # racks are narrow and deep: write along the depth
        along = r.height() - top
        text_rect = QRectF(-along / 2 + 2, -r.width() / 2, along - 4, r.width())
        p.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, "\n".join(lines))
        p.restore()


class _BoxedText(QGraphicsSimpleTextItem):
    """Text on a pale box, readable over racks and aisle colours."""

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        p.fillRect(self.boundingRect().adjusted(-2, -1, 2, 1), QColor(255, 255, 255, 215))
        super().paint(p, option, widget)


class UnitTile(_Draggable):
    def __init__(self, unit: FloorItem, rect: QRectF) -> None:
        super().__init__(unit.id, rect)
        self.unit = unit
        self.load_kw = float("nan")
        self.setZValue(3)
        # The label keeps its size at any zoom (a projector in a meeting): name and load / rating.
        self.label = _BoxedText(self)
        self.label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.label.setFont(_font(12, bold=True))
        self.label.setPos(0, 0)
        self.refresh_label()

    def refresh_label(self) -> None:
        self.label.setText(f"{fl.unit_caption(self.unit)}\n{self.load_text()}")
        self.label.setBrush(OVERLOAD if self.overloaded else QColor(30, 36, 46))
        # Above the unit, in screen pixels (the label ignores the zoom): racks beside it stay visible.
        self.label.setTransform(QTransform.fromTranslate(0, -self.label.boundingRect().height() - 3))

    @property
    def family(self) -> str:
        return "power" if self.unit.kind in ("pdu", "busway", "utility-feed") else "cooling"

    @property
    def overloaded(self) -> bool:
        cap = self.unit.capacity_kw
        return cap > 0 and math.isfinite(self.load_kw) and self.load_kw > cap + 1e-9

    def load_text(self) -> str:
        cap = self.unit.capacity_kw
        load = fmt.number(self.load_kw) if math.isfinite(self.load_kw) else "–"
        if cap <= 0:
            return translate("floor", "{load} kW / not rated").format(load=load)
        return translate("floor", "{load} / {cap} kW").format(load=load, cap=fmt.number(cap))

    def tooltip(self) -> str:
        u = self.unit
        serves = (
            translate("floor", "serves row {row}").format(row=u.row)
            if u.row
            else translate("floor", "serves the whole hall")
        )
        lines = [fl.unit_caption(u), fl.unit_kind_name(u.kind), serves, self.load_text()]
        if self.overloaded:
            lines.append(
                translate(
                    "floor", "overloaded: add a unit, move racks to another row or choose a larger unit"
                )
            )
        return "\n".join(lines)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        r = self.rect()
        color = UNIT_COLORS[self.family]
        p.setBrush(QBrush(color.lighter(170)))
        pen = QPen(OVERLOAD if self.overloaded else color, 3 if self.overloaded else 1.5)
        if self.unit.capacity_kw <= 0:
            pen.setStyle(Qt.PenStyle.DashLine)
        if self.isSelected():
            pen = QPen(theme.SELECTION, 3)
        p.setPen(pen)
        p.drawRoundedRect(r, 4, 4)
        cap = self.unit.capacity_kw
        if cap > 0 and math.isfinite(self.load_kw):  # fill gauge along the bottom
            frac = min(self.load_kw / cap, 1.0)
            bar = QRectF(r.left() + 2, r.bottom() - 7, (r.width() - 4) * frac, 5)
            p.fillRect(bar, OVERLOAD if self.overloaded else color)


class FloorScene(QGraphicsScene):
    """Rebuilt from the project (``rebuild``), recoloured from results (``apply_results``)."""

    def __init__(self, on_drop: Callable[[list[_Draggable]], None]) -> None:
        super().__init__()
        self.on_drop = on_drop
        self.racks: dict[str, RackTile] = {}
        self.units: dict[str, UnitTile] = {}
        self.row_labels: dict[str, QGraphicsSimpleTextItem] = {}
        self.layout: fl.FloorLayout | None = None
        self.project: Project | None = None
        self.scale = 1.0  # the view's scale (screen px per scene px), for the fixed-size labels
        self.runs = CableRunsItem()
        self.addItem(self.runs)
        self.setBackgroundBrush(QColor(250, 250, 251))

    # -- building ---------------------------------------------------------------------------------------
    def rebuild(self, project: Project, allowed_phases: set[str] | None) -> None:
        self.clear()
        self.racks.clear()
        self.units.clear()
        self.row_labels.clear()
        self.project = project
        lay = fl.floor_layout(project)
        self.layout = lay
        self.setSceneRect(QRectF(px(lay.x0_m), px(lay.y0_m), px(lay.width_m), px(lay.depth_m)))
        self._add_row_labels()
        for rid, box in lay.racks.items():
            rack = project.racks[rid]
            if allowed_phases is not None and rack.phase_id not in allowed_phases:
                continue
            rect = QRectF(px(box.x_m), px(box.y_m), px(box.w_m), px(box.d_m))
            tile = RackTile(rid, rack.name, rect, rack.row)
            self.addItem(tile)
            self.racks[rid] = tile
        for unit in project.tables["floor_items"].values():
            if allowed_phases is not None and unit.phase_id not in allowed_phases:
                continue
            rect = QRectF(px(unit.x_m), px(unit.y_m), px(unit.width_m), px(unit.depth_m))
            tile = UnitTile(unit, rect)
            self.addItem(tile)
            self.units[unit.id] = tile
        self.runs = CableRunsItem()
        self.runs.hide()
        self.addItem(self.runs)
        self.place_row_labels()

    def apply_results(self, res: Results | None) -> None:
        if res is None:
            return
        c = res.compiled
        index = {rid: i for i, rid in enumerate(c.racks.ids)}
        status = rack_status(res)
        methods = res.thermal.table.methods
        for rid, tile in self.racks.items():
            i = index.get(rid)
            if i is None:
                continue
            tile.kw_max = float(res.power.rack_kw_max[i])
            tile.status = int(status[i])
            k = int(res.thermal.rack_cooling[i])
            tile.cooling = methods[k] if 0 <= k < len(methods) else ""
            tile.setToolTip(rack_tooltip(res, rid))
            tile.update()
        for uid, tile in self.units.items():
            tile.load_kw = res.floor_loads.get(uid, (float("nan"), 0.0))[0]
            tile.setToolTip(tile.tooltip())
            tile.refresh_label()
            tile.update()
        self.place_row_labels()

    def show_runs(self, rack_id: str | None, res: Results | None) -> None:
        """Draw the cable runs of ``rack_id`` to the racks on the plan it connects to (None: hide them)."""
        tile = self.racks.get(rack_id) if rack_id else None
        if tile is None or res is None:
            self.runs.set_runs(QPointF(), [])
            return
        ends = []
        for run in rack_runs(res, tile.item_id):
            far = self.racks.get(run.rack_id)
            if far is not None:  # (a rack outside the phase shown is not drawn)
                r = far.sceneBoundingRect()
                ends.append((QPointF(r.center().x(), r.top()), run_label(run), run.too_long > 0))
        r = tile.sceneBoundingRect()
        self.runs.set_runs(QPointF(r.center().x(), r.top()), ends)

    # -- background: hall, rows, aisles, grid -----------------------------------------------------------
    def drawBackground(self, p: QPainter, rect: QRectF) -> None:  # noqa: N802 (Qt API)
        super().drawBackground(p, rect)
        lay = self.layout
        if lay is None:
            return
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(p.worldTransform())
        self._grid(p, rect, lod)
        if lay.hall_width_m and lay.hall_depth_m:
            p.setPen(QPen(QColor(60, 60, 70), 3))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(QRectF(0, 0, px(lay.hall_width_m), px(lay.hall_depth_m)))
        x_left = px(lay.x0_m + 0.2)
        width = px(lay.width_m - 0.4)
        for band in lay.rows:
            # the aisle in front of the row (its fronts face it), then the row's own strip
            aisle = self.aisle_rect(band)
            color = AISLE_COLORS.get(band.aisle, AISLE_COLORS["cold"])
            p.fillRect(aisle, color)
            if band.contained:
                p.setPen(QPen(color.darker(150), 2, Qt.PenStyle.DashLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(aisle)
            p.fillRect(QRectF(x_left, px(band.y_m), width, px(band.depth_m)), QColor(238, 240, 244, 160))

    def aisle_rect(self, band: fl.RowBand) -> QRectF:
        lay = self.layout
        assert lay is not None
        pitch = self.project.site.row_pitch_m if self.project else 3.0
        aisle_h = max(pitch - band.depth_m, 0.6)
        return QRectF(px(lay.x0_m + 0.2), px(band.y_m - aisle_h), px(lay.width_m - 0.4), px(aisle_h))

    def _add_row_labels(self) -> None:
        assert self.layout is not None
        for band in self.layout.rows:
            item = QGraphicsSimpleTextItem(self._row_label(band))
            item.setFont(_font(12, bold=True))
            item.setBrush(QColor(60, 70, 86))
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            item.setZValue(1)
            self.addItem(item)
            self.row_labels[band.label] = item

    @staticmethod
    def fixed_rect(item: QGraphicsItem, scale: float) -> QRectF:
        """Where a label that ignores the zoom covers the scene at ``scale``: its position is in the scene,
        its size (and its own translation) in screen pixels."""
        br = item.boundingRect().adjusted(-2, -1, 2, 1)  # the pale box of a unit label
        shift = item.transform().map(QPointF(0, 0))
        origin = item.parentItem().mapToScene(item.pos()) if item.parentItem() else item.pos()
        return QRectF(
            origin.x() + (br.left() + shift.x()) / scale,
            origin.y() + (br.top() + shift.y()) / scale,
            br.width() / scale,
            br.height() / scale,
        )

    def label_obstacles(self) -> list[QRectF]:
        """What a row label must not cover: every rack and unit, and each unit's label."""
        out = [t.sceneBoundingRect() for t in (*self.racks.values(), *self.units.values())]
        out += [self.fixed_rect(t.label, self.scale) for t in self.units.values() if t.label.isVisible()]
        return out

    def place_row_labels(self) -> None:
        """Each row's label in its aisle, at the first place from the left where it covers no rack, unit or
        unit label (the label keeps its size on screen, so where it fits depends on the zoom); in the row's
        own strip, or across aisle and strip, when the aisle is full or too narrow; shortened to "Row R03",
        then "R03" (the whole text in its tooltip) when only that fits within the rows' width; past the rows'
        end over empty floor; else left of everything."""
        if self.layout is None or not self.row_labels:
            return
        s = max(self.scale, 1e-6)
        taken = self.label_obstacles()
        pad = 4 / s
        fm = QFontMetricsF(_font(12, bold=True))
        for band in self.layout.rows:
            item = self.row_labels.get(band.label)
            if item is None:
                continue
            aisle = self.aisle_rect(band)
            strip = QRectF(aisle.left(), px(band.y_m), aisle.width(), px(band.depth_m))
            places = (aisle, strip, aisle.united(strip))
            texts = [
                self._row_label(band),
                translate("floor", "Row {row}").format(row=band.label),
                band.label,
            ]
            tries = [(t, b, True) for t in texts for b in places] + [(texts[0], b, False) for b in places]
            h = fm.height() / s
            spot, text = None, texts[0]
            for text, place, within in tries:
                spot = self._free_spot(place, fm.horizontalAdvance(text) / s, h, pad, taken, within)
                if spot is not None:
                    break
            if spot is None:
                left = min([aisle.left(), *(r.left() for r in taken)])
                spot = QPointF(left - fm.horizontalAdvance(text) / s - 2 * pad, aisle.top() + 2 / s)
            item.setText(text)
            item.setToolTip(texts[0])
            item.setPos(spot)
            taken.append(QRectF(spot.x(), spot.y(), item.boundingRect().width() / s, h))

    @staticmethod
    def _free_spot(
        band: QRectF, w: float, h: float, pad: float, taken: list[QRectF], within: bool = True
    ) -> QPointF | None:
        """The leftmost free place for a w × h label in ``band`` (at its top, else its bottom), clear of
        ``taken`` by ``pad``; ``within=False`` lets the label run past the band's right end."""
        ys = [band.top() + pad / 2, band.bottom() - h - pad / 2]
        for y in ys if band.height() >= h + pad else []:
            near = [r for r in taken if r.top() < y + h + pad and r.bottom() > y - pad]
            for x in sorted([band.left() + pad, *(r.right() + pad for r in near)]):
                if within and x + w > band.right():
                    break
                box = QRectF(x - pad / 2, y, w + pad, h)
                if not any(box.intersects(r) for r in near):
                    return QPointF(x, y)
        return None

    def update_lod(self, scale: float) -> None:
        """Hide fixed-size labels when they would pile up: row labels when rows are closer on screen than a
        line of text, unit labels when the plan is tiny."""
        self.scale = scale
        pitch = self.project.site.row_pitch_m if self.project else 3.0
        show_rows = px(pitch) * scale >= 18
        for item in self.row_labels.values():
            item.setVisible(show_rows)
        for tile in self.units.values():
            tile.label.setVisible(scale >= 0.08)
        self.place_row_labels()

    @staticmethod
    def _row_label(band: fl.RowBand) -> str:
        aisle = translate("floor", "cold aisle") if band.aisle == "cold" else translate("floor", "hot aisle")
        if band.contained:
            return translate("floor", "Row {row} · {aisle}, contained").format(row=band.label, aisle=aisle)
        return translate("floor", "Row {row} · {aisle}").format(row=band.label, aisle=aisle)

    @staticmethod
    def _grid(p: QPainter, rect: QRectF, lod: float) -> None:
        step_m = 1 if lod > 0.3 else 5 if lod > 0.06 else 25
        step = px(step_m)
        x = math.floor(rect.left() / step) * step
        minor, major = QPen(QColor(232, 234, 238), 0), QPen(QColor(210, 214, 222), 0)
        while x <= rect.right():
            p.setPen(major if round(x / px(1)) % (5 * step_m) == 0 else minor)
            p.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
            x += step
        y = math.floor(rect.top() / step) * step
        while y <= rect.bottom():
            p.setPen(major if round(y / px(1)) % (5 * step_m) == 0 else minor)
            p.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))
            y += step

    # -- dropping ---------------------------------------------------------------------------------------
    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt API)
        super().mouseReleaseEvent(event)
        moved = [t for t in (*self.racks.values(), *self.units.values()) if t.moved()]
        if moved:
            self.on_drop(moved)

    def snap_back(self) -> None:
        for t in (*self.racks.values(), *self.units.values()):
            t.setPos(t.home)

    def selected_ids(self) -> list[str]:
        return [t.item_id for t in self.selectedItems() if isinstance(t, _Draggable)]


def tile_metres(tile: _Draggable) -> tuple[float, float]:
    return tile.pos().x() / PX_PER_M, tile.pos().y() / PX_PER_M
