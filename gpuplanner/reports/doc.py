"""The document: page templates (cover, portrait, landscape), running header and footer with "page X of Y",
the table of contents and PDF bookmarks fed from the section headings."""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

from gpuplanner.reports.fonts import FontSet
from gpuplanner.reports.fonts import runs as _runs
from gpuplanner.reports.styles import ACCENT, BOTTOM, MARGIN, MUTED, PAGE, PAGE_LANDSCAPE, RULE, TOP


def text_width(text: str, fonts: FontSet, font: str, size: float) -> float:
    return sum(stringWidth(r, f, size) for r, f in _runs(text, fonts, font))


def fit(text: str, fonts: FontSet, font: str, size: float, width: float) -> str:
    """``text`` shortened with an ellipsis until it is at most ``width`` points wide."""
    if text_width(text, fonts, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid] + "…", fonts, font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…"


def draw_text(
    c: Canvas,
    x: float,
    y: float,
    text: str,
    fonts: FontSet,
    size: float,
    *,
    font: str = "",
    align: str = "left",
) -> None:
    """One line in mixed fonts (Latin-1 runs in ``font``, the rest in the CJK font)."""
    font = font or fonts.body
    w = text_width(text, fonts, font, size)
    x0 = x - w if align == "right" else x - w / 2 if align == "center" else x
    for run, f in _runs(text, fonts, font):
        c.setFont(f, size)
        c.drawString(x0, y, run)
        x0 += stringWidth(run, f, size)


class ReportDoc(BaseDocTemplate):
    """Pages: ``cover`` (no header), ``portrait`` and ``landscape`` (header, footer, page numbers)."""

    def __init__(self, path: str, *, header_left: str, header_right: str, fonts: FontSet, **kw: Any) -> None:
        super().__init__(
            path,
            pagesize=PAGE,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=TOP,
            bottomMargin=BOTTOM,
            initialFontName=fonts.body,
            **kw,
        )
        self.header_left = header_left
        self.header_right = header_right
        self.fonts = fonts
        self._bookmarks = 0
        pw, ph = PAGE
        lw, lh = PAGE_LANDSCAPE
        self.addPageTemplates(
            [
                PageTemplate(
                    "cover", [Frame(MARGIN, BOTTOM, pw - 2 * MARGIN, ph - 2 * BOTTOM, id="c")], pagesize=PAGE
                ),
                PageTemplate(
                    "portrait",
                    [Frame(MARGIN, BOTTOM, pw - 2 * MARGIN, ph - TOP - BOTTOM, id="p")],
                    onPage=self._decorate,
                    pagesize=PAGE,
                ),
                PageTemplate(
                    "landscape",
                    [Frame(MARGIN, BOTTOM, lw - 2 * MARGIN, lh - TOP - BOTTOM, id="l")],
                    onPage=self._decorate,
                    pagesize=PAGE_LANDSCAPE,
                ),
            ]
        )

    def _decorate(self, c: Canvas, doc: BaseDocTemplate) -> None:
        w, h = c._pagesize
        f = self.fonts
        c.saveState()
        c.setFillColor(MUTED)
        y = h - TOP + 9
        half = (w - 2 * MARGIN) / 2 - 10
        draw_text(c, MARGIN, y, fit(self.header_left, f, f.bold, 8, half), f, 8, font=f.bold)
        draw_text(c, w - MARGIN, y, fit(self.header_right, f, f.body, 8, half), f, 8, align="right")
        c.setStrokeColor(ACCENT)
        c.setLineWidth(0.8)
        c.line(MARGIN, y - 4, w - MARGIN, y - 4)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.line(MARGIN, BOTTOM - 8, w - MARGIN, BOTTOM - 8)
        c.restoreState()

    def afterFlowable(self, flowable: Any) -> None:
        level = getattr(flowable, "toc_level", None)
        if level is None or not isinstance(flowable, Paragraph):
            return
        key = f"h{self._bookmarks}"
        self._bookmarks += 1
        c = self.canv
        c.bookmarkPage(key)
        c.addOutlineEntry(flowable.toc_plain, key, level=level, closed=level > 0)
        self.notify("TOCEntry", (level, flowable.toc_markup, self.page, key))

    def handle_documentBegin(self) -> None:
        self._bookmarks = 0
        super().handle_documentBegin()


def numbered_canvas(fonts: FontSet, page_label: Any, footer_left: str) -> type[Canvas]:
    """A canvas class that writes "page X of Y" (``page_label(x, y)``) once the page count is known."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args: Any, **kw: Any) -> None:
            # the canvas starts in the embedded font: reportlab's default (Helvetica) would be referenced in
            # every page's resources without being embedded
            kw["initialFontName"] = kw.get("initialFontName") or fonts.body
            super().__init__(*args, **kw)
            self._pages: list[dict] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for state in self._pages:
                self.__dict__.update(state)
                if self._pageNumber > 1:  # the cover has no footer
                    self._footer(total)
                super().showPage()
            super().save()

        def _footer(self, total: int) -> None:
            w, _ = self._pagesize
            self.saveState()
            self.setFillColor(MUTED)
            y = BOTTOM - 18
            label = page_label(self._pageNumber, total)
            # the footer's left text may use all the width the page label leaves (not just half the line)
            room = w - 2 * MARGIN - text_width(label, fonts, fonts.body, 7.5) - 18
            draw_text(self, MARGIN, y, fit(footer_left, fonts, fonts.body, 7.5, room), fonts, 7.5)
            draw_text(self, w - MARGIN, y, label, fonts, 7.5, align="right")
            self.restoreState()

    return NumberedCanvas
