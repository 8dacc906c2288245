"""Rack elevations: one front view per distinct rack layout (racks holding the same models at the same U
positions share one drawing), captioned with the racks it stands for."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from reportlab.platypus import Flowable, Table, TableStyle

from gpuplanner.engine.compiled import ROLE_CODES
from gpuplanner.reports import fmt
from gpuplanner.reports.context import ReportContext
from gpuplanner.reports.drawings.rack import Slot, rack_drawing
from gpuplanner.reports.sections.common import section
from gpuplanner.reports.styles import MARGIN, PAGE

PER_ROW = 4
MAX_LAYOUTS = 16
ROLE_NAMES = {v: k for k, v in ROLE_CODES.items()}


def _short(ctx: ReportContext, type_id: str) -> str:
    """The model as a rack label: 'MQM9700-NS2F (Quantum-2 QM9700)' → 'MQM9700-NS2F'."""
    e = ctx.project.catalog.entries.get(type_id)
    model = (e.model or e.name) if e is not None else type_id
    return model.split(" (", 1)[0] or model


def rack_layouts(ctx: ReportContext) -> list[tuple[list[int], list[Slot]]]:
    """(rack rows sharing a layout, that layout's slots), in rack order."""
    c = ctx.results.compiled
    d = c.devices
    slots: dict[int, list[tuple[int, int, str, str]]] = defaultdict(list)
    for i in np.flatnonzero((d.rack >= 0) & (d.u_position > 0)).tolist():
        slots[int(d.rack[i])].append(
            (int(d.u_position[i]), int(d.ru[i]), ROLE_NAMES[int(d.role[i])], d.type_ids[i])
        )
    layouts: dict[tuple, list[int]] = {}
    for r in range(len(c.racks.ids)):
        key = (int(c.racks.ru[r]), tuple(sorted(slots.get(r, []))))
        layouts.setdefault(key, []).append(r)
    out = []
    for (_, layout), racks in layouts.items():
        out.append((racks, [Slot(u, ru, role, _short(ctx, tid)) for u, ru, role, tid in layout]))
    return out


def _caption(ctx: ReportContext, racks: list[int], slots: list[Slot]) -> list[Flowable]:
    c, p = ctx.results.compiled, ctx.results.power
    names = [c.racks.names[r] for r in racks]
    if len(names) == 1:
        first = ctx.t("rack_one", name=names[0])
    else:
        first = ctx.t("rack_many", first=names[0], last=names[-1], n=fmt.integer(len(names)))
    used = sum(s.ru for s in slots)
    kw = float(np.max(p.rack_kw_max[racks])) if racks else 0.0
    second = ctx.t("rack_kw", kw=fmt.kw(kw), used=used, ru=int(c.racks.ru[racks[0]]))
    return [ctx.para(first, "small", 120), ctx.para(second, "muted")]


def build(ctx: ReportContext, n: int) -> list[Flowable]:
    out: list[Flowable] = [section(ctx, n, "sec_racks")]
    layouts = rack_layouts(ctx)
    if not layouts:
        return [*out, ctx.para(ctx.t("racks_none"))]
    n_racks = len(ctx.results.compiled.racks.ids)
    out.append(ctx.para(ctx.t("racks_intro", racks=fmt.integer(n_racks), layouts=fmt.integer(len(layouts)))))
    col_w = (PAGE[0] - 2 * MARGIN) / PER_ROW
    cells = []
    for racks, slots in layouts[:MAX_LAYOUTS]:
        ru = int(ctx.results.compiled.racks.ru[racks[0]])
        title = ctx.results.compiled.racks.names[racks[0]]
        cells.append(
            [rack_drawing(title, ru, slots, ctx.fonts, width=col_w - 10), *_caption(ctx, racks, slots)]
        )
    while len(cells) % PER_ROW:
        cells.append("")
    grid = [cells[i : i + PER_ROW] for i in range(0, len(cells), PER_ROW)]
    t = Table(grid, colWidths=[col_w] * PER_ROW)
    t.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), ctx.fonts.body),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 10),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), 8),
            ]
        )
    )
    out.append(t)
    if len(layouts) > MAX_LAYOUTS:
        out.append(ctx.para(ctx.t("racks_more", n=fmt.integer(len(layouts) - MAX_LAYOUTS)), "muted"))
    unracked = int(
        ((ctx.results.compiled.devices.rack < 0) | (ctx.results.compiled.devices.u_position <= 0)).sum()
    )
    if unracked:
        out.append(ctx.para(ctx.t("unracked", n=fmt.integer(unracked)), "muted"))
    return out
