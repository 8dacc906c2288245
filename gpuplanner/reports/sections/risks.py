"""Risks and mitigations: delivery risks derived from the plan (lead times, power availability, single points of
failure) and the design findings of error or warning severity, each with its mitigation (the finding's fix)."""

from __future__ import annotations

from reportlab.platypus import Flowable, Paragraph

from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.delivery import Risk, risks
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.styles import SEVERITY

RISK_COLOUR = {"high": SEVERITY["error"], "medium": SEVERITY["warning"], "low": SEVERITY["info"]}


def severity_cell(ctx: ReportContext, severity: str) -> Paragraph:
    colour = RISK_COLOUR.get(severity, SEVERITY["info"]).hexval()[2:]
    return Paragraph(
        f'<font color="#{colour}">■</font> {ctx.markup(ctx.t(f"risk_{severity}"), 20)}', ctx.styles.cell
    )


def build(ctx: ReportContext, n: int | str, found: list[Risk] | None = None) -> list[Flowable]:
    from gpuplanner.reports.sections.exec_summary import risk_table

    found = found if found is not None else risks(ctx)
    infos = sum(1 for f in [*ctx.results.findings, *ctx.growth] if f.severity == "info")
    out: list[Flowable] = [section(ctx, n, "sec_risks"), ctx.para(ctx.t("risks_intro", infos=infos))]
    out.append(risk_table(ctx, found, area=True) if found else ctx.para(ctx.t("ps_no_risks")))
    return out
