"""Power and cooling: the table per rack (breaking across pages with its header repeated) and the facility
totals (IT kW, PUE, facility kW, annual MWh and energy cost, utility feed, heat to liquid and air)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.styles import ACCENT_LIGHT, MARGIN, PAGE

COLUMNS = (
    "col_rack", "col_kw_load", "col_kw_typical", "col_kw_max", "col_budget", "col_cooling",
    "col_liquid", "col_air", "col_m3h", "col_cfm", "col_lpm", "col_ok",
)  # fmt: skip


def rack_rows(ctx: ReportContext) -> list[list[str]]:
    rows = []
    for r in ctx.data["racks"]:
        within = r["kw_budget"] is None or r["kw_max"] <= r["kw_budget"] + 1e-9
        ok = r["cooling_ok"] and within
        rows.append(
            [
                r["name"],
                fmt.kw(r["kw_load"]),
                fmt.kw(r["kw_typical"]),
                fmt.kw(r["kw_max"]),
                fmt.num(r["kw_budget"]) if r["kw_budget"] else fmt.DASH,
                i18n.label("cool", r["cooling"], ctx.lang),
                fmt.kw(r["liquid_kw"]),
                fmt.kw(r["air_kw"]),
                fmt.num(r["airflow_m3_per_h"]),  # what facility teams size in; CFM as US datasheets quote
                fmt.num(r["airflow_cfm"]),
                fmt.num(r["coolant_l_per_min"]),
                ctx.t("yes") if ok else ctx.t("no"),
            ]
        )
    return rows


def facility_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    d, cur = ctx.data, ctx.cur_label
    rows = [
        (ctx.t("t_it_kw_max"), fmt.kw(d["it_kw_max"])),
        (ctx.t("t_it_kw_typical"), fmt.kw(d["it_kw_typical"])),
        (ctx.t("t_it_kw_load"), fmt.kw(d["it_kw_load"])),
        (ctx.t("t_pue"), fmt.pue(d["pue"])),
        (ctx.t("t_fac_kw_max"), fmt.kw(d["facility_kw_max"])),
        (ctx.t("t_fac_kw"), fmt.kw(d["facility_kw"])),
        (ctx.t("t_annual_mwh"), fmt.num(d["annual_mwh"])),
        (ctx.t("t_energy_cost", cur=cur), fmt.money(d["energy_cost_per_year"])),
        (ctx.t("t_feed_kw"), fmt.kw(d["utility_feed_kw_needed"])),
    ]
    if d.get("utility_kw_available"):
        rows.append((ctx.t("t_feed_available"), fmt.kw(d["utility_kw_available"])))
    rows += [(ctx.t("t_liquid_kw"), fmt.kw(d["liquid_kw"])), (ctx.t("t_air_kw"), fmt.kw(d["air_kw"]))]
    for method, kw in (d.get("cooling_mix_kw") or {}).items():
        if kw > 0:
            rows.append((ctx.t("t_cooling_mix", method=i18n.label("cool", method, ctx.lang)), fmt.kw(kw)))
    return rows


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    width = PAGE[0] - 2 * MARGIN
    out: list[Flowable] = [section(ctx, n, "sec_power"), *sub(ctx, "facility_totals")]
    out.append(ctx.key_values(facility_rows(ctx), (width * 0.62, width * 0.38)))
    out += sub(ctx, "power_per_rack")
    rows = rack_rows(ctx)
    if not rows:
        return [*out, ctx.para(ctx.t("power_none"))]
    out.append(ctx.para(ctx.t("power_intro"), "small"))
    num_w = 12 * mm
    widths = [20 * mm, *[num_w] * 4, 0.0, *[num_w] * 5, 9 * mm]
    widths[5] = width - sum(widths)
    rows, extra = with_row_subtotals(ctx, rows, len(COLUMNS))
    out.append(
        ctx.table([ctx.t(k) for k in COLUMNS], rows, widths, numeric_from=1, text_cols=(0, 5), extra=extra)
    )
    return out


SUMMED = {"kw_load": 1, "kw_typical": 2, "kw_max": 3, "liquid_kw": 6, "air_kw": 7}  # field → column


def with_row_subtotals(
    ctx: ReportContext, rows: list[list[str]], ncol: int
) -> tuple[list[list[Any]], list[tuple]]:
    """The per-rack lines grouped by row, with a bold subtotal line after each row of racks (when there are
    several rows), so a long table reads row by row; the subtotals add up to the facility totals above."""
    labels = [str(r.get("row") or "") for r in ctx.data["racks"]]
    if len(set(labels)) < 2:
        return list(rows), []
    order = sorted(range(len(labels)), key=labels.__getitem__)  # stable: racks keep their order in a row
    racks = [ctx.data["racks"][i] for i in order]
    rows = [rows[i] for i in order]
    labels = [labels[i] for i in order]
    out: list[list[Any]] = []
    extra: list[tuple] = []
    start = 0
    for k in range(1, len(racks) + 1):
        if k < len(racks) and labels[k] == labels[start]:
            continue
        group = racks[start:k]
        out += rows[start:k]
        line: list[Any] = [""] * ncol
        line[0] = ctx.para(
            ctx.t("power_row_subtotal", row=labels[start], n=fmt.integer(len(group))), "cell_bold"
        )
        for field, col in SUMMED.items():
            line[col] = fmt.kw(sum(float(r[field]) for r in group))
        out.append(line)
        r = len(out)  # the header is row 0
        extra += [
            ("FONTNAME", (0, r), (-1, r), ctx.fonts.bold),
            ("BACKGROUND", (0, r), (-1, r), ACCENT_LIGHT),
        ]
        start = k
    return out, extra
