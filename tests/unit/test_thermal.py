"""Thermal stage: cooling choice, heat split, airflow and coolant flow against their sources, PUE, facility."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.core.units import CFM_PER_M3_PER_H, HOURS_PER_YEAR, fahrenheit_delta_to_kelvin
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.facility.power import compute_power
from gpuplanner.engine.facility.thermal import (
    airflow_m3_per_h,
    choose_cooling,
    compute_thermal,
    coolant_l_per_min,
    cooling_table,
)
from gpuplanner.model import Device, Project, Rack

DGX = "nvidia-dgx-h100"
NVL72 = "nvidia-gb200-nvl72"  # liquid_share 0.85
HD_RACK = "generic-48u-600x1200-hd"
AIR, CONTAINED, COLD_PLATE = (
    "generic-air-crah-open",
    "generic-air-contained-aisle",
    "generic-cold-plate-dlc-cdu",
)


def build(
    devices: list[tuple[str, int | None]], n_racks: int = 1, cooling: str = "", rack: str = HD_RACK
) -> Project:
    p = Project()
    stack = UndoStack(p)
    stack.push(
        AddRows(
            "racks",
            [Rack(id=f"r{i}", name=f"R{i}", type_id=rack, cooling_id=cooling) for i in range(n_racks)],
        )
    )
    if devices:
        rows = [
            Device(id=f"d{i}", name=f"n{i}", type_id=t, rack_id=None if r is None else f"r{r}")
            for i, (t, r) in enumerate(devices)
        ]
        stack.push(AddRows("devices", rows))
    return p


def solve(p: Project, util: float = 0.8):
    c = compile_project(p)
    power = compute_power(c, util)
    return c, power, compute_thermal(c, power, p.site, p.catalog)


def test_coolant_flow_100_kw_at_10_k_is_about_143_l_per_min():
    # Q = P / (ρ·cp·ΔT) = 100 kW / (997 kg/m³ · 4.18 kJ/(kg·K) · 10 K) = 2.40 L/s ≈ 143–144 L/min.
    assert coolant_l_per_min(100_000, 10) == pytest.approx(143.5, abs=1.0)


def test_airflow_10_kw_at_20_f_is_about_1580_cfm():
    # CFM ≈ 3.16 × W / ΔT°F (sensible heat of air; insideHPC/Dell 2011): 3.16 × 10,000 / 20 = 1,580 CFM.
    cfm = airflow_m3_per_h(10_000, fahrenheit_delta_to_kelvin(20)) * CFM_PER_M3_PER_H
    assert cfm == pytest.approx(1580, rel=0.01)


def test_dgx_h100_rack_of_four_needs_liquid_or_rear_door_under_bundled_limits():
    p = build([(DGX, 0)] * 4)
    _, power, th = solve(p)
    assert power.rack_kw_max[0] == pytest.approx(40.8)
    air_limits = [
        e.max_kw_per_rack for e in p.catalog.of_kind("cooling") if e.method in ("air", "air-contained")
    ]
    assert air_limits and max(air_limits) < 40.8
    assert th.table.methods[th.rack_cooling[0]] in ("rear-door", "cold-plate", "immersion")
    assert th.rack_cooling_ok[0]


def test_choice_is_simplest_cooling_that_fits():
    p = build([(DGX, 0)])  # 10.2 kW max: more than open air (10 kW), fits contained aisle (25 kW)
    _, _, th = solve(p)
    assert th.rack_cooling_ids == [CONTAINED]
    t = th.table
    kw = np.array([0.0, 5.0, 30.0, 1000.0])
    chosen = choose_cooling(t, kw)
    for k, j in zip(kw[:3], chosen[:3], strict=True):
        fits = np.flatnonzero(t.max_kw_per_rack >= k)
        assert j == fits[0]
    assert chosen[3] == np.argmax(t.max_kw_per_rack)  # nothing fits: the largest (a finding says so)


def test_pinned_cooling_is_kept_and_checked():
    p = build([(DGX, 0)] * 2, cooling=AIR)
    _, _, th = solve(p)
    assert th.rack_cooling_ids == [AIR] and th.rack_cooling_pinned[0]
    assert not th.rack_cooling_ok[0]  # 20.4 kW on 10 kW open-air cooling
    unknown = build([(DGX, 0)], cooling="no-such-cooling")
    _, _, th2 = solve(unknown)
    assert th2.rack_cooling_unknown[0] and th2.rack_cooling_ids == [CONTAINED]


def test_device_liquid_share_goes_to_liquid_whatever_the_room():
    _, power, th = solve(build([(NVL72, 0)], cooling=CONTAINED, rack="nvidia-mgx-nvl72-rack"))
    assert th.rack_liquid_kw[0] == pytest.approx(0.85 * power.rack_kw_load[0])
    assert th.rack_air_kw[0] == pytest.approx(0.15 * power.rack_kw_load[0])
    assert th.rack_loop_kw_max[0] == pytest.approx(0.85 * power.rack_kw_max[0])
    _, power2, th2 = solve(build([(NVL72, 0)], cooling=COLD_PLATE, rack="nvidia-mgx-nvl72-rack"))
    assert th2.rack_liquid_kw[0] == pytest.approx(0.85 * power2.rack_kw_load[0])  # max(0.85, 0.75)
    assert th2.rack_loop_kw_max[0] == pytest.approx(0.10 * power2.rack_kw_max[0])


def test_rack_flows_follow_the_formulas():
    _, power, th = solve(build([(DGX, 0)] * 4))  # rear door: servers still move all the air
    dt_air = 11.1  # facility.yaml server_air_delta_t_k for a non-air method
    assert th.rack_airflow_m3_per_h[0] == pytest.approx(airflow_m3_per_h(power.rack_kw_max[0] * 1000, dt_air))
    j = th.rack_cooling[0]
    expect = coolant_l_per_min(th.rack_liquid_kw_max[0] * 1000, th.table.coolant_delta_t_k[j])
    assert th.rack_coolant_l_per_min[0] == pytest.approx(expect)
    assert th.rack_liquid_kw_max[0] == pytest.approx(th.table.liquid_share[j] * 40.8)


def test_pue_from_cooling_and_climate():
    p = build([(DGX, 0)], cooling=AIR)
    _, power, th = solve(p)
    assert th.pue == pytest.approx(1.58)  # the catalog's open-air pue_typical in a temperate climate
    assert th.facility_kw == pytest.approx(power.it_kw_load * 1.58)
    stack = UndoStack(p)
    stack.push(SetFields(p, "site", "site", climate="hot"))
    assert solve(p)[2].pue == pytest.approx(1 + 0.58 * 1.25)
    stack.push(SetFields(p, "site", "site", climate="cold"))
    assert solve(p)[2].pue == pytest.approx(1 + 0.58 * 0.8)


def test_pue_is_it_load_weighted_over_the_racks():
    p = build([(DGX, 0), (DGX, 1), (DGX, 1)], n_racks=2)
    stack = UndoStack(p)
    stack.push(SetFields(p, "racks", "r0", cooling_id=AIR))
    stack.push(SetFields(p, "racks", "r1", cooling_id=COLD_PLATE))
    _, power, th = solve(p)
    kw0, kw1 = power.rack_kw_load
    assert th.pue == pytest.approx(1 + (kw0 * 0.58 + kw1 * 0.15) / (kw0 + kw1))
    assert th.method_it_kw["air"] == pytest.approx(kw0) and th.method_it_kw["cold-plate"] == pytest.approx(
        kw1
    )


def test_energy_feed_and_cost_of_the_year():
    p = build([(DGX, 0)] * 4)
    UndoStack(p).push(SetFields(p, "site", "site", utility_kw_available=50.0, expected_utilization=0.6))
    _, power, th = solve(p)
    u = 0.6
    mwh = HOURS_PER_YEAR * th.pue * (u * power.it_kw_load + (1 - u) * power.it_kw_idle) / 1000
    assert th.annual_mwh == pytest.approx(mwh)
    assert th.energy_usd_per_year == pytest.approx(mwh * 1000 * p.site.electricity_usd_per_kwh)
    assert th.feed_kw_needed == pytest.approx(40.8 * th.pue * 1.2)
    assert not th.feed_ok  # 40.8 kW × 1.3 × 1.2 ≈ 63.6 kW > 50 kW


def test_empty_catalog_uses_assumed_methods():
    p = build([(DGX, 0)] * 4)
    c = compile_project(p)
    power = compute_power(c, 0.8)
    th = compute_thermal(c, power, p.site, None)
    assert th.rack_cooling_ids[0].startswith("assumed-") and th.rack_cooling_ok[0]


# -- properties -------------------------------------------------------------------------------------------
TYPES = (DGX, "nvidia-dgx-b200", "supermicro-sys-421ge-tnrt-l40s", "nvidia-quantum-2-qm9700")


@st.composite
def devices(draw, n_racks: int = 3):
    return draw(
        st.lists(
            st.tuples(st.sampled_from(TYPES), st.one_of(st.none(), st.integers(0, n_racks - 1))), max_size=12
        )
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(devices(), st.sampled_from(["cold", "temperate", "hot"]), st.floats(0, 1))
def test_better_cooling_never_raises_pue(devs, climate, util):
    p = build(devs, n_racks=3)
    UndoStack(p).push(SetFields(p, "site", "site", climate=climate))
    c = compile_project(p)
    power = compute_power(c, util)
    table = cooling_table(p.catalog, p.site)
    pues = []
    for cid in table.ids:  # choice order: simplest first, i.e. air < … < immersion
        pinned = dataclasses.replace(c, racks=dataclasses.replace(c.racks, cooling_ids=[cid] * 3))
        pues.append(compute_thermal(pinned, power, p.site, table=table).pue)
    ranks = table.rank
    for i in range(len(pues)):
        for j in range(len(pues)):
            if table.pue_typical[i] <= table.pue_typical[j]:
                assert pues[i] <= pues[j] + 1e-12
            if ranks[i] < ranks[j]:  # a later method in the order is better in the bundled catalog
                assert pues[j] <= pues[i] + 1e-12


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(devices(), st.sampled_from(TYPES), st.integers(0, 2), st.sampled_from([AIR, CONTAINED, COLD_PLATE]))
def test_adding_a_device_never_lowers_facility_kw(devs, extra, rack, cooling):
    before = solve(build(devs, n_racks=3, cooling=cooling))[2]
    after = solve(build([*devs, (extra, rack)], n_racks=3, cooling=cooling))[2]
    assert after.facility_kw >= before.facility_kw - 1e-9
    assert after.facility_kw_max > before.facility_kw_max
