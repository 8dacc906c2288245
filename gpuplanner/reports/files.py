"""Files made from the report's own computations: the bill of materials as CSV and the drawings (topology or
one rack's elevation) as SVG or PNG. Headless: reportlab's SVG renderer and a Pillow rasteriser, no Qt."""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Drawing

from gpuplanner.core.errors import ValidationError
from gpuplanner.core.outfile import ExportError, csv_cell, write_atomic
from gpuplanner.reports import ReportError, new_context
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.rack import rack_drawing
from gpuplanner.reports.drawings.raster import drawing_to_png
from gpuplanner.reports.drawings.topology import topology_drawing
from gpuplanner.reports.drawings.topology_model import build_topology_model
from gpuplanner.reports.sections.bom import lines_by_category
from gpuplanner.reports.sections.racks import rack_layouts
from gpuplanner.text import Msg

FORMATS = ("bom-csv", "svg", "png")
BOM_COLUMNS = (
    "category",
    "category_name",
    "item",
    "catalog_id",
    "quantity",
    "unit",
    "unit_price",
    "amount",
    "currency",
)
TOPOLOGY_SIZE = (1100.0, 640.0)
_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def bom_table(ctx: ReportContext) -> list[list]:
    """The BOM as rows of ``BOM_COLUMNS`` (numbers as floats, None for no price), then the total row;
    amounts in the project's currency (unrounded). The CSV and the Excel workbook both print these."""
    rate = ctx.results.cost.usd_exchange_rate
    rows: list[list] = []
    for cat, lines in lines_by_category(ctx).items():
        for ln in lines:
            price = None if ln.unit_usd is None else ln.unit_usd * rate
            rows.append(
                [cat, ctx.t(f"cat_{cat}"), ln.name, ln.item_id, float(ln.qty), ln.unit, price,
                 ln.amount_usd * rate, ctx.currency]
            )  # fmt: skip
    rows.append(["total", ctx.t("bom_total"), "", "", None, "", None, float(ctx.data["capex"]), ctx.currency])
    return rows


def bom_rows(project: Any, results: Any, lang: str | None = None) -> list[list]:
    """``bom_table`` for a project and its analysis (what the CLI hands to the workbook export)."""
    return bom_table(new_context(project, lang, results=results))


def bom_csv(ctx: ReportContext) -> str:
    """One row per BOM line, then a total row; amounts in the project's currency (unrounded)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(BOM_COLUMNS)
    for r in bom_table(ctx):
        qty = "" if r[4] is None else f"{r[4]:g}"
        price = "" if r[6] is None else f"{r[6]:.2f}"
        _row(w, [*r[:4], qty, r[5], price, f"{r[7]:.2f}", r[8]])
    return buf.getvalue()


def _row(w, cells: list) -> None:
    """One CSV row with formula-like text neutralised (names are free text; OWASP CSV injection)."""
    w.writerow([csv_cell(c) for c in cells])


def drawing_for(ctx: ReportContext, rack: str | None = None) -> Drawing:
    """The topology drawing, or the elevation of the rack named ``rack``."""
    if rack is None:
        model = build_topology_model(ctx.project, ctx.results)
        return topology_drawing(model, *TOPOLOGY_SIZE, ctx.fonts, ctx.lang)
    names = ctx.results.compiled.racks.names
    for racks, slots in rack_layouts(ctx):
        for r in racks:
            if names[r] == rack or ctx.results.compiled.racks.ids[r] == rack:
                ru = int(ctx.results.compiled.racks.ru[r])
                return rack_drawing(names[r], ru, slots, ctx.fonts, width=160.0)
    raise ValidationError(Msg("error.report.no_rack", {"rack": rack}), field="rack", value=rack)


def write_file(
    project: Any,
    fmt: str,
    path: str | os.PathLike[str],
    *,
    lang: str | None = None,
    scenario: str | None = None,
    rack: str | None = None,
    results: Any = None,
) -> list[Path]:
    """Writes ``bom-csv``, ``svg`` or ``png`` to ``path`` and returns the files written."""
    if fmt not in FORMATS:
        raise ValidationError(
            Msg("error.report.no_format", {"format": fmt, "choices": ", ".join(FORMATS)}),
            field="format",
            value=fmt,
        )
    out = Path(path)
    if not out.parent.is_dir():
        raise ReportError(Msg("error.file.no_folder"), file=str(out.parent))
    ctx = new_context(project, lang, scenario, results=results)
    try:
        if fmt == "bom-csv":  # UTF-8 with a byte-order mark: Excel on a Chinese Windows reads it right
            write_atomic(out, bom_csv(ctx), encoding="utf-8-sig")
        elif fmt == "svg":
            svg = renderSVG.drawToString(drawing_for(ctx, rack))
            write_atomic(out, _XML_INVALID.sub(" ", svg))  # control characters in names are not XML
        else:
            with tempfile.TemporaryDirectory() as tmp:
                png = Path(tmp) / "drawing.png"
                drawing_to_png(drawing_for(ctx, rack), png)
                write_atomic(out, png.read_bytes())
    except ExportError as exc:
        raise ReportError(exc.msg or exc.message, file=exc.file) from exc
    except OSError as exc:
        reason = str(exc.strerror or exc)
        raise ReportError(Msg("error.report.cannot_write", {"reason": reason}), file=str(out)) from exc
    return [out]
