"""What every section reads: the project, its analysis, the figures of ``results_json`` and the language,
plus the helpers that turn text into safe paragraphs and rows into tables that break across pages."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import LongTable, Paragraph
from reportlab.platypus.flowables import Flowable

from gpuplanner.reports import i18n
from gpuplanner.reports.fonts import FontSet, has_non_latin1, wrap_cjk_runs
from gpuplanner.reports.layout import keep_units
from gpuplanner.reports.styles import Styles, table_style

MAX_TEXT = 400  # longest user text printed in one cell or line (names of any length stay on the page)
_ENTITIES = {'"': "&quot;", "'": "&#39;"}


def clip(text: Any, limit: int = MAX_TEXT) -> str:
    s = "" if text is None else str(text)
    s = " ".join(s.split()) if "\n" in s or "\t" in s else s
    return s if len(s) <= limit else s[: limit - 1] + "…"


@dataclass
class ReportContext:
    project: Any
    results: Any  # gpuplanner.engine.analysis.Results
    data: dict[str, Any]  # results_json(project, results, lang): every figure the report prints
    lang: str
    fonts: FontSet
    styles: Styles
    today: dt.date
    warn: Callable[[str], None]
    scenario: str | None = None
    scenarios: list[tuple[str, str, dict[str, Any]]] = field(
        default_factory=list
    )  # (name, description, data)
    phases: list[Any] = field(default_factory=list)  # engine.phases.PhaseResult, when ≥ 2 phases
    growth: list[Any] = field(default_factory=list)  # the phases' growth findings
    # the design advisor's front (a designs.json), for the "options considered" section
    options: dict[str, Any] | None = None

    # -- text ---------------------------------------------------------------------------------------------
    def t(self, key: str, **params: Any) -> str:
        return i18n.tr(key, self.lang, **params)

    @property
    def currency(self) -> str:
        return str(self.data.get("currency") or "USD")

    @property
    def cur_label(self) -> str:
        """The currency as labels and headings name it: the code in English ("USD"), the word in Chinese
        ("美元", "元") — the same word as the amounts in the text, one way per language."""
        if self.lang == "zh":
            from gpuplanner.reports.fmt import CURRENCY_WORDS_ZH

            return CURRENCY_WORDS_ZH.get(self.currency.upper(), self.currency)
        return self.currency

    def markup(self, text: Any, limit: int = MAX_TEXT) -> str:
        """Plain text → paragraph markup: clipped, escaped (<, &, quotes), non-Latin-1 runs in the CJK font."""
        # Latin lines (and column headers, even in Chinese) break at spaces: a no-break space keeps "1,024 kW"
        # whole; Chinese running text is kept whole by the CJK wrap's rule (reports/layout.py)
        return wrap_cjk_runs(keep_units(escape(clip(text, limit), _ENTITIES)), self.fonts)

    def para(self, text: Any, style: str = "body", limit: int = MAX_TEXT) -> Paragraph:
        return Paragraph(self.markup(text, limit), getattr(self.styles, style))

    def cell(self, text: Any, style: str = "cell", limit: int = 160) -> Paragraph:
        return self.para(text, style, limit=limit)

    # -- tables ---------------------------------------------------------------------------------------------
    def table(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[Any]],
        widths: Sequence[float],
        *,
        numeric_from: int | None = None,
        text_cols: Sequence[int] = (0,),
        total_rows: int = 0,
        extra: Sequence[tuple] = (),
        cell_limit: int = 160,
    ) -> Flowable:
        """A table that breaks across pages with its header repeated. ``text_cols`` wrap (paragraphs); the
        other cells are short strings (fast for thousands of rows) in the body font."""
        wrap = set(text_cols)
        right = {
            j for j in range(len(headers)) if numeric_from is not None and j >= numeric_from and j not in wrap
        }
        head = [
            Paragraph(
                self.markup(h, 120), self.styles.head_cell_right if j in right else self.styles.head_cell
            )
            for j, h in enumerate(headers)
        ]
        body: list[list[Any]] = []
        for r in rows:
            out = []
            for j, v in enumerate(r):
                if isinstance(v, Flowable):
                    out.append(v)
                elif j in wrap:
                    out.append(self.cell(v, limit=cell_limit))
                elif not self.fonts.all_cjk and has_non_latin1(str(v)):
                    right = numeric_from is not None and j >= numeric_from
                    out.append(self.cell(v, "cell_right" if right else "cell"))
                else:
                    out.append(clip(v, 60))
            body.append(out)
        t = LongTable([head, *body], colWidths=list(widths), repeatRows=1)
        style = table_style(self.fonts.body, numeric_from=numeric_from)
        style.add("FONTNAME", (0, 1), (-1, -1), self.fonts.body)
        style.add("FONTSIZE", (0, 1), (-1, -1), 7.5)
        style.add("TEXTCOLOR", (0, 1), (-1, -1), self.styles.cell.textColor)
        for j in wrap:
            style.add("ALIGN", (j, 0), (j, -1), "LEFT")
        if total_rows:
            style.add("FONTNAME", (0, -total_rows), (-1, -1), self.fonts.bold)
            style.add("LINEABOVE", (0, -total_rows), (-1, -total_rows), 0.8, self.styles.h1.textColor)
        for cmd in extra:
            style.add(*cmd)
        t.setStyle(style)
        return t

    def key_values(self, rows: Sequence[tuple[str, str]], widths: tuple[float, float]) -> Flowable:
        """Two-column label/value table without header band."""
        data = [[self.cell(k), self.cell(v, "cell_right")] for k, v in rows]
        t = LongTable(data, colWidths=list(widths))
        style = table_style(self.fonts.body, numeric_from=1, header_rows=0)
        style.add("LINEABOVE", (0, 0), (-1, 0), 0.6, self.styles.h1.textColor)
        t.setStyle(style)
        return t
