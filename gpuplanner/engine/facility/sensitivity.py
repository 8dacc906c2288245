"""Sensitivity (tornado) of the money figures: each driver moved down and up by its stated range
(``catalogs/assumptions/cost.yaml`` → ``sensitivity_ranges``), all others held, through the same formulas
as the plan (``engine/facility/tco.py``). Drivers:

    electricity_price   energy × (1 ± r)
    utilization         busy share ± r (absolute, clipped to 0.05–1): moves $/GPU-hour and the cloud bill
    gpu_price           GPU server capex × (1 ± r) (maintenance and insurance follow their base)
    cloud_price         cloud $/GPU-hour × (1 ± r): moves the break-even, not the TCO
    pue                 energy × (PUE ± r) / PUE
    discount_rate_pct   rate ± r points: moves the NPVs only

Energy is held when utilisation moves (the idle/busy split of the thermal stage is not recomputed): stated.
Drivers are sorted by the swing of the cost per GPU-hour, then of the NPV.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplanner.engine.facility.power import Assumptions, load_assumptions
from gpuplanner.engine.facility.tco import TcoFigures, TcoInputs, figures

DRIVERS = ("electricity_price", "utilization", "gpu_price", "cloud_price", "pue", "discount_rate_pct")


@dataclass(frozen=True)
class Swing:
    driver: str
    change: float  # the ± range (relative, or absolute for utilisation, PUE and the rate)
    inputs: tuple[float, float]  # the driver's value low, high
    low: TcoFigures
    high: TcoFigures


def _moved(t: TcoInputs, driver: str, sign: int, r: float) -> tuple[TcoInputs, float]:
    if driver == "electricity_price":
        f = 1 + sign * r
        return t.scaled(energy_usd_per_year=t.energy_usd_per_year * f), f
    if driver == "utilization":
        u = min(max(t.utilization + sign * r, 0.05), 1.0)
        return t.scaled(utilization=u), u
    if driver == "gpu_price":
        d = sign * r * t.gpu_server_usd
        return t.scaled(
            capex_equipment_usd=t.capex_equipment_usd + d, gpu_server_usd=t.gpu_server_usd + d
        ), 1 + sign * r
    if driver == "cloud_price":
        p = t.cloud_usd_per_gpu_hour * (1 + sign * r)
        return t.scaled(cloud_usd_per_gpu_hour=p), p
    if driver == "pue":
        pue = max(t.pue + sign * r, 1.0)
        f = pue / t.pue if t.pue > 0 else 1.0
        return t.scaled(energy_usd_per_year=t.energy_usd_per_year * f, pue=pue), pue
    if driver == "discount_rate_pct":
        rate = max(t.discount_rate_pct + sign * r, 0.0)
        return t.scaled(discount_rate_pct=rate), rate
    raise ValueError(driver)


def tornado(t: TcoInputs, assumptions: Assumptions | None = None) -> list[Swing]:
    a = assumptions or load_assumptions("cost")
    ranges = a.value("sensitivity_ranges")
    out = []
    for d in DRIVERS:
        r = float(ranges[d])
        lo_t, lo_v = _moved(t, d, -1, r)
        hi_t, hi_v = _moved(t, d, +1, r)
        out.append(Swing(d, r, (lo_v, hi_v), figures(lo_t), figures(hi_t)))

    def key(s: Swing) -> tuple[float, float]:
        g = abs(s.high.usd_per_gpu_hour - s.low.usd_per_gpu_hour)
        return (-(g if g == g else 0.0), -abs(s.high.npv_usd - s.low.npv_usd))

    return sorted(out, key=key)


def sensitivity_json(t: TcoInputs, rate: float) -> dict:
    """Amounts × ``rate`` (the project's currency per USD)."""
    base = figures(t)

    def fig(f: TcoFigures) -> dict:
        return {
            "tco": f.tco_usd * rate,
            "npv": f.npv_usd * rate,
            "cost_per_gpu_hour": f.usd_per_gpu_hour * rate
            if f.usd_per_gpu_hour == f.usd_per_gpu_hour
            else None,
            "break_even_month": f.break_even_month,
        }

    return {
        "base": fig(base),
        "drivers": [
            {
                "driver": s.driver,
                "range": s.change,
                "input_low": s.inputs[0],
                "input_high": s.inputs[1],
                "low": fig(s.low),
                "high": fig(s.high),
            }
            for s in tornado(t)
        ],
    }
