"""Table of contents (filled on the second pass of the document build)."""

from __future__ import annotations

from reportlab.platypus import Flowable
from reportlab.platypus.tableofcontents import TableOfContents

from gpuplanner.reports.context import ReportContext


def build(ctx: ReportContext) -> list[Flowable]:
    toc = TableOfContents(dotsMinLevel=0)
    toc.levelStyles = list(ctx.styles.toc)
    return [ctx.para(ctx.t("contents"), "h1"), toc]
