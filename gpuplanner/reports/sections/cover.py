"""Cover page: title, customer, project, consultant, date, optional logo, signature block."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.platypus import Flowable, Image, KeepInFrame, Spacer, Table, TableStyle

from gpuplanner import __version__
from gpuplanner.reports import i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.styles import ACCENT, BOTTOM, MARGIN, PAGE, RULE

LOGO_W, LOGO_H = 55 * mm, 28 * mm


def logo(ctx: ReportContext) -> Flowable | None:
    """The project's logo scaled into a box; a missing or unreadable file is a warning, never a failure."""
    raw = (ctx.project.info.logo_path or "").strip()
    if not raw:
        return None
    path = Path(raw).expanduser()
    if not path.is_file():
        ctx.warn(f"logo file '{raw}' not found; the report has no logo")
        return None
    try:
        w, h = ImageReader(str(path)).getSize()
    except Exception as exc:  # any unreadable image: PIL and reportlab raise many kinds
        ctx.warn(f"logo file '{raw}' cannot be read ({exc.__class__.__name__}); the report has no logo")
        return None
    scale = min(LOGO_W / max(w, 1), LOGO_H / max(h, 1))
    img = Image(str(path), width=w * scale, height=h * scale)
    img.hAlign = "LEFT"
    return img


def _details(ctx: ReportContext) -> Table:
    info = ctx.project.info
    rows = [
        ("customer", info.customer or "—"),
        ("project", info.name or "—"),
        ("consultant", info.consultant or "—"),
        ("date", i18n.long_date(ctx.today, ctx.lang)),
        ("scenario", ctx.scenario or ctx.t("as_drawn")),
        ("currency", ctx.currency),
    ]
    phase = ctx.project.tables["phases"].get(ctx.results.phase or "")
    if phase is not None:  # `report --phase`: the figures are of the plan at the end of that phase
        rows.insert(5, ("cover_phase", phase.name or phase.id))
    data = [[ctx.para(ctx.t(k), "muted"), ctx.para(v, "body", 240)] for k, v in rows]
    t = Table(data, colWidths=[35 * mm, PAGE[0] - 2 * MARGIN - 35 * mm])
    t.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), ctx.fonts.body),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return t


def _signatures(ctx: ReportContext) -> Table:
    width = (PAGE[0] - 2 * MARGIN) / 3
    keys = ("prepared_by", "approved_by", "accepted_by")
    data = [
        [ctx.para(ctx.t(k), "small") for k in keys],
        ["", "", ""],
        [ctx.para(ctx.t("signature_date"), "muted") for _ in keys],
    ]
    t = Table(data, colWidths=[width] * 3, rowHeights=[None, 16 * mm, None])
    t.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), ctx.fonts.body),
                ("LINEBELOW", (0, 1), (-1, 1), 0.6, ACCENT),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 14),
            ]
        )
    )
    return t


def build(ctx: ReportContext) -> list[Flowable]:
    out: list[Flowable] = []
    img = logo(ctx)
    out.append(img if img is not None else Spacer(1, LOGO_H))
    out.append(Spacer(1, 22 * mm))
    out.append(ctx.para(ctx.t("report_title"), "subtitle"))
    out.append(ctx.para(ctx.project.info.name or ctx.t("report_title"), "title", 120))
    out.append(ctx.para(ctx.t("report_subtitle"), "subtitle"))
    out.append(Spacer(1, 6 * mm))
    out.append(_details(ctx))
    out.append(Spacer(1, 26 * mm))
    out.append(_signatures(ctx))
    out.append(Spacer(1, 10 * mm))
    out.append(ctx.para(ctx.t("cover_note", version=__version__), "muted"))
    # Whatever the project's texts, the cover stays one page (long texts shrink it).
    return [KeepInFrame(PAGE[0] - 2 * MARGIN, PAGE[1] - 2 * BOTTOM - 4, out, mode="shrink")]
