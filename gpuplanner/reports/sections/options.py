"""Options considered: the design advisor's Pareto front for the project's goal — each design's GPUs,
fabric, cooling, time to train (or requests served), facility kW, capex, TCO and binding constraint — and
why this proposal is the one chosen (or which option is cheapest when it is not on the front).

The front is what `gpuplanner advise` wrote to designs.json, or a search run for the report (`gpuplanner
report FILE --advise`); results are never stored in the project file. ``ctx.options`` is that designs.json
as a dict, checked by the caller (``cli/report_options.py``); ``other_goal`` is true when it was searched
for a goal other than the project's. The rows are the designs.json rows in their order; amounts are
converted from USD to the project's currency.
"""

from __future__ import annotations

import json
import math
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.styles import MARGIN, PAGE


def wanted(ctx: ReportContext) -> bool:
    return ctx.options is not None


def _rate(ctx: ReportContext) -> float:
    return float(getattr(ctx.project.info, "usd_exchange_rate", 1.0) or 1.0)


def _money(ctx: ReportContext, usd: float) -> str:
    return fmt.money_words(usd * _rate(ctx), ctx.currency, ctx.lang)


def chosen_rank(ctx: ReportContext, designs: list[dict[str, Any]]) -> int | None:
    """The option this project is: same server type and count, fabric template and oversubscription, and
    (among those) the same rack cooling; None when it is not on the front."""
    fab = next((f for f in ctx.project.tables["fabrics"].values() if f.kind == "compute"), None)
    if fab is None:
        return None
    try:
        params = json.loads(fab.params_json or "{}")
    except ValueError:
        return None
    if not isinstance(params, dict):
        return None
    servers = [d for d in ctx.project.devices.values() if d.role == "compute"]
    types = {d.type_id for d in servers}
    cooling = sorted({r["cooling"] for r in ctx.data.get("racks") or []})
    hits = [
        row
        for row in designs
        if types == {row["server"]}
        and len(servers) == row["servers"]
        and params.get("template") == row["fabric"]
        and float(params.get("oversub") or 1.0) == float(row["oversubscription"])
    ]
    best = next((r for r in hits if sorted(r["cooling"]) == cooling), hits[0] if hits else None)
    return None if best is None else int(best.get("rank") or designs.index(best) + 1)


def _goal_paras(ctx: ReportContext, goal: dict[str, Any]) -> list[Flowable]:
    model = ctx.project.catalog.entries.get(goal["model_id"])
    name = getattr(model, "name", goal["model_id"])
    if goal["kind"] == "training":
        first = ctx.t(
            "opt_goal_train",
            model=name,
            tokens=fmt.compact(goal["total_tokens"], ctx.lang),
            days=fmt.num(goal["deadline_days"], 0),
        )
    else:
        first = ctx.t(
            "opt_goal_serve",
            model=name,
            rate=fmt.num(goal["requests_per_s"], 1),
            ttft=fmt.num(goal["ttft_s_max"], 2),
            tpot=fmt.num(goal["tpot_s_max"] * 1000, 0),
        )
    limits = []
    for key in ("facility_kw_max", "rack_kw_max", "racks_max"):
        v = goal.get(key)
        if v:
            limits.append(ctx.t(f"opt_lim_{key.replace('_max', '')}", v=fmt.num(v, 0)))
    for key in ("capex_usd_max", "tco_usd_max"):
        v = goal.get(key)
        if v:
            limits.append(ctx.t(f"opt_lim_{key.replace('_max', '')}", v=_money(ctx, v)))
    if goal.get("region"):
        limits.append(ctx.t("opt_lim_region", v=goal["region"]))
    if goal.get("vendors"):
        limits.append(ctx.t("opt_lim_vendors", v=", ".join(map(str, goal["vendors"]))))
    sep = "；" if ctx.lang == "zh" else "; "
    second = ctx.t("opt_limits", limits=sep.join(limits)) if limits else ctx.t("opt_no_limits")
    return [ctx.para(f"{first} {second}" if ctx.lang != "zh" else first + second)]


def headers(ctx: ReportContext, designs: list[dict[str, Any]], training: bool) -> list[str]:
    cur = ctx.cur_label
    years = designs[0].get("tco_years") or ctx.data.get("tco_years") or ""
    return [
        ctx.t("opt_col_option"),
        ctx.t("opt_col_servers"),
        ctx.t("opt_col_gpus"),
        ctx.t("opt_col_fabric"),
        ctx.t("opt_col_cooling"),
        ctx.t("opt_col_days") if training else ctx.t("opt_col_rate"),
        ctx.t("opt_col_fac_kw"),
        ctx.t("opt_col_capex", cur=cur),
        ctx.t("opt_col_tco", years=years, cur=cur),
        ctx.t("opt_col_binding"),
    ]


