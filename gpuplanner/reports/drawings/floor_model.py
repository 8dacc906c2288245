"""The floor plan as plain geometry in metres: racks (at the engine's floor positions) with their kW, rows with
the aisle each row faces, and the cooling and power units with their load against capacity."""

from __future__ import annotations

from dataclasses import dataclass

AIR_KINDS = ("crah", "in-row", "rear-door", "cdu", "immersion-tank")  # cooling; the rest carry power
DEFAULT_W_M, DEFAULT_D_M = 0.6, 1.2
MIN_AISLE_M = 0.6


@dataclass(frozen=True)
class FloorRack:
    name: str
    x: float
    y: float
    w: float
    d: float
    kw: float  # at max; the rack's front is its lower-y edge


@dataclass(frozen=True)
class FloorAisle:
    y0: float
    y1: float
    x0: float
    x1: float
    kind: str  # cold | hot
    contained: bool


@dataclass(frozen=True)
class FloorRow:
    label: str
    x0: float
    x1: float
    y0: float
    y1: float


@dataclass(frozen=True)
class FloorUnit:
    number: int
    name: str
    kind: str
    x: float
    y: float
    w: float
    d: float
    load_kw: float
    capacity_kw: float

    @property
    def cooling(self) -> bool:
        return self.kind in AIR_KINDS

    @property
    def overloaded(self) -> bool:
        return self.capacity_kw > 0 and self.load_kw > self.capacity_kw + 1e-9


@dataclass(frozen=True)
class FloorPlan:
    racks: list[FloorRack]
    rows: list[FloorRow]
    aisles: list[FloorAisle]
    units: list[FloorUnit]
    hall: tuple[float, float, float, float]  # x0, y0, x1, y1 (m)

    @property
    def span(self) -> tuple[float, float]:
        return self.hall[2] - self.hall[0], self.hall[3] - self.hall[1]


def build_floor_plan(project, results, units: list[dict]) -> FloorPlan:
    """``units``: the ``floor_units`` of ``results_json`` (id, name, kind, load_kw, capacity_kw)."""
    c, site = results.compiled, project.site
    cat = project.catalog
    labels = list(c.racks.row_label)
    order = sorted(set(labels))  # the row order of engine.compiled._rack_floor_positions
    aisle_rows = project.tables["aisle_rows"]
    racks: list[FloorRack] = []
    for i, name in enumerate(c.racks.names):
        t = cat.entries.get(c.racks.type_ids[i])
        w = (getattr(t, "width_mm", 0) or DEFAULT_W_M * 1000) / 1000
        d = (getattr(t, "depth_mm", 0) or DEFAULT_D_M * 1000) / 1000
        racks.append(
            FloorRack(
                name,
                float(c.racks.floor_x_m[i]),
                float(c.racks.floor_y_m[i]),
                w,
                d,
                float(results.power.rack_kw_max[i]),
            )
        )
    rows: list[FloorRow] = []
    for lab in order:
        mine = [r for r, rl in zip(racks, labels, strict=True) if rl == lab]
        rows.append(
            FloorRow(
                lab,
                min(r.x for r in mine),
                max(r.x + r.w for r in mine),
                min(r.y for r in mine),
                max(r.y + r.d for r in mine),
            )
        )
    # as the app draws them (gpuplanner/ui/floor): every row's fronts face the aisle before it (lower y),
    # which takes the gap to the previous row, or the row pitch less the rack depth for the first row
    aisles: list[FloorAisle] = []
    x0 = min((r.x0 for r in rows), default=0.0)
    x1 = max((r.x1 for r in rows), default=0.0)
    for row in rows:
        spec = aisle_rows.get(row.label)
        kind = spec.aisle if spec is not None and spec.aisle in ("cold", "hot") else "cold"
        before = [row.y0 - o.y1 for o in rows if o is not row and o.y1 <= row.y0 + 1e-9]
        gap = min(before) if before else site.row_pitch_m - (row.y1 - row.y0)
        depth = max(gap, MIN_AISLE_M) if not before else gap
        if depth > 1e-6:
            contained = bool(spec.contained) if spec is not None else False
            aisles.append(FloorAisle(row.y0 - depth, row.y0, x0, x1, kind, contained))
    items = project.tables["floor_items"]
    out_units = [
        FloorUnit(
            n,
            u["name"],
            u["kind"],
            items[u["id"]].x_m,
            items[u["id"]].y_m,
            max(items[u["id"]].width_m, 0.1),
            max(items[u["id"]].depth_m, 0.1),
            float(u["load_kw"]),
            float(u["capacity_kw"]),
        )
        for n, u in enumerate(units, start=1)
        if u["id"] in items
    ]
    xs = [r.x for r in racks] + [a.x0 for a in aisles] + [u.x for u in out_units]
    xe = [r.x + r.w for r in racks] + [a.x1 for a in aisles] + [u.x + u.w for u in out_units]
    ys = [r.y for r in racks] + [a.y0 for a in aisles] + [u.y for u in out_units]
    ye = [r.y + r.d for r in racks] + [a.y1 for a in aisles] + [u.y + u.d for u in out_units]
    if not xs:
        xs, xe, ys, ye = [0.0], [1.0], [0.0], [1.0]
    pad = 0.6
    hall = [min(xs) - pad, min(ys) - pad, max(xe) + pad, max(ye) + pad]
    if site.hall_width_m > 0 and site.hall_depth_m > 0:
        hall = [
            min(hall[0], 0.0),
            min(hall[1], 0.0),
            max(hall[2], site.hall_width_m),
            max(hall[3], site.hall_depth_m),
        ]
    return FloorPlan(racks, rows, aisles, out_units, (hall[0], hall[1], hall[2], hall[3]))
