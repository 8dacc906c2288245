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
    headers = [ctx.t("col_category"), ctx.t("col_amount", cur=ctx.currency), ctx.t("col_share")]
    return ctx.table(headers, rows, [WIDTH * 0.5, WIDTH * 0.3, WIDTH * 0.2], numeric_from=1, total_rows=1)


def tco_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    d, cur, years = ctx.data, ctx.currency, ctx.data["tco_years"]
    be = d.get("cloud_break_even_month")
    rows = [
        (ctx.t("t_capex", cur=cur), fmt.money(d["capex"])),
        (ctx.t("t_opex_years", years=years, cur=cur), fmt.money(d["opex_per_year"] * years)),
        (ctx.t("t_tco", years=years, cur=cur), fmt.money(d["tco"])),
        (ctx.t("t_gpu_hour", cur=cur), fmt.num(d["cost_per_gpu_hour"], 2)),
        (ctx.t("t_cloud_tco", years=years, cur=cur), fmt.money(d["cloud_tco"])),
        (ctx.t("t_break_even"), ctx.t("month_n", n=be) if be else ctx.t("never_within", years=years)),
    ]
    if d.get("training_run_cost") is not None:
        rows.append((ctx.t("t_run_cost", cur=cur), fmt.money(d["training_run_cost"])))
    if d.get("cloud_training_run_cost") is not None:
        rows.append((ctx.t("t_cloud_run_cost", cur=cur), fmt.money(d["cloud_training_run_cost"])))
    return rows


def own_vs_rent(ctx: ReportContext) -> Flowable:
    d = ctx.data
    years = max(int(d["tco_years"]), 1)
    cloud_year = ctx.results.cost.totals_local.get("cloud_per_year", 0.0)
    step = 3 if years <= 5 else 6
    months = list(range(0, 12 * years + 1, step))
    top = max(d["capex"] + 12 * years * d["opex_per_year"] / 12.0, years * cloud_year)
    if ctx.lang == "zh":  # 万元 / 亿元, as the app's charts in Chinese
        div, unit = fmt.money_scale_zh(top, ctx.currency)
    else:
        div, unit = 1e6, ctx.t("axis_million", cur=ctx.currency)
    own = [(m, (d["capex"] + m * d["opex_per_year"] / 12.0) / div) for m in months]
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
    out.append(ctx.para(ctx.t("cost_intro", years=d["tco_years"], cur=ctx.currency)))
    out += [*sub(ctx, "capex_by_category"), _category_table(ctx, d["capex_by_category"], "cat", d["capex"])]
    out += [
        *sub(ctx, "opex_by_category"),
        _category_table(ctx, d["opex_by_category"], "opx", d["opex_per_year"]),
    ]
    out += [*sub(ctx, "tco_summary"), ctx.key_values(tco_rows(ctx), (WIDTH * 0.62, WIDTH * 0.38))]
    out += [Spacer(1, 4 * mm), CondPageBreak(200), own_vs_rent(ctx)]
    site = ctx.project.site
    price = fmt.num(ctx.results.cost.local(site.cloud_usd_per_gpu_hour), 2)
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
    return out
