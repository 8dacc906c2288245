"""Rack placement: fill racks under their U and kW budgets, in rows; lay racks and devices out on the canvas.

Compute racks hold the servers of one scalable unit (never mixed), as many per rack as both the rack's U
(less 2U kept for a management switch and patching) and its power budget at the servers' maximum draw allow.
Leaves of an SU go to a network rack at the end of that SU's row; spines, cores, storage and management
switches go to network racks in a middle row, which keeps the longest runs short.

On the canvas (``lay_out_cells``) each SU's racks, its leaf racks included, sit side by side in one cell;
cells wrap into lines when one line would be far wider than tall (a 131k-GPU plan: 512 SUs).
"""

from __future__ import annotations

import dataclasses
import math

from gpuplanner.catalog.types import RackType, ServerType
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device, Rack
from gpuplanner.text import Msg
from gpuplanner.topology.fattree import X_SERVER, Y_TIER
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.topology.plan import Plan

U_PX = 6.0  # canvas pixels per rack unit
RESERVED_U = 2
FRAME_INSET = 8.0  # a framed server's x inside its rack's frame
WRAP_ASPECT = 8.0  # cells stay on one canvas line up to this width : height
GRID_ASPECT = 2.0  # the width : height a wrapped grid aims at
LINE_GAP = 120.0  # canvas space between a line's racks and the next line's leaf tier


def rack_type(plan: Plan, opts: GenerateOptions) -> RackType:
    rt = plan.catalog.get(opts.rack)
    if not isinstance(rt, RackType):
        raise GenerationError(Msg("error.gen.not_a_rack", {"name": opts.rack}), entry=opts.rack)
    return rt