def table_rows(
    ctx: ReportContext, designs: list[dict[str, Any]], training: bool, chosen: int | None
) -> list[list[str]]:
    """One row per design of the front, in the order of designs.json."""
    rows = []
    for i, d in enumerate(designs, 1):
        rank = int(d.get("rank") or i)
        perf = d.get("time_to_train_days") if training else d.get("requests_per_s_max")
        rows.append(
            [
                ctx.t("opt_this", n=rank) if rank == chosen else str(rank),
                f"{d['servers']} × {d['server']}",
                fmt.integer(d["gpus"]),
                f"{d['fabric']} {d['oversubscription']:g}:1",
                ", ".join(map(str, d["cooling"])),
                fmt.num(perf, 1),
                fmt.num(d["facility_kw_max"], 0),
                fmt.money(d["capex_usd"] * _rate(ctx)),
                fmt.money(d["tco_usd"] * _rate(ctx)),
                binding_name(ctx, d["binding_constraint"]),
            ]
        )
    return rows


def _table(ctx: ReportContext, designs: list[dict[str, Any]], training: bool, chosen: int | None) -> Flowable:
    w = PAGE[0] - 2 * MARGIN
    widths = [w * f for f in (0.1, 0.16, 0.06, 0.12, 0.11, 0.07, 0.07, 0.09, 0.1, 0.12)]
    rows = table_rows(ctx, designs, training, chosen)
    return ctx.table(headers(ctx, designs, training), rows, widths, numeric_from=5, text_cols=(0, 1, 3, 4, 9))


def binding_name(ctx: ReportContext, name: str) -> str:
    key = f"opt_bind_{name}"
    text = ctx.t(key)
    return name if text == key else text


def why(
    ctx: ReportContext, designs: list[dict[str, Any]], training: bool, chosen: int | None, objective: str
) -> str:
    """The sentence that says why the chosen design wins (or names the cheapest when this plan is not an
    option). ``designs`` are in rank order: the first is the cheapest."""
    cost_key = "tco_usd" if objective == "tco" else "capex_usd"
    cost_name = ctx.t(f"opt_cost_{objective}")
    first = designs[0]
    rank_of = {int(d.get("rank") or i): d for i, d in enumerate(designs, 1)}
    if chosen is None or chosen not in rank_of:
        return ctx.t(
            "opt_not_on_front",
            n=int(first.get("rank") or 1),
            cost_name=cost_name,
            cost=_money(ctx, first[cost_key]),
        )
    d = rank_of[chosen]
    binding = binding_name(ctx, d["binding_constraint"])
    cheapest = min(designs, key=lambda x: x[cost_key])
    if d is cheapest or d[cost_key] <= cheapest[cost_key]:
        text = ctx.t(
            "opt_why_cheapest",
            n=chosen,
            front=len(designs),
            cost_name=cost_name,
            cost=_money(ctx, d[cost_key]),
            binding=binding,
        )
    else:
        base = {
            "n": chosen,
            "cheapest": int(cheapest.get("rank") or 1),
            "cost_name": cost_name,
            "extra": _money(ctx, d[cost_key] - cheapest[cost_key]),
            "binding": binding,
        }
        gain_days = (cheapest.get("time_to_train_days") or 0) - (d.get("time_to_train_days") or 0)
        gain_rate = (d.get("requests_per_s_max") or 0) - (cheapest.get("requests_per_s_max") or 0)
        if training and gain_days > 0:
            text = ctx.t("opt_why_faster", days=fmt.num(gain_days, 1), **base)
        elif not training and gain_rate > 0:
            text = ctx.t("opt_why_headroom", rate=fmt.num(gain_rate, 1), **base)
        else:
            kw = cheapest["facility_kw_max"] - d["facility_kw_max"]
            text = ctx.t("opt_why_power", kw=fmt.num(kw, 0), **base)
    if training:
        fastest = min(designs, key=lambda x: (x.get("time_to_train_days") or math.inf, x[cost_key]))
        m = int(fastest.get("rank") or designs.index(fastest) + 1)
        if m != chosen and (fastest.get("time_to_train_days") or math.inf) < (
            d.get("time_to_train_days") or 0
        ):
            more = _money(ctx, fastest[cost_key] - d[cost_key])
            sep = "" if ctx.lang == "zh" else " "
            text += sep + ctx.t(
                "opt_fastest", m=m, days=fmt.num(fastest["time_to_train_days"], 1), extra=more
            )
    return text


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    opts: dict[str, Any] = ctx.options or {}
    goal = opts["goal"]
    designs = list(opts["designs"])
    training = goal["kind"] == "training"
    out: list[Flowable] = [section(ctx, n, "sec_options"), *_goal_paras(ctx, goal)]
    if opts.get("other_goal"):
        out.append(ctx.para(ctx.t("opt_other_goal")))
    pruned = sum(v for v in (opts.get("pruned") or {}).values() if isinstance(v, int | float))
    out.append(
        ctx.para(
            ctx.t(
                "opt_search",
                cands=fmt.integer(opts.get("candidates")),
                pruned=fmt.integer(pruned),
                evaluated=fmt.integer(opts.get("evaluated")),
                front=fmt.integer(len(designs)),
                faster=ctx.t("opt_faster_train" if training else "opt_faster_serve"),
            )
        )
    )
    if not designs:
        return [*out, ctx.para(ctx.t("opt_empty"))]
    chosen = chosen_rank(ctx, designs)
    out += [Spacer(1, 3 * mm), _table(ctx, designs, training, chosen), Spacer(1, 4 * mm)]
    out.append(ctx.para(why(ctx, designs, training, chosen, str(goal.get("objective") or "tco"))))
    return out
