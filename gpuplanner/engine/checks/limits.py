"""The site's limits and the budget against the plan, and export rules against the customer's region.

Limits (each: name, limit, plan, within): IT power with the stated design margin (site.feed_headroom,
shown), the utility feed, rack positions as floor slots with their cooling capability and kW, capex and TCO
against the budget. Export rules: a catalog entry's optional ``export_control`` mapping
{classification, restricted_regions, source, as_of} (a server inherits its GPU's); each part the plan uses
that is restricted in the project's region gets a finding naming the compliant alternatives of the catalog.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gpuplanner.catalog import Catalog, CatalogEntry
from gpuplanner.catalog.names import named
from gpuplanner.engine.arrays import FloatArray, IntArray
from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import Compiled
from gpuplanner.engine.facility.cost import CostResult
from gpuplanner.engine.facility.power import PowerResult
from gpuplanner.engine.facility.thermal import ThermalResult
from gpuplanner.model.site_limits import POSITION_COOLING, parse_positions


def _limit(name: str, limit: float, plan: float, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "limit": float(limit),
        "plan": float(plan),
        "within": bool(plan <= limit + 1e-9),
        **extra,
    }


def rack_needs(c: Compiled, power: PowerResult) -> tuple[IntArray, FloatArray]:
    """(capability rank needed, kW at maximum) per compiled rack. A position states the cooling it provides
    up to its kW, so an air-cooled server fits any position by its kW; a rack holding servers that reject
    part of their heat to liquid (catalog `liquid_share` > 0, e.g. GB200 NVL72) needs a liquid position."""
    n = len(c.racks.ids)
    need = np.zeros(n, dtype=np.int64)
    inside = c.devices.rack >= 0
    liquid = inside & (np.asarray(c.devices.liquid_share, dtype=np.float64) > 0)
    need[c.devices.rack[liquid]] = POSITION_COOLING.index("liquid")
    return need, np.asarray(power.rack_kw_max, dtype=np.float64)


def assign_positions(
    groups: list[dict[str, Any]], need: IntArray, kw: FloatArray
) -> tuple[npt.NDArray[np.int64], int]:
    """Racks into floor positions, as many as can be placed (a maximum bipartite matching: a rack fits a
    position of at least its cooling capability and kW), preferring the least capable positions that fit.
    Returns (racks placed per group, racks left without a position)."""
    from scipy.optimize import linear_sum_assignment

    if not len(kw):
        return np.zeros(len(groups), dtype=np.int64), 0
    rank = np.repeat([POSITION_COOLING.index(g["cooling"]) for g in groups], [g["count"] for g in groups])
    cap = np.repeat([g["kw"] for g in groups], [g["count"] for g in groups])
    slot_group = np.repeat(np.arange(len(groups)), [g["count"] for g in groups])
    if not len(cap):
        return np.zeros(len(groups), dtype=np.int64), len(kw)
    ok = (rank[None, :] >= need[:, None]) & (cap[None, :] >= kw[:, None] - 1e-9)
    # cost: a miss costs more than any preference; among fits, the least capable position is cheapest
    pref = (rank + cap / (cap.max() + 1.0)) / (len(POSITION_COOLING) + 1.0) / (len(kw) + 1.0)
    cost = np.where(ok, pref[None, :], 1.0)
    rows, cols = linear_sum_assignment(cost)
    hit = ok[rows, cols]
    used = np.bincount(slot_group[cols[hit]], minlength=len(groups)).astype(np.int64)
    return used, int(len(kw) - hit.sum())


def limits_and_findings(
    c: Compiled, power: PowerResult, thermal: ThermalResult, cost: CostResult
) -> tuple[list[dict[str, Any]], list[Finding]]:
    site = c.inputs.site
    limits: list[dict[str, Any]] = []
    out: list[Finding] = []
    margin = float(site.feed_headroom)
    if site.it_kw_available > 0:
        plan = power.it_kw_max * (1.0 + margin)
        limits.append(
            _limit("it_power_kw", site.it_kw_available, plan, it_kw_max=power.it_kw_max, margin=margin)
        )
        if not limits[-1]["within"]:
            params: dict[str, Any] = {
                "plan_kw": round(plan),
                "it_kw": round(power.it_kw_max),
                "margin_pct": round(margin * 100),
                "limit_kw": round(site.it_kw_available),
            }
            out.append(Finding("error", "it-power-exceeded", ("site",), params))
    if thermal.utility_kw_available > 0:
        limits.append(
            _limit("facility_power_kw", thermal.utility_kw_available, thermal.feed_kw_needed, margin=margin)
        )
    groups = parse_positions(getattr(site, "positions_json", "[]"))
    if groups:
        need, kw = rack_needs(c, power)
        used, unplaced = assign_positions(groups, need, kw)
        total = sum(g["count"] for g in groups)
        limits.append(_limit("rack_positions", total, len(c.racks.ids), unplaced=unplaced))
        limits[-1]["within"] = unplaced == 0
        for g, u in zip(groups, used, strict=True):
            limits.append(
                _limit(
                    f"positions_{g['cooling']}_{g['kw']:g}kw",
                    g["count"],
                    int(u),
                    cooling=g["cooling"],
                    kw=g["kw"],
                )
            )
        if unplaced:
            shown = ", ".join(f"{g['count']} × {g['kw']:g} kW {g['cooling']}" for g in groups)
            params = {"unplaced": int(unplaced), "racks": len(c.racks.ids), "positions": shown}
            out.append(Finding("error", "rack-positions-exceeded", ("site",), params))
    cur = cost.currency
    for name, budget, usd in (
        ("capex", site.budget_capex, cost.capex_usd),
        ("tco", site.budget_tco, cost.tco_usd),
    ):
        if budget > 0:
            plan = cost.local(usd)
            limits.append(_limit(f"budget_{name}", budget, plan, currency=cur))
            if not limits[-1]["within"]:
                params = {
                    "what": name,  # word.budget.*
                    "years": cost.tco_years,
                    "plan": round(plan),
                    "limit": round(budget),
                    "currency": cur,
                    "over_pct": round((plan / budget - 1) * 100, 1),
                }
                out.append(Finding("error", "budget-exceeded", ("site",), params))
    out += export_findings(c)
    return limits, out


def export_control_of(catalog: Catalog, entry: CatalogEntry) -> dict[str, Any] | None:
    """The entry's export control, or its GPU's for a server that states none."""
    ec = getattr(entry, "export_control", None)
    if ec:
        return dict(ec)
    gpu_id = getattr(entry, "gpu", None)
    if gpu_id and gpu_id in catalog.entries:
        ec = getattr(catalog.entries[gpu_id], "export_control", None)
        return dict(ec) if ec else None
    return None


def restricted_in(catalog: Catalog, entry: CatalogEntry, region: str) -> dict[str, Any] | None:
    ec = export_control_of(catalog, entry)
    if ec and region in [str(r).upper() for r in ec.get("restricted_regions") or ()]:
        return ec
    return None


def export_findings(c: Compiled) -> list[Finding]:
    region = (getattr(c.inputs.site, "region", "") or "").upper()
    if not region:
        return []
    catalog = c.inputs.catalog
    ids, counts = np.unique(np.array(c.devices.type_ids, dtype=object), return_counts=True)
    out = []
    for tid, n in zip(ids.tolist(), counts.tolist(), strict=True):
        entry = catalog.entries.get(str(tid))
        ec = restricted_in(catalog, entry, region) if entry is not None else None
        if entry is None or ec is None:
            continue
        same_kind = [
            e
            for e in catalog.entries.values()
            if e.kind == entry.kind
            and e.id != entry.id
            and restricted_in(catalog, e, region) is None
            and (e.kind != "server" or getattr(e, "gpu_count", 0) > 0)
        ]
        alts = [e.id for e in sorted(same_kind, key=lambda e: -_compute(catalog, e))][:6]
        devs = tuple(d for d, t in zip(c.devices.ids, c.devices.type_ids, strict=True) if t == tid)
        params = {
            "part": named(entry, catalog),  # the name in the sentence's language
            "part_id": entry.id,
            "classification": ec.get("classification", "export-controlled"),
            "region": region,
            "source": ec.get("source", ""),
            "as_of": str(ec.get("as_of", "")),
            "count": int(n),
            "alternatives": alts or ["—"],
        }
        out.append(Finding("error", "part-not-available-in-region", devs[:50], params))
    return out


def _compute(catalog: Catalog, e: CatalogEntry) -> float:
    """Dense BF16 TFLOP/s of a GPU or of a server's GPUs (to list the strongest alternatives first)."""
    gpu = catalog.entries.get(getattr(e, "gpu", "") or "") if e.kind == "server" else e
    per = getattr(gpu, "bf16_dense_tflops", 0.0) or 0.0
    return per * (getattr(e, "gpu_count", 1) or 1)
