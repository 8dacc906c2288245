"""Look of the report: page size and margins, colours, paragraph and table styles, the utilisation palette."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import TableStyle

from gpuplanner.reports.fonts import FontSet

PAGE = A4
PAGE_LANDSCAPE = landscape(A4)
MARGIN = 18 * mm
TOP = 24 * mm  # room for the running header
BOTTOM = 20 * mm  # room for the footer

INK = colors.HexColor("#1d2733")
MUTED = colors.HexColor("#5b6675")
ACCENT = colors.HexColor("#0b5394")
ACCENT_LIGHT = colors.HexColor("#e8eef6")
RULE = colors.HexColor("#b8c2cf")
ZEBRA = colors.HexColor("#f5f7fa")
SEVERITY = {
    "error": colors.HexColor("#b3261e"),
    "warning": colors.HexColor("#b26a00"),
    "info": colors.HexColor("#3d6a99"),
}
ROLE_FILL = {
    "compute": colors.HexColor("#6d9eeb"),
    "leaf": colors.HexColor("#93c47d"),
    "spine": colors.HexColor("#6aa84f"),
    "core": colors.HexColor("#38761d"),
    "storage": colors.HexColor("#f6b26b"),
    "storage-switch": colors.HexColor("#e69138"),
    "management": colors.HexColor("#b4a7d6"),
    "other": colors.HexColor("#cccccc"),
}
# Link utilisation buckets: upper bounds (fraction of capacity) and colours; "unused" below the first.
UTIL_BOUNDS = (0.0, 0.25, 0.5, 0.75, 0.9, float("inf"))
UTIL_COLOURS = (
    colors.HexColor("#b7bec8"),  # no traffic
    colors.HexColor("#2e7d32"),  # < 25 %
    colors.HexColor("#7cb342"),  # 25–50 %
    colors.HexColor("#f9a825"),  # 50–75 %
    colors.HexColor("#ef6c00"),  # 75–90 %
    colors.HexColor("#c62828"),  # ≥ 90 %
)


def util_bucket(u: float) -> int:
    if u <= 0:
        return 0
    for i, hi in enumerate(UTIL_BOUNDS[1:], start=1):
        if u < hi:
            return i
    return len(UTIL_COLOURS) - 1


@dataclass(frozen=True)
class Styles:
    fonts: FontSet
    body: ParagraphStyle
    small: ParagraphStyle
    muted: ParagraphStyle
    cell: ParagraphStyle
    cell_right: ParagraphStyle
    cell_bold: ParagraphStyle
    head_cell: ParagraphStyle
    head_cell_right: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    title: ParagraphStyle
    subtitle: ParagraphStyle
    figure: ParagraphStyle
    figure_label: ParagraphStyle
    toc: tuple[ParagraphStyle, ...]


def make_styles(fonts: FontSet, lang: str) -> Styles:
    wrap = "CJK" if lang == "zh" else None
    lead = 1.45 if lang == "zh" else 1.3

    def ps(name: str, size: float, font: str | None = None, **kw) -> ParagraphStyle:
        return ParagraphStyle(
            name,
            fontName=font or fonts.body,
            fontSize=size,
            leading=kw.pop("leading", size * lead),
            textColor=kw.pop("textColor", INK),
            wordWrap=kw.pop("wordWrap", wrap),
            splitLongWords=True,
            bulletFontName=kw.pop("bulletFontName", fonts.body),
            **kw,
        )

    return Styles(
        fonts=fonts,
        body=ps("body", 9.5, spaceAfter=5),
        small=ps("small", 8),
        muted=ps("muted", 8, textColor=MUTED),
        cell=ps("cell", 7.5, leading=9.5),
        cell_right=ps("cell_right", 7.5, leading=9.5, alignment=TA_RIGHT),
        cell_bold=ps("cell_bold", 7.5, fonts.bold, leading=9.5),
        # column headers break at spaces even in Chinese ("风量 / CFM", not "风量 CF / M"); a header without
        # spaces is still split when it is too long for its column
        head_cell=ps("head_cell", 7.5, fonts.bold, leading=9.5, textColor=colors.white, wordWrap=None),
        head_cell_right=ps(
            "head_cell_right",
            7.5,
            fonts.bold,
            leading=9.5,
            textColor=colors.white,
            alignment=TA_RIGHT,
            wordWrap=None,
        ),
        h1=ps("h1", 17, fonts.bold, textColor=ACCENT, spaceBefore=0, spaceAfter=10),
        h2=ps("h2", 11.5, fonts.bold, textColor=INK, spaceBefore=10, spaceAfter=5),
        title=ps("title", 26, fonts.bold, textColor=ACCENT, leading=32, spaceAfter=8),
        subtitle=ps("subtitle", 13, textColor=MUTED, spaceAfter=18),
        figure=ps("figure", 15, fonts.bold, textColor=ACCENT, leading=18),
        figure_label=ps("figure_label", 7.5, textColor=MUTED, leading=9.5),
        toc=(
            ps("toc1", 10.5, fonts.bold, leftIndent=0, spaceBefore=2, alignment=TA_LEFT),
            ps("toc2", 9, leftIndent=14, textColor=MUTED),
        ),
    )


def table_style(font: str, *, numeric_from: int | None = None, header_rows: int = 1) -> TableStyle:
    """Header band, thin rules, zebra rows; columns from ``numeric_from`` right-aligned. Every cell starts in
    ``font`` (the embedded family): reportlab's default cell font is the non-embedded Helvetica."""
    cmds: list[tuple] = [
        ("FONTNAME", (0, 0), (-1, -1), font),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, -1), (-1, -1), 0.6, RULE),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
        ("LEFTPADDING", (0, 0), (-1, -1), 3.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3.5),
        ("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [colors.white, ZEBRA]),
    ]
    if header_rows:
        cmds.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), ACCENT))
        cmds.append(("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.6, ACCENT))
    if numeric_from is not None:
        cmds.append(("ALIGN", (numeric_from, 0), (-1, -1), "RIGHT"))
    return TableStyle(cmds)
