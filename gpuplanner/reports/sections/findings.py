"""Design findings: every check's finding with its severity, message and fix, in the report's language."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph

from gpuplanner.engine.checks.findings import Finding
from gpuplanner.reports.context import MAX_TEXT, ReportContext
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.styles import MARGIN, PAGE, SEVERITY


def _severity_cell(ctx: ReportContext, severity: str) -> Paragraph:
    colour = SEVERITY.get(severity, SEVERITY["info"]).hexval()[2:]
    text = ctx.markup(ctx.t(f"sev_{severity}") if severity in SEVERITY else severity, 40)
    return Paragraph(f'<font color="#{colour}">■</font> {text}', ctx.styles.cell)


def findings_table(ctx: ReportContext, findings: Sequence[Finding]) -> Flowable:
    """Severity, message and fix of each finding, in the report's language."""
    width = PAGE[0] - 2 * MARGIN
    rows = [
        [
            _severity_cell(ctx, f.severity),
            ctx.cell(f.message(ctx.lang), limit=MAX_TEXT),
            ctx.cell(f.fix(ctx.lang) or "—", limit=MAX_TEXT),
        ]
        for f in findings
    ]
    headers = [ctx.t("col_severity"), ctx.t("col_finding"), ctx.t("col_fix")]
    return ctx.table(headers, rows, [22 * mm, (width - 22 * mm) * 0.55, (width - 22 * mm) * 0.45])


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    findings = [*ctx.results.findings, *ctx.growth]  # as `analyze --json` lists them
    out: list[Flowable] = [section(ctx, n, "sec_findings")]
    sev = [f.severity for f in findings]
    if not findings:
        out.append(ctx.para(ctx.t("no_findings")))
    else:
        out.append(
            ctx.para(
                ctx.t(
                    "findings_intro",
                    errors=sev.count("error"),
                    warnings=sev.count("warning"),
                    infos=sev.count("info"),
                )
            )
        )
        out.append(findings_table(ctx, findings))
    missing = ctx.data.get("missing_prices") or []
    if missing:
        out.append(ctx.para(ctx.t("missing_prices", items=", ".join(missing)), "muted"))
    return out
