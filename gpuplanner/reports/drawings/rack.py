"""Rack elevation: the front view of one rack layout, U1 at the bottom, devices coloured by role."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics.shapes import Drawing, Line, Rect
from reportlab.lib import colors

from gpuplanner.reports.doc import fit
from gpuplanner.reports.drawings.topology import text
from gpuplanner.reports.fonts import FontSet
from gpuplanner.reports.styles import INK, MUTED, ROLE_FILL, RULE

U_PX = 6.0
RAIL = 12.0  # left margin for U numbers
TITLE_H = 12.0


@dataclass(frozen=True)
class Slot:
    u: int  # lowest U, 1-based
    ru: int
    role: str
    label: str


def rack_drawing(title: str, ru: int, slots: list[Slot], fonts: FontSet, width: float = 118.0) -> Drawing:
    ru = max(int(ru), 1)
    body_h = ru * U_PX
    d = Drawing(width, body_h + TITLE_H + 4)
    d.initialFontName = fonts.body  # the renderer starts in this font, not the non-embedded Helvetica
    x0, inner = RAIL, width - RAIL - 2
    d.add(
        text(
            x0 + inner / 2,
            body_h + 6,
            fit(title, fonts, fonts.bold, 7, width),
            fonts,
            7,
            anchor="middle",
            bold=True,
        )
    )
    d.add(Rect(x0 - 2, 0, inner + 4, body_h + 2, fillColor=colors.HexColor("#3a4250"), strokeColor=None))
    d.add(Rect(x0, 1, inner, body_h, fillColor=colors.HexColor("#f2f4f7"), strokeColor=None))
    for u in range(1, ru + 1):
        y = 1 + (u - 1) * U_PX
        d.add(Line(x0, y, x0 + inner, y, strokeColor=RULE, strokeWidth=0.15))
        if u == 1 or u % 5 == 0:
            d.add(text(x0 - 3, y + 1, str(u), fonts, 4, anchor="end", colour=MUTED))
    for s in slots:
        if s.u < 1 or s.u > ru:
            continue
        h = min(s.ru, ru - s.u + 1) * U_PX
        y = 1 + (s.u - 1) * U_PX
        fill = ROLE_FILL.get(s.role, ROLE_FILL["other"])
        d.add(Rect(x0 + 1, y + 0.3, inner - 2, h - 0.6, fillColor=fill, strokeColor=INK, strokeWidth=0.3))
        size = 5.5 if h >= 6 else 4.0
        label = fit(s.label, fonts, fonts.body, size, inner - 6)
        d.add(text(x0 + inner / 2, y + h / 2 - size * 0.35, label, fonts, size, anchor="middle"))
    return d
