"""Decision summary: one page for the CIO — what is proposed, how fast it trains (with the engine's error band),
what it costs (capex, TCO, NPV), what it needs from the site, and the top three risks. Every figure is read
from the analysis (``ctx.data``), formatted as the later sections format it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from gpuplanner.catalog.names import local_name
from gpuplanner.engine.compiled import KIND_CODES
from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.delivery import Risk, risks
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.sections.cost import money_rows
from gpuplanner.reports.sections.summary import gpu_name, main_cooling
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN
KV = (WIDTH * 0.42, WIDTH * 0.58)
TIER_ORDER = ("leaf", "spine", "core", "storage-switch", "management")


def _by_type(ctx: ReportContext, kind: str) -> list[tuple[str, int]]:
    """The device types of ``kind`` with their counts, most first, each named in the report's language as the
    bill of materials names it (catalog.names; without the figures: the summary gives the count)."""
    c = ctx.results.compiled
    sel = np.flatnonzero(c.devices.kind == KIND_CODES[kind])
    counts = Counter(c.devices.type_ids[i] for i in sel.tolist())
    catalog = ctx.project.catalog
    cat = catalog.entries
    return [
        ((local_name(cat[t], catalog, ctx.lang, with_figures=False) if t in cat else t).split(" — ")[0], n)
        for t, n in sorted(counts.items(), key=lambda kv: -kv[1])
    ]


def what_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    d, fab = ctx.data, ctx.data["fabric"]
    rows = [(ctx.t("ps_gpus"), ctx.t("ps_gpus_value", n=fmt.integer(d["gpus"]), name=gpu_name(ctx)))]
    servers = [ctx.t("ps_servers_value", n=fmt.integer(n), name=name) for name, n in _by_type(ctx, "server")]
    if servers:
        rows.append((ctx.t("ps_servers"), "; ".join(servers)))
    tiers = fab["switches_by_tier"]
    parts = [
        ctx.t("ps_tier_count", n=fmt.integer(tiers[t]), tier=i18n.label("tiername", t, ctx.lang))
        for t in [*TIER_ORDER, *sorted(set(tiers) - set(TIER_ORDER))]
        if tiers.get(t)
    ]
    if fab["switches"]:
        sep = "、" if ctx.lang == "zh" else ", "
        value = ctx.t(
            "ps_network_value",
            n=fmt.integer(fab["switches"]),
            tiers=sep.join(parts),
            bisection=fmt.num(fab["bisection_gbps"] / 1000.0, 1),
        )
        rows.append((ctx.t("ps_network"), value))
    storage = [ctx.t("ps_storage_value", n=fmt.integer(n), name=name) for name, n in _by_type(ctx, "storage")]
    if storage:
        rows.append((ctx.t("ps_storage"), "; ".join(storage)))
    rows.append(
        (
            ctx.t("ps_racks"),
            ctx.t("ps_racks_value", n=fmt.integer(len(d["racks"])), rows=fmt.integer(len(_rows(ctx)))),
        )
    )
    return rows


def _rows(ctx: ReportContext) -> list[str]:
    return sorted({r["row"] for r in ctx.data["racks"]})


def serving_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    """Each serving workload's capacity and time to first token (as the performance section gives them)."""
    return [
        (
            ctx.t("ps_serving", name=w["name"]),
            ctx.t(
                "ps_serving_value",
                users=fmt.integer(w.get("max_concurrent_users")),
                rate=fmt.num(w["max_requests_per_s"], 1),
                ttft=fmt.seconds(w.get("ttft_s")),
            ),
        )
        for w in ctx.data.get("workloads") or []
        if w.get("kind") == "inference" and w.get("max_requests_per_s")
    ]


def fast_rows(ctx: ReportContext) -> tuple[list[tuple[str, str]], str]:
    """(rows, note): throughput and time to train with the expected range of the published runs, then each
    serving workload's capacity."""
    rows, note = _training_rows(ctx)
    return rows + serving_rows(ctx), note


def _training_rows(ctx: ReportContext) -> tuple[list[tuple[str, str]], str]:
    perf = ctx.data.get("performance")
    if not perf:
        return [], ctx.t("ps_no_workload", load=fmt.pct(ctx.data["gpu_utilization"], 0))
    rows = []
    tok = perf.get("tokens_per_s")
    rng = perf.get("tokens_per_s_range")
    if rng:
        value = ctx.t("ps_tokens_value", tokens=fmt.num(tok), low=fmt.num(min(rng)), high=fmt.num(max(rng)))
    else:
        value = ctx.t("ps_tokens_plain", tokens=fmt.num(tok))
    rows.append((ctx.t("ps_tokens"), value))
    ttt = perf.get("time_to_train_days")
    if ttt:
        r = perf.get("time_to_train_days_range")
        value = (
            ctx.t("ps_ttt_value", days=fmt.days(ttt), low=fmt.days(min(r)), high=fmt.days(max(r)))
            if r
            else ctx.t("ps_ttt_plain", days=fmt.days(ttt))
        )
        rows.append((ctx.t("ps_ttt", workload=perf["workload"]), value))
    rows.append((ctx.t("ps_mfu"), fmt.pct(perf["mfu"])))
    band = perf.get("band") or {}
    note = ctx.t("ps_band_note", runs=band["runs"]) if band.get("runs") and rng else ""
    paced = perf.get("host_paced")
    if paced:  # fine-grained MoE whose expert GEMMs are launch-bound (engine/perf/host.py)
        hp = ctx.t(
            "ps_host_paced_note",
            us=fmt.integer(paced["expert_gemm_us"]),
            limit=fmt.integer(paced["threshold_us"]),
        )
        note = f"{note} {hp}" if note else hp
    if perf.get("fits") is False:  # the speed of a layout that cannot run is not a plan: say so first
        mem = perf.get("memory") or {}
        unfit = ctx.t(
            "ps_unfit_note",
            need=fmt.num(perf.get("memory_per_gpu_gb"), 1),
            usable=fmt.num(mem.get("usable_gb"), 1),
        )
        note = f"{unfit} {note}" if note else unfit
    return rows, note


