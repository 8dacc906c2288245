"""Bill of materials: devices by type, cables and optics, racks and PDUs, cooling, labour and software, with
quantities, unit and extended prices in the project's currency. Lines follow the cost stage's own rules, so
each category's subtotal and the total equal the capex of ``results_json``."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from gpuplanner.catalog.names import local_name
from gpuplanner.engine.compiled import KIND_CODES
from gpuplanner.engine.facility.power import load_assumptions
from gpuplanner.reports import fmt, i18n
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.styles import ACCENT_LIGHT, MARGIN, PAGE

CATEGORY_KIND = {"servers": "server", "switches": "switch", "storage": "storage", "other_devices": "other"}


@dataclass(frozen=True)
class Line:
    name: str
    item_id: str
    qty: float
    unit: str
    unit_usd: float | None  # None: no price (counts as 0)
    amount_usd: float


def _name(ctx: ReportContext, item_id: str) -> str:
    """The item in the report's language: the catalog's name in English, in Chinese ``name_zh`` or the kind
    in words with the model and key figures (``catalog.names``)."""
    e = ctx.project.catalog.entries.get(item_id)
    return local_name(e, ctx.project.catalog, ctx.lang) if e is not None else item_id


def device_lines(ctx: ReportContext, kind: str) -> list[Line]:
    d, cost = ctx.results.compiled.devices, ctx.results.cost
    sel = np.flatnonzero(d.kind == KIND_CODES[kind])
    groups: dict[tuple[str, float], int] = defaultdict(int)
    for i in sel.tolist():
        p = float(cost.device_price_usd[i])
        groups[(d.type_ids[i], p)] += 1
    out = []
    for (tid, p), n in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        priced = not np.isnan(p)
        out.append(
            Line(_name(ctx, tid), tid, n, ctx.t("unit_device"), p if priced else None, n * p if priced else 0)
        )
    return out


def cable_lines(ctx: ReportContext) -> list[Line]:
    cat, plan = ctx.project.catalog, ctx.results.fabric.cables
    out = []
    cables = [(item, qty, ctx.t("unit_cable_piece")) for item, qty in plan.bom_cables.items()]
    optics = [(item, qty, ctx.t("unit_piece")) for item, qty in plan.bom_transceivers.items()]
    for item, qty, unit in [*cables, *optics]:
        p = cat.price_usd(item)
        out.append(Line(_name(ctx, item), item, qty, unit, p, qty * p if p is not None else 0))
    return out


def rack_lines(ctx: ReportContext) -> list[Line]:
    cat, a = ctx.project.catalog, load_assumptions("cost")
    counts: dict[str, int] = defaultdict(int)
    for t in ctx.results.compiled.racks.type_ids:
        counts[t] += 1
    out = []
    for tid, n in sorted(counts.items()):
        p = cat.price_usd(tid)
        price = p if p is not None else a.number("rack_usd_fallback")
        out.append(Line(_name(ctx, tid), tid, n, ctx.t("unit_piece"), price, n * price))
        entry = cat.entries.get(tid)
        pdu, per = getattr(entry, "pdu", None), int(getattr(entry, "pdu_count", 0) or 0)
        if pdu and per:
            pp = cat.price_usd(pdu)
            pprice = pp if pp is not None else a.number("pdu_usd_fallback")
            out.append(Line(_name(ctx, pdu), pdu, n * per, ctx.t("unit_piece"), pprice, n * per * pprice))
    return out


def cooling_lines(ctx: ReportContext) -> list[Line]:
    th, pw, a = ctx.results.thermal, ctx.results.power, load_assumptions("cost")
    t = th.table
    fallback = a.value("cooling_usd_per_kw_fallback")
    out = []
    for j in sorted(set(th.rack_cooling.tolist())):
        per_kw = float(t.usd_per_kw[j])
        if np.isnan(per_kw):
            per_kw = float(fallback.get(t.methods[j], max(fallback.values())))
        kw = float(pw.rack_kw_max[th.rack_cooling == j].sum())
        name = ctx.t("bom_cooling_line", method=i18n.label("cool", t.methods[j], ctx.lang))
        out.append(Line(name, t.ids[j], kw, ctx.t("unit_kw"), per_kw, kw * per_kw))
    loop_kw = float(th.rack_loop_kw_max.sum())
    if loop_kw > 0:
        per = a.number("liquid_loop_usd_per_kw")
        out.append(Line(ctx.t("bom_loop_line"), "", loop_kw, ctx.t("unit_kw"), per, loop_kw * per))
    return out


def lines_by_category(ctx: ReportContext) -> dict[str, list[Line]]:
    capex = ctx.results.cost.capex_usd_by_category
    a = load_assumptions("cost")
    cables = float(ctx.results.compiled.links.multiplicity.sum())
    gpus = float(ctx.results.compiled.devices.gpu_count.sum())
    out: dict[str, list[Line]] = {}
    for cat in capex:
        if cat in CATEGORY_KIND:
            lines = device_lines(ctx, CATEGORY_KIND[cat])
        elif cat == "cables_optics":
            lines = cable_lines(ctx)
        elif cat == "racks_pdus":
            lines = rack_lines(ctx)
        elif cat == "cooling":
            lines = cooling_lines(ctx)
        elif cat == "cabling_labour":
            per = a.number("cabling_labour_usd_per_cable")
            lines = [Line(ctx.t("bom_labour_line"), "", cables, ctx.t("unit_cable"), per, cables * per)]
        elif not capex[cat]:
            lines = []
        elif cat == "software":
            per = a.number("software_capex_usd_per_gpu")
            lines = [Line(ctx.t("bom_software_line"), "", gpus, ctx.t("unit_gpu"), per, gpus * per)]
        else:
            lines = [Line(ctx.t("bom_nics_line"), "", 1, "", capex[cat], capex[cat])]
        lines = [ln for ln in lines if ln.qty > 0 or ln.amount_usd]
        if abs(sum(ln.amount_usd for ln in lines) - capex[cat]) > max(0.5, 1e-9 * abs(capex[cat])):
            # The engine counted something these lines do not show: print its figure as one line.
            lines = [Line(ctx.t(f"cat_{cat}"), "", 1, "", capex[cat], capex[cat])]
        if lines:
            out[cat] = lines
    return out


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_bom"), ctx.para(ctx.t("bom_intro", cur=ctx.cur_label))]
    rate = ctx.results.cost.usd_exchange_rate
    groups = lines_by_category(ctx)
    if not groups:
        return [*out, ctx.para(ctx.t("bom_empty"))]
    rows: list[list[object]] = []
    extra: list[tuple] = []
    words = ctx.lang == "zh"  # Chinese writes the measure word with the number, in one column
    ncol = 4 if words else 5
    capex = ctx.data["capex_by_category"]
    for cat, lines in groups.items():
        r = len(rows) + 1
        rows.append([ctx.para(ctx.t(f"cat_{cat}"), "cell_bold"), *[""] * (ncol - 1)])
        extra += [("SPAN", (0, r), (-1, r)), ("BACKGROUND", (0, r), (-1, r), ACCENT_LIGHT)]
        for ln in lines:
            qty = fmt.integer(ln.qty) if float(ln.qty).is_integer() else fmt.num(ln.qty, 1)
            price = fmt.unit_price(ln.unit_usd * rate) if ln.unit_usd is not None else fmt.DASH
            if words:  # Chinese: the quantity with its measure word ("8 台", "512 根")
                cells = [ctx.t("qty_with_unit", n=qty, unit=ln.unit) if ln.unit else qty]
            else:
                cells = [qty, ln.unit]
            rows.append([ln.name, *cells, price, fmt.money(ln.amount_usd * rate)])
        r = len(rows) + 1
        subtotal = ctx.para(ctx.t("bom_subtotal", category=ctx.t(f"cat_{cat}")), "cell_bold")
        rows.append([subtotal, *[""] * (ncol - 2), fmt.money(capex[cat])])
        extra += [("SPAN", (0, r), (ncol - 2, r)), ("FONTNAME", (0, r), (-1, r), ctx.fonts.bold)]
    rows.append(
        [
            ctx.para(ctx.t("bom_total"), "cell_bold"),
            *[""] * (ncol - 3),
            ctx.cur_label,
            fmt.money(ctx.data["capex"]),
        ]
    )
    extra.append(("SPAN", (0, len(rows)), (ncol - 3, len(rows))))
    w = PAGE[0] - 2 * MARGIN
    # the item name gets the room: with a narrow name column most lines took two or three rows and the
    # 1,024-GPU bill ran onto a second page for its last line and the total. No catalog-id column: a buyer
    # cannot order by it, and the catalog has no part-number field (the model name is in the item's name).
    if words:
        widths = [w - 69 * mm, 25 * mm, 20 * mm, 24 * mm]
        keys: tuple[str, ...] = ("col_item", "col_qty", "col_unit_price")
    else:
        widths = [w - 69 * mm, 14 * mm, 11 * mm, 20 * mm, 24 * mm]
        keys = ("col_item", "col_qty", "col_unit", "col_unit_price")
    headers = [ctx.t(k) for k in keys]
    headers.append(ctx.t("col_amount", cur=ctx.cur_label))
    out.append(ctx.table(headers, rows, widths, numeric_from=1, text_cols=(0,), total_rows=1, extra=extra))
    return out
