"""Thermal stage: the cooling of each rack, its liquid/air heat split, airflow and coolant flow, the site PUE
from the cooling mix, facility kW, annual energy and its cost, and the utility feed needed.

Cooling per rack: the rack's ``cooling_id`` if set (checked against the catalog), else the first catalog
cooling, in the order air < air-contained < rear-door < cold-plate < immersion (cheapest per kW first within
a method), whose ``max_kw_per_rack`` is at least the rack's maximum kW.

Heat split: a device's heat goes to liquid in the share max(device liquid_share, cooling liquid_share); a
cold-plate server puts its share into liquid whatever the room does.

Flows (design point = rack kW at max; constants in ``catalogs/assumptions/facility.yaml``)::

    airflow  Q = P_air_through_servers / (ρ_air · cp_air · ΔT_air)      (10 kW, ΔT 20 °F → ≈ 1,580 CFM)
    coolant  V = P_liquid / (ρ_water · cp_water · ΔT_coolant)           (100 kW, ΔT 10 K → ≈ 143 L/min)

PUE: a method's catalog ``pue_typical`` (temperate climate) has its overhead scaled by the site's climate:
PUE_m = 1 + (pue_typical − 1) × f(climate) (engine/facility/climate.py: the label's factor, or with climate 'auto'
the free-cooling hours of the site's ambient temperature). A rack's overhead is (kW − device-liquid kW) × (PUE_m − 1) +
device-liquid kW × (min(PUE_loop, PUE_m) − 1); the site PUE is 1 + Σ overhead / IT kW (IT-load weighted).
Unracked devices count as cooled by the simplest method.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.types import CoolingType
from gpuplanner.core.units import CFM_PER_M3_PER_H, HOURS_PER_YEAR
from gpuplanner.engine.compiled import Compiled
from gpuplanner.engine.facility.climate import climate_factor
from gpuplanner.engine.facility.power import Assumptions, PowerResult, load_assumptions
from gpuplanner.model.rows import Site

AIR_METHODS = ("air", "air-contained")


@dataclass(frozen=True)
class CoolingTable:
    """The candidate coolings in choice order (method, then price per kW, then capacity)."""

    ids: list[str]
    methods: list[str]
    rank: np.ndarray  # position of the method in the preference order
    max_kw_per_rack: np.ndarray
    liquid_share: np.ndarray
    pue_typical: np.ndarray
    pue: np.ndarray  # adjusted for the site's climate
    air_delta_t_k: np.ndarray  # air temperature rise used for the airflow
    coolant_delta_t_k: np.ndarray
    chip_level: np.ndarray  # bool: the method cools the chips (lowers server airflow)
    usd_per_kw: np.ndarray  # catalog price per kW, NaN = none
    ashrae_class: list[str]

    def index(self) -> dict[str, int]:
        return {cid: i for i, cid in enumerate(self.ids)}


def cooling_table(
    catalog: Catalog | None, site: Site, assumptions: Assumptions | None = None
) -> CoolingTable:
    a = assumptions or load_assumptions("facility")
    order = list(a.value("cooling_order"))
    rows: list[tuple] = []
    entries = [
        e for e in (catalog.of_kind("cooling") if catalog is not None else []) if isinstance(e, CoolingType)
    ]
    for e in entries:
        p = catalog.prices.get(e.id) if catalog is not None else None
        per_kw = p.price_usd if p is not None and p.unit == "per_kw" else np.nan
        rows.append(
            (
                e.id,
                e.method,
                e.max_kw_per_rack,
                e.liquid_share,
                e.pue_typical,
                e.delta_t_k,
                per_kw,
                e.ashrae_class or "",
            )
        )
    if not rows:  # a catalog without cooling entries: the assumed generic methods
        for m, v in a.value("fallback_methods").items():
            rows.append(
                (
                    f"assumed-{m}",
                    m,
                    v["max_kw_per_rack"],
                    v["liquid_share"],
                    v["pue_typical"],
                    v["delta_t_k"],
                    np.nan,
                    "",
                )
            )

    def key(r: tuple) -> tuple:
        rank = order.index(r[1]) if r[1] in order else len(order)
        return (rank, r[6] if r[6] == r[6] else np.inf, r[2], r[0])

    rows.sort(key=key)
    col = list(zip(*rows, strict=True))
    methods = list(col[1])
    liquid = np.array(col[3], dtype=np.float64)
    delta = np.array(col[5], dtype=np.float64)
    pue_typ = np.array(col[4], dtype=np.float64)
    climate = climate_factor(site, a)
    chip = set(a.value("chip_level_methods"))
    is_air = np.array([m in AIR_METHODS for m in methods])
    return CoolingTable(
        ids=list(col[0]),
        methods=methods,
        rank=np.array([order.index(m) if m in order else len(order) for m in methods], dtype=np.int16),
        max_kw_per_rack=np.array(col[2], dtype=np.float64),
        liquid_share=liquid,
        pue_typical=pue_typ,
        pue=1.0 + (pue_typ - 1.0) * climate,
        air_delta_t_k=np.where(is_air, delta, a.number("server_air_delta_t_k")),
        coolant_delta_t_k=np.where(liquid > 0, delta, a.number("liquid_loop_delta_t_k")),
        chip_level=np.array([m in chip for m in methods]),
        usd_per_kw=np.array(col[6], dtype=np.float64),
        ashrae_class=list(col[7]),
    )


@dataclass(frozen=True)
class ThermalResult:
    """Per-rack arrays in compiled rack order; ``rack_cooling`` indexes ``table``."""

    table: CoolingTable
    rack_cooling: np.ndarray  # int32 index into table
    rack_cooling_auto: np.ndarray  # int32: what the automatic choice would be (the fix for a pinned misfit)
    rack_cooling_pinned: np.ndarray  # bool: set by the user
    rack_cooling_unknown: np.ndarray  # bool: the user's cooling_id is not a catalog cooling (auto used)
    rack_cooling_max_kw: np.ndarray
    rack_cooling_ok: np.ndarray  # bool: the cooling's max_kw_per_rack ≥ rack kW max
    rack_liquid_kw: np.ndarray  # at load
    rack_air_kw: np.ndarray
    rack_liquid_kw_max: np.ndarray
    rack_air_kw_max: np.ndarray
    rack_loop_kw_max: np.ndarray  # device liquid beyond the cooling's own share (needs its own CDU/loop)
    rack_airflow_m3_per_h: np.ndarray  # through the IT equipment, at max
    rack_airflow_cfm: np.ndarray
    rack_coolant_l_per_min: np.ndarray  # at max
    rack_pue: np.ndarray  # effective PUE of the rack's heat (1 + overhead / kW; NaN for an empty rack)
    liquid_kw: float
    air_kw: float
    airflow_m3_per_h: float
    airflow_cfm: float
    coolant_l_per_min: float
    pue: float
    facility_kw: float  # at load
    facility_kw_max: float
    facility_kw_idle: float
    annual_mwh: float
    energy_usd_per_year: float
    feed_kw_needed: float  # facility kW at max × (1 + headroom)
    utility_kw_available: float  # 0 = not stated
    method_it_kw: dict[str, float] = field(default_factory=dict)  # IT kW at load per cooling method

    @property
    def feed_ok(self) -> bool:
        return self.utility_kw_available <= 0 or self.feed_kw_needed <= self.utility_kw_available + 1e-9

    @property
    def rack_cooling_ids(self) -> list[str]:
        ids = self.table.ids
        return [ids[i] for i in self.rack_cooling]

    @property
    def rack_ashrae_class(self) -> list[str]:
        cls = self.table.ashrae_class
        return [cls[i] for i in self.rack_cooling]


def choose_cooling(table: CoolingTable, rack_kw_max: np.ndarray) -> np.ndarray:
    """Index of the first cooling in choice order whose max_kw_per_rack ≥ each rack's kW (the largest when
    none is large enough)."""
    prefix = np.maximum.accumulate(table.max_kw_per_rack)
    idx = np.searchsorted(prefix, rack_kw_max - 1e-9, side="left")
    biggest = int(np.argmax(table.max_kw_per_rack))
    return np.where(idx < len(table.ids), idx, biggest).astype(np.int32)


def compute_thermal(
    compiled: Compiled,
    power: PowerResult,
    site: Site,
    catalog: Catalog | None = None,
    assumptions: Assumptions | None = None,
    table: CoolingTable | None = None,
) -> ThermalResult:
    a = assumptions or load_assumptions("facility")
    t = table or cooling_table(catalog, site, a)
    nr = len(compiled.racks.ids)
    auto = choose_cooling(t, power.rack_kw_max)
    choice, pinned, unknown = auto.copy(), np.zeros(nr, dtype=bool), np.zeros(nr, dtype=bool)
    cids = compiled.racks.cooling_ids
    if any(cids):  # only racks the user pinned need a look-up
        pos = t.index()
        for i, cid in enumerate(cids):
            if cid:
                j = pos.get(cid)
                if j is None:
                    unknown[i] = True
                else:
                    choice[i], pinned[i] = j, True
    # Per device: its rack's bucket (unracked → bucket nr, cooled by the simplest method, t row 0).
    bucket = np.where(power.device_rack >= 0, power.device_rack, nr)
    ext = np.append(choice, 0)
    dev_cool = ext[bucket]
    dev_ls = compiled.devices.liquid_share
    ls_eff = np.maximum(dev_ls, t.liquid_share[dev_cool])
    ls_air = np.where(t.chip_level[dev_cool], ls_eff, dev_ls)
    load_w, max_w = power.device_load_w, power.device_max_w

    def per_rack(weights: np.ndarray) -> np.ndarray:
        return np.bincount(bucket, weights=weights, minlength=nr + 1) / 1000.0

    liquid = per_rack(load_w * ls_eff)
    liquid_max = per_rack(max_w * ls_eff)
    own_liquid = per_rack(load_w * dev_ls)
    loop_max = per_rack(max_w * np.maximum(dev_ls - t.liquid_share[dev_cool], 0.0))
    server_air_max = per_rack(max_w * (1.0 - ls_air))
    kw = np.append(power.rack_kw_load, power.unracked_kw_load)
    kw_max = np.append(power.rack_kw_max, power.unracked_kw_max)
    rho_cp_air = a.number("air_density_kg_per_m3") * a.number("air_cp_j_per_kg_k")
    rho_cp_water = a.number("water_density_kg_per_m3") * a.number("water_cp_j_per_kg_k")
    airflow_m3_per_h = server_air_max[:nr] * 1000.0 / (rho_cp_air * t.air_delta_t_k[choice]) * 3600.0
    coolant_l_per_min = liquid_max[:nr] * 1000.0 / (rho_cp_water * t.coolant_delta_t_k[choice]) * 60000.0
    pue_m = t.pue[ext]
    pue_loop = 1.0 + (a.number("liquid_loop_pue") - 1.0) * climate_factor(site, a)
    overhead = (kw - own_liquid) * (pue_m - 1.0) + own_liquid * (np.minimum(pue_loop, pue_m) - 1.0)
    it_kw = float(kw.sum())
    pue = 1.0 + float(overhead.sum()) / it_kw if it_kw > 0 else float(t.pue[0])
    rack_pue = np.divide(overhead[:nr], kw[:nr], out=np.full(nr, np.nan), where=kw[:nr] > 0) + 1.0
    u = min(max(site.expected_utilization, 0.0), 1.0)
    annual_mwh = HOURS_PER_YEAR * pue * (u * power.it_kw_load + (1.0 - u) * power.it_kw_idle) / 1000.0
    facility_kw_max = power.it_kw_max * pue
    method_kw = np.bincount(t.rank[ext], weights=kw, minlength=int(t.rank.max()) + 1)
    by_method: dict[str, float] = {}
    for j, m in enumerate(t.methods):
        by_method.setdefault(m, float(method_kw[t.rank[j]]))
    cap = t.max_kw_per_rack[choice]
    return ThermalResult(
        table=t,
        rack_cooling=choice,
        rack_cooling_auto=auto,
        rack_cooling_pinned=pinned,
        rack_cooling_unknown=unknown,
        rack_cooling_max_kw=cap,
        rack_cooling_ok=~(power.rack_kw_max > cap + 1e-9),
        rack_liquid_kw=liquid[:nr],
        rack_air_kw=kw[:nr] - liquid[:nr],
        rack_liquid_kw_max=liquid_max[:nr],
        rack_air_kw_max=kw_max[:nr] - liquid_max[:nr],
        rack_loop_kw_max=loop_max[:nr],
        rack_airflow_m3_per_h=airflow_m3_per_h,
        rack_airflow_cfm=airflow_m3_per_h * CFM_PER_M3_PER_H,
        rack_coolant_l_per_min=coolant_l_per_min,
        rack_pue=rack_pue,
        liquid_kw=float(liquid.sum()),
        air_kw=it_kw - float(liquid.sum()),
        airflow_m3_per_h=float(airflow_m3_per_h.sum()),
        airflow_cfm=float(airflow_m3_per_h.sum() * CFM_PER_M3_PER_H),
        coolant_l_per_min=float(coolant_l_per_min.sum()),
        pue=pue,
        facility_kw=power.it_kw_load * pue,
        facility_kw_max=facility_kw_max,
        facility_kw_idle=power.it_kw_idle * pue,
        annual_mwh=annual_mwh,
        energy_usd_per_year=annual_mwh * 1000.0 * site.electricity_usd_per_kwh,
        feed_kw_needed=facility_kw_max * (1.0 + site.feed_headroom),
        utility_kw_available=float(site.utility_kw_available),
        method_it_kw=by_method,
    )


def airflow_m3_per_h(power_w: float, delta_t_k: float, assumptions: Assumptions | None = None) -> float:
    """Air volume flow that carries ``power_w`` away at a temperature rise of ``delta_t_k``."""
    a = assumptions or load_assumptions("facility")
    return power_w / (a.number("air_density_kg_per_m3") * a.number("air_cp_j_per_kg_k") * delta_t_k) * 3600.0


def coolant_l_per_min(power_w: float, delta_t_k: float, assumptions: Assumptions | None = None) -> float:
    """Water flow that carries ``power_w`` away at a temperature rise of ``delta_t_k``."""
    a = assumptions or load_assumptions("facility")
    return (
        power_w
        / (a.number("water_density_kg_per_m3") * a.number("water_cp_j_per_kg_k") * delta_t_k)
        * 60000.0
    )
