"""The sensitivity tornadoes of the cost section: the cost per GPU-hour and the N-year TCO, each input of the
engine's sensitivity (``results_json`` → ``sensitivity``) moved down and up by its range."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer

from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.tornado import Bar, tornado_drawing
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN
RELATIVE = ("electricity_price", "gpu_price", "cloud_price")


def range_label(ctx: ReportContext, s: dict[str, Any]) -> str:
    """ "± 20 %" for a relative input, "± 0.10" for an absolute one, "± 2.0 points" for the discount rate."""
    r = s["range"]
    if s["driver"] in RELATIVE:
        return f"± {fmt.num(r * 100, 0)} %"
    if s["driver"] == "discount_rate_pct":
        return ctx.t("range_points", v=fmt.num(r, 1))
    return f"± {fmt.num(r, 2)}"


def _value(x: Any) -> float:
    return float(x) if isinstance(x, int | float) else float("nan")


def bars(ctx: ReportContext, figure: str, scale: float = 1.0) -> list[Bar]:
    """One bar per sensitivity row for ``figure`` ("cost_per_gpu_hour", "tco", "npv"), amounts ÷ ``scale``."""
    sens = ctx.data.get("sensitivity") or {}
    return [
        Bar(
            ctx.t("tornado_bar", input=ctx.t(f"drv_{s['driver']}"), range=range_label(ctx, s)),
            _value(s["low"][figure]) / scale,
            _value(s["high"][figure]) / scale,
        )
        for s in sens.get("drivers") or []
    ]


def tornado_figures(ctx: ReportContext) -> list[Flowable]:
    sens = ctx.data.get("sensitivity")
    if not sens or not sens.get("drivers"):
        return []
    base = sens["base"]
    legend = (ctx.t("tornado_low"), ctx.t("tornado_high"))
    out: list[Flowable] = [Spacer(1, 3 * mm), ctx.para(ctx.t("tornado_intro"), "small")]
    per_hour = base.get("cost_per_gpu_hour")
    if per_hour is not None:
        d = tornado_drawing(
            bars(ctx, "cost_per_gpu_hour"),
            float(per_hour),
            WIDTH,
            ctx.fonts,
            title=ctx.t("tornado_title_hour", cur=ctx.cur_label, base=fmt.num(per_hour, 2)),
            legend=legend,
            no_effect=ctx.t("tornado_no_effect"),
            value_format=lambda v: fmt.num(v, 2),
        )
        out.append(KeepTogether([d, Spacer(1, 3 * mm)]))
    if ctx.lang == "zh":  # 万元 / 亿元, as the rest of the Chinese report
        div, unit = fmt.money_scale_zh(float(base["tco"]), ctx.currency)
    else:
        div, unit = 1e6, ctx.t("axis_million", cur=ctx.cur_label)
    digits = 2 if div >= 1e8 else 1  # 亿 is a large unit: 7.75, not 7.7
    tco = tornado_drawing(
        bars(ctx, "tco", div),
        float(base["tco"]) / div,
        WIDTH,
        ctx.fonts,
        title=ctx.t(
            "tornado_title_tco",
            years=ctx.data.get("tco_years", ""),
            unit=unit,
            base=fmt.num(base["tco"] / div, digits),
        ),
        legend=legend,
        no_effect=ctx.t("tornado_no_effect"),
        value_format=lambda v: fmt.num(v, digits),
    )
    out.append(tco)
    return out
