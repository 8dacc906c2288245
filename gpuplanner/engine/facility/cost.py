"""Cost stage: capex by category, opex per year, TCO and NPV, cost per GPU-hour and per million tokens, the
network's share of the GPU server cost, and the comparison with renting cloud GPUs per GPU type.

Prices: a device's project override (``price_usd``) else its catalog price; a type without either is listed
in ``missing_prices`` and counts as 0 (never silently: the checks report it). Racks/PDUs/cooling without a
catalog price take the sourced fallbacks of ``catalogs/assumptions/cost.yaml`` and are listed in
``assumed_prices``. Cables and optics come from a bill of materials {catalog id: quantity in the price's unit
(each, or metres for per_m)} that the fabric analysis supplies.

Facility (site.facility_model): colocation = rent per kW-month of contracted IT power (IT kW at max);
build = capex per MW of critical IT, its O&M per year and its residual book value after the horizon; none =
the facility is not costed. Room cooling plant is part of the facility price then (no double count).
The yearly cash flows, TCO, NPV and cloud figures are computed by ``engine/facility/tco.py`` (formulas there):

    opex/year   = energy (thermal stage: site price × PUE) + facility + staff + licences + insurance
                  + maintenance % × equipment capex in the years after the support included in the price
    staff       = max(site.staff_min_fte, ceil(servers / nodes_per_staff))
    TCO         = capex + Σ opex − residual (undiscounted); NPV at site.discount_rate_pct beside it
    cloud       = per GPU type, the median list price for site.cloud_term (engine/facility/cloud.py), GPU-weighted
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.types import NicType, ServerType
from gpuplanner.core.units import SECONDS_PER_HOUR
from gpuplanner.engine.compiled import KIND_CODES, Compiled, DeviceArrays, RackArrays
from gpuplanner.engine.facility.cloud import CloudPrice, cloud_price
from gpuplanner.engine.facility.power import Assumptions, PowerResult, load_assumptions
from gpuplanner.engine.facility.tco import TcoFigures, TcoInputs, figures
from gpuplanner.engine.facility.thermal import ThermalResult
from gpuplanner.model.rows import ProjectInfo, Site

FACILITY_MODELS = ("colocation", "build", "none")


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
    inputs: TcoInputs | None = None  # what the money model was given (the sensitivity perturbs it)
    money: TcoFigures | None = None  # NPV, yearly flows, residual, depreciation, $/M tokens
    facility_model: str = "none"
    facility_kw_contracted: float = 0.0
    cloud_usd_per_gpu_hour: float = float("nan")  # the GPU-weighted price the plan is compared with
    cloud_by_gpu: list[dict[str, Any]] = field(
        default_factory=list
    )  # per GPU type: price, offers, break-even
    cloud_price_missing: list[str] = field(
        default_factory=list
    )  # GPU types with no list price (site price used)

    def local(self, usd: float) -> float:
        return usd * self.usd_exchange_rate


def _type_index(arrays: DeviceArrays | RackArrays) -> tuple[list[str], np.ndarray]:
    """The distinct type ids in order of first appearance and each row's index into them."""
    inv, names = arrays.type_codes
    return names, inv


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


def _type_price(t: str, catalog: Catalog, c: Assumptions | None, assumed: set[str]) -> float:
    """A catalog type's price; a GPU server without one is priced from its GPUs (GPU price × count × the
    sourced server/GPU multiple, listed in ``assumed_prices``); NaN when neither is known."""
    p = catalog.price_usd(t)
    if p is not None:
        return p
    entry = catalog.entries.get(t)
    if c is not None and isinstance(entry, ServerType) and entry.gpu and entry.gpu_count > 0:
        gpu_price = catalog.price_usd(entry.gpu)
        if gpu_price is not None:
            assumed.add(t)
            return gpu_price * entry.gpu_count * c.number("server_usd_per_gpu_usd_fallback")
    return np.nan


