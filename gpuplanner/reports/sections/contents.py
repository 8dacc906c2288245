"""Table of contents (filled on the second pass of the document build)."""

from __future__ import annotations

from reportlab.platypus import Flowable, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

from gpuplanner.reports.context import ReportContext


def build(ctx: ReportContext) -> list[Flowable]:
    # reportlab's default pads every line by 3 pt above and below: with phases, teams and the appendix the
    # contents then ran onto a second page for a handful of lines
    style = TableStyle(
        [
            ("FONTNAME", (0, 0), (-1, -1), ctx.fonts.body),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ]
    )
    toc = TableOfContents(dotsMinLevel=0, tableStyle=style)
    toc.levelStyles = list(ctx.styles.toc)
    return [ctx.para(ctx.t("contents"), "h1"), toc]
