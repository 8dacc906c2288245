"""Helpers shared by the sections: numbered headings that feed the contents and the PDF outline."""

from __future__ import annotations

from reportlab.platypus import CondPageBreak, Flowable, Paragraph

from gpuplanner.reports.context import ReportContext


def heading(ctx: ReportContext, text: str, level: int = 0) -> Paragraph:
    """A heading paragraph that the document picks up for the table of contents and the bookmarks."""
    markup = ctx.markup(text, 200)
    p = Paragraph(markup, ctx.styles.h1 if level == 0 else ctx.styles.h2)
    p.toc_level = level
    p.toc_markup = markup
    p.toc_plain = text[:200]
    return p


def section(ctx: ReportContext, n: int | str, key: str) -> Paragraph:
    return heading(ctx, ctx.t("section_number", n=n, title=ctx.t(key)), 0)


def sub(ctx: ReportContext, key: str, *, need: float = 72, **params: object) -> list[Flowable]:
    """A sub-heading that starts a new page when less than ``need`` points are left (never kept with a whole
    table, which would push a long table to the next page)."""
    return [CondPageBreak(need), heading(ctx, ctx.t(key, **params), 1)]
