"""Electrical and plant findings: a rack whose side current needs more than one rack feed, a row beyond the
largest busway, a rack whose liquid heat exceeds one CDU, and switch ports left unused at scale. Each names its
items and a fix; texts in English and Chinese."""

from __future__ import annotations

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.names import named
from gpuplanner.engine.arrays import few_unique, group_rows
from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import Compiled, codes_of
from gpuplanner.engine.fabric.network import PortUseTable, running_sum
from gpuplanner.engine.facility.electrical import ElectricalResult
from gpuplanner.engine.facility.power import load_assumptions
from gpuplanner.engine.facility.thermal import ThermalResult


def _r(x: float) -> float:
    return round(float(x), 1)


def electrical_findings(c: Compiled, e: ElectricalResult, thermal: ThermalResult) -> list[Finding]:
    a = load_assumptions("electrical")
    out: list[Finding] = []
    feed_a = a.number("rack_feed_max_a")
    # a rack whose PDUs already give one circuit per needed feed on each side is fine
    pdus_per_side = c.racks.pdu_count.astype(np.int64) // int(
        load_assumptions("facility").number("feeds_per_rack")
    )
    bad = np.flatnonzero((e.rack_circuits_per_side > 1) & (e.rack_circuits_per_side > pdus_per_side))
    # one finding per (current, circuits, PDUs): a row of equal racks. The currents are rounded once per
    # distinct value (Python's round, as the sentence shows it), then the racks grouped by their key codes.
    raw, raw_code = few_unique(e.rack_side_current_a[bad].astype(np.float64))
    amp_code, amp_names = codes_of([_r(v) for v in raw.tolist()])
    amps_of = amp_code[raw_code].astype(np.int64)
    circuits_of = e.rack_circuits_per_side[bad].astype(np.int64)
    per_side_of = pdus_per_side[bad]
    width = int(max(circuits_of.max(), per_side_of.max(), 0)) + 1 if len(bad) else 1
    key = (amps_of * width + circuits_of) * width + per_side_of
    pf = a.number("it_power_factor")
    for g in group_rows(key):
        rows = bad[g].tolist()
        i, k = rows[0], int(g[0])
        params = {
            "count": len(rows),
            "rack": c.racks.names[i],
            "kw_max": _r(e.rack_side_current_a[i] * np.sqrt(3) * e.voltage_v * pf / 1000),
            "current_a": amp_names[int(amps_of[k])],
            "feed_a": _r(feed_a),
            "circuits": int(circuits_of[k]),
            "pdus_per_side": int(per_side_of[k]),
        }
        out.append(
            Finding(
                "warning", "rack-needs-several-circuits", tuple(map(c.racks.ids.__getitem__, rows)), params
            )
        )
    row_code, row_names = codes_of(c.racks.row_label)
    for row in e.rows:
        if row["busways_per_side"] > 1:
            at = row_names.index(row["row"]) if row["row"] in row_names else -1
            racks = tuple(map(c.racks.ids.__getitem__, np.flatnonzero(row_code == at).tolist()))
            params = {
                "row": row["row"],
                "kw_max": _r(row["kw_max"]),
                "current_a": _r(row["side_current_a"]),
                "busway_a": _r(max(a.value("busway_ratings_a"))),
                "count": row["busways_per_side"],
            }
            out.append(Finding("warning", "row-busway-over-rating", racks, params))
    cdu_kw = a.number("cdu_capacity_kw")
    liquid = thermal.rack_liquid_kw_max + thermal.rack_loop_kw_max
    for i in np.flatnonzero(liquid > cdu_kw + 1e-9).tolist():
        params = {"rack": c.racks.names[i], "liquid_kw": _r(liquid[i]), "cdu_kw": _r(cdu_kw)}
        out.append(Finding("warning", "rack-liquid-over-cdu", (c.racks.ids[i],), params))
    return out


UNUSED_PORTS_SHARE = 0.25  # a quarter of the fabric ports idle is worth a sentence in the proposal


def unused_port_findings(c: Compiled, port_use: PortUseTable) -> list[Finding]:
    """Free ports on compute/storage fabric switches (management switches excluded: their spare ports are
    normal). ``port_use``: the fabric stage's port-use columns."""
    from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES

    mgmt = ROLE_CODES.get("management", -1)
    sw = (c.devices.kind == KIND_CODES["switch"]) & (c.devices.role != mgmt)
    sel = sw[port_use.device_row] if len(port_use) else np.zeros(0, bool)
    ports = int(port_use.ports[sel].sum())
    free = running_sum(port_use.free()[sel])
    if ports <= 0 or free / ports <= UNUSED_PORTS_SHARE:
        return []
    devs = np.unique(port_use.device_row[sel]).tolist()
    params = {
        "free": int(round(free)),
        "ports": int(ports),
        "pct": round(100.0 * free / ports),
        "switches": len(devs),
    }
    return [Finding("warning", "switch-ports-unused", tuple(c.devices.ids[i] for i in devs[:50]), params)]


def budget_raised_findings(c: Compiled, catalog: Catalog) -> list[Finding]:
    """Racks whose budget was set above their rack type's rating: said once per (type, budget)."""
    t_code, t_names = c.racks.type_codes
    rated_of_type = [getattr(catalog.entries.get(t), "power_budget_kw", None) for t in t_names]
    rated = np.array([float(r) if r else np.nan for r in rated_of_type] or [np.nan])[t_code]
    b = c.racks.budget_kw.astype(np.float64)
    bad = np.flatnonzero(~np.isnan(rated) & ~np.isnan(b) & (b > rated + 1e-9))
    # one finding per (type, budget, rating): the rating follows the type
    _, b_code = few_unique(b[bad])
    out = []
    for g in group_rows(t_code[bad].astype(np.int64) * (len(bad) + 1) + b_code):
        rows = bad[g].tolist()
        i = rows[0]
        t = c.racks.type_ids[i]
        entry = catalog.entries.get(t)
        params = {
            "count": len(rows),
            "rack": c.racks.names[i],
            "budget_kw": _r(b[i]),
            "rated_kw": _r(rated[i]),
            "type": named(entry, catalog) if entry is not None else t,  # in the sentence's language
        }
        out.append(
            Finding("info", "rack-budget-above-rating", tuple(map(c.racks.ids.__getitem__, rows)), params)
        )
    return out