def per_rack(rt: RackType, ru: int, power_max_w: float, budget_kw: float) -> int:
    if ru > rt.ru:
        raise GenerationError(Msg("error.gen.device_too_tall", {"ru": ru, "rack_ru": rt.ru}), entry=rt.id)
    u_fit = max(1, (rt.ru - RESERVED_U) // ru)
    kw_fit = int(budget_kw // (power_max_w / 1000.0)) if power_max_w > 0 else u_fit
    return max(1, min(u_fit, kw_fit))


def _row_label(i: int) -> str:
    return f"R{i + 1:02d}"


def _replace(plan: Plan, updates: dict[str, Device]) -> None:
    plan.devices = [updates.get(d.id, d) for d in plan.devices]


def place_servers(plan: Plan, servers: list[Device], srv: ServerType, opts: GenerateOptions) -> None:
    rt = rack_type(plan, opts)
    budget = opts.rack_budget_kw if opts.rack_budget_kw is not None else rt.power_budget_kw
    n_per = 1 if srv.rack_scale else per_rack(rt, srv.ru, srv.power_max_w, budget)
    groups: dict[str, list[Device]] = {}
    for s in servers:
        groups.setdefault(s.group, []).append(s)
    updates: dict[str, Device] = {}
    row, pos, col = opts.first_row, 0, 0
    budgets = list(opts.rack_budgets_kw)

    def fill(k: int) -> int:  # servers the k-th rack takes (its floor position's kW, else the default)
        if srv.rack_scale or k >= len(budgets):
            return n_per
        return per_rack(rt, srv.ru, srv.power_max_w, budgets[k])

    def racks_for(members: int, first: int) -> list[int]:
        sizes, k = [], first
        while members > 0:
            sizes.append(min(fill(k), members))
            members -= sizes[-1]
            k += 1
        return sizes

    k_rack = 0
    for g_i, members in enumerate(groups.values()):
        sizes = racks_for(len(members), k_rack)
        starts = [sum(sizes[:i]) for i in range(len(sizes))]
        n_racks = len(sizes)
        if pos and pos + n_racks > opts.racks_per_row:
            row, pos = row + 1, 0
        for r_i in range(n_racks):
            rack = Rack(
                id=plan.new_id("racks"),
                name=f"{_row_label(row)}-{pos + 1:02d}",
                type_id=rt.id,
                row=_row_label(row),
                position=pos + 1,
                power_budget_kw=budgets[k_rack] if k_rack < len(budgets) else opts.rack_budget_kw,
                phase_id=opts.phase_id,
                x=col * X_SERVER,
                y=Y_TIER["racks"],
            )
            plan.racks.append(rack)
            k_rack += 1
            for k, s in enumerate(members[starts[r_i] : starts[r_i] + sizes[r_i]]):
                u = 1 + k * srv.ru
                updates[s.id] = dataclasses.replace(
                    s,
                    rack_id=rack.id,
                    u_position=u,
                    x=rack.x + FRAME_INSET,
                    y=rack.y + (rt.ru - (u + srv.ru - 1)) * U_PX,
                )
            pos += 1
            col += 1
            if pos >= opts.racks_per_row and r_i < n_racks - 1:
                row, pos = row + 1, 0
        col += 1 if g_i < len(groups) - 1 else 0  # a gap between SUs on the canvas
        if pos:
            row, pos = row + 1, 0  # each SU starts a row: its leaves sit at the row's end
    _replace(plan, updates)


def place_network(plan: Plan, opts: GenerateOptions) -> None:
    """Switches and storage into network racks (after the generator has created them): the network rack type
    with its own budget and PDUs, not the compute rack (a rack-scale NVL72 rack type never holds switches)."""
    net = plan.catalog.entries.get(opts.network_rack) if opts.network_rack else None
    if isinstance(net, RackType):
        rt, rack_budget = net, None  # the network rack type's own budget
    else:
        rt, rack_budget = rack_type(plan, opts), opts.rack_budget_kw
    budget = rack_budget if rack_budget is not None else rt.power_budget_kw
    placed = {d.id for d in plan.devices if d.rack_id}
    rows_of_su: dict[str, str] = {}
    last_pos: dict[str, int] = {}
    rack_by_id = {r.id: r for r in plan.racks}
    for d in plan.devices:
        if d.rack_id:
            r = rack_by_id[d.rack_id]
            rows_of_su.setdefault(d.group, r.row)
            last_pos[r.row] = max(last_pos.get(r.row, 0), r.position)
    n_rows = len({r.row for r in plan.racks}) or 1
    middle = f"{_row_label(opts.first_row + n_rows // 2)}N"  # sorts right after the middle compute row
    bins: dict[str, list[Device]] = {}
    for d in plan.devices:
        if d.id in placed:
            continue
        row = rows_of_su[d.group] if d.role == "leaf" and d.group in rows_of_su else middle
        bins.setdefault(row, []).append(d)
    x0 = max((r.x for r in plan.racks), default=0.0) + 2 * X_SERVER
    updates: dict[str, Device] = {}
    for row, devs in bins.items():
        pos = last_pos.get(row, 0)
        rack: Rack | None = None
        used_u, used_kw = 0, 0.0
        for d in devs:
            e = plan.entry(d.id)
            ru = int(getattr(e, "ru", 1))
            kw = float(getattr(e, "power_max_w", 0.0)) / 1000.0
            if rack is None or used_u + ru > rt.ru - RESERVED_U or used_kw + kw > budget:
                pos += 1
                rack = Rack(
                    id=plan.new_id("racks"),
                    name=f"{row}-{pos:02d}",
                    phase_id=opts.phase_id,
                    type_id=rt.id,
                    row=row,
                    position=pos,
                    power_budget_kw=rack_budget,
                    x=x0,
                    y=Y_TIER["racks"],
                )
                plan.racks.append(rack)
                x0 += X_SERVER
                used_u, used_kw = 0, 0.0
            updates[d.id] = dataclasses.replace(d, rack_id=rack.id, u_position=used_u + 1)
            used_u += ru
            used_kw += kw
    _replace(plan, updates)


def _framed(d: Device, rack: Rack, rack_h: float) -> bool:
    """Whether ``place_servers`` put the device in its rack's frame (the other racked devices, switches and
    storage, are drawn in their tiers)."""
    return abs(d.x - (rack.x + FRAME_INSET)) < 1e-6 and rack.y <= d.y <= rack.y + rack_h


def lay_out_cells(plan: Plan) -> None:
    """Canvas positions of the racks: one cell per group label (a scalable unit's compute racks and then its
    leaf racks; a pod's spine racks) or, for racks of mixed labels, per row; cells left to right, one rack
    column apart, wrapped into lines (each with its own leaf tier above its racks) when a single line would be
    more than ``WRAP_ASPECT`` times as wide as the plan is tall. Devices in a rack's frame move with it; a
    cell's free devices below the spine tier (its leaves) move with the cell; the other free devices (spines,
    cores, storage, management) keep their tier and are spread over the new width. Rows and positions (the
    floor) do not change."""
    if not plan.racks:
        return
    heights = {r.id: rack_type_h(plan, r) for r in plan.racks}
    label_of: dict[str, set[str]] = {}
    for d in plan.devices:
        if d.rack_id:
            label_of.setdefault(d.rack_id, set()).add(d.group or f"\0{d.role}")
    cells: dict[str, list[Rack]] = {}
    for r in plan.racks:
        labels = label_of.get(r.id, set())
        key = (
            next(iter(labels))
            if len(labels) == 1 and not next(iter(labels)).startswith("\0")
            else f"\0{r.row}"
        )
        cells.setdefault(key, []).append(r)
    widths = [len(rs) * X_SERVER for rs in cells.values()]
    total_w = sum(widths) + X_SERVER * (len(widths) - 1)
    rack_h = max(heights.values())
    top = Y_TIER["racks"]  # the tiers above the first line's racks
    line_h = (Y_TIER["racks"] - Y_TIER["leaf"]) + rack_h + LINE_GAP

    def aspect(lines: int) -> float:
        return (total_w / lines) / (top + rack_h + (lines - 1) * line_h)

    lines = 1
    if aspect(1) > WRAP_ASPECT:
        lines = min(range(1, len(widths) + 1), key=lambda n: abs(math.log(aspect(n) / GRID_ASPECT)))
    limit = total_w / lines
    old_w = max(r.x for r in plan.racks) + X_SERVER
    moves: dict[str, tuple[float, float]] = {}  # rack id → (dx, dy)
    cell_move: dict[str, tuple[float, float]] = {}  # cell key → the (dx, dy) of its first rack
    per_line = max(1, int((limit + X_SERVER / 2) // X_SERVER))  # rack columns in a wrapped line
    x, line = 0.0, 0
    for key, rs in cells.items():
        w = len(rs) * X_SERVER
        if x > 0 and x + w > limit + X_SERVER / 2:
            x, line = 0.0, line + 1
        if lines > 1 and len(rs) > per_line:  # a cell wider than a line (a 131k plan's 2,048 cores) wraps
            for k, r in enumerate(rs):  # over lines of its own
                moves[r.id] = ((k % per_line) * X_SERVER - r.x, (line + k // per_line) * line_h)
            cell_move[key] = moves[rs[0].id]
            x, line = 0.0, line + (len(rs) - 1) // per_line + 1
            continue
        dy = line * line_h
        for k, r in enumerate(rs):
            moves[r.id] = (x + k * X_SERVER - r.x, dy)
        cell_move[key] = moves[rs[0].id]
        x += w + X_SERVER
    if x == 0.0 and line > 0:
        line -= 1  # (a wrapped cell ended the last line)
    n_lines = line + 1
    new_w = max(limit, max(r.x + moves[r.id][0] for r in plan.racks) + X_SERVER)
    stretch = new_w / old_w if old_w > 0 else 1.0
    below = Y_TIER["racks"] + rack_h  # free devices under the racks (storage, management rows)
    rack_by_id = {r.id: r for r in plan.racks}
    devices = []
    for d in plan.devices:
        home = rack_by_id.get(d.rack_id) if d.rack_id else None
        if home is not None and _framed(d, home, heights[home.id]):
            dx, dy = moves[home.id]
        elif d.group in cell_move and d.y >= Y_TIER["leaf"] and d.y < below:
            dx, dy = cell_move[d.group]
        else:
            dx = d.x * stretch - d.x
            dy = (n_lines - 1) * line_h if d.y >= below else 0.0
        devices.append(dataclasses.replace(d, x=d.x + dx, y=d.y + dy) if dx or dy else d)
    plan.devices = devices
    plan.racks = [dataclasses.replace(r, x=r.x + moves[r.id][0], y=r.y + moves[r.id][1]) for r in plan.racks]


def rack_type_h(plan: Plan, rack: Rack) -> float:
    rt = plan.catalog.entries.get(rack.type_id)
    return float(rt.ru if isinstance(rt, RackType) else 42) * U_PX
