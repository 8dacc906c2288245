"""Devices moved between racks (or to other U slots), applied to the previous compiled arrays and results
instead of compiling and solving again: the edit the floor and rack views make most often.

What a move changes, and only that, is redone here:
- compiled: each moved device's rack row, U position and canvas position; the automatic lengths of the links
  at a moved device (``cable_lengths_m`` on those links only);
- cables: the plan of those links (``plan_cables`` on a subset); when every one keeps its medium, cable and
  modules — the usual case — the previous plan is kept with the new lengths (metres per cable id, "too long"
  flags), else the whole plan is made again (a module count per cage can change with one link);
- power: the racks the devices left or entered (``power.move_devices``), device draws kept.
Routing, hops, port use, the workload's placement and traffic do not read racks and are kept; thermal, cost,
electrical and the checks that read them run again in ``analysis`` (they are cheap).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.engine.compiled import (
    Compiled,
    LinkArrays,
    RowIndex,
    cable_lengths_m,
    column,
    device_slots,
    rack_budgets_kw,
)
from gpuplanner.engine.fabric.cabling import MEDIUM_NAMES, CablePlan, bom_cable_m, plan_cables
from gpuplanner.engine.selection import Selection

# LinkArrays fields with one entry per link (the rest are per port key, or the id → row map; the per-link
# role, technology and connector strings are derived from the port-key codes on first read)
_PER_LINK = (
    "ids",
    "a",
    "b",
    "a_group",
    "b_group",
    "speed_gbps",
    "multiplicity",
    "capacity_gbps",
    "length_m",
    "length_given",
    "medium",
    "cable_ids",
    "a_port_key",
    "b_port_key",
    "infiniband",
    "connector_code",
)
# CablePlan per-link codes that a move may not change for the plan to be kept, with the table each indexes
_CHOICES = ("medium_code", "cable_code", "tr_a_code", "tr_b_code")
_CHOICE_NUMBERS = ("transceivers_a", "transceivers_b", "reach_m", "copper_reach_m", "optics_power_w")


@dataclasses.dataclass(frozen=True)
class Placement:
    """The compiled arrays after a move, and what moved."""

    compiled: Compiled
    moved: np.ndarray  # device rows whose rack changed
    touched_links: np.ndarray  # link rows whose automatic length was recomputed


def with_placement(prev: Compiled, sel: Selection) -> Placement | None:
    """``prev`` with the devices' current racks and U positions from ``sel`` (the edited project as the same
    scenario and phase see it); None when the device rows are not the same ids in the same order (then only
    a full compile is right)."""
    devs = sel.devices
    ov = sel.overrides.get("devices", {})
    d = prev.devices
    if column(devs, "id", ov) != d.ids:
        return None
    rack, u_pos = device_slots(
        column(devs, "rack_id", ov), column(devs, "u_position", ov), prev.racks.row, sel.phased
    )
    changed = (rack != d.rack) | (u_pos != d.u_position)
    devices = dataclasses.replace(
        d,
        rack=rack,
        u_position=u_pos,
        x=np.array(column(devs, "x", ov)),
        y=np.array(column(devs, "y", ov)),
    )
    lk = prev.links
    links = lk
    touched = np.zeros(0, np.int64)
    if changed.any() and len(lk.ids):
        touched = np.flatnonzero((changed[lk.a] | changed[lk.b]) & ~lk.length_given)
        if len(touched):
            length = lk.length_m.copy()
            length[touched] = cable_lengths_m(
                lk.a[touched], lk.b[touched], devices, prev.racks, sel.inputs.site
            )
            links = dataclasses.replace(lk, length_m=length)
    c = dataclasses.replace(prev, devices=devices, links=links, inputs=sel.inputs)
    return Placement(c, np.flatnonzero(rack != d.rack), touched)


# Rack fields that only the facility stages read (power budget; cooling → thermal, cost, electrical, checks)
RACK_FACILITY_FIELDS = frozenset({"power_budget_kw", "cooling_id"})


def with_rack_fields(prev: Compiled, sel: Selection) -> Compiled | None:
    """``prev`` with each rack's power budget and cooling from ``sel`` (the edited project as the same
    scenario and phase see it); None when the rack rows are not the same ids in the same order."""
    racks = sel.racks
    ov = sel.overrides.get("racks", {})
    r = prev.racks
    if column(racks, "id", ov) != r.ids:
        return None
    code, names = r.type_codes  # one catalog look-up per distinct rack type
    cat = sel.inputs.catalog
    per_type = [cat.entries.get(t) for t in names]
    types = [per_type[i] for i in code.tolist()]
    budget = rack_budgets_kw(column(racks, "power_budget_kw", ov), types)
    cooling = column(racks, "cooling_id", ov)
    if np.array_equal(budget, r.budget_kw, equal_nan=True) and cooling == r.cooling_ids:
        return prev
    return dataclasses.replace(prev, racks=dataclasses.replace(r, budget_kw=budget, cooling_ids=cooling))


def _link_subset(lk: LinkArrays, rows: np.ndarray) -> LinkArrays:
    picked: dict[str, Any] = {}
    idx = rows.tolist()
    for name in _PER_LINK:
        v = getattr(lk, name)
        picked[name] = v[rows] if isinstance(v, np.ndarray) else [v[i] for i in idx]
    picked["row"] = RowIndex(picked["ids"])
    return dataclasses.replace(lk, **picked)


def _choice_names(plan: CablePlan, name: str, rows: np.ndarray | None = None) -> np.ndarray:
    """The chosen medium / catalog id of each link (of ``rows``), whatever the plan's code numbering."""
    codes = getattr(plan, name)
    names = MEDIUM_NAMES if name == "medium_code" else plan.code_ids
    table = np.array(names, dtype=object)
    picked: np.ndarray = table[codes if rows is None else codes[rows]]
    return picked


def _same_choices(sub: CablePlan, prev: CablePlan, rows: np.ndarray) -> bool:
    for name in _CHOICES:
        if not np.array_equal(_choice_names(sub, name), _choice_names(prev, name, rows)):
            return False
    return all(
        np.array_equal(getattr(sub, name), getattr(prev, name)[rows], equal_nan=True)
        for name in _CHOICE_NUMBERS
    )


def replan_cables(c: Compiled, catalog: Catalog, prev: CablePlan, touched: np.ndarray) -> CablePlan:
    """The cable plan of ``c`` when only the links ``touched`` changed length since ``prev`` was planned."""
    if not len(touched):
        return prev
    sub_c = dataclasses.replace(c, links=_link_subset(c.links, touched))
    sub = plan_cables(sub_c, catalog)
    if not _same_choices(sub, prev, touched):
        return plan_cables(c, catalog)
    too_long = prev.too_long.copy()
    too_long[touched] = sub.too_long
    mult = c.links.multiplicity.astype(np.float64)
    return dataclasses.replace(
        prev,
        too_long=too_long,
        bom_cable_m=bom_cable_m(prev.cable_code, prev.code_ids, mult, c.links.length_m),
    )
