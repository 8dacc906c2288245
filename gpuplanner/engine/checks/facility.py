"""Power, cooling and cost checks: findings about racks (power budget, U space, cooling, A/B feeds), devices
(PSU redundancy) and the site (utility feed, PUE target, missing prices), each naming its items and a fix.

The arrays are scanned with numpy; Python only loops over the racks or device types that fail a rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpuplanner.catalog.names import named_id, named_with_id
from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import Compiled
from gpuplanner.engine.facility.cost import CostResult
from gpuplanner.engine.facility.power import PowerResult, load_assumptions
from gpuplanner.engine.facility.thermal import ThermalResult
from gpuplanner.model.rows import Site

_NONE = "—"


def _r(x: float) -> float:
    return round(float(x), 1)


def _power_budget(c: Compiled, p: PowerResult) -> list[Finding]:
    out = []
    for i in np.flatnonzero(p.rack_over_budget_max):
        sev = "error" if p.rack_over_budget[i] else "warning"
        params = {
            "rack": c.racks.names[i],
            "kw_load": _r(p.rack_kw_load[i]),
            "kw_max": _r(p.rack_kw_max[i]),
            "budget_kw": _r(p.rack_budget_kw[i]),
        }
        out.append(Finding(sev, "rack-over-power-budget", (c.racks.ids[i],), params))
    return out


def u_space_problems(c: Compiled, device_rack: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(U used per rack, devices above the rack top, devices overlapping an earlier one in the same rack)."""
    d, r = c.devices, c.racks
    nr = len(r.ids)
    placed = device_rack >= 0
    ru = d.ru.astype(np.int64)
    used = np.bincount(device_rack[placed], weights=ru[placed], minlength=nr).astype(np.int64)
    pos = d.u_position.astype(np.int64)
    has = placed & (pos > 0)
    top = pos + ru - 1
    rack_ru = np.append(r.ru.astype(np.int64), 0)
    beyond = has & (top > rack_ru[np.where(placed, device_rack, nr)])
    overlap = np.zeros(len(d.ids), dtype=bool)
    idx = np.flatnonzero(has)
    if idx.size > 1:
        s = idx[np.lexsort((pos[idx], device_rack[idx]))]
        rs, ps = device_rack[s].astype(np.int64), pos[s]
        span = int(top.max()) + 1
        # Racks are sorted ascending, so offsetting tops by rack × span makes a running max restart per rack.
        running = np.maximum.accumulate(rs * span + top[s])
        clash = (rs[1:] == rs[:-1]) & (ps[1:] <= running[:-1] - rs[1:] * span)
        overlap[s[1:][clash]] = True
    return used, beyond, overlap


def _u_budget(c: Compiled, p: PowerResult) -> list[Finding]:
    used, beyond, overlap = u_space_problems(c, p.device_rack)
    bad = used > c.racks.ru
    bad_dev = beyond | overlap
    if bad_dev.any():
        bad[np.unique(p.device_rack[bad_dev])] = True
    out = []
    names, ids = c.devices.names, c.devices.ids
    for i in np.flatnonzero(bad):
        in_rack = p.device_rack == i
        b, o = np.flatnonzero(in_rack & beyond), np.flatnonzero(in_rack & overlap)
        params = {
            "rack": c.racks.names[i],
            "ru_used": int(used[i]),
            "ru": int(c.racks.ru[i]),
            "beyond": [names[j] for j in b] or _NONE,
            "overlap": [names[j] for j in o] or _NONE,
        }
        items = (c.racks.ids[i], *(ids[j] for j in np.union1d(b, o)))
        out.append(Finding("error", "rack-over-u-budget", items, params))
    return out


