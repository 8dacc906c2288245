"""The floor plan drawing (vector): the hall from above, scaled to fit, with a metre grid and scale bar; racks
coloured by maximum kW with their front edge marked; hot and cold aisles (contained ones outlined); cooling
and power units numbered, with their load and capacity where there is room, overloaded ones in red."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Rect
from reportlab.lib import colors

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.doc import text_width
from gpuplanner.reports.drawings.floor_model import FloorPlan, FloorUnit
from gpuplanner.reports.drawings.topology import text
from gpuplanner.reports.fonts import FontSet
from gpuplanner.reports.styles import INK, MUTED, RULE

# kW density buckets (upper edges, kW at max) and colours as the app's floor plan draws them
# (gpuplanner/ui/floor/scene.py): the limits of open air, contained air, passive and active rear doors
# (catalogs/cooling max_kw_per_rack: 10, 25, 32, 75); above them, liquid.
DENSITY_EDGES_KW = (10.0, 25.0, 45.0, 75.0)
DENSITY_COLOURS = tuple(colors.HexColor(c) for c in ("#78be78", "#bed75a", "#f5be46", "#eb7832", "#c8323c"))
COLD = colors.HexColor("#dcebfc")
HOT = colors.HexColor("#fce4de")
CONTAINMENT = colors.HexColor("#1f4e79")
COOLING_UNIT = colors.HexColor("#2f6fa7")
POWER_UNIT = colors.HexColor("#7a5fb0")
OVERLOADED = colors.HexColor("#c62828")
HALL = colors.HexColor("#fbfcfd")
GRID = colors.HexColor("#e3e8ee")

LABEL_SIZE = 5.5  # smallest text in the plan; labels that do not fit at this size are left out
UNIT_SIZE = 6.0
LEGEND_SIZE = 7.0
LEGEND_LINE = 12.0
SCALE_BAR_H = 18.0
TOP_PAD = 4.0
NICE_M = (0.5, 1, 2, 5, 10, 20, 50, 100, 200)


def density_bucket(kw: float) -> int:
    return sum(kw > b for b in DENSITY_EDGES_KW)


def _legend_items(plan: FloorPlan, lang: str) -> list[list[tuple[str, object, object]]]:
    """Lines of (text, fill, stroke) swatches; a swatch with fill None is a title."""
    t = lambda k: i18n.tr(k, lang)  # noqa: E731
    first: list[tuple[str, object, object]] = [(t("legend_density"), None, None)]
    first += [(t(f"density_{i}"), c, None) for i, c in enumerate(DENSITY_COLOURS)]
    second: list[tuple[str, object, object]] = []
    kinds = {a.kind for a in plan.aisles}
    second += [(t(f"legend_{k}"), COLD if k == "cold" else HOT, None) for k in ("cold", "hot") if k in kinds]
    if any(a.contained for a in plan.aisles):
        second.append((t("legend_contained"), colors.white, CONTAINMENT))
    if any(u.cooling for u in plan.units):
        second.append((t("legend_cooling_unit"), COOLING_UNIT, None))
    if any(not u.cooling for u in plan.units):
        second.append((t("legend_power_unit"), POWER_UNIT, None))
    if any(u.overloaded for u in plan.units):
        second.append((t("legend_overloaded"), OVERLOADED, None))
    return [first, second] if second else [first]


def _layout_legend(lines, fonts: FontSet, width: float) -> list[list[tuple[float, str, object, object]]]:
    """Wraps the legend lines to ``width``: [(x, text, fill, stroke)] per printed line."""
    out: list[list[tuple[float, str, object, object]]] = []
    for line in lines:
        row: list[tuple[float, str, object, object]] = []
        x = 0.0
        for label, fill, stroke in line:
            w = text_width(label, fonts, fonts.bold if fill is None else fonts.body, LEGEND_SIZE)
            w += 4 if fill is None else 13
            if row and x + w > width:
                out.append(row)
                row, x = [], 0.0
            row.append((x, label, fill, stroke))
            x += w + 10
        out.append(row)
    return out


def _nice(limit_m: float) -> float:
    fitting = [m for m in NICE_M if m <= limit_m]
    return fitting[-1] if fitting else NICE_M[0]


def _overlaps(box, boxes) -> bool:
    x0, y0, x1, y1 = box
    return any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in boxes)


class _Plan:
    """Metres → points: x to the right, y (into the hall) downwards, the hall's corner at top left."""

    def __init__(self, plan: FloorPlan, scale: float, ox: float, top: float) -> None:
        self.hx, self.hy = plan.hall[0], plan.hall[1]
        self.s, self.ox, self.top = scale, ox, top

    def x(self, xm: float) -> float:
        return self.ox + (xm - self.hx) * self.s

    def y(self, ym: float) -> float:
        return self.top - (ym - self.hy) * self.s

    def rect(self, xm: float, ym: float, wm: float, dm: float) -> tuple[float, float, float, float]:
        return self.x(xm), self.y(ym + dm), wm * self.s, dm * self.s


