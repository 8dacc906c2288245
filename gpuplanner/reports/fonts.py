"""The report's fonts: the bundled WenQuanYi Micro Hei (CJK, Apache-2.0) embedded as TrueType, so Chinese text
shows real glyphs on every PDF viewer and extracts as text (reportlab writes a ToUnicode map for TTF subsets);
Latin text in the bundled Liberation Sans (SIL OFL, metric-compatible with Helvetica, so the layout measured
with Helvetica holds). No PDF standard-14 font is used: print shops (PDF/X) and archives (PDF/A) refuse
fonts that are referenced but not embedded.

The font file is looked up in ``$GPUPLANNER_CJK_FONT`` (a file path), then in ``resources/fonts/`` next to the
package (repository layout: ``gpuplanner/../resources``) or inside it (``gpuplanner/_data/resources``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gpuplanner.core.errors import PlannerError
from gpuplanner.text import Msg

ENV_FONT = "GPUPLANNER_CJK_FONT"
FONT_FILE = "wqy-microhei.ttc"
CJK_FONT = "WQYMicroHei"
LATIN_FILES = {
    "LiberationSans": "LiberationSans-Regular.ttf",
    "LiberationSans-Bold": "LiberationSans-Bold.ttf",
}
LATIN_FONT, LATIN_BOLD = "LiberationSans", "LiberationSans-Bold"

# Characters the PDF standard fonts cannot show (outside WinAnsi, i.e. cp1252) are drawn with the CJK font.
WINANSI = frozenset(bytes(range(32, 256)).decode("cp1252", errors="ignore")) | {"\n", "\t"}
_WINANSI_CLASS = "".join(re.escape(ch) for ch in sorted(WINANSI))
_NON_LATIN1 = re.compile(f"[^{_WINANSI_CLASS}]+")
_RUNS = re.compile(f"([{_WINANSI_CLASS}]+|[^{_WINANSI_CLASS}]+)")


class FontError(PlannerError):
    """The bundled CJK font cannot be found or read."""


def font_path(file: str = FONT_FILE) -> Path:
    env = os.environ.get(ENV_FONT)
    if env and file == FONT_FILE:
        p = Path(env)
        if not p.is_file():
            raise FontError(
                Msg("error.report.font_env_missing", {"env": ENV_FONT}),
                file=str(p),
                hint=Msg("error.report.font_env_missing.hint"),
            )
        return p
    here = Path(__file__).resolve().parent.parent  # gpuplanner/
    for candidate in (here.parent / "resources" / "fonts", here / "_data" / "resources" / "fonts"):
        if (candidate / file).is_file():
            return candidate / file
    raise FontError(
        Msg("error.report.font_missing", {"file": file}),
        file=str(here.parent / "resources" / "fonts"),
        hint=Msg("error.report.font_missing.hint", {"env": ENV_FONT}),
    )


@dataclass(frozen=True)
class FontSet:
    """Font names for one language: ``body``/``bold`` for running text, ``cjk`` for non-Latin-1 runs."""

    body: str
    bold: str
    cjk: str

    @property
    def all_cjk(self) -> bool:
        return self.body == self.cjk


@cache
def register_cjk() -> str:
    """Registers the CJK font with reportlab once per process and returns its name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    path = font_path()
    try:
        font = TTFont(CJK_FONT, str(path), subfontIndex=0)
    except Exception as exc:  # reportlab raises TTFError and plain errors for unreadable files
        raise FontError(
            Msg("error.report.cjk_font_unreadable", {"reason": str(exc)}), file=str(path)
        ) from exc
    pdfmetrics.registerFont(font)
    # A family so that <b> inside a paragraph resolves (the font has a single weight).
    pdfmetrics.registerFontFamily(
        CJK_FONT, normal=CJK_FONT, bold=CJK_FONT, italic=CJK_FONT, boldItalic=CJK_FONT
    )
    return CJK_FONT