def unit_price_usd(catalog: Catalog, type_id: str) -> float | None:
    """The price the cost stage uses for one unit of a catalog type (None when it has none)."""
    p = _type_price(type_id, catalog, load_assumptions("cost"), set())
    return None if np.isnan(p) else float(p)


def _device_capex(
    compiled: Compiled,
    catalog: Catalog,
    missing: set[str],
    c: Assumptions | None = None,
    assumed: set[str] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(device price with NaN where missing, per-kind sums, NIC value per device)."""
    d = compiled.devices
    types, inv = _type_index(d)
    assumed = assumed if assumed is not None else set()
    cat_price = np.array([_type_price(t, catalog, c, assumed) for t in types], dtype=np.float64)
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
    types, inv = _type_index(compiled.racks)
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


def _cooling_usd(
    power: PowerResult, thermal: ThermalResult, c: Assumptions, assumed: set[str], facility_model: str
) -> float:
    """Cooling plant per kW of rack max (room methods are in the facility price unless facility is 'none')
    plus the liquid loop for device liquid beyond the method's own share."""
    t = thermal.table
    fallback = c.value("cooling_usd_per_kw_fallback")
    in_facility = set(c.value("room_cooling_in_facility")) if facility_model != "none" else set()
    per_kw = t.usd_per_kw.copy()
    for j in np.flatnonzero(np.isnan(per_kw)):
        per_kw[j] = float(fallback.get(t.methods[j], max(fallback.values())))
        if np.any(thermal.rack_cooling == j) and t.methods[j] not in in_facility:
            assumed.add(t.ids[j])
    per_kw = np.where([m in in_facility for m in t.methods], 0.0, per_kw) if len(per_kw) else per_kw
    plant = (
        float(np.dot(power.rack_kw_max, per_kw[thermal.rack_cooling])) if len(thermal.rack_cooling) else 0.0
    )
    return plant + float(thermal.rack_loop_kw_max.sum()) * c.number("liquid_loop_usd_per_kw")


def _gpus_by_type(
    compiled: Compiled, catalog: Catalog, server_usd: np.ndarray
) -> dict[str, tuple[int, float]]:
    """Catalog GPU id → (GPUs, GPU server capex), summed with np.bincount over device types (no device loop)."""
    types, inv = _type_index(compiled.devices)
    n = np.bincount(inv, weights=compiled.devices.gpu_count, minlength=len(types))
    usd = np.bincount(inv, weights=server_usd, minlength=len(types))
    per: dict[str, tuple[int, float]] = {}
    for t, k, v in zip(types, n.tolist(), usd.tolist(), strict=True):
        g = getattr(catalog.entries.get(t), "gpu", None) or ""
        if g and k:
            k0, v0 = per.get(g, (0, 0.0))
            per[g] = (k0 + int(round(k)), v0 + float(v))
    return per


def _facility(site: Site, it_kw: float, c: Assumptions) -> tuple[str, float, float, float]:
    """(model, build capex, facility cost per year, build depreciation years)."""
    model = site.facility_model if site.facility_model in FACILITY_MODELS else "none"
    life = c.number("facility_depreciation_years")
    if model == "colocation":
        rate = site.colo_usd_per_kw_month or c.number("colocation_usd_per_kw_month")
        return model, 0.0, rate * 12.0 * it_kw, life
    if model == "build":
        per_mw = site.build_usd_per_mw or c.number("build_usd_per_mw_it")
        build = per_mw * it_kw / 1000.0
        return model, build, build * c.number("build_om_pct_per_year") / 100.0, life
    return model, 0.0, 0.0, life


def _cloud_prices(
    per: dict[str, tuple[int, float]], site: Site, info: ProjectInfo
) -> tuple[dict[str, CloudPrice], list[str]]:
    """Per GPU type its list price for the site's term; and the types without one."""
    prices = {
        g: cloud_price(g, site.cloud_term, info.currency, float(info.usd_exchange_rate)) for g in sorted(per)
    }
    missing = [g for g, p in prices.items() if not np.isfinite(p.usd_per_gpu_hour)]
    return prices, missing


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
    tokens_per_s: float | None = None,
) -> CostResult:
    c = assumptions or load_assumptions("cost")
    missing: set[str] = set()
    assumed: set[str] = set()
    d = compiled.devices
    price, by_kind, nic_value = _device_capex(compiled, catalog, missing, c, assumed)
    server = d.kind == KIND_CODES["server"]
    gpus = int(d.gpu_count.sum())
    servers = int(server.sum())
    nic_usd = float(nic_value[server].sum())
    nics_in_servers = bool(c.value("server_price_includes_nics"))
    cables_optics = _bom_usd(bom or {}, catalog, missing)
    model, build_usd, facility_year, facility_life = _facility(site, power.it_kw_max, c)
    capex = {
        "servers": float(by_kind[KIND_CODES["server"]]),
        "switches": float(by_kind[KIND_CODES["switch"]]),
        "nics": 0.0 if nics_in_servers else nic_usd,
        "storage": float(by_kind[KIND_CODES["storage"]]),
        "other_devices": float(by_kind[KIND_CODES["other"]]),
        "cables_optics": cables_optics,
        "cabling_labour": float(compiled.links.multiplicity.sum()) * c.number("cabling_labour_usd_per_cable"),
        "racks_pdus": _racks_pdus_usd(compiled, catalog, c, assumed),
        "cooling": _cooling_usd(power, thermal, c, assumed, model),
        "software": gpus * c.number("software_capex_usd_per_gpu"),
        "facility_build": build_usd,
    }
    capex_usd = sum(capex.values())
    staff = math.ceil(
        max(site.staff_min_fte, servers / site.nodes_per_staff if site.nodes_per_staff > 0 else 0)
    )
    staff = staff if servers else 0

    server_usd = np.where(server, np.nan_to_num(price), 0.0)
    per_gpu = _gpus_by_type(compiled, catalog, server_usd)
    prices, cloud_missing = _cloud_prices(per_gpu, site, info)
    if site.cloud_price_source == "list" and per_gpu:
        listed = {g: p.usd_per_gpu_hour for g, p in prices.items() if np.isfinite(p.usd_per_gpu_hour)}
        weighted = sum(n * listed.get(g, site.cloud_usd_per_gpu_hour) for g, (n, _) in per_gpu.items())
        cloud_rate = weighted / max(sum(n for n, _ in per_gpu.values()), 1)
    else:
        cloud_rate = site.cloud_usd_per_gpu_hour
        cloud_missing = []

    inputs = TcoInputs(
        years=int(site.tco_years),
        gpus=gpus,
        utilization=min(max(site.expected_utilization, 0.0), 1.0),
        capex_equipment_usd=capex_usd - capex["cabling_labour"] - build_usd,
        capex_labour_usd=capex["cabling_labour"],
        gpu_server_usd=capex["servers"],
        facility_build_usd=build_usd,
        facility_depreciation_years=facility_life,
        depreciation_years=float(site.depreciation_years),
        energy_usd_per_year=thermal.energy_usd_per_year,
        pue=thermal.pue,
        facility_usd_per_year=facility_year,
        staff_usd_per_year=staff * site.staff_usd_per_year,
        licences_usd_per_year=gpus * site.software_usd_per_gpu_year,
        insurance_pct_per_year=site.insurance_pct_per_year,
        maintenance_pct_per_year=site.maintenance_pct_per_year,
        support_years_in_price=int(site.support_years_in_price),
        discount_rate_pct=site.discount_rate_pct,
        cloud_usd_per_gpu_hour=cloud_rate,
        tokens_per_s=tokens_per_s,
    )
    money = figures(inputs)
    opex = money.opex_usd_per_year_mean
    opex_usd = sum(opex.values())
    years = inputs.years
    tco = money.tco_usd
    per_gpu_hour = money.usd_per_gpu_hour
    cloud_year = money.cloud_usd_per_year
    network = capex["switches"] + nic_usd + cables_optics
    totals: dict[str, float] = {
        "capex": capex_usd,
        "opex_per_year": opex_usd,
        "tco": tco,
        "npv": money.npv_usd,
        "per_gpu_hour": per_gpu_hour,
        "network": network,
        "cloud_per_year": cloud_year,
        "cloud_tco": cloud_year * years,
    }
    run: float | None = None
    cloud_run: float | None = None
    if time_to_train_s is not None:
        gpu_hours = gpus * time_to_train_s / SECONDS_PER_HOUR
        run_usd = gpu_hours * per_gpu_hour if np.isfinite(per_gpu_hour) else float("nan")
        cloud_run_usd = gpu_hours * cloud_rate
        totals |= {"run": run_usd, "cloud_run": cloud_run_usd}
        run, cloud_run = run_usd, cloud_run_usd
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
        break_even_month=money.break_even_month,
        run_usd=run,
        cloud_run_usd=cloud_run,
        device_price_usd=price,
        missing_prices=sorted(missing),
        assumed_prices=sorted(assumed),
        currency=info.currency,
        usd_exchange_rate=rate,
        totals_local={k: v * rate for k, v in totals.items()},
        inputs=inputs,
        money=money,
        facility_model=model,
        facility_kw_contracted=power.it_kw_max if model != "none" else 0.0,
        cloud_usd_per_gpu_hour=cloud_rate,
        cloud_by_gpu=_per_gpu_break_even(inputs, prices, per_gpu, site),
        cloud_price_missing=cloud_missing,
    )


