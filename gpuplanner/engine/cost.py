"""Cost stage: capex by category, opex per year, TCO, cost per GPU-hour, the network's share of the GPU
server cost, and the comparison with renting cloud GPUs.

Prices: a device's project override (``price_usd``) else its catalog price; a type without either is listed
in ``missing_prices`` and counts as 0 (never silently: the checks report it). Racks/PDUs/cooling without a
catalog price take the sourced fallbacks of ``catalogs/assumptions/cost.yaml`` and are listed in
``assumed_prices``. Cables and optics come from a bill of materials {catalog id: quantity in the price's unit
(each, or metres for per_m)} that the fabric analysis supplies.

    opex/year   = energy (thermal stage: site price × PUE) + maintenance % × equipment capex
                  + ceil(servers / nodes_per_staff) × staff cost + licences × GPUs
    TCO         = capex + tco_years × opex (undiscounted)
    $/GPU-hour  = TCO / (GPUs × 8,760 h × tco_years × expected utilisation)
    cloud/year  = cloud $/GPU-hour × GPUs × 8,760 h × expected utilisation
    break-even  = first month m with capex + m·opex/12 ≤ m·cloud/12 (None if not within tco_years)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.types import NicType, ServerType
from gpuplanner.core.units import HOURS_PER_YEAR, SECONDS_PER_HOUR
from gpuplanner.engine.compiled import KIND_CODES, Compiled
from gpuplanner.engine.power import Assumptions, PowerResult, load_assumptions
from gpuplanner.engine.thermal import ThermalResult
from gpuplanner.model.rows import ProjectInfo, Site

CAPEX_CATEGORIES = (
    "servers",
    "switches",
    "nics",
    "storage",
    "other_devices",
    "cables_optics",
    "cabling_labour",
    "racks_pdus",
    "cooling",
    "software",
)
OPEX_CATEGORIES = ("energy", "maintenance", "staff", "licences")


@dataclass(frozen=True)
class CostResult:
    capex_usd_by_category: dict[str, float]
    capex_usd: float
    opex_usd_per_year_by_category: dict[str, float]
    opex_usd_per_year: float
    tco_years: int
    tco_usd: float
    gpus: int
    servers: int
    staff: int
    usd_per_gpu_hour: float  # NaN when there are no GPUs or no utilisation
    network_usd: float  # switches + NICs (included in servers or not) + cables + optics
    network_share: float  # network_usd / servers capex; NaN without servers
    cloud_usd_per_year: float
    cloud_tco_usd: float
    break_even_month: int | None
    run_usd: float | None  # one training run on this cluster (time_to_train given)
    cloud_run_usd: float | None
    device_price_usd: np.ndarray  # per device, NaN = no price
    missing_prices: list[str]  # catalog ids with no price (counted as 0)
    assumed_prices: list[str]  # ids priced from cost.yaml fallbacks
    currency: str
    usd_exchange_rate: float  # units of `currency` per USD
    totals_local: dict[str, float] = field(default_factory=dict)  # capex, opex_per_year, tco, per_gpu_hour,
    # network, cloud_per_year, cloud_tco (+ run, cloud_run) in `currency`

    def local(self, usd: float) -> float:
        return usd * self.usd_exchange_rate


def _type_index(type_ids: list[str]) -> tuple[list[str], np.ndarray]:
    pos: dict[str, int] = {}
    inv = np.fromiter((pos.setdefault(t, len(pos)) for t in type_ids), dtype=np.int32, count=len(type_ids))
    return list(pos), inv


def _nic_usd(entry: object, catalog: Catalog, missing: set[str]) -> float:
    """Value of the NICs a server type names in its port groups (cards = ceil(ports / ports per card))."""
    if not isinstance(entry, ServerType):
        return 0.0
    total = 0.0
    for pg in entry.port_groups:
        nic = catalog.entries.get(pg.nic or "")
        if not isinstance(nic, NicType):
            continue
        price = catalog.price_usd(nic.id)
        if price is None:
            missing.add(nic.id)
            continue
        total += math.ceil(pg.count / max(nic.port_count, 1)) * price
    return total


def _device_capex(
    compiled: Compiled, catalog: Catalog, missing: set[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(device price with NaN where missing, per-kind sums, NIC value per device)."""
    d = compiled.devices
    types, inv = _type_index(d.type_ids)
    cat_price = np.array(
        [p if (p := catalog.price_usd(t)) is not None else np.nan for t in types], dtype=np.float64
    )
    nic_value = np.array(
        [_nic_usd(catalog.entries.get(t), catalog, missing) for t in types], dtype=np.float64
    )
    override = d.price_override_usd
    price = np.where(np.isnan(override), cat_price[inv], override)
    unpriced = np.isnan(price)
    if unpriced.any():
        missing.update(types[i] for i in np.unique(inv[unpriced]))
    by_kind = np.bincount(d.kind.astype(np.intp), weights=np.nan_to_num(price), minlength=len(KIND_CODES))
    return price, by_kind, nic_value[inv]


