"""Electrical design: the one-line diagram (utility → transformers → UPS → busways → racks by row) and the
power and cooling rollup per row and for the hall, with the CDUs, all from the engine's electrical stage."""

from __future__ import annotations

from collections import Counter
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether

from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.one_line import MAX_BRANCHES, one_line_drawing
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.sections.cost import electrical_rows
from gpuplanner.reports.styles import MARGIN, PAGE

WIDTH = PAGE[0] - 2 * MARGIN


def wanted(ctx: ReportContext) -> bool:
    return bool(ctx.data.get("electrical")) and bool(ctx.data.get("rows"))


def cooling_by_row(ctx: ReportContext) -> dict[str, str]:
    """Row → its cooling methods in words, the most common first ("rear-door heat exchanger, air")."""
    kinds: dict[str, Counter[str]] = {}
    for r in ctx.data.get("racks") or []:
        kinds.setdefault(str(r.get("row") or ""), Counter())[str(r["cooling"])] += 1
    sep = "、" if ctx.lang == "zh" else ", "
    return {
        row: sep.join(i18n.label("cool", k, ctx.lang) for k, _ in c.most_common()) for row, c in kinds.items()
    }


def rollup_rows(ctx: ReportContext) -> list[list[Any]]:
    """One line per row and the hall's total line (last)."""
    rows = ctx.data.get("rows") or []
    cdu_kw = float((ctx.data.get("cdus") or {}).get("cdu_capacity_kw") or 0.0)
    spare = int((ctx.data.get("cdus") or {}).get("spare_per_row") or 0)
    cooling = cooling_by_row(ctx)
    out: list[list[Any]] = []
    for r in rows:
        out.append(
            [
                str(r["row"]),
                fmt.integer(r["racks"]),
                fmt.kw(r["kw_max"]),
                fmt.kw(r["kw_load"]),
                cooling.get(str(r["row"]), fmt.DASH),
                fmt.kw(r["liquid_kw_max"]),
                ctx.t("busway_value", n=r["busways_per_side"], a=fmt.num(r["busway_a"], 0)),
                fmt.integer(r["cdus"]) if r["cdus"] else fmt.DASH,
                fmt.pct(r["cdu_load_pct"] / 100.0, 0) if r["cdus"] else fmt.DASH,
            ]
        )
    n_cdu = sum(int(r["cdus"]) for r in rows)
    liquid = sum(float(r["liquid_kw_max"]) for r in rows)
    usable = (n_cdu - spare * sum(1 for r in rows if r["cdus"])) * cdu_kw
    out.append(
        [
            ctx.t("el_hall"),
            fmt.integer(sum(int(r["racks"]) for r in rows)),
            fmt.kw(sum(float(r["kw_max"]) for r in rows)),
            fmt.kw(sum(float(r["kw_load"]) for r in rows)),
            "",
            fmt.kw(liquid),
            "",
            fmt.integer(n_cdu) if n_cdu else fmt.DASH,
            fmt.pct(liquid / usable, 0) if usable > 0 else fmt.DASH,
        ]
    )
    return out


def rollup_table(ctx: ReportContext) -> Flowable:
    keys = (
        "col_row", "col_racks", "col_kw_max_short", "col_kw_load_short", "col_cooling_kind",
        "col_liquid_kw", "col_busway", "col_cdus", "col_cdu_load",
    )  # fmt: skip
    widths = [22 * mm, 14 * mm, 17 * mm, 17 * mm, 0.0, 17 * mm, 24 * mm, 13 * mm, 15 * mm]
    widths[4] = WIDTH - sum(widths)
    return ctx.table(
        [ctx.t(k) for k in keys], rollup_rows(ctx), widths, numeric_from=1, text_cols=(0, 4), total_rows=1
    )


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_electrical")]
    if not wanted(ctx):
        return [*out, ctx.para(ctx.t("el_no_chain"))]
    e = ctx.data["electrical"]
    rows = ctx.data["rows"]
    out.append(ctx.para(ctx.t("el_intro", red=e["redundancy"])))
    more = (
        ctx.t("ol_all_rows")
        if len(rows) <= MAX_BRANCHES
        else ctx.t("ol_some_rows", shown=MAX_BRANCHES - 1, rest=fmt.integer(len(rows) - MAX_BRANCHES + 1))
    )
    caption = ctx.t(
        "ol_caption",
        rows=fmt.integer(len(rows)),
        racks=fmt.integer(sum(int(r["racks"]) for r in rows)),
        more=more,
    )
    # the section's sub-headings stay out of the contents (which must fit one page)
    out += [CondPageBreak(380), ctx.para(ctx.t("el_one_line"), "h2")]
    out.append(
        KeepTogether([one_line_drawing(ctx.data, WIDTH, ctx.fonts, ctx.lang), ctx.para(caption, "muted")])
    )
    spare = (ctx.data.get("cdus") or {}).get("spare_per_row", 0)
    out += [
        CondPageBreak(72),
        ctx.para(ctx.t("el_rollup"), "h2"),
        ctx.para(ctx.t("el_rollup_intro", spare=spare), "small"),
        rollup_table(ctx),
    ]
    # the chain's ratings as figures (with the battery and the PUE), its six lines kept together: the GB200
    # plan left the last one alone on a page
    return [*out, KeepTogether(electrical_rows(ctx, in_contents=False))]
