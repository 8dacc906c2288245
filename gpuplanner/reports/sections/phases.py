"""Phased build-out: every phase analysed as the cluster it makes (the ``phases`` of ``analyze --json``), side
by side, then the growth checks between consecutive phases with their findings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Spacer

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.sections.findings import findings_table
from gpuplanner.reports.styles import MARGIN, PAGE

PER_TABLE = 4
FIRST_COL = 64 * mm
Row = tuple[str, Callable[[int, dict[str, Any]], Any]]


def _growth_by_phase(ctx: ReportContext) -> dict[str, list[Any]]:
    """Growth findings by the name of the phase that cannot grow from the one before it."""
    out: dict[str, list[Any]] = {}
    for f in ctx.growth:
        out.setdefault(str(f.params.get("phase", "")), []).append(f)
    return out


def rows(ctx: ReportContext, summaries: list[dict[str, Any]]) -> list[Row]:
    """(label, value(index, phase summary)) for every figure of the comparison table."""
    cur, years = ctx.cur_label, ctx.data["tco_years"]
    growth = _growth_by_phase(ctx)

    def added(i: int, s: dict[str, Any]) -> str:
        before = summaries[i - 1]["gpus"] if i else 0
        return ctx.t("ph_gpus_value", added=fmt.integer(s["gpus"] - before), total=fmt.integer(s["gpus"]))

    def grows(i: int, s: dict[str, Any]) -> str:
        if i + 1 >= len(summaries):
            return fmt.DASH
        n = len(growth.get(summaries[i + 1]["name"], []))
        return ctx.t("ph_grows_no", n=n) if n else ctx.t("yes")

    out: list[Row] = [
        (ctx.t("ph_gpus"), added),
        (ctx.t("ph_servers"), lambda i, s: fmt.integer(s["servers"])),
        (ctx.t("ph_switches"), lambda i, s: fmt.integer(s["switches"])),
        (ctx.t("ph_tokens"), lambda i, s: fmt.num(s["tokens_per_s"])),
        (ctx.t("ph_step"), lambda i, s: fmt.seconds(s.get("step_time_s"))),
        (ctx.t("ph_mfu"), lambda i, s: fmt.pct(s["mfu"])),
        (ctx.t("ph_it_kw"), lambda i, s: fmt.kw(s["it_kw_max"])),
        (ctx.t("ph_fac_kw"), lambda i, s: fmt.kw(s["facility_kw_max"])),
        (ctx.t("ph_pue"), lambda i, s: fmt.pue(s["pue"])),
    ]
    names: list[str] = []
    for s in summaries:
        names += [w["name"] for w in s.get("workloads") or [] if w["name"] not in names]
    if len(names) > 1:  # each workload with its own GPUs (a training and a serving partition side by side)
        at = 1
        for name in names:
            get = lambda i, s, name=name: fmt.integer(  # noqa: E731
                next((w["gpus"] for w in s.get("workloads") or [] if w["name"] == name), 0)
            )
            out.insert(at, (ctx.t("ph_workload_gpus", name=name), get))
            at += 1
    methods: list[str] = []
    for s in summaries:
        methods += [m for m, kw in (s.get("cooling_mix_kw") or {}).items() if kw > 0 and m not in methods]
    for m in methods:
        label = ctx.t("ph_cooling", method=i18n.label("cool", m, ctx.lang))
        out.append((label, lambda i, s, m=m: fmt.kw((s.get("cooling_mix_kw") or {}).get(m, 0.0))))
    out += [
        (ctx.t("ph_capex_added", cur=cur), lambda i, s: fmt.money(s["capex_added"])),
        (ctx.t("ph_capex", cur=cur), lambda i, s: fmt.money(s["capex"])),
        (ctx.t("ph_tco", years=years, cur=cur), lambda i, s: fmt.money(s["tco"])),
        (ctx.t("ph_scheduler"), lambda i, s: i18n.label("sched", s["scheduler"], ctx.lang)),
        (ctx.t("ph_ports_free"), lambda i, s: fmt.integer(s.get("ports_free"))),
        (ctx.t("ph_rack_headroom"), lambda i, s: fmt.kw(s.get("rack_kw_headroom"))),
        (ctx.t("ph_feed_needed"), lambda i, s: fmt.kw(s.get("utility_feed_kw_needed"))),
    ]
    if any(s.get("utility_kw_available") for s in summaries):
        out.append((ctx.t("ph_feed_available"), lambda i, s: fmt.kw(s.get("utility_kw_available"))))
    out.append((ctx.t("ph_grows"), grows))
    return out


def _table(ctx: ReportContext, summaries: list[dict[str, Any]], start: int, stop: int) -> Flowable:
    width = PAGE[0] - 2 * MARGIN
    chunk = summaries[start:stop]
    col = (width - FIRST_COL) / len(chunk)
    descriptions = [ctx.project.tables["phases"][s["id"]].description for s in chunk]
    body: list[list[Any]] = []
    if any(descriptions):
        body.append([ctx.t("ph_description"), *[ctx.cell(d or fmt.DASH, "cell_right") for d in descriptions]])
    for label, get in rows(ctx, summaries):
        body.append([label, *[get(start + k, s) for k, s in enumerate(chunk)]])
    headers = [ctx.t("ph_figure"), *[s["name"] for s in chunk]]
    return ctx.table(headers, body, [FIRST_COL, *[col] * len(chunk)], numeric_from=1, text_cols=(0,))


def _growth(ctx: ReportContext, summaries: list[dict[str, Any]]) -> list[Flowable]:
    out: list[Flowable] = [*sub(ctx, "ph_growth"), ctx.para(ctx.t("ph_growth_intro"), "small")]
    growth = _growth_by_phase(ctx)
    for before, after in zip(summaries, summaries[1:], strict=False):
        found = growth.get(after["name"], [])
        key = "ph_growth_bad" if found else "ph_growth_ok"
        out.append(ctx.para(ctx.t(key, before=before["name"], phase=after["name"], n=len(found))))
        if found:
            out += [findings_table(ctx, found), Spacer(1, 3 * mm)]
    return out


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    summaries = [pr.summary for pr in ctx.phases]
    years = ctx.data["tco_years"]
    out: list[Flowable] = [section(ctx, n, "sec_phases")]
    out.append(ctx.para(ctx.t("ph_intro", cur=ctx.cur_label, years=years)))
    if any(s["tokens_per_s"] is None for s in summaries) and any(s["tokens_per_s"] for s in summaries):
        out.append(ctx.para(ctx.t("ph_no_workload"), "muted"))
    for i in range(0, len(summaries), PER_TABLE):
        out += [_table(ctx, summaries, i, i + PER_TABLE), Spacer(1, 5 * mm)]
    return out + _growth(ctx, summaries)
