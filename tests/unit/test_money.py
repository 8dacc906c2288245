"""The money model (engine/facility/tco.py, engine/facility/cloud.py and the facility/staffing lines of engine/facility/cost.py) against
hand-computed cases. Rates and their sources: catalogs/assumptions/cost.yaml (CBRE North America Data Center
Trends H2 2024: 184.06 $/kW-month; Turner & Townsend DCCI 2025–26: 11 $/W estimate) and cloud.yaml."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.facility.cloud import cloud_price
from gpuplanner.engine.facility.cost import compute_cost
from gpuplanner.engine.facility.power import compute_power
from gpuplanner.engine.facility.tco import TcoInputs, break_even_month_schedule, figures
from gpuplanner.engine.facility.thermal import compute_thermal
from gpuplanner.model import Device, Project, Rack

BASE = TcoInputs(
    years=3,
    gpus=8,
    utilization=0.5,
    capex_equipment_usd=1000.0,
    capex_labour_usd=0.0,
    gpu_server_usd=800.0,
    facility_build_usd=0.0,
    facility_depreciation_years=20,
    depreciation_years=5,
    energy_usd_per_year=100.0,
    pue=1.2,
    facility_usd_per_year=0.0,
    staff_usd_per_year=0.0,
    licences_usd_per_year=0.0,
    insurance_pct_per_year=0.0,
    maintenance_pct_per_year=10.0,
    support_years_in_price=2,
    discount_rate_pct=10.0,
    cloud_usd_per_gpu_hour=0.0,
)


def test_maintenance_only_after_the_support_in_the_price_and_npv_by_hand():
    f = figures(BASE)
    # years 1, 2: energy 100; year 3: energy 100 + 10 % × 1000 = 200
    assert f.opex_usd_by_year["maintenance"].tolist() == [0.0, 0.0, 100.0]
    assert f.tco_usd == pytest.approx(1000 + 100 + 100 + 200)
    # NPV at 10 %: 1000 + 100/1.1 + 100/1.21 + 200/1.331 = 1323.816...
    assert f.npv_usd == pytest.approx(1000 + 100 / 1.1 + 100 / 1.21 + 200 / 1.331)
    # 8 GPUs × 8,760 h × 3 years × 0.5 busy = 105,120 GPU-hours
    assert f.usd_per_gpu_hour == pytest.approx(1400 / 105_120)
    assert f.depreciation_usd_per_year == pytest.approx(1000 / 5)


def test_owned_build_residual_value_and_om():
    t = BASE.scaled(facility_build_usd=2000.0, facility_depreciation_years=20, insurance_pct_per_year=1.0)
    f = figures(t)
    assert f.capex_usd == 3000.0
    assert f.residual_usd == pytest.approx(2000 * (1 - 3 / 20))  # 1,700 of book value left after 3 years
    assert f.opex_usd_by_year["insurance"].tolist() == pytest.approx([30.0] * 3)  # 1 % of (1000 + 2000)
    assert f.tco_usd == pytest.approx(3000 + 400 + 90 - 1700)
    assert f.npv_usd == pytest.approx(3000 + 130 / 1.1 + 130 / 1.21 + 230 / 1.331 - 1700 / 1.331)
    assert f.depreciation_usd_per_year == pytest.approx(1000 / 5 + 2000 / 20)


def test_cost_per_million_tokens_at_the_predicted_throughput():
    f = figures(BASE.scaled(tokens_per_s=1000.0))
    # $/GPU-hour × 8 GPUs buys 3.6 M tokens per hour at 1,000 tokens/s
    assert f.usd_per_million_tokens == pytest.approx(f.usd_per_gpu_hour * 8 / 3.6)
    assert figures(BASE).usd_per_million_tokens is None


def test_break_even_with_a_yearly_schedule():
    # capex 1,200, opex 0 in year 1 and 1,200 from year 2; cloud 2,400/year = 200/month
    assert break_even_month_schedule(1200.0, np.array([0.0, 1200.0]), 2400.0) == 6
    # never within the horizon when opex alone outruns the cloud
    assert break_even_month_schedule(1200.0, np.array([3000.0]), 2400.0) is None
    assert break_even_month_schedule(0.0, np.array([0.0]), 0.0) is None
    cloud = figures(BASE.scaled(cloud_usd_per_gpu_hour=1.0))
    assert cloud.cloud_usd_per_year == pytest.approx(8 * 8760 * 0.5)
    assert cloud.cloud_npv_usd == pytest.approx(35_040 * (1 / 1.1 + 1 / 1.21 + 1 / 1.331))


def test_cloud_list_price_median_and_derived_reserved():
    p = cloud_price("nvidia-h100-sxm", "on_demand")
    # on-demand offers in cloud.yaml: 6.88 (AWS), 3.00 (GCP), 6.98 (Azure), 6.16 (CoreWeave), 2.99 (Lambda)
    assert p.offers == 5 and p.usd_per_gpu_hour == pytest.approx(6.16)
    assert (p.min_usd, p.max_usd) == (2.99, 6.98)
    r3 = cloud_price("nvidia-h100-sxm", "reserved_3y")  # none published: on-demand × (1 − 0.55)
    assert r3.derived and r3.usd_per_gpu_hour == pytest.approx(6.16 * 0.45)
    assert not math.isfinite(cloud_price("no-such-gpu").usd_per_gpu_hour)


def test_cny_offers_are_used_for_a_cny_project_only():
    usd = cloud_price("nvidia-a100-sxm4-40gb", "on_demand", "USD", 1.0)
    cny = cloud_price("nvidia-a100-sxm4-40gb", "on_demand", "CNY", 7.2)
    assert usd.offers == 1 and usd.usd_per_gpu_hour == pytest.approx(4.10)
    # 4.10 USD and 10 CNY / 7.2 = 1.389 USD: the median of two is their mean
    assert cny.offers == 2 and cny.usd_per_gpu_hour == pytest.approx((4.10 + 10 / 7.2) / 2)


DGX = "nvidia-dgx-h100"


def _plan(n: int, **site) -> tuple:
    p = Project()
    stack = UndoStack(p)
    stack.push(AddRows("racks", [Rack(id="r0", name="R0", type_id="generic-48u-600x1200-hd")]))
    stack.push(
        AddRows("devices", [Device(id=f"d{i}", name=f"n{i}", type_id=DGX, rack_id="r0") for i in range(n)])
    )
    if site:
        stack.push(SetFields(p, "site", "site", **site))
    c = compile_project(p)
    power = compute_power(c, p.site.load_factor)
    th = compute_thermal(c, power, p.site, p.catalog)
    return power, compute_cost(c, power, th, p.site, p.info, p.catalog)


def test_facility_colocation_build_and_none():
    power, colo = _plan(4)
    kw = power.it_kw_max
    assert kw == pytest.approx(4 * 10.2)  # DGX H100 10.2 kW max (NVIDIA DGX H100 User Guide)
    assert colo.opex_usd_per_year_by_category["facility"] == pytest.approx(184.06 * 12 * 40.8)
    _, build = _plan(4, facility_model="build")
    assert build.capex_usd_by_category["facility_build"] == pytest.approx(11e6 * 0.0408)
    assert build.opex_usd_per_year_by_category["facility"] == pytest.approx(0.03 * 11e6 * 0.0408)
    assert build.money.residual_usd == pytest.approx(11e6 * 0.0408 * (1 - 5 / 20))
    _, custom = _plan(4, facility_model="colocation", colo_usd_per_kw_month=250.0)
    assert custom.opex_usd_per_year_by_category["facility"] == pytest.approx(250 * 12 * 40.8)
    _, none = _plan(4, facility_model="none")
    assert none.opex_usd_per_year_by_category["facility"] == 0.0


def test_room_cooling_is_in_the_facility_price():
    _, colo = _plan(2)  # 20.4 kW → air-contained aisle: room plant, part of colocation
    _, none = _plan(2, facility_model="none")
    assert colo.capex_usd_by_category["cooling"] == 0.0
    assert none.capex_usd_by_category["cooling"] > 0.0


def test_staffing_floor_and_ratio():
    assert _plan(1)[1].staff == 2  # floor of 2 FTE for one server
    assert _plan(1, staff_min_fte=0.5)[1].staff == 1
    assert _plan(9, nodes_per_staff=4, staff_min_fte=0.0)[1].staff == 3  # ceil(9 / 4)


def test_tornado_moves_each_driver_by_its_stated_range():
    from gpuplanner.engine.facility.sensitivity import sensitivity_json, tornado

    t = BASE.scaled(cloud_usd_per_gpu_hour=1.0)
    swings = {s.driver: s for s in tornado(t)}
    # electricity ±30 %: energy 70 / 130 per year → TCO 1400 ∓ 3 × 30
    assert swings["electricity_price"].low.tco_usd == pytest.approx(1400 - 90)
    assert swings["electricity_price"].high.tco_usd == pytest.approx(1400 + 90)
    # GPU price ±20 % of the 800 $ GPU servers: capex ∓ 160, year-3 maintenance (10 %) ∓ 16
    assert swings["gpu_price"].high.tco_usd == pytest.approx(1400 + 160 + 16)
    # PUE 1.2 ± 0.1: energy × 1.3/1.2
    assert swings["pue"].high.tco_usd == pytest.approx(1000 + 3 * 100 * 1.3 / 1.2 + 100)
    # utilisation 0.5 ± 0.15: same TCO over 0.65 × 8 × 8760 × 3 GPU-hours
    assert swings["utilization"].high.usd_per_gpu_hour == pytest.approx(1400 / (8 * 8760 * 3 * 0.65))
    assert swings["utilization"].high.tco_usd == pytest.approx(1400)
    # discount rate 10 ± 3 points moves the NPV only
    assert swings["discount_rate_pct"].low.npv_usd == pytest.approx(
        1000 + 100 / 1.07 + 100 / 1.07**2 + 200 / 1.07**3
    )
    assert swings["discount_rate_pct"].low.tco_usd == pytest.approx(1400)
    # cloud ±30 % moves the cloud bill and so the break-even, never the TCO
    assert swings["cloud_price"].high.cloud_usd_per_year == pytest.approx(1.3 * 8 * 8760 * 0.5)
    assert swings["cloud_price"].high.tco_usd == pytest.approx(1400)
    js = sensitivity_json(t, 7.2)
    assert js["base"]["tco"] == pytest.approx(1400 * 7.2)
    assert {d["driver"] for d in js["drivers"]} == set(swings)


def test_mixed_gpu_plan_is_compared_per_gpu_type():
    p = Project()
    stack = UndoStack(p)
    stack.push(AddRows("racks", [Rack(id="r0", name="R0", type_id="generic-48u-600x1200-hd")]))
    devs = [Device(id=f"h{i}", name=f"h{i}", type_id=DGX, rack_id="r0") for i in range(2)]
    devs.append(Device(id="b0", name="b0", type_id="nvidia-dgx-b200", rack_id="r0"))
    stack.push(AddRows("devices", devs))
    c = compile_project(p)
    power = compute_power(c, p.site.load_factor)
    th = compute_thermal(c, power, p.site, p.catalog)
    cost = compute_cost(c, power, th, p.site, p.info, p.catalog)
    # B200 on-demand offers 6.03, 3.75, 5.25, 14.24 → median 5.64; H100 median 6.16
    assert cost.cloud_usd_per_gpu_hour == pytest.approx((16 * 6.16 + 8 * 5.64) / 24)
    rows = {r["gpu"]: r for r in cost.cloud_by_gpu}
    assert rows["nvidia-h100-sxm"]["gpus"] == 16 and rows["nvidia-b200"]["gpus"] == 8
    assert rows["nvidia-b200"]["cloud_usd_per_gpu_hour"] == pytest.approx(5.64)
    # shares by GPU server capex: 2 × DGX H100 against 1 × DGX B200 (catalogs/prices/server.yaml)
    h, b = p.catalog.price_usd(DGX), p.catalog.price_usd("nvidia-dgx-b200")
    assert rows["nvidia-b200"]["share_of_plan"] == pytest.approx(b / (2 * h + b))