def _bom_usd(bom: Mapping[str, float], catalog: Catalog, missing: set[str]) -> float:
    total = 0.0
    for item, qty in bom.items():
        price = catalog.price_usd(item)
        if price is None:
            missing.add(item)
            continue
        total += float(qty) * price
    return total


def _racks_pdus_usd(compiled: Compiled, catalog: Catalog, c: Assumptions, assumed: set[str]) -> float:
    types, inv = _type_index(compiled.racks.type_ids)
    per_type = np.zeros(len(types))
    for i, t in enumerate(types):
        rack_price = catalog.price_usd(t)
        if rack_price is None:
            assumed.add(t)
            rack_price = c.number("rack_usd_fallback")
        entry = catalog.entries.get(t)
        pdu_id, pdu_count = getattr(entry, "pdu", None), int(getattr(entry, "pdu_count", 0) or 0)
        pdu_price = 0.0
        if pdu_id and pdu_count:
            p = catalog.price_usd(pdu_id)
            if p is None:
                assumed.add(pdu_id)
                p = c.number("pdu_usd_fallback")
            pdu_price = pdu_count * p
        per_type[i] = rack_price + pdu_price
    return float(per_type[inv].sum())


def _cooling_usd(power: PowerResult, thermal: ThermalResult, c: Assumptions, assumed: set[str]) -> float:
    t = thermal.table
    fallback = c.value("cooling_usd_per_kw_fallback")
    per_kw = t.usd_per_kw.copy()
    for j in np.flatnonzero(np.isnan(per_kw)):
        per_kw[j] = float(fallback.get(t.methods[j], max(fallback.values())))
        if np.any(thermal.rack_cooling == j):
            assumed.add(t.ids[j])
    plant = float(np.dot(power.rack_kw_max, per_kw[thermal.rack_cooling]))
    return plant + float(thermal.rack_loop_kw_max.sum()) * c.number("liquid_loop_usd_per_kw")