@cache
def register_latin() -> tuple[str, str]:
    """Registers the Latin family (regular, bold) once per process; ``<b>`` in a paragraph maps to bold."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in LATIN_FILES.items():
        path = font_path(file)
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except Exception as exc:  # reportlab raises TTFError and plain errors for unreadable files
            raise FontError(
                Msg("error.report.font_unreadable", {"reason": str(exc)}), file=str(path)
            ) from exc
    pdfmetrics.registerFontFamily(
        LATIN_FONT, normal=LATIN_FONT, bold=LATIN_BOLD, italic=LATIN_FONT, boldItalic=LATIN_BOLD
    )
    pdfmetrics.registerFontFamily(
        LATIN_BOLD, normal=LATIN_BOLD, bold=LATIN_BOLD, italic=LATIN_BOLD, boldItalic=LATIN_BOLD
    )
    return LATIN_FONT, LATIN_BOLD


# Full-width punctuation that must not start a line (GB/T 15834 line-breaking rules). reportlab's CJK wrap
# knows 、。）」 but not the full-width comma, semicolon, colon, ! and ?, so "，" started lines in the findings.
NO_LINE_START = "，；：！？》〉”’"


def _hang_marks(word: str, widths: list[float], lines: list[list]) -> list[list]:
    """Lines of ``textsplit.dumbSplit`` with a line-opening mark moved to the end of the line before (reportlab
    hangs one character only, so "），" at a line end still left "，" to open the next line)."""
    pos = 0
    starts = []
    for _, text in lines:
        at = word.find(text, pos) if text else pos
        starts.append(at if at >= 0 else pos)
        pos = starts[-1] + len(text)
    for k in range(1, len(lines)):
        text = lines[k][1]
        if text and text[0] in NO_LINE_START + "、。）」』】" and lines[k - 1][1]:
            w = widths[starts[k]] if starts[k] < len(widths) else 0.0
            lines[k - 1] = [lines[k - 1][0] - w, lines[k - 1][1] + text[0]]
            lines[k] = [lines[k][0] + w, text[1:]]
            starts[k] += 1
    return [ln for ln in lines if ln[1]] or lines


@cache
def cjk_line_rules() -> None:
    """Teaches reportlab's CJK line breaking (``wordWrap="CJK"``) to hang these marks in the margin instead."""
    from reportlab.lib import textsplit
    from reportlab.platypus import paragraph

    from gpuplanner.reports.layout import keep_frag_spans, keep_spans

    for module in (textsplit, paragraph):  # one-font paragraphs wrap in textsplit, mixed ones in paragraph
        missing = "".join(ch for ch in NO_LINE_START if ch not in module.ALL_CANNOT_START)
        module.ALL_CANNOT_START += missing
    split = textsplit.dumbSplit

    def dumb_split(word: str, widths: list[float], maxWidths: Any) -> list[list]:  # noqa: N803 (reportlab's)
        # a number keeps its unit or currency word (reports/layout.py), then marks hang in the margin
        return _hang_marks(word, widths, keep_spans(split, word, widths, maxWidths))

    dumb_split.__wrapped__ = split  # type: ignore[attr-defined]  # reportlab's own, for tests
    textsplit.dumbSplit = dumb_split
    frag_split = paragraph.cjkFragSplit

    def cjk_frag_split(frags: Any, maxWidths: Any, *args: Any) -> Any:  # noqa: N803 (reportlab's)
        return keep_frag_spans(frag_split, frags, maxWidths, *args)

    paragraph.cjkFragSplit = cjk_frag_split


def fonts_for(lang: str) -> FontSet:
    cjk = register_cjk()
    if lang == "zh":
        cjk_line_rules()
        return FontSet(body=cjk, bold=cjk, cjk=cjk)
    body, bold = register_latin()
    return FontSet(body=body, bold=bold, cjk=cjk)


def has_non_latin1(text: str) -> bool:
    return _NON_LATIN1.search(text) is not None


def runs(text: str, fonts: FontSet, font: str) -> list[tuple[str, str]]:
    """``text`` cut into (run, font name): WinAnsi runs in ``font``, the others in the CJK font."""
    if fonts.all_cjk or not has_non_latin1(text):
        return [(text, fonts.cjk if fonts.all_cjk else font)]
    return [(r, font if r[0] in WINANSI else fonts.cjk) for r in _RUNS.findall(text)]


def wrap_cjk_runs(markup: str, fonts: FontSet) -> str:
    """Puts every run of non-Latin-1 characters of already-escaped paragraph markup in the CJK font."""
    if fonts.all_cjk or not has_non_latin1(markup):
        return markup
    return _NON_LATIN1.sub(lambda m: f'<font name="{fonts.cjk}">{m.group(0)}</font>', markup)
