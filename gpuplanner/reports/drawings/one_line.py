"""The electrical one-line diagram: utility → transformers (and standby generators through the LV switchboard)
→ UPS → the A and B critical buses → one busway per row and side → the row's racks, with the ratings and the
redundancy of the engine's electrical stage (``results_json``: ``electrical``, ``rows``, ``cdus``).

Every label is fitted to the room it has (``doc.fit``); the abbreviations (UPS, ATS, CDU, A/B) are explained
in a legend under the drawing. At most ``MAX_BRANCHES`` rows get a branch; the rest are summed in a last
"… more rows" branch (the table under the drawing lists every row).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Rect
from reportlab.lib import colors

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.doc import fit
from gpuplanner.reports.drawings.topology import text
from gpuplanner.reports.fonts import FontSet
from gpuplanner.reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, RULE

MAX_BRANCHES = 8
HEIGHT = 346.0
LEGEND_H = 34.0
LIQUID = colors.HexColor("#6fa8dc")
AIR = colors.HexColor("#cccccc")


def branches(rows: Sequence[dict[str, Any]], limit: int = MAX_BRANCHES) -> list[dict[str, Any]]:
    """The rows drawn as branches: the first ``limit - 1`` rows and one sum of the rest when there are more."""
    rows = list(rows)
    if len(rows) <= limit:
        return rows
    head, rest = rows[: limit - 1], rows[limit - 1 :]
    return [
        *head,
        {
            "row": None,
            "more": len(rest),
            "racks": sum(r["racks"] for r in rest),
            "kw_max": sum(r["kw_max"] for r in rest),
            "liquid_kw_max": sum(r["liquid_kw_max"] for r in rest),
            "cdus": sum(r["cdus"] for r in rest),
            "busway_a": max(r["busway_a"] for r in rest),
            "busways_per_side": max(r["busways_per_side"] for r in rest),
        },
    ]


def _label(
    g: Group, x: float, y: float, lines: Sequence[str], fonts: FontSet, room: float, **kw: Any
) -> None:
    """Lines of text, the first bold, each fitted to ``room`` points."""
    for k, s in enumerate(lines):
        bold = k == 0
        size = 7.0 if bold else 6.5
        font = fonts.bold if bold else fonts.body
        g.add(text(x, y - 8.5 * k, fit(s, fonts, font, size, room), fonts, size, bold=bold, **kw))


def _transformer(g: Group, x: float, y: float) -> None:
    for dy in (5.0, -5.0):
        g.add(Circle(x, y + dy, 7.5, fillColor=None, strokeColor=INK, strokeWidth=0.9))


def _chain(g: Group, e: dict[str, Any], cx: float, width: float, fonts: FontSet, lang: str) -> None:
    """Utility, transformer, generator, LV switchboard, UPS: the top half of the diagram."""
    t, u, gen, util = e["transformer"], e["ups"], e["generator"], e["utility"]
    red = e["redundancy"]
    h = HEIGHT
    room = width / 2 - 40
    # utility
    g.add(Rect(cx - 45, h - 26, 90, 20, fillColor=ACCENT_LIGHT, strokeColor=ACCENT, strokeWidth=0.8))
    g.add(
        text(
            cx,
            h - 19,
            fit(i18n.tr("ol_utility", lang), fonts, fonts.bold, 7, 84),
            fonts,
            7,
            anchor="middle",
            bold=True,
        )
    )
    util_lines = [i18n.tr("ol_utility_kw", lang, kw=fmt.num(util["kw_max"], 0))]
    if util.get("kw_available"):
        util_lines.append(i18n.tr("ol_utility_available", lang, kw=fmt.num(util["kw_available"], 0)))
    for k, s in enumerate(util_lines):
        g.add(text(cx + 52, h - 15 - 8.5 * k, fit(s, fonts, fonts.body, 6.5, room), fonts, 6.5))
    # transformer
    ty = h - 62
    g.add(Line(cx, h - 26, cx, ty + 12.5, strokeColor=INK, strokeWidth=0.9))
    _transformer(g, cx, ty)
    _label(
        g,
        cx - 16,
        ty + 6,
        [
            i18n.tr("ol_transformer", lang, n=t["installed"], kva=fmt.num(t["unit_kva"], 0), red=red),
            i18n.tr("ol_load_kva", lang, kva=fmt.num(t["load_kva"], 0)),
        ],
        fonts,
        room,
        anchor="end",
    )
    # LV switchboard with the generators through the ATS
    sy = h - 102
    g.add(Line(cx, ty - 12.5, cx, sy, strokeColor=INK, strokeWidth=0.9))
    gx = cx + width * 0.2
    g.add(Line(cx - 50, sy, gx, sy, strokeColor=INK, strokeWidth=2.2))
    g.add(Circle(gx, ty, 10, fillColor=colors.white, strokeColor=INK, strokeWidth=0.9))
    g.add(text(gx, ty - 3, "G", fonts, 8, anchor="middle", bold=True))
    g.add(Line(gx, ty - 10, gx, sy, strokeColor=INK, strokeWidth=0.9, strokeDashArray=[2, 2]))
    g.add(Rect(gx - 9, sy + 8, 18, 9, fillColor=colors.white, strokeColor=INK, strokeWidth=0.7))
    g.add(text(gx, sy + 10, "ATS", fonts, 5.5, anchor="middle"))
    _label(
        g,
        gx + 14,
        ty + 6,
        [
            i18n.tr("ol_generator", lang, n=gen["installed"], kva=fmt.num(gen["unit_kva"], 0), red=red),
            i18n.tr("ol_load_kva", lang, kva=fmt.num(gen["load_kva"], 0)),
        ],
        fonts,
        width - (gx + 14) - 2,
    )
    g.add(
        text(
            cx - 54,
            sy - 2.5,
            fit(
                i18n.tr("ol_switchboard", lang, v=fmt.num(e["voltage_v"], 0)), fonts, fonts.body, 6.5, cx - 60
            ),
            fonts,
            6.5,
            anchor="end",
        )
    )
    # UPS
    uy = h - 150
    g.add(Line(cx, sy, cx, uy + 14, strokeColor=INK, strokeWidth=0.9))
    g.add(Rect(cx - 24, uy - 14, 48, 28, fillColor=ACCENT_LIGHT, strokeColor=ACCENT, strokeWidth=0.8))
    g.add(text(cx, uy - 3, "UPS", fonts, 8, anchor="middle", bold=True))
    _label(
        g,
        cx + 32,
        uy + 8,
        [
            i18n.tr("ol_ups", lang, n=u["modules_installed"], kva=fmt.num(u["module_kva"], 0), red=red),
            i18n.tr("ol_load_kva", lang, kva=fmt.num(u["load_kva"], 0)),
            i18n.tr("ol_battery", lang, kwh=fmt.num(u["battery_kwh"], 0), min=fmt.num(u["runtime_min"], 0)),
        ],
        fonts,
        width - (cx + 32) - 2,
    )


def _branch(
    g: Group, b: dict[str, Any], x: float, w: float, y_bus: tuple[float, float], fonts: FontSet, lang: str
) -> None:
    """One row: A and B drops to its busways, then its racks (one small square per rack, liquid in blue)."""
    ya, yb = y_bus
    top = yb - 22
    for dx, y0 in ((-6.0, ya), (6.0, yb)):
        g.add(Line(x + dx, y0, x + dx, top, strokeColor=INK, strokeWidth=0.7))
    room = w - 6
    # busway box
    g.add(Rect(x - room / 2, top - 22, room, 22, fillColor=colors.white, strokeColor=INK, strokeWidth=0.7))
    g.add(
        text(
            x,
            top - 9,
            fit(i18n.tr("ol_busway", lang, a=fmt.num(b["busway_a"], 0)), fonts, fonts.body, 6.5, room - 4),
            fonts,
            6.5,
            anchor="middle",
        )
    )
    g.add(
        text(
            x,
            top - 18,
            fit(i18n.tr("ol_per_side", lang, n=b["busways_per_side"]), fonts, fonts.body, 6, room - 4),
            fonts,
            6,
            anchor="middle",
            colour=MUTED,
        )
    )
    # racks
    ry = top - 30
    g.add(Line(x, top - 22, x, ry, strokeColor=INK, strokeWidth=0.7))
    box_h = 64.0
    g.add(
        Rect(x - room / 2, ry - box_h, room, box_h, fillColor=colors.white, strokeColor=RULE, strokeWidth=0.7)
    )
    name = i18n.tr("ol_more_rows", lang, n=b["more"]) if b.get("row") is None else str(b["row"])
    lines = [
        name,
        i18n.tr("ol_racks", lang, n=fmt.integer(b["racks"])),
        i18n.tr("ol_kw", lang, kw=fmt.kw(b["kw_max"])),
        i18n.tr("ol_cdus", lang, n=b["cdus"]) if b["cdus"] else i18n.tr("ol_air", lang),
    ]
    for k, s in enumerate(lines):
        bold = k == 0
        size = 7.0 if bold else 6.3
        g.add(
            text(
                x,
                ry - 9 - 8.3 * k,
                fit(s, fonts, fonts.bold if bold else fonts.body, size, room - 4),
                fonts,
                size,
                anchor="middle",
                bold=bold,
            )
        )
    # one square per rack (as many as fit on a line), liquid-cooled share in blue
    n = int(b["racks"])
    side = 4.0
    per_line = max(int((room - 6) // (side + 1.5)), 1)
    shown = min(n, per_line)
    liquid = round(shown * (b["liquid_kw_max"] / b["kw_max"])) if b["kw_max"] > 0 else 0
    x0 = x - (shown * (side + 1.5) - 1.5) / 2
    for k in range(shown):
        fill = LIQUID if k < liquid else AIR
        g.add(Rect(x0 + k * (side + 1.5), ry - box_h + 5, side, side, fillColor=fill, strokeColor=None))


def _legend(g: Group, width: float, fonts: FontSet, lang: str) -> None:
    y = LEGEND_H - 10
    g.add(Line(0, LEGEND_H - 1, width, LEGEND_H - 1, strokeColor=RULE, strokeWidth=0.4))
    g.add(Rect(0, y - 1, 6, 6, fillColor=LIQUID, strokeColor=None))
    g.add(text(9, y, i18n.tr("ol_leg_liquid", lang), fonts, 6.5))
    g.add(Rect(width / 2, y - 1, 6, 6, fillColor=AIR, strokeColor=None))
    g.add(text(width / 2 + 9, y, i18n.tr("ol_leg_air", lang), fonts, 6.5))
    for k, key in enumerate(("ol_leg_abbrev", "ol_leg_ab")):
        s = i18n.tr(key, lang)
        g.add(text(0, y - 10 - 9 * k, fit(s, fonts, fonts.body, 6.5, width), fonts, 6.5, colour=MUTED))


def one_line_drawing(data: dict[str, Any], width: float, fonts: FontSet, lang: str) -> Drawing:
    """The one-line diagram of ``results_json`` figures; an empty drawing when the plan has no electrical chain."""
    d = Drawing(width, HEIGHT)
    d.initialFontName = fonts.body  # the renderer starts in this font, not the non-embedded Helvetica
    e = data.get("electrical")
    if not e:
        return d
    g = Group()
    cx = width / 2
    _chain(g, e, cx, width, fonts, lang)
    drawn = branches(data.get("rows") or [])
    ya, yb = HEIGHT - 182, HEIGHT - 190
    if drawn:
        step = min(width / len(drawn), 120.0)
        x_first = cx - step * (len(drawn) - 1) / 2
        xs = [x_first + step * k for k in range(len(drawn))]
        left, right = min(xs[0] - 6, cx - 6), max(xs[-1] + 6, cx + 6)
        g.add(Line(cx - 6, HEIGHT - 164, cx - 6, ya, strokeColor=INK, strokeWidth=0.9))
        g.add(Line(cx + 6, HEIGHT - 164, cx + 6, yb, strokeColor=INK, strokeWidth=0.9))
        g.add(Line(left, ya, right, ya, strokeColor=INK, strokeWidth=1.8))
        g.add(Line(left, yb, right, yb, strokeColor=MUTED, strokeWidth=1.8))
        g.add(text(left - 3, ya - 2, "A", fonts, 6.5, anchor="end", bold=True))
        g.add(text(left - 3, yb - 3, "B", fonts, 6.5, anchor="end", bold=True, colour=MUTED))
        for b, x in zip(drawn, xs, strict=True):
            _branch(g, b, x, step, (ya, yb), fonts, lang)
    _legend(g, width, fonts, lang)
    d.add(g)
    return d