def compute_cost(
    compiled: Compiled,
    power: PowerResult,
    thermal: ThermalResult,
    site: Site,
    info: ProjectInfo,
    catalog: Catalog,
    bom: Mapping[str, float] | None = None,
    time_to_train_s: float | None = None,
    assumptions: Assumptions | None = None,
) -> CostResult:
    c = assumptions or load_assumptions("cost")
    missing: set[str] = set()
    assumed: set[str] = set()
    d = compiled.devices
    price, by_kind, nic_value = _device_capex(compiled, catalog, missing)
    server = d.kind == KIND_CODES["server"]
    gpus = int(d.gpu_count.sum())
    servers = int(server.sum())
    nic_usd = float(nic_value[server].sum())
    nics_in_servers = bool(c.value("server_price_includes_nics"))
    cables_optics = _bom_usd(bom or {}, catalog, missing)
    capex = {
        "servers": float(by_kind[KIND_CODES["server"]]),
        "switches": float(by_kind[KIND_CODES["switch"]]),
        "nics": 0.0 if nics_in_servers else nic_usd,
        "storage": float(by_kind[KIND_CODES["storage"]]),
        "other_devices": float(by_kind[KIND_CODES["other"]]),
        "cables_optics": cables_optics,
        "cabling_labour": float(compiled.links.multiplicity.sum()) * c.number("cabling_labour_usd_per_cable"),
        "racks_pdus": _racks_pdus_usd(compiled, catalog, c, assumed),
        "cooling": _cooling_usd(power, thermal, c, assumed),
        "software": gpus * c.number("software_capex_usd_per_gpu"),
    }
    capex_usd = sum(capex.values())
    staff = math.ceil(servers / site.nodes_per_staff) if servers and site.nodes_per_staff > 0 else 0
    opex = {
        "energy": thermal.energy_usd_per_year,
        "maintenance": site.maintenance_pct_per_year / 100.0 * (capex_usd - capex["cabling_labour"]),
        "staff": staff * site.staff_usd_per_year,
        "licences": gpus * site.software_usd_per_gpu_year,
    }
    opex_usd = sum(opex.values())
    years = int(site.tco_years)
    tco = capex_usd + years * opex_usd
    u = min(max(site.expected_utilization, 0.0), 1.0)
    busy_gpu_hours = gpus * HOURS_PER_YEAR * years * u
    per_gpu_hour = tco / busy_gpu_hours if busy_gpu_hours > 0 else float("nan")
    cloud_year = site.cloud_usd_per_gpu_hour * gpus * HOURS_PER_YEAR * u
    network = capex["switches"] + nic_usd + cables_optics
    run = cloud_run = None
    if time_to_train_s is not None:
        gpu_hours = gpus * time_to_train_s / SECONDS_PER_HOUR
        run = gpu_hours * per_gpu_hour if busy_gpu_hours > 0 else float("nan")
        cloud_run = gpu_hours * site.cloud_usd_per_gpu_hour
    totals = {
        "capex": capex_usd,
        "opex_per_year": opex_usd,
        "tco": tco,
        "per_gpu_hour": per_gpu_hour,
        "network": network,
        "cloud_per_year": cloud_year,
        "cloud_tco": cloud_year * years,
    }
    if run is not None:
        totals |= {"run": run, "cloud_run": cloud_run}
    rate = float(info.usd_exchange_rate)
    return CostResult(
        capex_usd_by_category=capex,
        capex_usd=capex_usd,
        opex_usd_per_year_by_category=opex,
        opex_usd_per_year=opex_usd,
        tco_years=years,
        tco_usd=tco,
        gpus=gpus,
        servers=servers,
        staff=staff,
        usd_per_gpu_hour=per_gpu_hour,
        network_usd=network,
        network_share=network / capex["servers"] if capex["servers"] > 0 else float("nan"),
        cloud_usd_per_year=cloud_year,
        cloud_tco_usd=cloud_year * years,
        break_even_month=break_even_month(capex_usd, opex_usd, cloud_year, years),
        run_usd=run,
        cloud_run_usd=cloud_run,
        device_price_usd=price,
        missing_prices=sorted(missing),
        assumed_prices=sorted(assumed),
        currency=info.currency,
        usd_exchange_rate=rate,
        totals_local={k: v * rate for k, v in totals.items()},
    )


def break_even_month(
    capex_usd: float, opex_usd_per_year: float, cloud_usd_per_year: float, years: int
) -> int | None:
    """First month m (1-based) where owning has cost no more than renting: capex + m·opex/12 ≤ m·cloud/12.
    None when renting costs nothing (no GPUs) or owning never catches up within ``years``."""
    if cloud_usd_per_year <= 0:
        return None
    months = np.arange(1, 12 * max(int(years), 0) + 1, dtype=np.float64)
    own = capex_usd + months * opex_usd_per_year / 12.0
    cloud = months * cloud_usd_per_year / 12.0
    hit = np.flatnonzero(own <= cloud + 1e-6)
    return int(months[hit[0]]) if hit.size else None
