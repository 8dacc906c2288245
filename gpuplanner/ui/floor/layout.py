"""Floor-plan geometry in metres, and the commands a drag on the floor plan makes.

Rack positions come from ``engine.compiled.rack_floor_positions`` — the same function the cable plan uses —
so what the user sees on the floor is what the cable lengths are computed from. A drag never leaves rows to
be re-derived from their order: moving the last rack out of a row would otherwise shift every later row
(and every cable length) by one row pitch. So the first move pins every row's ``y_m`` in the same undo step.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP

from gpuplanner.commands import AddRows, Command, Compound, ReplaceRows
from gpuplanner.engine.compiled import rack_floor_positions
from gpuplanner.engine.phases import ordered_phases
from gpuplanner.model import AisleRow, FloorItem, Project
from gpuplanner.ui.i18n import translate

DEFAULT_RACK_W_M, DEFAULT_RACK_D_M = 0.6, 1.2
HALL_MARGIN_M = 2.0
# Units whose served row follows the row band they are dropped in (a CRAH or a PDU keeps its assignment).
ROW_BOUND_KINDS = ("in-row", "rear-door", "cdu", "immersion-tank")
UNIT_KINDS = ("crah", "in-row", "rear-door", "cdu", "immersion-tank", "pdu", "busway", "utility-feed")


def unit_kind_name(kind: str) -> str:
    names = {
        "crah": translate("floor", "CRAH (room cooler)"),
        "in-row": translate("floor", "in-row cooler"),
        "rear-door": translate("floor", "rear-door heat exchangers"),
        "cdu": translate("floor", "coolant distribution unit (CDU)"),
        "immersion-tank": translate("floor", "immersion tank"),
        "pdu": translate("floor", "power distribution unit (PDU)"),
        "busway": translate("floor", "busway"),
        "utility-feed": translate("floor", "utility feed"),
    }
    return names.get(kind, kind)


# The names units get without the user naming them — the examples' "Utility feed" and "Rear doors R03",
# a dropped unit's "UTILITY-FEED-1" — are shown in the window's language (a name the user typed is data,
# shown as typed). kind → (its name alone, its name with a row or number).
DEFAULT_UNIT_NAMES = {
    "in-row": (QT_TRANSLATE_NOOP("floor", "In-row cooler"), QT_TRANSLATE_NOOP("floor", "In-row cooler {n}")),
    "rear-door": (QT_TRANSLATE_NOOP("floor", "Rear doors"), QT_TRANSLATE_NOOP("floor", "Rear doors {n}")),
    "immersion-tank": (
        QT_TRANSLATE_NOOP("floor", "Immersion tank"),
        QT_TRANSLATE_NOOP("floor", "Immersion tank {n}"),
    ),
    "busway": (QT_TRANSLATE_NOOP("floor", "Busway"), QT_TRANSLATE_NOOP("floor", "Busway {n}")),
    "utility-feed": (
        QT_TRANSLATE_NOOP("floor", "Utility feed"),
        QT_TRANSLATE_NOOP("floor", "Utility feed {n}"),
    ),
}
_SUFFIX = re.compile(r"[A-Za-z]?\d+")  # a row label (R03) or a number (1)


def unit_caption(unit: FloorItem) -> str:
    """The unit's name as the floor plan shows it: a default name in the window's language, else as named."""
    names = DEFAULT_UNIT_NAMES.get(unit.kind)
    if names is None:
        return unit.name
    alone, with_n = names
    name = unit.name.strip()
    suffix: str | None = None
    if name.casefold() == alone.casefold():
        suffix = ""
    elif name.casefold().startswith(alone.casefold() + " ") and _SUFFIX.fullmatch(name[len(alone) + 1 :]):
        suffix = name[len(alone) + 1 :]
    else:  # a dropped unit's name (add_unit): "UTILITY-FEED-1"
        m = re.fullmatch(re.escape(unit.kind.upper()) + r"-(\d+)", name)
        if m:
            suffix = m.group(1)
    if suffix is None:
        return unit.name
    if not suffix:
        return translate("floor", alone)
    return translate("floor", with_n).format(n=suffix)


@dataclass(frozen=True)
class RackBox:
    rack_id: str
    x_m: float
    y_m: float
    w_m: float
    d_m: float


@dataclass(frozen=True)
class RowBand:
    label: str
    y_m: float
    depth_m: float
    aisle: str  # the aisle the rack fronts face: cold | hot
    contained: bool
    rack_ids: tuple[str, ...]


@dataclass(frozen=True)
class FloorLayout:
    racks: dict[str, RackBox]
    rows: list[RowBand]
    x0_m: float
    y0_m: float
    width_m: float
    depth_m: float
    hall_width_m: float = 0.0  # 0 = the site gives no hall size
    hall_depth_m: float = 0.0

    def row_at(self, y_m: float) -> RowBand | None:
        """The row whose band (rack depth, plus half the aisle on each side) holds ``y_m``."""
        if not self.rows:
            return None
        return min(self.rows, key=lambda r: abs(r.y_m + r.depth_m / 2 - y_m))


def _rack_size(project: Project, type_id: str) -> tuple[float, float]:
    t = project.catalog.entries.get(type_id)
    w = float(getattr(t, "width_mm", 0) or 0) / 1000 or DEFAULT_RACK_W_M
    d = float(getattr(t, "depth_mm", 0) or 0) / 1000 or DEFAULT_RACK_D_M
    return w, d


def row_positions(project: Project) -> dict[str, float]:
    """y (m) of every row label: racks' rows and the floor plan's rows, in label order."""
    aisle_rows = project.tables["aisle_rows"]
    rack_rows = sorted({r.row for r in project.racks.values()})
    ys: dict[str, float] = {}
    racks = list(project.racks.values())
    if racks:
        _, y = rack_floor_positions(project, racks)
        for r, yy in zip(racks, y, strict=True):
            if r.floor_y_m is None:
                ys.setdefault(r.row, float(yy))
    for i, lab in enumerate(rack_rows):
        ys.setdefault(lab, i * project.site.row_pitch_m)
    for lab, ar in aisle_rows.items():
        if ar.y_m is not None:
            ys[lab] = float(ar.y_m)
    for lab in aisle_rows:
        if lab not in ys:  # an empty row with no position yet: after the last one
            ys[lab] = max(ys.values(), default=-project.site.row_pitch_m) + project.site.row_pitch_m
    return dict(sorted(ys.items(), key=lambda kv: (kv[1], kv[0])))


def floor_layout(project: Project) -> FloorLayout:
    racks = list(project.racks.values())
    boxes: dict[str, RackBox] = {}
    if racks:
        x, y = rack_floor_positions(project, racks)
        for r, xx, yy in zip(racks, x, y, strict=True):
            w, d = _rack_size(project, r.type_id)
            boxes[r.id] = RackBox(r.id, float(xx), float(yy), w, d)
    rows = []
    for lab, y in row_positions(project).items():
        members = tuple(r.id for r in racks if r.row == lab)
        depth = max((boxes[i].d_m for i in members), default=DEFAULT_RACK_D_M)
        ar = project.tables["aisle_rows"].get(lab)
        rows.append(
            RowBand(lab, y, depth, ar.aisle if ar else "cold", bool(ar.contained) if ar else False, members)
        )
    xs = [b.x_m for b in boxes.values()] + [b.x_m + b.w_m for b in boxes.values()]
    ys = [b.y_m for b in boxes.values()] + [b.y_m + b.d_m for b in boxes.values()]
    for band in rows:
        ys += [band.y_m, band.y_m + band.depth_m]
    for it in project.tables["floor_items"].values():
        xs += [it.x_m, it.x_m + it.width_m]
        ys += [it.y_m, it.y_m + it.depth_m]
    site = project.site
    hall_w, hall_d = float(site.hall_width_m or 0), float(site.hall_depth_m or 0)
    if hall_w and hall_d:  # the hall as the site gives it, from (0, 0)
        xs += [0.0, hall_w]
        ys += [0.0, hall_d]
    x0 = min(xs, default=0.0) - HALL_MARGIN_M
    y0 = min(ys, default=0.0) - HALL_MARGIN_M
    width = max(xs, default=6.0) + HALL_MARGIN_M - x0
    depth = max(ys, default=6.0) + HALL_MARGIN_M - y0
    return FloorLayout(boxes, rows, x0, y0, width, depth, hall_w, hall_d)


# -- phases ---------------------------------------------------------------------------------------------
def phase_allowed(project: Project, phase_id: str | None) -> set[str] | None:
    """Phase ids shown when the floor plan or canvas shows ``phase_id`` and the phases before it (None = all)."""
    if not phase_id:
        return None
    phases = ordered_phases(project)
    target = next((p for p in phases if p.id == phase_id), None)
    if target is None:
        return None
    first = phases[0].id
    return {"", first} | {p.id for p in phases if p.order <= target.order}


# -- commands -------------------------------------------------------------------------------------------
def _pin_rows(project: Project) -> list[Command]:
    """Commands giving every row an explicit y_m (its current one), so later moves shift nothing else."""
    ys = row_positions(project)
    table = project.tables["aisle_rows"]
    add = [AisleRow(lab, y_m=y) for lab, y in ys.items() if lab not in table]
    replace = [dataclasses.replace(table[lab], y_m=ys[lab]) for lab in table if table[lab].y_m is None]
    out: list[Command] = []
    if add:
        out.append(AddRows("aisle_rows", add))
    if replace:
        out.append(ReplaceRows("aisle_rows", replace))
    return out


@dataclass(frozen=True)
class MovePlan:
    command: Command | None
    message: str  # why it was refused, or what it does


def move_rack(project: Project, rack_id: str, x_m: float, y_m: float) -> MovePlan:
    """Drop rack ``rack_id`` with its top-left corner near (x_m, y_m): the nearest row, the nearest slot on
    the rack pitch. Refused (command None, message says why) when another rack stands in that slot."""
    layout = floor_layout(project)
    rack = project.racks[rack_id]
    box = layout.racks[rack_id]
    band = layout.row_at(y_m + box.d_m / 2)
    if band is None:
        return MovePlan(None, translate("floor", "There is no row to put the rack in."))
    pitch = project.site.rack_pitch_m
    slot = max(1, round(x_m / pitch) + 1)
    new_x = (slot - 1) * pitch
    for other_id in band.rack_ids:
        other = layout.racks[other_id]
        if other_id != rack_id and abs(other.x_m - new_x) < min(pitch, other.w_m) - 1e-6:
            return MovePlan(
                None,
                translate("floor", "Row {row}, slot {slot} is taken by rack {rack}.").format(
                    row=band.label, slot=slot, rack=project.racks[other_id].name
                ),
            )
    if band.label == rack.row and abs(new_x - box.x_m) < 1e-6:
        return MovePlan(None, "")
    moved = dataclasses.replace(
        rack,
        row=band.label,
        position=slot,
        floor_x_m=new_x if rack.floor_x_m is not None else None,
        floor_y_m=None,  # follows its row
    )
    text = translate("floor", "Move rack {rack} to row {row}, slot {slot}").format(
        rack=rack.name, row=band.label, slot=slot
    )
    cmd = Compound(text, [*_pin_rows(project), ReplaceRows("racks", [moved])])
    return MovePlan(cmd, text)


def move_unit(project: Project, unit_id: str, x_m: float, y_m: float) -> MovePlan:
    """Drop a cooling/power unit at (x_m, y_m); in-row coolers, rear doors, CDUs and tanks dropped on a row
    serve that row from then on."""
    unit = project.tables["floor_items"][unit_id]
    x_m, y_m = round(x_m, 1), round(y_m, 1)
    row = unit.row
    if unit.kind in ROW_BOUND_KINDS:
        layout = floor_layout(project)
        band = layout.row_at(y_m + unit.depth_m / 2)
        if band is not None and abs(band.y_m + band.depth_m / 2 - (y_m + unit.depth_m / 2)) <= 1.5:
            row = band.label
    if (x_m, y_m, row) == (unit.x_m, unit.y_m, unit.row):
        return MovePlan(None, "")
    moved = dataclasses.replace(unit, x_m=x_m, y_m=y_m, row=row)
    text = translate("floor", "Move {unit}").format(unit=unit.name)
    return MovePlan(ReplaceRows("floor_items", [moved], text=text), text)


def add_unit(project: Project, kind: str, x_m: float, y_m: float, phase_id: str = "") -> Command:
    """A new unit of ``kind`` at (x_m, y_m). Its capacity starts at 0 kW ("not rated"): the user enters
    the rating of the unit they plan — we do not invent one."""
    ids = project.tables["floor_items"]
    n = 1
    while f"fi{n}" in ids:
        n += 1
    same = sum(1 for it in ids.values() if it.kind == kind) + 1
    name = f"{kind.upper()}-{same}"
    w, d = (1.2, 1.2) if kind in ("cdu", "crah") else (0.6, 1.2) if kind != "immersion-tank" else (1.2, 2.4)
    layout = floor_layout(project)
    row = ""
    if kind in ROW_BOUND_KINDS:
        band = layout.row_at(y_m)
        row = band.label if band else ""
    item = FloorItem(
        f"fi{n}", name, kind, round(x_m, 1), round(y_m, 1), w, d, 0.0, row=row, phase_id=phase_id
    )
    return AddRows("floor_items", [item], text=translate("floor", "Add {unit}").format(unit=name))


def add_row(project: Project) -> Command:
    """A new empty row one row pitch after the last (racks are then dragged into it)."""
    ys = row_positions(project)
    labels = set(ys)
    n = len(labels) + 1
    label = f"R{n:02d}"
    while label in labels:
        n += 1
        label = f"R{n:02d}"
    y = max(ys.values(), default=-project.site.row_pitch_m) + project.site.row_pitch_m
    return Compound(
        translate("floor", "Add row {row}").format(row=label),
        [*_pin_rows(project), AddRows("aisle_rows", [AisleRow(label, y_m=y)])],
    )


def set_row_aisle(project: Project, label: str, aisle: str, contained: bool) -> Command:
    """Which aisle the row's rack fronts face, and whether it is contained (rows get pinned as for a move;
    ReplaceRows reads the old row when it runs, i.e. after the pin that creates it)."""
    ys = row_positions(project)
    base = project.tables["aisle_rows"].get(label) or AisleRow(label)
    row = dataclasses.replace(
        base, aisle=aisle, contained=contained, y_m=base.y_m if base.y_m is not None else ys.get(label)
    )
    name = translate("floor", "cold") if aisle == "cold" else translate("floor", "hot")
    if contained:
        text = translate("floor", "Row {row}: fronts face a contained {aisle} aisle").format(
            row=label, aisle=name
        )
    else:
        text = translate("floor", "Row {row}: fronts face an open {aisle} aisle").format(
            row=label, aisle=name
        )
    return Compound(text, [*_pin_rows(project), ReplaceRows("aisle_rows", [row])])


def rack_cables(res, rack_id: str) -> dict:
    """The runs that leave the rack: count, media, longest and total length, too long for any medium."""
    if res is None or rack_id not in res.compiled.racks.row:
        return {}
    c = res.compiled
    r = c.racks.row[rack_id]
    ra, rb = c.devices.rack[c.links.a], c.devices.rack[c.links.b]
    sel = np.flatnonzero(((ra == r) | (rb == r)) & (ra != rb))
    media = Counter(res.fabric.cables.medium[i] or "?" for i in sel)
    lengths = c.links.length_m[sel]
    return {
        "links": int(sel.size),
        "media": dict(media),
        "longest_m": float(lengths.max()) if sel.size else 0.0,
        "total_m": float((lengths * c.links.multiplicity[sel]).sum()) if sel.size else 0.0,
        "too_long": int(res.fabric.cables.too_long[sel].sum()),
    }
