"""The schedule as a Gantt chart (vector): one row per phase, its bar split into order-to-delivery, installation
and acceptance, a month axis, and phase names fitted to the label column (shortened with an ellipsis)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.graphics.shapes import Drawing, Line, Rect
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from gpuplanner.reports.drawings.topology import text
from gpuplanner.reports.fonts import FontSet, has_non_latin1
from gpuplanner.reports.styles import INK, MUTED, RULE

SEGMENT_COLOURS = (colors.HexColor("#6fa8dc"), colors.HexColor("#0b5394"), colors.HexColor("#93c47d"))
ROW_H = 20.0
AXIS_H = 26.0
LEGEND_H = 18.0
LABEL_SIZE = 7.5


@dataclass(frozen=True)
class Bar:
    name: str
    segments: tuple[tuple[dt.date, dt.date], ...]  # (start, end) of each segment, in SEGMENT_COLOURS order


def _font(s: str, fonts: FontSet) -> str:
    return fonts.cjk if not fonts.all_cjk and has_non_latin1(s) else fonts.body


def fitted(s: str, fonts: FontSet, size: float, width: float) -> str:
    """``s`` shortened with an ellipsis until it fits ``width`` points in the font ``text`` draws it with."""
    if stringWidth(s, _font(s, fonts), size) <= width:
        return s
    while s and stringWidth(s + "…", _font(s + "…", fonts), size) > width:
        s = s[:-1]
    return s + "…"


def _months(first: dt.date, last: dt.date) -> list[dt.date]:
    out, d = [], dt.date(first.year, first.month, 1)
    while d <= last:
        out.append(d)
        d = dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    out.append(d)
    return out


def gantt(
    bars: Sequence[Bar],
    width: float,
    fonts: FontSet,
    *,
    legend: Sequence[str],
    month_label: callable,  # type: ignore[valid-type]
) -> Drawing:
    """``month_label(date) -> str`` names an axis tick ("Jan 2027", "2027年1月")."""
    label_w = min(width * 0.28, max(stringWidth(b.name, _font(b.name, fonts), LABEL_SIZE) for b in bars) + 8)
    height = AXIS_H + ROW_H * len(bars) + LEGEND_H + 4
    d = Drawing(width, height)
    d.initialFontName = fonts.body
    d.__dict__["phase_rows"] = len(bars)  # what the tests count (Drawing refuses unknown attributes)
    first = min(s for b in bars for s, _ in b.segments)
    last = max(e for b in bars for _, e in b.segments)
    ticks = _months(first, last)
    t0, t1 = ticks[0], ticks[-1]
    span = max((t1 - t0).days, 1)
    x0, x1 = label_w, width - 4
    top = height - AXIS_H

    def x(day: dt.date) -> float:
        return x0 + (x1 - x0) * (day - t0).days / span

    # axis: a tick per month, a label every k months so the labels do not collide
    widest = max(stringWidth(month_label(t), _font(month_label(t), fonts), 6.5) for t in ticks)
    per_month = (x1 - x0) / max(len(ticks) - 1, 1)
    every = max(1, int((widest + 6) // per_month) + 1)
    for i, t in enumerate(ticks):
        d.add(Line(x(t), top, x(t), LEGEND_H + 4, strokeColor=RULE, strokeWidth=0.3))
        if i % every == 0 and i < len(ticks) - 1:
            d.add(text(x(t) + 2, top + 6, month_label(t), fonts, 6.5, colour=MUTED))
    d.add(Line(x0, top, x1, top, strokeColor=INK, strokeWidth=0.6))
    for r, b in enumerate(bars):
        y = top - (r + 1) * ROW_H + 5
        d.add(text(0, y + 3, fitted(b.name, fonts, LABEL_SIZE, label_w - 6), fonts, LABEL_SIZE))
        for k, (s, e) in enumerate(b.segments):
            if e > s:
                d.add(
                    Rect(x(s), y, x(e) - x(s), ROW_H - 9, fillColor=SEGMENT_COLOURS[k], strokeColor=colors.white,
                         strokeWidth=0.5)
                )  # fmt: skip
    lx = x0
    for k, name in enumerate(legend):
        d.add(Rect(lx, 4, 8, 7, fillColor=SEGMENT_COLOURS[k], strokeColor=None))
        d.add(text(lx + 11, 5, name, fonts, 6.5, colour=MUTED))
        lx += 11 + stringWidth(name, _font(name, fonts), 6.5) + 14
    return d