def _per_gpu_break_even(
    inputs: TcoInputs, prices: dict[str, CloudPrice], per_gpu: dict[str, tuple[int, float]], site: Site
) -> list[dict[str, Any]]:
    """Per GPU type: its share of the plan (by GPU server capex, else by GPU count) against its own cloud
    price. For a plan with one GPU type this is the whole plan."""
    total_usd = sum(v for _, v in per_gpu.values())
    total_n = sum(n for n, _ in per_gpu.values())
    out = []
    for g, (n, usd) in per_gpu.items():
        share = usd / total_usd if total_usd > 0 else n / max(total_n, 1)
        p = prices[g]
        listed = site.cloud_price_source == "list" and np.isfinite(p.usd_per_gpu_hour)
        rate = p.usd_per_gpu_hour if listed else site.cloud_usd_per_gpu_hour
        part = inputs.scaled(
            gpus=n,
            capex_equipment_usd=inputs.capex_equipment_usd * share,
            capex_labour_usd=inputs.capex_labour_usd * share,
            gpu_server_usd=usd,
            facility_build_usd=inputs.facility_build_usd * share,
            energy_usd_per_year=inputs.energy_usd_per_year * share,
            facility_usd_per_year=inputs.facility_usd_per_year * share,
            staff_usd_per_year=inputs.staff_usd_per_year * share,
            licences_usd_per_year=inputs.licences_usd_per_year * n / max(total_n, 1),
            cloud_usd_per_gpu_hour=rate,
            tokens_per_s=None,
        )
        f = figures(part)
        out.append(
            {
                "gpu": g,
                "gpus": n,
                "share_of_plan": share,
                "term": p.term,
                "price_source": "list" if listed else "site",
                "cloud_usd_per_gpu_hour": rate,
                "cloud_usd_per_gpu_hour_min": p.min_usd if listed else rate,
                "cloud_usd_per_gpu_hour_max": p.max_usd if listed else rate,
                "offers": p.offers if listed else 0,
                "derived_from_on_demand": p.derived if listed else False,
                "providers": p.providers if listed else [],
                "sources": p.sources if listed else [],
                "own_usd_per_gpu_hour": f.usd_per_gpu_hour,
                "break_even_month": f.break_even_month,
            }
        )
    return out


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
