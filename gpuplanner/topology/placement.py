"""Rack placement: fill racks under their U and kW budgets, in rows; lay racks and devices out on the canvas.

Compute racks hold the servers of one scalable unit (never mixed), as many per rack as both the rack's U
(less 2U kept for a management switch and patching) and its power budget at the servers' maximum draw allow.
Leaves of an SU go to a network rack at the end of that SU's row; spines, cores, storage and management
switches go to network racks in a middle row, which keeps the longest runs short.
"""

from __future__ import annotations

import dataclasses

from gpuplanner.catalog.types import RackType, ServerType
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device, Rack
from gpuplanner.text import Msg
from gpuplanner.topology.fattree import X_SERVER, Y_TIER
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.topology.plan import Plan

U_PX = 6.0  # canvas pixels per rack unit
RESERVED_U = 2


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
                    x=rack.x + 8,
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