@dataclass(frozen=True)
class FloorDrawing:
    drawing: Drawing
    scale_pt_per_m: float
    rack_labels_omitted: bool  # some rack names did not fit at the smallest legible size


def floor_drawing(plan: FloorPlan, width: float, height: float, fonts: FontSet, lang: str) -> FloorDrawing:
    """The plan scaled to fit ``width`` × ``height`` points (the drawing is as tall as the plan needs)."""
    label_w = max([text_width(r.label, fonts, fonts.bold, 6.5) for r in plan.rows] + [0.0]) + 8
    legend = _layout_legend(_legend_items(plan, lang), fonts, width)
    legend_h = len(legend) * LEGEND_LINE + 2
    span_x, span_y = plan.span
    area_w = width - 2 * label_w  # room for the row labels, and the plan centred
    area_h = height - legend_h - SCALE_BAR_H - TOP_PAD
    s = max(min(area_w / span_x, area_h / span_y), 0.5)
    plan_h = span_y * s
    total_h = plan_h + SCALE_BAR_H + legend_h + TOP_PAD
    d = Drawing(width, total_h)
    d.initialFontName = fonts.body  # the renderer starts in this font, not the non-embedded Helvetica
    p = _Plan(plan, s, label_w + (area_w - span_x * s) / 2, total_h - TOP_PAD)
    _hall(d, p, plan)
    _aisles(d, p, plan)
    omitted = _racks(d, p, plan, fonts)
    _row_labels(d, p, plan, fonts)
    _units(d, p, plan, fonts)
    _scale_bar(d, p, legend_h + 4, fonts, lang)
    _legend(d, legend, fonts)
    return FloorDrawing(d, s, omitted)