def _cooling(c: Compiled, p: PowerResult, t: ThermalResult) -> list[Finding]:
    out = []
    tab = t.table
    catalog = c.inputs.catalog
    for i in np.flatnonzero(~t.rack_cooling_ok):
        j, k = t.rack_cooling[i], t.rack_cooling_auto[i]
        if t.rack_cooling_max_kw[i] >= tab.max_kw_per_rack[k]:  # nothing in the catalog fits better
            k = int(np.argmax(tab.max_kw_per_rack))
        params = {
            "rack": c.racks.names[i],
            "kw_max": _r(p.rack_kw_max[i]),
            # named in the sentence's language; the sentence gives the kW, so the name leaves it out
            "cooling": named_id(catalog, tab.ids[j], with_figures=False),
            "cooling_id": tab.ids[j],
            "cooling_kw": _r(tab.max_kw_per_rack[j]),
            "suggestion": named_id(catalog, tab.ids[k], with_figures=False),
            "suggestion_id": tab.ids[k],
            "suggestion_kw": _r(tab.max_kw_per_rack[k]),
        }
        out.append(Finding("error", "cooling-cannot-take-load", (c.racks.ids[i],), params))
    for i in np.flatnonzero(t.rack_cooling_unknown):
        chosen = tab.ids[t.rack_cooling[i]]  # the automatic choice the rack was given instead
        params = {
            "rack": c.racks.names[i],
            "cooling": c.racks.cooling_ids[i],  # the id as written: no catalog entry to name
            "chosen": named_id(catalog, chosen),
            "chosen_id": chosen,
        }
        out.append(Finding("warning", "cooling-not-in-catalog", (c.racks.ids[i],), params))
    return out


def _psu(c: Compiled, p: PowerResult) -> list[Finding]:
    bad = np.flatnonzero(~p.psu_ok)
    groups: dict[str, list[int]] = {}
    for j in bad.tolist():  # one finding per device type
        groups.setdefault(c.devices.type_ids[j], []).append(int(j))
    out = []
    for type_id, rows in groups.items():
        j = rows[0]
        params = {
            "type": named_id(c.inputs.catalog, type_id),  # in the sentence's language
            "type_id": type_id,
            "count": len(rows),
            "n": int(c.devices.psu_needed[j]),
            "capacity_w": float(p.psu_capacity_w[j]),
            "max_w": float(p.device_max_w[j]),
        }
        out.append(
            Finding("warning", "psu-redundancy-not-met", tuple(c.devices.ids[k] for k in rows), params)
        )
    return out


def _feeds(c: Compiled, p: PowerResult) -> list[Finding]:
    out = []
    feeds = int(load_assumptions("facility").number("feeds_per_rack"))
    for i in np.flatnonzero(~p.rack_feed_ok):
        surviving = max(int(c.racks.pdu_count[i]) // feeds, 1)
        params = {
            "rack": c.racks.names[i],
            "kw_max": _r(p.rack_kw_max[i]),
            "feed_kw": _r(p.rack_feed_kw[i]),
            "need_kw": _r(np.ceil(p.rack_kw_max[i] / surviving * 10) / 10),
        }
        out.append(Finding("error", "feed-redundancy-not-met", (c.racks.ids[i],), params))
    return out


def _site(t: ThermalResult, cost: CostResult | None, site: Site, catalog: Any = None) -> list[Finding]:
    params: dict[str, Any]
    out = []
    if not t.feed_ok:
        params = {
            "needed_kw": _r(t.feed_kw_needed),
            "facility_kw_max": _r(t.facility_kw_max),
            "headroom_pct": round(site.feed_headroom * 100),
            "available_kw": _r(t.utility_kw_available),
        }
        out.append(Finding("error", "facility-feed-exceeded", ("site",), params))
    if t.pue > site.target_pue + 1e-9 and (t.facility_kw > 0):
        params = {"pue": round(t.pue, 2), "target": round(site.target_pue, 2)}
        out.append(Finding("warning", "pue-above-target", ("site",), params))
    if cost is not None and cost.missing_prices:
        entries = catalog.entries if catalog is not None else {}
        parts = [named_with_id(entries[i], catalog) if i in entries else i for i in cost.missing_prices]
        # the names in the sentence's language with the ids a price list is keyed by
        params = {"count": len(cost.missing_prices), "parts": parts, "ids": list(cost.missing_prices)}
        out.append(Finding("info", "prices-missing", tuple(cost.missing_prices), params))
    return out


def facility_findings(
    compiled: Compiled,
    power: PowerResult,
    thermal: ThermalResult,
    cost: CostResult | None,
    site: Site,
) -> list[Finding]:
    """All power, cooling and cost findings, in rule order."""
    return [
        *_power_budget(compiled, power),
        *_u_budget(compiled, power),
        *_cooling(compiled, power, thermal),
        *_psu(compiled, power),
        *_feeds(compiled, power),
        *_site(thermal, cost, site, compiled.inputs.catalog),
    ]
