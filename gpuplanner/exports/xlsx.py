"""The Excel workbook (XlsxWriter): bill of materials (part numbers, quantities, unit and extended prices,
currency), cable schedule (from/to device, port, rack, U, length, medium, transceivers counted as the BOM
counts them), rack elevations (a U map per rack with its kW) and power per row and per rack with the feed
check. Sheet names and headers follow the project's language (English or Chinese).

Free text (names) is always written as a string, never as a formula (``strings_to_formulas`` off): a device
named ``=HYPERLINK(…)`` stays text.
"""

from __future__ import annotations

import io
import math

import xlsxwriter

from gpuplanner import text
from gpuplanner.exports.cables_csv import cable_rows

BOM_COLUMNS = 9  # reports.files.BOM_COLUMNS: category, category_name, item, catalog_id, quantity, unit,
# unit_price, amount, currency


def _num(x) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


class _Book:
    def __init__(self, lang: str) -> None:
        self.buf = io.BytesIO()
        self.wb = xlsxwriter.Workbook(
            self.buf,
            {
                "in_memory": True,
                "strings_to_formulas": False,
                "strings_to_urls": False,
                "strings_to_numbers": False,
            },
        )
        self.lang = lang
        self.head = self.wb.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "text_wrap": True})
        self.note = self.wb.add_format({"italic": True, "font_color": "#555555"})
        self.money = self.wb.add_format({"num_format": "#,##0.00"})
        self.kw = self.wb.add_format({"num_format": "0.0"})
        self.bold = self.wb.add_format({"bold": True})
        self.bold_money = self.wb.add_format({"bold": True, "num_format": "#,##0.00"})
        self.slot = self.wb.add_format(
            {"border": 1, "align": "center", "valign": "vcenter", "bg_color": "#E2EFDA"}
        )
        self.empty = self.wb.add_format({"border": 1, "font_color": "#BBBBBB", "align": "center"})
        self.over = self.wb.add_format({"num_format": "0.0", "bg_color": "#F8CBAD"})

    def t(self, key: str) -> str:
        return text.render(f"xlsx.{key}", self.lang)

    def sheet(self, key: str, header_rows: int = 1):
        ws = self.wb.add_worksheet(self.t(key)[:31])
        ws.set_landscape()  # printed (or opened as PDF): all columns of a page side by side
        ws.set_paper(9)  # A4
        ws.fit_to_pages(1, 0)
        ws.repeat_rows(0, header_rows - 1)
        return ws

    def cell(self, ws, r: int, c: int, v, fmt=None) -> None:
        if v is None or v == "":
            ws.write_blank(r, c, None, fmt)
        elif isinstance(v, bool):
            ws.write_boolean(r, c, v, fmt)
        elif isinstance(v, int | float):
            n = _num(v)
            ws.write_number(r, c, n, fmt) if n is not None else ws.write_blank(r, c, None, fmt)
        else:
            ws.write_string(r, c, str(v), fmt)

    def header(self, ws, r: int, keys: list[str], widths: list[int] | None = None) -> None:
        for c, k in enumerate(keys):
            ws.write_string(r, c, self.t(k), self.head)
            ws.set_column(c, c, (widths or [14] * len(keys))[c])

    def close(self) -> bytes:
        self.wb.close()
        return self.buf.getvalue()


def _bom(b: _Book, bom: list[list]) -> None:
    ws = b.sheet("sheet_bom")
    keys = ["category", "item", "part_number", "quantity", "unit", "unit_price", "extended_price", "currency"]
    b.header(ws, 0, keys, [16, 44, 30, 10, 8, 14, 16, 9])
    r = 1
    for row in bom:
        cat, cat_name, item, part, qty, unit, price, amount, currency = row[:BOM_COLUMNS]
        if cat == "total":
            b.cell(ws, r, 0, cat_name, b.bold)
            ws.write_formula(r, 6, f"=SUM(G2:G{r})", b.bold_money, amount)
            b.cell(ws, r, 7, currency, b.bold)
            break
        for c, v in enumerate([cat_name, item, part, qty, unit, price, amount, currency]):
            b.cell(ws, r, c, v, b.money if c in (5, 6) else None)
        r += 1
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, max(r - 1, 1), len(keys) - 1)


CABLE_KEYS = [
    "cable", "link", "from_device", "from_port", "from_rack", "from_u", "to_device", "to_port", "to_rack", "to_u",
    "tier", "speed_gbps", "medium", "cable_part", "cable_name", "length_m", "transceiver_a", "modules_a",
    "transceiver_b", "modules_b",
]  # fmt: skip


def _cables(b: _Book, project, results) -> None:
    ws = b.sheet("sheet_cables", header_rows=2)
    ws.write_string(0, 0, b.t("cables_note"), b.note)
    widths = [9, 9, 18, 10, 10, 6, 18, 10, 10, 6, 8, 8, 10, 22, 30, 9, 24, 8, 24, 8]
    b.header(ws, 1, CABLE_KEYS, widths)
    rows = cable_rows(project, results)
    for r, row in enumerate(rows, start=2):
        for c, v in enumerate(row):
            if c in (17, 19) and v != "":
                v = float(v)
            b.cell(ws, r, c, v)
    ws.freeze_panes(2, 0)
    ws.autofilter(1, 0, max(len(rows) + 1, 2), len(CABLE_KEYS) - 1)


