"""Schedule: each phase's order, delivery, installation and handover dates (``reports/delivery.py``), a Gantt
chart of the phases, the lead times by category with their sources, and what each phase buys with its capex."""

from __future__ import annotations

import datetime as dt
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer

from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.delivery import GOODS, PhasePlan, assumptions, lead_table, schedule
from gpuplanner.reports.drawings.gantt import Bar, gantt
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.sources import bibliography
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN
PER_TABLE = 4
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def subheading(ctx: ReportContext, key: str, need: float = 72) -> list[Flowable]:
    """A sub-heading kept out of the contents (the contents must stay on one page), on a new page when less
    than ``need`` points are left."""
    return [CondPageBreak(need), ctx.para(ctx.t(key), "h2")]


def _mon(ctx: ReportContext, d: dt.date) -> str:
    return str(d.month) if ctx.lang == "zh" else MONTHS[d.month - 1]


def date(ctx: ReportContext, d: dt.date) -> str:
    return ctx.t("ps_date", day=d.day, mon=_mon(ctx, d), year=d.year)


def month(ctx: ReportContext, d: dt.date) -> str:
    return ctx.t("ps_month", mon=_mon(ctx, d), year=d.year)


def phase_table(ctx: ReportContext, plans: list[PhasePlan]) -> Flowable:
    rows = [
        [
            p.name,
            date(ctx, p.order),
            date(ctx, p.delivered),
            date(ctx, p.installed),
            date(ctx, p.handover),
            fmt.integer(p.weeks),
            ctx.t(f"cat_{p.critical}") if p.critical else fmt.DASH,
        ]
        for p in plans
    ]
    keys = (
        "col_phase",
        "col_order",
        "col_delivered",
        "col_installed",
        "col_handover",
        "col_weeks",
        "col_critical",
    )
    w = [WIDTH * f for f in (0.2, 0.13, 0.13, 0.13, 0.13, 0.08, 0.2)]
    return ctx.table([ctx.t(k) for k in keys], rows, w, numeric_from=5, text_cols=(0, 6))


def chart(ctx: ReportContext, plans: list[PhasePlan]) -> Flowable:
    bars = [
        Bar(p.name, ((p.order, p.delivered), (p.delivered, p.installed), (p.installed, p.handover)))
        for p in plans
    ]
    legend = [ctx.t(k) for k in ("gantt_procure", "gantt_install", "gantt_accept")]
    return gantt(bars, WIDTH, ctx.fonts, legend=legend, month_label=lambda d: month(ctx, d))


def lead_rows(ctx: ReportContext, plans: list[PhasePlan]) -> Flowable:
    bib = bibliography(ctx)
    rows = []
    for k, weeks, e in lead_table(plans):
        as_of = f"{e['as_of']} *" if e.get("estimate") else str(e["as_of"])
        rows.append([ctx.t(f"cat_{k}"), fmt.integer(weeks), f"[{bib.ref(e['source'])}]", as_of])
    headers = [ctx.t(k) for k in ("col_category", "col_lead_weeks", "col_ref", "col_as_of")]
    return ctx.table(headers, rows, [WIDTH * 0.46, WIDTH * 0.16, WIDTH * 0.16, WIDTH * 0.22], numeric_from=1)


def bom_rows(ctx: ReportContext, plans: list[PhasePlan]) -> list[tuple[str, Any]]:
    cur = ctx.cur_label
    out: list[tuple[str, Any]] = [
        (ctx.t("ps_gpus_added"), lambda p: fmt.integer(p.gpus_added)),
        (ctx.t("ps_servers_added"), lambda p: fmt.integer(p.servers_added)),
        (ctx.t("ps_switches_added"), lambda p: fmt.integer(p.switches_added)),
        (ctx.t("ps_racks_added"), lambda p: fmt.integer(p.racks_added)),
        (ctx.t("ps_cables_added"), lambda p: fmt.integer(p.cables_added)),
    ]
    cats = [k for k in plans[0].capex_added if any(abs(p.capex_added.get(k, 0.0)) > 0.005 for p in plans)]
    cats.sort(key=lambda k: GOODS.index(k) if k in GOODS else len(GOODS))
    for k in cats:
        label = ctx.t("ps_capex_cat", category=ctx.t(f"cat_{k}"), cur=cur)
        out.append((label, lambda p, k=k: fmt.money(p.capex_added.get(k, 0.0))))
    out.append((ctx.t("ps_capex_phase", cur=cur), lambda p: fmt.money(p.capex_total)))
    return out


def bom_table(ctx: ReportContext, plans: list[PhasePlan]) -> list[Flowable]:
    out: list[Flowable] = []
    first = 62 * mm
    for i in range(0, len(plans), PER_TABLE):
        chunk = plans[i : i + PER_TABLE]
        col = (WIDTH - first) / len(chunk)
        rows = [[label, *[get(p) for p in chunk]] for label, get in bom_rows(ctx, plans)]
        headers = [ctx.t("col_ps_item"), *[p.name for p in chunk]]
        out += [
            ctx.table(headers, rows, [first, *[col] * len(chunk)], numeric_from=1, total_rows=1),
            Spacer(1, 4 * mm),
        ]
    return out


def build(ctx: ReportContext, n: int | str) -> list[Flowable]:
    a = assumptions()
    plans = schedule(ctx, a)
    intro = ctx.t(
        "sched_intro",
        date=date(ctx, ctx.today),
        per_week=fmt.num(a.number("install_racks_per_week")),
        accept=fmt.integer(a.number("acceptance_weeks")),
    )
    out: list[Flowable] = [section(ctx, n, "sec_schedule"), ctx.para(intro)]
    out += [phase_table(ctx, plans), Spacer(1, 4 * mm), chart(ctx, plans), Spacer(1, 2 * mm)]
    out += [*subheading(ctx, "sched_leads"), lead_rows(ctx, plans)]
    out += [*subheading(ctx, "sched_bom", need=160), *bom_table(ctx, plans)]
    return out
