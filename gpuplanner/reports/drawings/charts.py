"""Charts: the step-time breakdown as one stacked bar, the scaling curve, and own-versus-rent cumulative cost."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line, Rect
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors

from gpuplanner.reports import fmt
from gpuplanner.reports.doc import fit, text_width
from gpuplanner.reports.drawings.topology import text
from gpuplanner.reports.fonts import FontSet
from gpuplanner.reports.styles import ACCENT, INK, MUTED, RULE

PALETTE = [colors.HexColor(c) for c in ("#0b5394", "#6fa8dc", "#e69138", "#f6b26b", "#cc4125", "#93c47d",
                                         "#8e7cc3", "#c27ba0", "#999999")]  # fmt: skip


def stacked_bar(parts: Sequence[tuple[str, float]], width: float, fonts: FontSet) -> Drawing:
    """One horizontal bar split into ``parts`` (label, value), with a two-column legend below."""
    parts = [(k, v) for k, v in parts if v > 0]
    total = sum(v for _, v in parts) or 1.0
    rows = (len(parts) + 1) // 2
    d = Drawing(width, 26 + rows * 11)
    d.initialFontName = fonts.body  # the renderer starts in this font, not the non-embedded Helvetica
    y_bar = rows * 11 + 6
    x = 0.0
    for i, (_, v) in enumerate(parts):
        w = width * v / total
        d.add(
            Rect(
                x,
                y_bar,
                w,
                16,
                fillColor=PALETTE[i % len(PALETTE)],
                strokeColor=colors.white,
                strokeWidth=0.6,
            )
        )
        if w > 26:
            d.add(
                text(
                    x + w / 2,
                    y_bar + 5,
                    fmt.pct(v / total, 0),
                    fonts,
                    6.5,
                    anchor="middle",
                    colour=colors.white,
                )
            )
        x += w
    col_w = width / 2
    for i, (label, v) in enumerate(parts):
        cx, cy = (i % 2) * col_w, (rows - 1 - i // 2) * 11
        d.add(Rect(cx, cy, 8, 7, fillColor=PALETTE[i % len(PALETTE)], strokeColor=None))
        shown = fit(f"{label} — {fmt.seconds(v)} s ({fmt.pct(v / total)})", fonts, fonts.body, 7, col_w - 16)
        d.add(text(cx + 12, cy + 1, shown, fonts, 7))
    return d


def _axes_fonts(plot: LinePlot, fonts: FontSet) -> None:
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = fonts.body
        axis.labels.fontSize = 7
        axis.labels.fillColor = INK
        axis.strokeColor = MUTED
        axis.strokeWidth = 0.5
    plot.yValueAxis.visibleGrid = True
    plot.yValueAxis.gridStrokeColor = RULE
    plot.yValueAxis.gridStrokeWidth = 0.3


def line_chart(
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    width: float,
    height: float,
    fonts: FontSet,
    *,
    x_title: str,
    y_title: str,
    x_labels: dict[float, str] | None = None,
    marker: tuple[float, str] | None = None,
    y_format: Callable[[float], str] = fmt.compact,
) -> Drawing:
    """Lines (label, [(x, y)…]) with axis titles, a legend row on top and an optional vertical marker."""
    d = Drawing(width, height)
    d.initialFontName = fonts.body  # the renderer starts in this font, not the non-embedded Helvetica
    plot = LinePlot()
    plot.x, plot.y = 42, 30
    plot.width, plot.height = width - 56, height - 56
    plot.data = [list(pts) for _, pts in series]
    for i in range(len(series)):
        plot.lines[i].strokeColor = (ACCENT, colors.HexColor("#e69138"), colors.HexColor("#6aa84f"))[i % 3]
        plot.lines[i].strokeWidth = 1.6
        plot.lines[i].symbol = makeMarker("FilledCircle", size=2.6)
    _axes_fonts(plot, fonts)
    plot.yValueAxis.valueMin = 0
    plot.yValueAxis.labelTextFormat = y_format
    if x_labels:
        plot.xValueAxis.valueSteps = sorted(x_labels)
        plot.xValueAxis.labelTextFormat = lambda v: x_labels.get(v, fmt.compact(v))
    d.add(plot)
    d.add(text(plot.x + plot.width / 2, 4, x_title, fonts, 7.5, anchor="middle", colour=MUTED))
    yt = text(0, 0, y_title, fonts, 7.5, anchor="middle", colour=MUTED)
    from reportlab.graphics.shapes import Group

    g = Group(yt)
    g.transform = (0, 1, -1, 0, 9, plot.y + plot.height / 2)
    d.add(g)
    x = plot.x
    for i, (label, _) in enumerate(series):
        colour = plot.lines[i].strokeColor
        d.add(Line(x, height - 10, x + 16, height - 10, strokeColor=colour, strokeWidth=2))
        d.add(text(x + 20, height - 12.5, label, fonts, 7.5))
        x += 20 + text_width(label, fonts, fonts.body, 7.5) + 14  # measured: CJK glyphs are twice as wide
    if marker is not None and plot.data and plot.data[0]:
        xs = [p[0] for s in plot.data for p in s]
        lo, hi = min(xs), max(xs)
        if hi > lo and lo <= marker[0] <= hi:
            mx = plot.x + plot.width * (marker[0] - lo) / (hi - lo)
            d.add(
                Line(
                    mx,
                    plot.y,
                    mx,
                    plot.y + plot.height,
                    strokeColor=MUTED,
                    strokeWidth=0.6,
                    strokeDashArray=[2, 2],
                )
            )
            d.add(text(mx + 3, plot.y + plot.height - 8, marker[1], fonts, 7, colour=MUTED))
    return d