def much_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    """Capex, TCO, NPV and cost per GPU-hour with the TCO section's labels and formats."""
    d, cur, years = ctx.data, ctx.cur_label, ctx.data["tco_years"]
    rows = [
        (ctx.t("t_capex", cur=cur), fmt.money(d["capex"])),
        (ctx.t("t_tco", years=years, cur=cur), fmt.money(d["tco"])),
    ]
    rows += [r for r in money_rows(ctx)[:1]]  # the NPV
    rows.append((ctx.t("t_gpu_hour", cur=cur), fmt.num(d["cost_per_gpu_hour"], 2)))
    return rows


def floor_m2(ctx: ReportContext) -> float:
    site = ctx.project.site
    if site.hall_width_m > 0 and site.hall_depth_m > 0:
        return site.hall_width_m * site.hall_depth_m
    return len(ctx.data["racks"]) * site.rack_pitch_m * site.row_pitch_m


def site_rows(ctx: ReportContext) -> list[tuple[str, str]]:
    d = ctx.data
    rows = [
        (ctx.t("ps_it_kw"), f"{fmt.kw(d['it_kw_max'])} kW"),
        (ctx.t("ps_fac_kw", pue=fmt.pue(d["pue"])), f"{fmt.kw(d['facility_kw_max'])} kW"),
    ]
    need, avail = d.get("utility_feed_kw_needed"), d.get("utility_kw_available")
    if need:
        value = (
            ctx.t("ps_feed_value", need=fmt.kw(need), avail=fmt.kw(avail))
            if avail
            else ctx.t("ps_feed_value_unknown", need=fmt.kw(need))
        )
        rows.append((ctx.t("ps_feed_kw"), value))
    cdus = (d.get("cdus") or {}).get("count", 0)
    liquid = sum(r.get("liquid_kw_max", 0.0) for r in d.get("rows") or [])
    method = main_cooling(ctx, d)
    cooling = (
        ctx.t("ps_cooling_value", method=method, liquid=fmt.kw(liquid), cdus=cdus) if liquid > 0 else method
    )
    rows.append((ctx.t("ps_cooling"), cooling))
    racks = d["racks"]
    if racks:
        top = max(racks, key=lambda r: r["kw_max"])
        rows.append(
            (
                ctx.t("ps_rack_kw"),
                ctx.t("ps_rack_kw_value", kw=fmt.kw(top["kw_max"]), budget=fmt.kw(top["kw_budget"])),
            )
        )
        rows.append(
            (ctx.t("ps_floor"), ctx.t("ps_floor_value", m2=fmt.num(floor_m2(ctx)), n=fmt.integer(len(racks))))
        )
    return rows


def risk_table(ctx: ReportContext, items: list[Risk], *, area: bool = False) -> Flowable:
    from gpuplanner.reports.sections.risks import severity_cell

    w0 = 18 * mm
    if area:
        w1 = 22 * mm
        rest = WIDTH - w0 - w1
        headers = [ctx.t(k) for k in ("col_risk_sev", "col_risk_area", "col_risk", "col_mitigation")]
        rows = [
            [severity_cell(ctx, r.severity), ctx.t(f"area_{r.area}"), ctx.cell(r.what, limit=400),
             ctx.cell(r.mitigation, limit=400)]
            for r in items
        ]  # fmt: skip
        return ctx.table(headers, rows, [w0, w1, rest * 0.55, rest * 0.45], text_cols=(1, 2, 3))
    rest = WIDTH - w0
    headers = [ctx.t(k) for k in ("col_risk_sev", "col_risk", "col_mitigation")]
    rows = [
        [severity_cell(ctx, r.severity), ctx.cell(r.what, limit=400), ctx.cell(r.mitigation, limit=400)]
        for r in items
    ]
    return ctx.table(headers, rows, [w0, rest * 0.55, rest * 0.45], text_cols=(1, 2))


def _block(ctx: ReportContext, key: str, rows: list[tuple[str, str]]) -> list[Flowable]:
    return [ctx.para(ctx.t(key), "h2"), ctx.key_values(rows, KV)] if rows else [ctx.para(ctx.t(key), "h2")]


def build(ctx: ReportContext, n: int | str, found: list[Risk] | None = None) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_decision"), ctx.para(ctx.t("ps_intro"), "muted")]
    out += _block(ctx, "ps_what", what_rows(ctx))
    fast, note = fast_rows(ctx)
    out += _block(ctx, "ps_fast", fast)
    if note or not fast:
        out.append(
            ctx.para(note or ctx.t("ps_no_workload", load=fmt.pct(ctx.data["gpu_utilization"], 0)), "muted")
        )
    out += _block(ctx, "ps_much", much_rows(ctx))
    out += _block(ctx, "ps_site", site_rows(ctx))
    top = (found if found is not None else risks(ctx))[:3]
    out.append(ctx.para(ctx.t("ps_top_risks"), "h2"))
    out.append(risk_table(ctx, top) if top else ctx.para(ctx.t("ps_no_risks")))
    out.append(Spacer(1, 2 * mm))
    return out


def facts(ctx: ReportContext) -> dict[str, Any]:
    """The figures of the page as plain data (tests compare them with the other sections)."""
    return {
        "what": what_rows(ctx),
        "fast": fast_rows(ctx)[0],
        "much": much_rows(ctx),
        "site": site_rows(ctx),
    }
