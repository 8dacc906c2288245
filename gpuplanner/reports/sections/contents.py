"""Table of contents (filled on the second pass of the document build)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

from gpuplanner.reports.context import ReportContext


class FittedContents(TableOfContents):
    """Contents that stay on one page: when the entries do not fit, the lines get smaller (down to 80 %) and
    closer together before the table would run onto a second page."""

    SCALES = (1.0, 0.94, 0.88, 0.82, 0.8)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        base = getattr(self, "_base_styles", None) or list(self.levelStyles)
        self._base_styles = base
        size: tuple[float, float] = (0.0, 0.0)
        for k in self.SCALES:
            self.levelStyles = [_scaled(st, k) for st in base]
            size = super().wrap(availWidth, availHeight)
            if size[1] <= availHeight:
                break
        return size


def _scaled(style: Any, k: float) -> ParagraphStyle:
    if k == 1.0:
        return style
    return ParagraphStyle(
        f"{style.name}-{k}",
        parent=style,
        fontSize=style.fontSize * k,
        leading=style.leading * k,
        spaceBefore=style.spaceBefore * k,
    )


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
    toc = FittedContents(dotsMinLevel=0, tableStyle=style)
    toc.levelStyles = list(ctx.styles.toc)
    return [ctx.para(ctx.t("contents"), "h1"), toc]
