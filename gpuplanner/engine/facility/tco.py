"""The money model of the cost stage as plain scalars: yearly cash flows, TCO, NPV, cost per GPU-hour and
the cloud comparison. ``compute_cost`` fills ``TcoInputs`` from the plan; ``engine/facility/sensitivity.py`` perturbs
them. Every line is a formula a CFO can redo by hand:

    year 0      capex (equipment + cabling labour + facility build)
    year y      energy + facility (colocation rent or build O&M) + staff + licences + insurance
                + maintenance (only in years after the support included in the catalog price)
    depreciation = (equipment + labour) / equipment years + build / facility years  (per year, for the P&L)
    TCO         = capex + Σ_y opex_y − facility residual value           (undiscounted)
    NPV         = capex + Σ_y opex_y / (1 + r)^y − residual / (1 + r)^N   (cost, discounted at r)
    $/GPU-hour  = TCO / (GPUs × 8,760 h × N × utilisation)
    $/M tokens  = $/GPU-hour × GPUs / (tokens/s × 3,600) × 10^6          (at the predicted throughput)
    cloud       = cloud $/GPU-hour × GPUs × 8,760 h × utilisation per year
    break-even  = first month m with capex + opex of months 1..m ≤ m × cloud/12
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from gpuplanner.core.units import HOURS_PER_YEAR, SECONDS_PER_HOUR


@dataclass(frozen=True)
class TcoInputs:
    years: int
    gpus: int
    utilization: float  # share of hours the GPUs are busy (0–1)
    capex_equipment_usd: float  # everything bought except cabling labour and the facility build
    capex_labour_usd: float
    gpu_server_usd: float  # part of capex_equipment_usd that a GPU price change moves
    facility_build_usd: float  # owned build (0 for colocation)
    facility_depreciation_years: float
    depreciation_years: float  # IT equipment, straight line
    energy_usd_per_year: float
    pue: float  # the PUE behind energy_usd_per_year (for the sensitivity)
    facility_usd_per_year: float  # colocation rent or build O&M
    staff_usd_per_year: float
    licences_usd_per_year: float
    insurance_pct_per_year: float
    maintenance_pct_per_year: float
    support_years_in_price: int
    discount_rate_pct: float
    cloud_usd_per_gpu_hour: float
    tokens_per_s: float | None = None

    def scaled(self, **changes: float) -> TcoInputs:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class TcoFigures:
    capex_usd: float
    opex_usd_by_year: dict[str, np.ndarray]  # category → one value per year (length years)
    opex_usd_per_year_mean: dict[str, float]
    residual_usd: float
    tco_usd: float
    npv_usd: float
    usd_per_gpu_hour: float  # NaN without GPUs or utilisation
    usd_per_million_tokens: float | None
    cloud_usd_per_year: float
    cloud_tco_usd: float
    cloud_npv_usd: float
    break_even_month: int | None
    depreciation_usd_per_year: float  # straight line: equipment over its years + build over its years


def opex_by_year(t: TcoInputs) -> dict[str, np.ndarray]:
    years = max(int(t.years), 0)
    y = np.arange(1, years + 1)
    base = t.capex_equipment_usd
    flat = np.ones(years)
    return {
        "energy": t.energy_usd_per_year * flat,
        "facility": t.facility_usd_per_year * flat,
        "maintenance": np.where(y > t.support_years_in_price, t.maintenance_pct_per_year / 100.0 * base, 0.0),
        "staff": t.staff_usd_per_year * flat,
        "licences": t.licences_usd_per_year * flat,
        "insurance": t.insurance_pct_per_year / 100.0 * (base + t.facility_build_usd) * flat,
    }


def residual_usd(t: TcoInputs) -> float:
    """Book value of an owned build left after the TCO horizon (straight line)."""
    life = t.facility_depreciation_years
    if t.facility_build_usd <= 0 or life <= 0:
        return 0.0
    return t.facility_build_usd * max(0.0, 1.0 - t.years / life)


def break_even_month_schedule(
    capex_usd: float, opex_usd_by_year: np.ndarray, cloud_usd_per_year: float
) -> int | None:
    """First month m (1-based) where capex + the opex of months 1..m ≤ m × cloud/12; None if never within the
    years given or when renting costs nothing."""
    if cloud_usd_per_year <= 0 or len(opex_usd_by_year) == 0:
        return None
    monthly = np.repeat(np.asarray(opex_usd_by_year, dtype=np.float64) / 12.0, 12)
    own = capex_usd + np.cumsum(monthly)
    cloud = np.arange(1, len(monthly) + 1) * cloud_usd_per_year / 12.0
    hit = np.flatnonzero(own <= cloud + 1e-6)
    return int(hit[0]) + 1 if hit.size else None


def figures(t: TcoInputs) -> TcoFigures:
    years = max(int(t.years), 0)
    capex = t.capex_equipment_usd + t.capex_labour_usd + t.facility_build_usd
    opex = opex_by_year(t)
    total_by_year = sum(opex.values()) if opex else np.zeros(years)
    total_by_year = np.asarray(total_by_year, dtype=np.float64)
    residual = residual_usd(t)
    tco = capex + float(total_by_year.sum()) - residual
    r = t.discount_rate_pct / 100.0
    disc = (1.0 + r) ** -np.arange(1, years + 1, dtype=np.float64)
    end = (1.0 + r) ** -years
    npv = capex + float(total_by_year @ disc) - residual * end
    u = min(max(t.utilization, 0.0), 1.0)
    busy_gpu_hours = t.gpus * HOURS_PER_YEAR * years * u
    per_gpu_hour = tco / busy_gpu_hours if busy_gpu_hours > 0 else float("nan")
    per_mtok = None
    if t.tokens_per_s and t.tokens_per_s > 0 and busy_gpu_hours > 0:
        per_mtok = per_gpu_hour * t.gpus / (t.tokens_per_s * SECONDS_PER_HOUR) * 1e6
    cloud_year = t.cloud_usd_per_gpu_hour * t.gpus * HOURS_PER_YEAR * u
    depreciation = (t.capex_equipment_usd + t.capex_labour_usd) / max(t.depreciation_years, 1)
    if t.facility_build_usd > 0 and t.facility_depreciation_years > 0:
        depreciation += t.facility_build_usd / t.facility_depreciation_years
    return TcoFigures(
        capex_usd=capex,
        opex_usd_by_year=opex,
        opex_usd_per_year_mean={k: float(v.mean()) if years else 0.0 for k, v in opex.items()},
        residual_usd=residual,
        tco_usd=tco,
        npv_usd=npv,
        usd_per_gpu_hour=per_gpu_hour,
        usd_per_million_tokens=per_mtok,
        cloud_usd_per_year=cloud_year,
        cloud_tco_usd=cloud_year * years,
        cloud_npv_usd=float(cloud_year * disc.sum()),
        break_even_month=break_even_month_schedule(capex, total_by_year, cloud_year),
        depreciation_usd_per_year=depreciation,
    )
