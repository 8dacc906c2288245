"""Scenario comparison: each scenario of the project analysed in full, the main figures side by side with the
base (the scenario without overrides, else the first), and for every other scenario a difference column
(scenario minus base; "=" where they are equal)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.styles import MARGIN, PAGE

PER_TABLE = 2  # other scenarios per table, each with its difference column, beside the base
MINUS = "−"
# (label, the figure as a number (None = not available), its format)
Metric = tuple[str, Callable[[dict[str, Any]], Any], Callable[[Any], str]]
Entry = tuple[str, str, dict[str, Any] | str]


def _perf(key: str) -> Callable[[dict[str, Any]], Any]:
    return lambda d: (d.get("performance") or {}).get(key)


def _severities(d: dict[str, Any]) -> tuple[int, int]:
    sev = [f["severity"] for f in d["findings"]]
    return sev.count("error"), sev.count("warning")


def metrics(ctx: ReportContext) -> list[Metric]:
    cur = ctx.cur_label
    years = ctx.data["tco_years"]
    integer, money = fmt.integer, fmt.money
    return [
        (ctx.t("t_gpus"), lambda d: d["gpus"], integer),
        (ctx.t("t_switches"), lambda d: d["fabric"]["switches"], integer),
        (ctx.t("t_tokens"), _perf("tokens_per_s"), fmt.num),
        (ctx.t("t_mfu"), _perf("mfu"), fmt.pct),
        (ctx.t("t_ttt"), _perf("time_to_train_days"), fmt.days),
        (ctx.t("t_it_kw_max"), lambda d: d["it_kw_max"], fmt.kw),
        (ctx.t("t_it_kw_load"), lambda d: d["it_kw_load"], fmt.kw),
        (ctx.t("t_pue"), lambda d: d["pue"], fmt.pue),
        (ctx.t("t_fac_kw_max"), lambda d: d["facility_kw_max"], fmt.kw),
        (ctx.t("t_annual_mwh"), lambda d: d["annual_mwh"], fmt.num),
        (ctx.t("t_energy_cost", cur=cur), lambda d: d["energy_cost_per_year"], money),
        (ctx.t("t_capex", cur=cur), lambda d: d["capex"], money),
        (ctx.t("t_opex", cur=cur), lambda d: d["opex_per_year"], money),
        (ctx.t("t_tco", years=years, cur=cur), lambda d: d["tco"], money),
        (ctx.t("t_gpu_hour", cur=cur), lambda d: d["cost_per_gpu_hour"], lambda v: fmt.num(v, 2)),
        (ctx.t("t_findings"), _severities, lambda v: f"{v[0]} / {v[1]}"),
    ]


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def difference(base: Any, other: Any, f: Callable[[Any], str]) -> str:
    """``other`` − ``base`` in the figure's own format with its sign; "=" when the printed figures agree."""
    if isinstance(base, tuple) and isinstance(other, tuple):
        parts = [b2 - b1 for b1, b2 in zip(base, other, strict=True)]
        return "=" if not any(parts) else " / ".join(f"{p:+d}".replace("-", MINUS) for p in parts)
    if not (_number(base) and _number(other)):
        return fmt.DASH
    if f(other) == f(base):
        return "="
    diff = float(other) - float(base)
    return ("+" if diff > 0 else MINUS) + f(abs(diff))


def base_index(ctx: ReportContext, items: list[Entry]) -> int:
    """The scenario without overrides (the plan as drawn), else the first."""
    rows = {s.name: s for s in ctx.project.tables["scenarios"].values()}
    for i, (name, _, _) in enumerate(items):
        s = rows.get(name)
        try:
            if s is not None and not json.loads(s.overrides_json or "{}"):
                return i
        except json.JSONDecodeError:
            continue
    return 0


def _value(data: dict[str, Any] | str, get: Callable[[dict[str, Any]], Any], f: Callable[[Any], str]) -> str:
    if not isinstance(data, dict):
        return fmt.DASH
    v = get(data)
    return f(v) if v is not None else fmt.DASH


def _table(ctx: ReportContext, base: Entry, chunk: list[Entry]) -> Flowable:
    width = PAGE[0] - 2 * MARGIN
    first = 56 * mm
    cols = 1 + 2 * len(chunk)
    col = (width - first) / cols
    b_name, b_desc, b_data = base
    rows: list[list[Any]] = [
        [ctx.t("scen_description"), ctx.cell(b_desc or fmt.DASH, "cell_right")]
        + [x for _, desc, _ in chunk for x in (ctx.cell(desc or fmt.DASH, "cell_right"), "")]
    ]
    for label, get, f in metrics(ctx):
        row: list[Any] = [label, _value(b_data, get, f)]
        for _, _, data in chunk:
            row.append(_value(data, get, f))
            ok = isinstance(data, dict) and isinstance(b_data, dict)
            row.append(difference(get(b_data), get(data), f) if ok else fmt.DASH)
        rows.append(row)
    errors = [ctx.t("scen_error", error=d) if isinstance(d, str) else "" for _, _, d in [base, *chunk]]
    if any(errors):
        cells = [ctx.cell(errors[0], "cell_right")]
        for e in errors[1:]:
            cells += [ctx.cell(e, "cell_right"), ""]
        rows.append(["", *cells])
    headers = [ctx.t("col_figure"), b_name]
    for name, _, _ in chunk:
        headers += [name, ctx.t("scen_diff", name=name)]
    return ctx.table(headers, rows, [first, *[col] * cols], numeric_from=1, text_cols=(0,))


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    items = ctx.scenarios
    b = base_index(ctx, items)
    base, others = items[b], [x for i, x in enumerate(items) if i != b]
    out: list[Flowable] = [section(ctx, n, "sec_scenarios"), ctx.para(ctx.t("scen_intro"))]
    out.append(ctx.para(ctx.t("scen_diff_intro", base=base[0]), "muted"))
    for i in range(0, len(others), PER_TABLE):
        out += [_table(ctx, base, others[i : i + PER_TABLE]), Spacer(1, 5 * mm)]
    return out
