"""Floor plan: the load each cooling or power unit carries against its capacity.

A unit serves the racks of its row ("" = the whole hall). Air units (CRAH, in-row) carry the racks' air
heat; CDUs and rear doors their liquid heat; immersion tanks the liquid heat of their row; PDUs, busways and
the utility feed the racks' electrical kW at max (the feed: facility kW at max).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import Compiled
from gpuplanner.engine.facility.power import PowerResult
from gpuplanner.engine.facility.thermal import ThermalResult
from gpuplanner.engine.selection import Inputs
from gpuplanner.model.rows import Site

AIR = ("crah", "in-row")
LIQUID = ("cdu", "rear-door", "immersion-tank")
ELECTRIC = ("pdu", "busway")


def floor_loads(c: Compiled, power: PowerResult, thermal: ThermalResult) -> dict[str, tuple[float, float]]:
    """item id → (load kW, capacity kW)."""
    labels = np.array(c.racks.row_label, dtype=object)
    out: dict[str, tuple[float, float]] = {}
    for item in c.inputs.floor_items.values():
        sel = np.ones(len(labels), bool) if not item.row else labels == item.row
        if item.kind in AIR:
            load = float(thermal.rack_air_kw_max[sel].sum())
        elif item.kind in LIQUID:
            load = float(thermal.rack_liquid_kw_max[sel].sum())
        elif item.kind in ELECTRIC:
            load = float(power.rack_kw_max[sel].sum())
        else:  # utility feed
            load = float(thermal.facility_kw_max)
        out[item.id] = (load, float(item.capacity_kw))
    return out


def floor_findings(c: Compiled, loads: dict[str, tuple[float, float]]) -> list[Finding]:
    items = c.inputs.floor_items
    return [
        Finding(
            "warning",
            "floor-unit-overloaded",
            (iid,),
            {"name": items[iid].name, "kind": items[iid].kind, "load": load, "capacity": cap},
        )
        for iid, (load, cap) in loads.items()
        if cap > 0 and load > cap + 1e-9
    ]


def hall_findings(c: Compiled) -> list[Finding]:
    """Racks (at the engine's floor positions) and floor units outside the hall the site gives (if any)."""
    site = c.inputs.site
    w, d = float(site.hall_width_m or 0), float(site.hall_depth_m or 0)
    if w <= 0 or d <= 0:
        return []
    depth = 1.2  # a rack's footprint depth (m); the width is the rack pitch
    x, y = c.racks.floor_x_m, c.racks.floor_y_m
    out_r = (x < 0) | (y < 0) | (x + site.rack_pitch_m > w + 1e-9) | (y + depth > d + 1e-9)
    names = [c.racks.names[i] for i in np.flatnonzero(out_r)]
    ids = [c.racks.ids[i] for i in np.flatnonzero(out_r)]
    for it in c.inputs.floor_items.values():
        if it.x_m < 0 or it.y_m < 0 or it.x_m + it.width_m > w + 1e-9 or it.y_m + it.depth_m > d + 1e-9:
            names.append(it.name)
            ids.append(it.id)
    if not ids:
        return []
    return [
        Finding(
            "warning",
            "outside-hall",
            tuple(ids),
            {"n": len(ids), "width": f"{w:g}", "depth": f"{d:g}", "name": names[0]},
        )
    ]


def site_with_utility_feed(inputs: Inputs) -> Site:
    """The site, with the utility feed the floor plan places when Site ▸ utility is not stated (0): the sum of
    the utility-feed units' capacities. The stated figure wins when both are given."""
    site = inputs.site
    if site.utility_kw_available > 0:
        return site
    feed = sum(it.capacity_kw for it in inputs.floor_items.values() if it.kind == "utility-feed")
    return dataclasses.replace(site, utility_kw_available=float(feed)) if feed > 0 else site
