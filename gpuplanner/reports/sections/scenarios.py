"""Scenario comparison: each scenario of the project analysed in full, the main figures side by side."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.styles import MARGIN, PAGE

PER_TABLE = 4
Metric = tuple[str, Callable[[dict[str, Any]], str]]


def _perf(key: str, f: Callable[[Any], str]) -> Callable[[dict[str, Any]], str]:
    return lambda d: f(d["performance"][key]) if d.get("performance") else fmt.DASH


def metrics(ctx: ReportContext) -> list[Metric]:
    cur = ctx.cur_label
    years = ctx.data["tco_years"]
    return [
        (ctx.t("t_gpus"), lambda d: fmt.integer(d["gpus"])),
        (ctx.t("t_switches"), lambda d: fmt.integer(d["fabric"]["switches"])),
        (ctx.t("t_tokens"), _perf("tokens_per_s", fmt.num)),
        (ctx.t("t_mfu"), _perf("mfu", fmt.pct)),
        (ctx.t("t_ttt"), _perf("time_to_train_days", fmt.days)),
        (ctx.t("t_it_kw_max"), lambda d: fmt.kw(d["it_kw_max"])),
        (ctx.t("t_it_kw_load"), lambda d: fmt.kw(d["it_kw_load"])),
        (ctx.t("t_pue"), lambda d: fmt.pue(d["pue"])),
        (ctx.t("t_fac_kw_max"), lambda d: fmt.kw(d["facility_kw_max"])),
        (ctx.t("t_annual_mwh"), lambda d: fmt.num(d["annual_mwh"])),
        (ctx.t("t_energy_cost", cur=cur), lambda d: fmt.money(d["energy_cost_per_year"])),
        (ctx.t("t_capex", cur=cur), lambda d: fmt.money(d["capex"])),
        (ctx.t("t_opex", cur=cur), lambda d: fmt.money(d["opex_per_year"])),
        (ctx.t("t_tco", years=years, cur=cur), lambda d: fmt.money(d["tco"])),
        (ctx.t("t_gpu_hour", cur=cur), lambda d: fmt.num(d["cost_per_gpu_hour"], 2)),
        (ctx.t("t_findings"), lambda d: _severities(d["findings"])),
    ]


def _severities(findings: list[dict[str, Any]]) -> str:
    sev = [f["severity"] for f in findings]
    return f"{sev.count('error')} / {sev.count('warning')}"


def _table(ctx: ReportContext, chunk: list[tuple[str, str, dict[str, Any] | str]]) -> Flowable:
    width = PAGE[0] - 2 * MARGIN
    first = 62 * mm
    col = (width - first) / len(chunk)
    rows: list[list[Any]] = [
        [ctx.t("scen_description"), *[ctx.cell(desc or fmt.DASH, "cell_right") for _, desc, _ in chunk]]
    ]
    for label, get in metrics(ctx):
        row: list[Any] = [label]
        for _, _, data in chunk:
            row.append(get(data) if isinstance(data, dict) else fmt.DASH)
        rows.append(row)
    errors = [ctx.t("scen_error", error=data) if isinstance(data, str) else "" for _, _, data in chunk]
    if any(errors):
        rows.append(["", *[ctx.cell(e, "cell_right") for e in errors]])
    headers = [ctx.t("col_figure"), *[name for name, _, _ in chunk]]
    return ctx.table(headers, rows, [first, *[col] * len(chunk)], numeric_from=1, text_cols=(0,))


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_scenarios"), ctx.para(ctx.t("scen_intro"))]
    items = ctx.scenarios
    for i in range(0, len(items), PER_TABLE):
        out += [_table(ctx, items[i : i + PER_TABLE]), Spacer(1, 5 * mm)]
    return out
