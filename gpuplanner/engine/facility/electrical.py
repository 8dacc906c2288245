"""Electrical chain: rack feeds → row busways and breakers → UPS → transformers and generators → utility, plus
the CDUs of the liquid loads, per rack, per row and per hall. Constants and their sources:
``catalogs/assumptions/electrical.yaml``; redundancy (N, N+1, 2N) and UPS runtime are site settings.

    current I           = P / (√3 × V × PF)                       three-phase, V line to line
    breaker / busway    = smallest standard rating ≥ I / 0.8       (NEC 210.20(A): continuous load ≤ 80 %)
    A/B feeds           each side carries the whole load when the other is lost (2N distribution)
    UPS                 kVA = IT kW max / PF; modules n = ceil(kVA / module); N: n, N+1: n + 1, 2N: 2n
    battery             kWh = IT kW max × runtime / 60 / UPS efficiency
    transformer, gen    kVA = IT kW max / PF_IT + mechanical kW max / PF_mech; same redundancy rule
    losses              UPS: IT kW × (1/η_UPS − 1); transformer: load kW × (1/η_T − 1)
    PUE (electrical)    = thermal PUE − typical electrical share of the catalog PUE + designed losses / IT kW
    CDUs per row        = ceil(liquid kW max / CDU kW) + spare (N+1)

Rows come from the power stage (rack row labels); the hall is all racks together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuplanner.engine.arrays import FloatArray, IntArray, Num
from gpuplanner.engine.facility.power import Assumptions, PowerResult, load_assumptions
from gpuplanner.engine.facility.thermal import ThermalResult
from gpuplanner.model.rows import Site

REDUNDANCY = ("N", "N+1", "2N")
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class ElectricalResult:
    redundancy: str
    voltage_v: float
    rack_side_current_a: np.ndarray  # per rack: current one side (A or B) carries at kW max
    rack_circuits_per_side: np.ndarray  # int: feeds of ≤ rack_feed_max_a needed per side
    rack_breaker_a: np.ndarray  # per circuit
    rows: list[dict[str, Any]] = field(default_factory=list)
    ups: dict[str, Any] = field(default_factory=dict)
    transformer: dict[str, Any] = field(default_factory=dict)
    generator: dict[str, Any] = field(default_factory=dict)
    utility: dict[str, Any] = field(default_factory=dict)
    cdus: dict[str, Any] = field(default_factory=dict)
    losses_kw: float = 0.0  # UPS + transformer at the predicted load
    pue: float = float("nan")  # thermal PUE with the designed electrical losses in place of the typical share

    def to_json(self) -> dict[str, Any]:
        return {
            "redundancy": self.redundancy,
            "voltage_v": self.voltage_v,
            "ups": self.ups,
            "transformer": self.transformer,
            "generator": self.generator,
            "utility": self.utility,
            "losses_kw": self.losses_kw,
            "pue_with_electrical_losses": self.pue,
            "racks_needing_several_circuits": int((self.rack_circuits_per_side > 1).sum()),
        }


def current_a(kw: Num, voltage_v: float, pf: float) -> FloatArray:
    return np.asarray(kw, dtype=np.float64) * 1000.0 / (SQRT3 * voltage_v * pf)


def standard_rating(required: Num, ratings: list[float]) -> tuple[FloatArray, IntArray]:
    """(rating, count): the smallest standard rating ≥ required, or the largest one in parallel as often as
    needed. ``required`` already includes the continuous-load derating."""
    r = np.asarray(sorted(ratings), dtype=np.float64)
    req = np.atleast_1d(np.asarray(required, dtype=np.float64))
    count = np.maximum(np.ceil(req / r[-1]), 1.0)
    per = req / count
    idx = np.minimum(np.searchsorted(r, per - 1e-9), len(r) - 1)
    return r[idx], count.astype(np.int64)


def units(load: float, unit: float, redundancy: str) -> tuple[int, int]:
    """(needed n, installed under the redundancy) for a load served by equal units."""
    n = math.ceil(load / unit - 1e-9) if load > 0 else 0
    if n == 0:
        return 0, 0
    return n, {"N": n, "N+1": n + 1, "2N": 2 * n}.get(redundancy, 2 * n)


def _rows(
    power: PowerResult, thermal: ThermalResult, a: Assumptions, v: float, pf: float, k: float
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    nrows = len(power.row_labels)
    rr = power.rack_row.astype(np.intp)
    racks = np.bincount(rr, minlength=nrows) if len(rr) else np.zeros(nrows, dtype=np.int64)
    liquid = np.bincount(rr, weights=thermal.rack_liquid_kw_max + thermal.rack_loop_kw_max, minlength=nrows)
    side_a = current_a(power.row_kw_max, v, pf)
    busway: FloatArray | list[float] = []
    per_side: IntArray | list[int] = []
    if nrows:
        busway, per_side = standard_rating(side_a / k, a.value("busway_ratings_a"))
    cdu_kw = a.number("cdu_capacity_kw")
    spare = int(a.number("cdu_redundancy_extra"))
    cdus = np.where(liquid > 1e-9, np.ceil(liquid / cdu_kw - 1e-9) + spare, 0).astype(np.int64)
    load_pct = np.divide(100.0 * liquid, (cdus - spare) * cdu_kw, out=np.zeros(nrows), where=cdus > spare)
    # plain Python numbers, one conversion per column (not per cell)
    columns = zip(
        power.row_labels,
        racks.tolist(),
        np.asarray(power.row_kw_max, dtype=np.float64).tolist(),
        np.asarray(power.row_kw_load, dtype=np.float64).tolist(),
        liquid.tolist(),
        np.asarray(side_a, dtype=np.float64).tolist(),
        np.asarray(busway, dtype=np.float64).tolist(),
        np.asarray(per_side, dtype=np.int64).tolist(),
        cdus.tolist(),
        load_pct.tolist(),
        strict=True,
    )
    keys = (
        "row",
        "racks",
        "kw_max",
        "kw_load",
        "liquid_kw_max",
        "side_current_a",
        "busway_a",
        "busways_per_side",
        "cdus",
        "cdu_load_pct",
    )
    rows = [dict(zip(keys, values, strict=True)) for values in columns]
    total_liquid = float(liquid.sum())
    summary = {
        "cdu_capacity_kw": cdu_kw,
        "spare_per_row": spare,
        "count": int(cdus.sum()),
        "liquid_kw_max": total_liquid,
        "installed_kw": float(cdus.sum() * cdu_kw),
    }
    return rows, summary


def compute_electrical(
    power: PowerResult, thermal: ThermalResult, site: Site, assumptions: Assumptions | None = None
) -> ElectricalResult:
    a = assumptions or load_assumptions("electrical")
    red = site.redundancy if site.redundancy in REDUNDANCY else "2N"
    v, pf, k = a.number("lv_voltage_ll_v"), a.number("it_power_factor"), a.number("continuous_load_factor")
    breakers = a.value("breaker_ratings_a")
    feed_max = a.number("rack_feed_max_a")

    side = current_a(power.rack_kw_max, v, pf)
    circuits = np.maximum(np.ceil(side / k / feed_max - 1e-9), 1).astype(np.int64)
    rack_breaker, _ = standard_rating(side / circuits / k, breakers) if len(side) else (np.zeros(0), None)
    rows, cdus = _rows(power, thermal, a, v, pf, k)

    it_max, it_load = power.it_kw_max, power.it_kw_load
    eta_ups, eta_t = a.number("ups_efficiency"), a.number("transformer_efficiency")
    share = a.number("catalog_pue_electrical_share")
    ups_kva = it_max / pf
    module = a.number("ups_module_kva")
    n_ups, inst_ups = units(ups_kva, module, red)
    runtime = float(site.ups_runtime_min)
    ups = {
        "load_kw": it_max,
        "load_kva": ups_kva,
        "module_kva": module,
        "modules_needed": n_ups,
        "modules_installed": inst_ups,
        "installed_kva": inst_ups * module,
        "load_pct_of_installed": 100.0 * ups_kva / (inst_ups * module) if inst_ups else 0.0,
        "runtime_min": runtime,
        "battery_kwh": it_max * runtime / 60.0 / eta_ups,
        "efficiency": eta_ups,
        "loss_kw_at_load": it_load * (1.0 / eta_ups - 1.0),
    }
    mech_max = max(thermal.facility_kw_max - it_max * (1.0 + share), 0.0)
    mech_load = max(thermal.facility_kw - it_load * (1.0 + share), 0.0)
    ups_loss_max = it_max * (1.0 / eta_ups - 1.0)
    load_kva = (it_max + ups_loss_max) / pf + mech_max / a.number("cooling_power_factor")
    sizes = sorted(a.value("transformer_kva"))
    t_size = next((s for s in sizes if s >= load_kva), sizes[-1])
    n_t, inst_t = units(load_kva, t_size, red)
    load_kw_through_t = it_load + ups["loss_kw_at_load"] + mech_load
    t_loss = load_kw_through_t * (1.0 / eta_t - 1.0)
    transformer = {
        "load_kva": load_kva,
        "unit_kva": float(t_size),
        "needed": n_t,
        "installed": inst_t,
        "efficiency": eta_t,
        "loss_kw_at_load": t_loss,
    }
    gen_unit = a.number("generator_kva")
    n_g, inst_g = units(load_kva, gen_unit, red)
    generator = {
        "load_kva": load_kva,
        "unit_kva": gen_unit,
        "unit_kw": gen_unit * a.number("generator_power_factor"),
        "needed": n_g,
        "installed": inst_g,
    }
    losses = ups["loss_kw_at_load"] + t_loss
    facility_max = it_max + ups_loss_max + mech_max
    utility = {
        "kw_max": facility_max / eta_t,
        "kw_at_load": load_kw_through_t + t_loss,
        "kw_available": site.utility_kw_available or None,
    }
    pue = thermal.pue - share + losses / it_load if it_load > 0 else float("nan")
    return ElectricalResult(
        redundancy=red,
        voltage_v=v,
        rack_side_current_a=side,
        rack_circuits_per_side=circuits,
        rack_breaker_a=np.asarray(rack_breaker, dtype=np.float64),
        rows=rows,
        ups=ups,
        transformer=transformer,
        generator=generator,
        utility=utility,
        cdus=cdus,
        losses_kw=losses,
        pue=pue,
    )
