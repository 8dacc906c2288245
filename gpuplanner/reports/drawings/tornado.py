"""The sensitivity tornado: one horizontal bar per input, from the base figure to the figure with the input
lowered (one colour) and raised (another), sorted by swing, labelled with the input and its range, the two
values at the bar ends. An input that does not move the figure gets a "no effect" note instead of a bar."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.graphics.shapes import Drawing, Line, Rect
from reportlab.lib import colors

from gpuplanner.reports.doc import fit, text_width
from gpuplanner.reports.drawings.topology import text
from gpuplanner.reports.fonts import FontSet
from gpuplanner.reports.styles import INK, MUTED, RULE

LOW = colors.HexColor("#3d85c6")
HIGH = colors.HexColor("#e69138")
BAR_H = 11.0
GAP = 5.0
TITLE_H = 16.0
LEGEND_H = 14.0


@dataclass(frozen=True)
class Bar:
    label: str  # the input and its range, e.g. "GPU price: ± 20 %"
    low: float  # the figure with the input lowered
    high: float  # the figure with the input raised

    @property
    def swing(self) -> float:
        s = abs(self.high - self.low)
        return s if math.isfinite(s) else 0.0


def sort_bars(bars: Sequence[Bar]) -> list[Bar]:
    """Widest swing first (stable, so equal swings keep the engine's order)."""
    return sorted(bars, key=lambda b: -b.swing)


def tornado_drawing(
    bars: Sequence[Bar],
    base: float,
    width: float,
    fonts: FontSet,
    *,
    title: str,
    legend: tuple[str, str],
    no_effect: str,
    value_format: Callable[[float], str],
) -> Drawing:
    """The tornado of ``bars`` around ``base``; labels take the left third, values sit outside the bar ends."""
    bars = sort_bars(bars)
    height = TITLE_H + len(bars) * (BAR_H + GAP) + LEGEND_H + 4
    d = Drawing(width, height)
    d.initialFontName = fonts.body  # the renderer starts in this font, not the non-embedded Helvetica
    d.add(text(0, height - 10, fit(title, fonts, fonts.bold, 8, width), fonts, 8, bold=True))
    label_w = min(width * 0.34, 170.0)
    values = [v for b in bars for v in (b.low, b.high) if math.isfinite(v)] + [base]
    lo, hi = min(values), max(values)
    span = (hi - lo) or max(abs(base), 1.0) * 0.01
    value_w = max((text_width(value_format(v), fonts, fonts.body, 6.5) for v in values), default=20.0) + 6
    x0, x1 = label_w + value_w, width - value_w

    def x_of(v: float) -> float:
        return x0 + (v - lo) / span * (x1 - x0)

    xb = x_of(base)
    top = height - TITLE_H
    for k, b in enumerate(bars):
        y = top - (k + 1) * (BAR_H + GAP) + GAP
        name = fit(b.label, fonts, fonts.body, 7, label_w - 4)
        d.add(text(0, y + 3, name, fonts, 7))
        if b.swing <= 1e-12 * max(abs(base), 1.0):
            d.add(text(xb + 4, y + 3, no_effect, fonts, 6.5, colour=MUTED))
            continue
        for v, colour in ((b.low, LOW), (b.high, HIGH)):
            if not math.isfinite(v) or abs(v - base) <= 1e-12 * max(abs(base), 1.0):
                continue
            xv = x_of(v)
            d.add(Rect(min(xb, xv), y, abs(xv - xb), BAR_H, fillColor=colour, strokeColor=None))
            right = xv > xb
            d.add(
                text(
                    xv + (3 if right else -3),
                    y + 3,
                    value_format(v),
                    fonts,
                    6.5,
                    anchor="start" if right else "end",
                )
            )
    d.add(Line(xb, top + 2, xb, LEGEND_H + 2, strokeColor=INK, strokeWidth=0.8))
    d.add(Line(0, LEGEND_H, width, LEGEND_H, strokeColor=RULE, strokeWidth=0.4))
    for k, (s, colour) in enumerate(zip(legend, (LOW, HIGH), strict=True)):
        x = k * width / 3
        d.add(Rect(x, 2, 8, 7, fillColor=colour, strokeColor=None))
        d.add(text(x + 11, 3, fit(s, fonts, fonts.body, 6.5, width / 3 - 14), fonts, 6.5))
    return d