def _hall(d: Drawing, p: _Plan, plan: FloorPlan) -> None:
    x0, y0, x1, y1 = plan.hall
    d.add(Rect(*p.rect(x0, y0, x1 - x0, y1 - y0), fillColor=HALL, strokeColor=MUTED, strokeWidth=0.8))
    step = _nice(max((x1 - x0), (y1 - y0)))
    for g in NICE_M:
        if g * p.s >= 14:
            step = g
            break
    k = int(x0 // step) + 1
    while k * step < x1:
        d.add(Line(p.x(k * step), p.y(y0), p.x(k * step), p.y(y1), strokeColor=GRID, strokeWidth=0.3))
        k += 1
    k = int(y0 // step) + 1
    while k * step < y1:
        d.add(Line(p.x(x0), p.y(k * step), p.x(x1), p.y(k * step), strokeColor=GRID, strokeWidth=0.3))
        k += 1


def _aisles(d: Drawing, p: _Plan, plan: FloorPlan) -> None:
    for a in plan.aisles:
        fill = COLD if a.kind == "cold" else HOT
        d.add(Rect(*p.rect(a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0), fillColor=fill, strokeColor=None))
    for a in plan.aisles:
        if a.contained:
            d.add(
                Rect(
                    *p.rect(a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0),
                    fillColor=None,
                    strokeColor=CONTAINMENT,
                    strokeWidth=1.0,
                    strokeDashArray=[3, 1.5],
                )
            )


def _racks(d: Drawing, p: _Plan, plan: FloorPlan, fonts: FontSet) -> bool:
    omitted = False
    for r in plan.racks:
        x, y, w, h = p.rect(r.x, r.y, r.w, r.d)
        fill = DENSITY_COLOURS[density_bucket(r.kw)]
        d.add(Rect(x, y, w, h, fillColor=fill, strokeColor=INK, strokeWidth=0.35 if w > 4 else 0.15))
        fy = y + h  # the front edge: the lower-y side, the top on the page
        d.add(Line(x, fy, x + w, fy, strokeColor=INK, strokeWidth=min(1.2, max(h * 0.08, 0.4))))
        tw = text_width(r.name, fonts, fonts.body, LABEL_SIZE)
        ink = colors.white if density_bucket(r.kw) >= 4 else INK
        if w >= tw + 3 and h >= LABEL_SIZE + 3:
            d.add(
                text(
                    x + w / 2,
                    y + h / 2 - LABEL_SIZE * 0.35,
                    r.name,
                    fonts,
                    LABEL_SIZE,
                    anchor="middle",
                    colour=ink,
                )
            )
        elif h >= tw + 3 and w >= LABEL_SIZE + 2:
            g = Group(text(0, 0, r.name, fonts, LABEL_SIZE, anchor="middle", colour=ink))
            g.transform = (0, 1, -1, 0, x + w / 2 + LABEL_SIZE * 0.35, y + h / 2)
            d.add(g)
        else:
            omitted = True
    return omitted


def _row_labels(d: Drawing, p: _Plan, plan: FloorPlan, fonts: FontSet) -> None:
    last = None
    for row in sorted(plan.rows, key=lambda r: r.y0):
        yc = (p.y(row.y0) + p.y(row.y1)) / 2 - 6.5 * 0.35
        if last is not None and abs(last - yc) < 8:
            continue
        d.add(text(p.x(plan.hall[0]) - 4, yc, row.label, fonts, 6.5, anchor="end", bold=True))
        last = yc


def _units(d: Drawing, p: _Plan, plan: FloorPlan, fonts: FontSet) -> None:
    taken = [(*p.rect(r.x, r.y, r.w, r.d),) for r in plan.racks]
    taken = [(x, y, x + w, y + h) for x, y, w, h in taken]
    boxes = []
    for u in plan.units:
        x, y, w, h = p.rect(u.x, u.y, u.w, u.d)
        boxes.append((x, y, x + w, y + h))
    taken += boxes
    hall = (p.x(plan.hall[0]), p.y(plan.hall[3]), p.x(plan.hall[2]), p.y(plan.hall[1]))
    for u, (x0, y0, x1, y1) in zip(plan.units, boxes, strict=True):
        colour = OVERLOADED if u.overloaded else COOLING_UNIT if u.cooling else POWER_UNIT
        d.add(
            Rect(
                x0,
                y0,
                x1 - x0,
                y1 - y0,
                fillColor=colour,
                fillOpacity=0.85,
                strokeColor=colors.HexColor("#7f0000") if u.overloaded else INK,
                strokeWidth=1.4 if u.overloaded else 0.5,
            )
        )
        taken.append(_tag(d, u, x1, y1, fonts, colour))
        _unit_label(d, u, (x0, y0, x1, y1), taken, hall, fonts, colour)


def _tag(d: Drawing, u: FloorUnit, x1: float, y1: float, fonts: FontSet, colour) -> tuple[float, ...]:
    """The unit's number in a circle at its top-right corner."""
    r = 5.2
    d.add(Circle(x1, y1, r, fillColor=colors.white, strokeColor=colour, strokeWidth=0.9))
    d.add(text(x1, y1 - UNIT_SIZE * 0.35, str(u.number), fonts, UNIT_SIZE, anchor="middle", bold=True))
    return (x1 - r, y1 - r, x1 + r, y1 + r)


def _unit_label(d: Drawing, u: FloorUnit, box, taken, hall, fonts: FontSet, colour) -> None:
    """Name and "load / capacity kW" inside the unit when they fit, else beside it where nothing else is."""
    lines = [u.name, f"{fmt.kw(u.load_kw)} / {fmt.kw(u.capacity_kw)} kW"]
    tw = max(text_width(s, fonts, fonts.body, UNIT_SIZE) for s in lines) + 4
    th = 2 * (UNIT_SIZE + 1.5) + 2
    x0, y0, x1, y1 = box
    if x1 - x0 >= tw + 4 and y1 - y0 >= th + 2:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        d.add(text(cx, cy + 1.5, lines[0], fonts, UNIT_SIZE, anchor="middle", colour=colors.white, bold=True))
        d.add(
            text(cx, cy - UNIT_SIZE - 0.5, lines[1], fonts, UNIT_SIZE, anchor="middle", colour=colors.white)
        )
        return
    for lx, ly in ((x1 + 7, (y0 + y1) / 2 - th / 2), (x0 - tw - 3, (y0 + y1) / 2 - th / 2),
                   ((x0 + x1) / 2 - tw / 2, y0 - th - 2), ((x0 + x1) / 2 - tw / 2, y1 + 7)):  # fmt: skip
        cand = (lx, ly, lx + tw, ly + th)
        inside = cand[0] >= hall[0] and cand[2] <= hall[2] and cand[1] >= hall[1] and cand[3] <= hall[3]
        if inside and not _overlaps(cand, taken):
            d.add(
                Rect(
                    lx,
                    ly,
                    tw,
                    th,
                    fillColor=colors.white,
                    fillOpacity=0.9,
                    strokeColor=colour,
                    strokeWidth=0.5,
                )
            )
            d.add(text(lx + 2, ly + th - UNIT_SIZE - 1.5, lines[0], fonts, UNIT_SIZE, bold=True))
            d.add(
                text(lx + 2, ly + 2.5, lines[1], fonts, UNIT_SIZE, colour=OVERLOADED if u.overloaded else INK)
            )
            taken.append(cand)
            return


def _scale_bar(d: Drawing, p: _Plan, y: float, fonts: FontSet, lang: str) -> None:
    length = _nice(120 / p.s)
    x = p.ox
    seg = length * p.s / 2
    for k in range(2):
        fill = INK if k == 0 else colors.white
        d.add(Rect(x + k * seg, y, seg, 3.5, fillColor=fill, strokeColor=INK, strokeWidth=0.5))
    label = i18n.tr("scale_m", lang, m=fmt.value(float(length)))
    d.add(text(x, y + 6, "0", fonts, 6.5, anchor="middle", colour=MUTED))
    d.add(text(x + 2 * seg, y + 6, label, fonts, 6.5, anchor="middle", colour=MUTED))


def _legend(d: Drawing, legend, fonts: FontSet) -> None:
    y = (len(legend) - 1) * LEGEND_LINE + 2
    for line in legend:
        for x, label, fill, stroke in line:
            if fill is None:
                d.add(text(x, y, label, fonts, LEGEND_SIZE, bold=True, colour=INK))
                continue
            d.add(
                Rect(
                    x,
                    y - 0.5,
                    9,
                    7,
                    fillColor=fill,
                    strokeColor=stroke or RULE,
                    strokeWidth=1.0 if stroke is not None else 0.4,
                    strokeDashArray=[2, 1] if stroke is not None else None,
                )
            )
            d.add(text(x + 13, y, label, fonts, LEGEND_SIZE))
        y -= LEGEND_LINE
