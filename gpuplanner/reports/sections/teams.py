"""Teams and quotas: each team's partition, guaranteed and burst GPUs, priority and largest job, whether it
fits (the engine's quota and partition findings), and the scheduler advice."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from gpuplanner.engine.checks.teams import partition_gpus
from gpuplanner.engine.phases import advised_scheduler, ordered_phases
from gpuplanner.model.rows import Workload
from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.sections.findings import findings_table
from gpuplanner.reports.styles import MARGIN, PAGE
from gpuplanner.text import finding as finding_text

TEAM_RULES = (
    "quota-exceeds-cluster",
    "job-larger-than-partition",
    "job-spans-fabric-islands",
    "teams-without-quotas",
)
COLUMNS = (
    "col_team", "col_partition", "col_partition_gpus", "col_guaranteed", "col_burst", "col_priority",
    "col_largest_job", "col_fits",
)  # fmt: skip


def team_findings(ctx: ReportContext) -> list[Any]:
    return [f for f in ctx.results.findings if f.rule in TEAM_RULES]


def team_rows(ctx: ReportContext) -> list[list[str]]:
    teams = list(ctx.project.tables["teams"].values())
    gpus = partition_gpus(ctx.results.compiled)
    errors = [f for f in team_findings(ctx) if f.severity == "error"]
    rows = []
    for t in teams:
        fits = not any(t.id in f.items for f in errors)
        rows.append(
            [
                t.name,
                t.partition or ctx.t("partition_all"),
                fmt.integer(gpus.get(t.partition, 0)),
                fmt.integer(t.gpu_guaranteed),
                fmt.integer(t.gpu_burst),
                fmt.integer(t.priority),
                fmt.integer(t.largest_job_gpus),
                ctx.t("yes") if fits else ctx.t("no"),
            ]
        )
    total = [ctx.t("partition_total"), "", fmt.integer(gpus.get("", 0))]
    total += [fmt.integer(sum(t.gpu_guaranteed for t in teams)), fmt.integer(sum(t.gpu_burst for t in teams))]
    return [*rows, [*total, "", "", ""]]


def scheduler_paragraphs(ctx: ReportContext) -> list[str]:
    advice = next((f for f in ctx.results.findings if f.rule == "scheduler-advice"), None)
    if advice is None:
        return []
    advice_text, why = (
        finding_text(advice.rule, part, ctx.lang, advice.params) for part in ("message", "fix")
    )
    out = [ctx.t("sched_advice", advice=advice_text, why=why)]
    phases = ordered_phases(ctx.project)
    planned = phases[-1].scheduler if phases else ""
    gpus = int(ctx.data["gpus"])
    advised = advised_scheduler(gpus, ctx.project.rows_of(Workload).values())
    if planned and planned != advised:
        out.append(
            ctx.t(
                "sched_planned",
                gpus=fmt.integer(gpus),
                advised=i18n.label("sched", advised, ctx.lang),
                planned=i18n.label("sched", planned, ctx.lang),
                phase=phases[-1].name,
            )
        )
    return out


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    width = PAGE[0] - 2 * MARGIN
    out: list[Flowable] = [section(ctx, n, "sec_teams"), ctx.para(ctx.t("teams_intro"))]
    num_w = 18.5 * mm
    widths = [0.0, 22 * mm, num_w, num_w, num_w, 14 * mm, 22 * mm, 15 * mm]
    widths[0] = width - sum(widths)
    out.append(
        ctx.table(
            [ctx.t(k) for k in COLUMNS],
            team_rows(ctx),
            widths,
            numeric_from=2,
            text_cols=(0, 1),
            total_rows=1,
        )
    )
    found = team_findings(ctx)
    out += sub(ctx, "teams_checks")
    out.append(findings_table(ctx, found) if found else ctx.para(ctx.t("teams_ok")))
    paragraphs = scheduler_paragraphs(ctx)
    if paragraphs:
        out += sub(ctx, "teams_sched")
        out += [ctx.para(p) for p in paragraphs]
    return out
