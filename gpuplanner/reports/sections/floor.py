"""Floor plan: the hall drawn to scale (on a landscape page when it is wider than tall), then the table of the
floor units' load against capacity (the ``floor_units`` of ``analyze --json``)."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, NextPageTemplate, PageBreak

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.floor import floor_drawing
from gpuplanner.reports.drawings.floor_model import build_floor_plan
from gpuplanner.reports.sections.common import section, sub
from gpuplanner.reports.styles import BOTTOM, MARGIN, PAGE, PAGE_LANDSCAPE, TOP

DRAWING_RESERVE = 118.0  # heading, intro and notes on the drawing's page (points)
TABLE_HEAD, TABLE_ROW = 60.0, 14.0  # the floor-unit table's sub-heading and header, and one row (points)
KEEP_TOGETHER = 0.55  # the drawing keeps at least this share of the page when the table joins it
LANDSCAPE_ASPECT = 1.25  # halls this much wider than deep go on a landscape page
COLUMNS = (
    "col_no", "col_unit_name", "col_kind", "col_serves", "col_load_kw", "col_capacity_kw", "col_use", "col_ok",
)  # fmt: skip


def wanted(ctx: ReportContext) -> bool:
    """The section is printed when the project has a floor plan: floor units or aisle rows."""
    t = ctx.project.tables
    return bool(t["floor_items"]) or bool(t["aisle_rows"])


def unit_rows(ctx: ReportContext) -> list[list[str]]:
    items = ctx.project.tables["floor_items"]
    rows = []
    for n, u in enumerate(ctx.data["floor_units"], start=1):
        row = items[u["id"]].row if u["id"] in items else ""
        load, cap = u["load_kw"], u["capacity_kw"]
        over = cap > 0 and load > cap + 1e-9
        rows.append(
            [
                str(n),
                u["name"],
                i18n.label("fk", u["kind"], ctx.lang),
                ctx.t("serves_row", row=row) if row else ctx.t("serves_hall"),
                fmt.kw(load),
                fmt.kw(cap),
                fmt.pct(load / cap, 0) if cap > 0 else fmt.DASH,
                ctx.t("no") if over else ctx.t("yes"),
            ]
        )
    return rows


def _table(ctx: ReportContext) -> list[Flowable]:
    rows = unit_rows(ctx)
    out = sub(ctx, "floor_units")
    if not rows:
        return [*out, ctx.para(ctx.t("floor_none"))]
    width = PAGE[0] - 2 * MARGIN
    widths = [10 * mm, 0.0, 0.0, 26 * mm, 17 * mm, 19 * mm, 14 * mm, 11 * mm]
    rest = width - sum(widths)
    widths[1], widths[2] = rest * 0.45, rest * 0.55
    over = [r for r in rows if r[-1] == ctx.t("no")]
    extra = [("TEXTCOLOR", (0, i + 1), (-1, i + 1), "#c62828") for i, r in enumerate(rows) if r in over]
    out.append(
        ctx.table([ctx.t(k) for k in COLUMNS], rows, widths, numeric_from=4, text_cols=(1, 2, 3), extra=extra)
    )
    if over:
        out.append(ctx.para(ctx.t("floor_over", n=len(over)), "muted"))
    return out


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    plan = build_floor_plan(ctx.project, ctx.results, ctx.data["floor_units"])
    span_x, span_y = plan.span
    landscape = span_x > span_y * LANDSCAPE_ASPECT
    pw, ph = PAGE_LANDSCAPE if landscape else PAGE
    out: list[Flowable] = []
    if landscape:
        out.append(NextPageTemplate("landscape"))
    out += [PageBreak(), section(ctx, n, "sec_floor"), ctx.para(ctx.t("floor_intro"), "small")]
    frame_h = ph - TOP - BOTTOM
    height = frame_h - DRAWING_RESERVE
    table_h = TABLE_HEAD + TABLE_ROW * max(len(plan.units), 1)
    if not landscape and height - table_h >= KEEP_TOGETHER * frame_h:
        height -= table_h  # a short table stays on the drawing's page
    drawn = floor_drawing(plan, pw - 2 * MARGIN, height, ctx.fonts, ctx.lang)
    out.append(drawn.drawing)
    if drawn.rack_labels_omitted:
        out.append(ctx.para(ctx.t("floor_dense"), "muted"))
    if landscape:
        out += [NextPageTemplate("portrait"), PageBreak()]
    return out + _table(ctx)
