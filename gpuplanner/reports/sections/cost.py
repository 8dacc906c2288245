"""Cost and TCO: capex by category, opex per year, the N-year total, cost per GPU-hour, and the cumulative
cost of owning the cluster against renting the same GPUs in a cloud."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer

from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.charts import line_chart
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN


def _category_table(ctx: ReportContext, amounts: dict[str, float], prefix: str, total: float) -> Flowable:
    rows = [
        [ctx.t(f"{prefix}_{k}"), fmt.money(v), fmt.pct(v / total if total else float("nan"))]
        for k, v in amounts.items()
        if v
    ]
    rows.append([ctx.t("total"), fmt.money(total), fmt.pct(1.0 if total else float("nan"))])
    headers = [ctx.t("col_category"), ctx.t("col_amount", cur=ctx.cur_label), ctx.t("col_share")]
    return ctx.table(headers, rows, [WIDTH * 0.5, WIDTH * 0.3, WIDTH * 0.2], numeric_from=1, total_rows=1)


def tco_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    d, cur, years = ctx.data, ctx.cur_label, ctx.data["tco_years"]
    be = d.get("cloud_break_even_month")
    rows = [
        (ctx.t("t_capex", cur=cur), fmt.money(d["capex"])),
        (ctx.t("t_opex_years", years=years, cur=cur), fmt.money(d["opex_per_year"] * years)),
        (ctx.t("t_tco", years=years, cur=cur), fmt.money(d["tco"])),
        *money_rows(ctx),
        (ctx.t("t_gpu_hour", cur=cur), fmt.num(d["cost_per_gpu_hour"], 2)),
        (ctx.t("t_cloud_tco", years=years, cur=cur), fmt.money(d["cloud_tco"])),
        (ctx.t("t_break_even"), ctx.t("month_n", n=be) if be else ctx.t("never_within", years=years)),
    ]
    if d.get("training_run_cost") is not None:
        rows.append((ctx.t("t_run_cost", cur=cur), fmt.money(d["training_run_cost"])))
    if d.get("cloud_training_run_cost") is not None:
        rows.append((ctx.t("t_cloud_run_cost", cur=cur), fmt.money(d["cloud_training_run_cost"])))
    return rows


def money_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    """NPV, facility, staff and cost per million tokens (engine/facility/tco.py), when the analysis has them."""
    d, cur = ctx.data, ctx.cur_label
    if "npv" not in d:
        return []
    rows = [
        (ctx.t("t_npv", rate=fmt.num(d["discount_rate_pct"], 1), cur=cur), fmt.money(d["npv"])),
        (
            ctx.t("t_facility", model=ctx.t(f"fac_{d['facility']['model']}"), cur=cur),
            fmt.money(d["facility"]["cost_per_year"]),
        ),
        (ctx.t("t_staff"), fmt.num(d["staffing"]["fte"], 0)),
    ]
    if d.get("cost_per_million_tokens") is not None:
        rows.append((ctx.t("t_mtok", cur=cur), fmt.num(d["cost_per_million_tokens"], 2)))
    return rows


def _own_cumulative(ctx: ReportContext, month: int) -> float:
    """Capex + the opex of months 1..month, from the yearly schedule (maintenance after the support years)."""
    d = ctx.data
    by_year = d.get("opex_by_year")
    if not by_year:
        return d["capex"] + month * d["opex_per_year"] / 12.0
    yearly = [sum(v[y] for v in by_year.values()) for y in range(len(next(iter(by_year.values()))))]
    full, part = divmod(month, 12)
    spent = sum(yearly[:full]) + (yearly[full] * part / 12.0 if full < len(yearly) else 0.0)
    return d["capex"] + spent


def sensitivity_table(ctx: ReportContext) -> list[Flowable]:
    sens = ctx.data.get("sensitivity")
    if not sens or not sens.get("drivers"):
        return []
    rows = []
    for s in sens["drivers"]:
        r = s["range"]
        rng = (
            f"± {fmt.num(r * 100, 0)} %"
            if s["driver"] in ("electricity_price", "gpu_price", "cloud_price")
            else (
                f"± {fmt.num(r, 2)}"
                if s["driver"] != "discount_rate_pct"
                else ctx.t("range_points", v=fmt.num(r, 1))
            )
        )
        lo, hi = s["low"]["cost_per_gpu_hour"], s["high"]["cost_per_gpu_hour"]
        rows.append(
            [
                ctx.t(f"drv_{s['driver']}"),
                rng,
                fmt.num(lo, 2) if lo is not None else "—",
                fmt.num(hi, 2) if hi is not None else "—",
            ]
        )
    cur = ctx.cur_label
    headers = [ctx.t("col_input"), ctx.t("col_range"), ctx.t("col_low", cur=cur), ctx.t("col_high", cur=cur)]
    table = ctx.table(headers, rows, [WIDTH * 0.4, WIDTH * 0.2, WIDTH * 0.2, WIDTH * 0.2], numeric_from=2)
    return [*sub(ctx, "sensitivity"), table]


def electrical_rows(ctx: ReportContext) -> list[Flowable]:
    e = ctx.data.get("electrical")
    if not e:
        return []
    u, t, g, c = e["ups"], e["transformer"], e["generator"], ctx.data["cdus"]
    rows = [
        (
            ctx.t(
                "t_ups",
                n=u["modules_installed"],
                kva=fmt.num(u["module_kva"], 0),
                load=fmt.num(u["load_kva"], 0),
            ),
            fmt.num(u["installed_kva"], 0),
        ),
        (ctx.t("t_battery", min=fmt.num(u["runtime_min"], 0)), fmt.num(u["battery_kwh"], 0)),
        (ctx.t("t_transformers", n=t["installed"], kva=fmt.num(t["unit_kva"], 0)), fmt.num(t["load_kva"], 0)),
        (ctx.t("t_generators", n=g["installed"], kva=fmt.num(g["unit_kva"], 0)), fmt.num(g["load_kva"], 0)),
        (
            ctx.t(
                "t_cdus",
                n=c["count"],
                kw=fmt.num(c["cdu_capacity_kw"], 0),
                load=fmt.num(c["liquid_kw_max"], 0),
            ),
            fmt.num(c["installed_kw"], 0),
        ),
        (ctx.t("t_pue_electrical"), fmt.num(e["pue_with_electrical_losses"], 2)),
    ]
    return [
        *sub(ctx, "electrical_chain", red=e["redundancy"]),
        ctx.key_values(rows, (WIDTH * 0.72, WIDTH * 0.28)),
    ]


def own_vs_rent(ctx: ReportContext) -> Flowable:
    d = ctx.data
    years = max(int(d["tco_years"]), 1)
    cloud_year = ctx.results.cost.totals_local.get("cloud_per_year", 0.0)
    step = 3 if years <= 5 else 6
    months = list(range(0, 12 * years + 1, step))
    top = max(_own_cumulative(ctx, 12 * years), years * cloud_year)
    if ctx.lang == "zh":  # 万元 / 亿元, as the app's charts in Chinese
        div, unit = fmt.money_scale_zh(top, ctx.currency)
    else:
        div, unit = 1e6, ctx.t("axis_million", cur=ctx.cur_label)
    own = [(m, _own_cumulative(ctx, m) / div) for m in months]
    cloud = [(m, m * cloud_year / 12.0 / div) for m in months]
    be = d.get("cloud_break_even_month")
    labels = {float(m): str(m) for m in months if m % 12 == 0}
    return line_chart(
        [(ctx.t("chart_own"), own), (ctx.t("chart_cloud"), cloud)],
        WIDTH,
        190,
        ctx.fonts,
        x_title=ctx.t("axis_months"),
        y_title=ctx.t("axis_cost", unit=unit),
        x_labels=labels,
        y_format=fmt.axis_number,
        marker=(float(be), ctx.t("month_n", n=be)) if be else None,
    )


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    d = ctx.data
    out: list[Flowable] = [section(ctx, n, "sec_cost")]
    out.append(ctx.para(ctx.t("cost_intro", years=d["tco_years"], cur=ctx.cur_label)))
    out += [*sub(ctx, "capex_by_category"), _category_table(ctx, d["capex_by_category"], "cat", d["capex"])]
    out += [
        *sub(ctx, "opex_by_category"),
        _category_table(ctx, d["opex_by_category"], "opx", d["opex_per_year"]),
    ]
    out += [*sub(ctx, "tco_summary"), ctx.key_values(tco_rows(ctx), (WIDTH * 0.62, WIDTH * 0.38))]
    out += [Spacer(1, 4 * mm), CondPageBreak(200), own_vs_rent(ctx)]
    site = ctx.project.site
    price = fmt.num(ctx.results.cost.local(ctx.results.cost.cloud_usd_per_gpu_hour), 2)
    # "每 GPU 小时 18.00 元" in Chinese running text, "2.50 USD" in English
    cur_word = (
        fmt.CURRENCY_WORDS_ZH.get(ctx.currency.upper(), ctx.currency) if ctx.lang == "zh" else ctx.currency
    )
    out.append(
        ctx.para(
            ctx.t("cloud_note", price=price, cur=cur_word, util=fmt.pct(site.expected_utilization, 0)),
            "muted",
        )
    )
    out += sensitivity_table(ctx)
    out += electrical_rows(ctx)
    return out