def _racks(b: _Book, results) -> None:
    """One column per rack: name, row, kW rows on top, then its U map (top U first, a device over its Us)."""
    ws = b.sheet("sheet_racks", header_rows=6)
    c = results.compiled
    d, rk, p = c.devices, c.racks, results.power
    max_u = int(rk.ru.max()) if len(rk.ids) else 0
    labels = ["rack", "row", "kw_load", "kw_max", "kw_budget", "u_used"]
    for i, k in enumerate(labels):
        ws.write_string(i, 0, b.t(k), b.head)
    top = len(labels)
    ws.set_column(0, 0, 22)
    for u in range(max_u, 0, -1):
        ws.write_string(top + max_u - u, 0, f"U{u}", b.head)
    by_rack: dict[int, list[int]] = {}
    for i in range(len(d.ids)):
        if d.rack[i] >= 0 and d.u_position[i] > 0:
            by_rack.setdefault(int(d.rack[i]), []).append(i)
    for k in range(len(rk.ids)):
        col = k + 1
        ws.set_column(col, col, 16)
        ru = int(rk.ru[k])
        used = sum(int(d.ru[i]) for i in by_rack.get(k, []))
        budget = _num(p.rack_budget_kw[k])
        load = _num(p.rack_kw_load[k])
        vals = [rk.names[k], rk.row_label[k], load, _num(p.rack_kw_max[k]), budget, used]
        for i, v in enumerate(vals):
            fmt = b.over if i == 2 and budget is not None and load is not None and load > budget else b.kw
            b.cell(ws, i, col, v, fmt if i in (2, 3, 4) else None)
        taken = set()
        for i in sorted(by_rack.get(k, []), key=lambda i: -int(d.u_position[i])):
            lo = int(d.u_position[i])
            hi = min(lo + max(int(d.ru[i]), 1) - 1, ru)
            r0, r1 = top + max_u - hi, top + max_u - lo
            if any(x in taken for x in range(r0, r1 + 1)):
                continue  # overlapping devices are a finding of the checks; the map shows the first
            taken.update(range(r0, r1 + 1))
            if r1 > r0:
                ws.merge_range(r0, col, r1, col, d.names[i], b.slot)
            else:
                ws.write_string(r0, col, d.names[i], b.slot)
        for u in range(1, ru + 1):
            r = top + max_u - u
            if r not in taken:
                ws.write_blank(r, col, None, b.empty)
    ws.fit_to_pages(max(1, math.ceil(len(rk.ids) / 12)), 0)  # about 12 racks across a printed page
    ws.repeat_columns(0, 0)
    ws.freeze_panes(top, 1)


def _power(b: _Book, results) -> None:
    ws = b.sheet("sheet_power")
    p = results.power
    keys = ["row", "racks", "kw_idle", "kw_typical", "kw_load", "kw_max"]
    b.header(ws, 0, keys, [18, 8, 12, 12, 12, 12])
    counts = [int((p.rack_row == i).sum()) for i in range(len(p.row_labels))]
    r = 1
    for i, label in enumerate(p.row_labels):
        vals = [label, counts[i], p.row_kw_idle[i], p.row_kw_typical[i], p.row_kw_load[i], p.row_kw_max[i]]
        for c, v in enumerate(vals):
            b.cell(ws, r, c, v if c < 2 else _num(v), b.kw if c >= 2 else None)
        r += 1
    if p.unracked_kw_max:
        vals = [
            b.t("unracked"),
            0,
            p.unracked_kw_idle,
            p.unracked_kw_typical,
            p.unracked_kw_load,
            p.unracked_kw_max,
        ]
        for c, v in enumerate(vals):
            b.cell(ws, r, c, v if c < 2 else _num(v), b.kw if c >= 2 else None)
        r += 1
    b.cell(ws, r, 0, b.t("total_it"), b.bold)
    for c, v in enumerate([p.it_kw_idle, p.it_kw_typical, p.it_kw_load, p.it_kw_max], start=2):
        b.cell(ws, r, c, _num(v), b.kw)
    r += 2
    ws.write_string(r, 0, b.t("feed_note"), b.note)
    r += 1
    rk = results.compiled.racks
    keys = ["rack", "row", "kw_load", "kw_max", "kw_budget", "feed_kw", "feed_ok"]
    b.header(ws, r, keys, [18, 8, 12, 12, 12, 12, 12])
    for k in range(len(rk.ids)):
        r += 1
        known = bool(p.rack_feed_known[k])
        ok = b.t("yes") if bool(p.rack_feed_ok[k]) else b.t("no")
        vals = [rk.names[k], rk.row_label[k], _num(p.rack_kw_load[k]), _num(p.rack_kw_max[k]),
                _num(p.rack_budget_kw[k]), _num(p.rack_feed_kw[k]), ok if known else b.t("unknown")]  # fmt: skip
        for c, v in enumerate(vals):
            b.cell(ws, r, c, v, b.kw if 2 <= c <= 5 else None)


def workbook_bytes(project, results, lang: str, bom: list[list]) -> bytes:
    """The .xlsx file's bytes. ``bom``: ``reports.files.bom_rows`` (the report's own bill of materials)."""
    b = _Book("zh" if lang == "zh" else "en")
    _bom(b, bom)
    _cables(b, project, results)
    _racks(b, results)
    _power(b, results)
    return b.close()
