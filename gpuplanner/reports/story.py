"""The order of the sections, and the document build (two passes: the contents need the page numbers)."""

from __future__ import annotations

from reportlab.platypus import Flowable, NextPageTemplate, PageBreak

from gpuplanner.reports import i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.doc import ReportDoc, numbered_canvas
from gpuplanner.reports.sections import (
    assumptions,
    bibliography,
    bom,
    contents,
    cost,
    cover,
    electrical,
    exec_summary,
    findings,
    floor,
    network,
    options,
    performance,
    phases,
    power,
    racks,
    risks,
    scenarios,
    schedule,
    summary,
    teams,
    terms,
)


def make_story(ctx: ReportContext) -> list[Flowable]:
    story: list[Flowable] = [*cover.build(ctx), NextPageTemplate("portrait"), PageBreak()]
    story += contents.build(ctx)
    numbered = [summary, exec_summary, findings, risks, network, racks]
    if floor.wanted(ctx):
        numbered.append(floor)
    numbered.append(power)
    if electrical.wanted(ctx):
        numbered.append(electrical)
    numbered += [performance, cost]
    if len(ctx.phases) >= 2:
        numbered.append(phases)
    numbered.append(schedule)
    if ctx.project.tables["teams"]:
        numbered.append(teams)
    if options.wanted(ctx):
        numbered.append(options)
    numbered.append(bom)
    if len(ctx.scenarios) >= 2:
        numbered.append(scenarios)
    numbered.append(terms)
    for n, mod in enumerate(numbered, start=1):
        if mod not in (network, floor):  # these turn to a landscape page themselves when they need one
            story.append(PageBreak())
        story += mod.build(ctx, n)
    story.append(PageBreak())
    story += assumptions.build(ctx, "A")
    story.append(PageBreak())
    story += bibliography.build(ctx, "B")
    return story


def write_pdf(ctx: ReportContext, story: list[Flowable], path: str) -> None:
    info = ctx.project.info
    name = info.name or ctx.t("report_title")
    date = i18n.long_date(ctx.today, ctx.lang)
    right = ctx.t("header_right", customer=info.customer) if info.customer else ctx.t("header_right_plain")
    doc = ReportDoc(
        path,
        header_left=name,
        header_right=right,
        fonts=ctx.fonts,
        title=name,
        author=info.consultant or "",
        subject=ctx.t("report_subtitle"),
        creator="GPU Planner",
        lang="zh-CN" if ctx.lang == "zh" else "en",
    )
    canvas = numbered_canvas(
        ctx.fonts,
        lambda page, total: ctx.t("page_of", page=page, total=total),
        ctx.t("footer_left", project=name, date=date),
    )
    doc.multiBuild(story, canvasmaker=canvas)
