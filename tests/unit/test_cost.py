"""Cost stage: capex by category, missing prices, opex, TCO, $/GPU-hour, network share, cloud, currency."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.catalog.loader import load_catalog
from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.core.units import HOURS_PER_YEAR
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.facility.cost import break_even_month, compute_cost
from gpuplanner.engine.facility.power import compute_power
from gpuplanner.engine.facility.thermal import compute_thermal
from gpuplanner.model import Device, Project, Rack

DGX = "nvidia-dgx-h100"  # 400,000 USD (catalogs/prices/server.yaml)
QM9700 = "nvidia-quantum-2-qm9700"  # 30,000 USD
HD_RACK = "generic-48u-600x1200-hd"  # 2,300 USD + 2 × 3,000 USD PDUs
ACTIVE_DOOR = "motivair-chilleddoor-active"  # 1,100 USD per kW


def build(devices, n_racks=1, cooling="", catalog=None, price=None) -> Project:
    p = Project(catalog)
    stack = UndoStack(p)
    stack.push(
        AddRows(
            "racks",
            [Rack(id=f"r{i}", name=f"R{i}", type_id=HD_RACK, cooling_id=cooling) for i in range(n_racks)],
        )
    )
    rows = [
        Device(id=f"d{i}", name=f"n{i}", type_id=t, rack_id=None if r is None else f"r{r}", price_usd=price)
        for i, (t, r) in enumerate(devices)
    ]
    if rows:
        stack.push(AddRows("devices", rows))
    return p


def solve(p: Project, bom=None, ttt=None):
    c = compile_project(p)
    power = compute_power(c, p.site.load_factor)
    th = compute_thermal(c, power, p.site, p.catalog)
    return power, th, compute_cost(c, power, th, p.site, p.info, p.catalog, bom=bom, time_to_train_s=ttt)


def test_capex_by_category_from_catalog_prices():
    power, th, cost = solve(build([(DGX, 0)] * 4 + [(QM9700, 0)]))
    cap = cost.capex_usd_by_category
    assert cap["servers"] == 4 * 400_000
    assert cap["switches"] == 30_000
    assert cap["nics"] == 0  # included in the DGX price (cost.yaml server_price_includes_nics)
    assert cap["racks_pdus"] == 2_300 + 2 * 3_000
    assert th.rack_cooling_ids == [ACTIVE_DOOR]
    assert cap["cooling"] == pytest.approx(power.rack_kw_max[0] * 1_100)
    assert cost.capex_usd == pytest.approx(sum(cap.values()))
    assert cost.missing_prices == [] and cost.gpus == 32 and cost.servers == 4


def test_project_price_overrides_catalog():
    cost = solve(build([(DGX, 0)] * 2, price=250_000.0))[2]
    assert cost.capex_usd_by_category["servers"] == 500_000
    assert list(cost.device_price_usd) == [250_000, 250_000]


def test_missing_price_is_reported_not_silently_zero():
    cat = load_catalog(include_user=False)
    cat.add_entries([dataclasses.replace(cat.entries[DGX], id="test-dgx-unpriced")])
    cost = solve(build([("test-dgx-unpriced", 0), (DGX, 0)], catalog=cat), bom={"no-such-cable": 4})[2]
    # a GPU server without a price is priced from its GPUs (8 × 27.5 k$ × 1.75, cost.yaml) and listed as assumed
    assert cost.missing_prices == ["no-such-cable"] and "test-dgx-unpriced" in cost.assumed_prices
    assert cost.capex_usd_by_category["servers"] == pytest.approx(400_000 + 8 * 27_500 * 1.75)
    cat.add_entries([dataclasses.replace(cat.entries["nvidia-mcp1600-cxxx"], id="test-unpriced-cable")])
    bare = solve(build([(DGX, 0)], catalog=cat), bom={"test-unpriced-cable": 2})[2]
    assert bare.missing_prices == ["test-unpriced-cable"]
    covered = solve(build([("test-dgx-unpriced", 0)], catalog=cat, price=1.0))[2]
    assert covered.missing_prices == []  # a project price covers it


def test_bom_cables_and_optics_each_and_per_metre():
    cost = solve(build([(DGX, 0)]), bom={"nvidia-mfp7e10-nxxx": 10, "generic-fiber-om4-lc-duplex": 100.0})[2]
    assert cost.capex_usd_by_category["cables_optics"] == pytest.approx(10 * 150 + 100 * 2)


def test_opex_staff_energy_maintenance_licences_and_tco():
    p = build([(DGX, None)] * 65)
    UndoStack(p).push(SetFields(p, "site", "site", software_usd_per_gpu_year=1000.0, nodes_per_staff=64))
    _, th, cost = solve(p)
    op = cost.opex_usd_per_year_by_category
    assert cost.staff == 2 and op["staff"] == 2 * 150_000  # ceil(65 / 64)
    assert op["energy"] == pytest.approx(th.energy_usd_per_year)
    equipment = cost.capex_usd - cost.capex_usd_by_category["cabling_labour"]
    # 8 %/year only in years 4 and 5: the first 3 years of support are in the catalog price
    assert op["maintenance"] == pytest.approx(0.08 * equipment * 2 / 5)
    assert op["licences"] == 65 * 8 * 1000
    # colocation at CBRE H2 2024's 184.06 $/kW-month on the IT kW at max
    assert op["facility"] == pytest.approx(184.06 * 12 * cost.facility_kw_contracted)
    assert cost.tco_usd == pytest.approx(cost.capex_usd + 5 * cost.opex_usd_per_year)
    gpu_hours = 65 * 8 * HOURS_PER_YEAR * 5 * 0.7
    assert cost.usd_per_gpu_hour == pytest.approx(cost.tco_usd / gpu_hours)


def test_network_share_counts_switches_nics_and_bom():
    bom = {"nvidia-mfp7e10-nxxx": 8}
    cost = solve(build([(DGX, 0)] * 2 + [(QM9700, 0)]), bom=bom)[2]
    nics = 2 * (8 * 2_200 + 2 * 2_000)  # 8 × CX-7 NDR + ceil(4 ports / 2) × CX-7 2×200G per DGX H100
    assert cost.network_usd == pytest.approx(30_000 + nics + 8 * 150)
    assert cost.network_share == pytest.approx(cost.network_usd / 800_000)


def test_cloud_comparison_and_training_run():
    p = build([(DGX, 0)] * 4)
    UndoStack(p).push(SetFields(p, "site", "site", cloud_price_source="site"))
    _, _, cost = solve(p, ttt=10 * 86_400)
    assert cost.cloud_usd_per_year == pytest.approx(2.5 * 32 * HOURS_PER_YEAR * 0.7)
    assert cost.cloud_run_usd == pytest.approx(32 * 240 * 2.5)
    assert cost.run_usd == pytest.approx(32 * 240 * cost.usd_per_gpu_hour)
    UndoStack(p).push(SetFields(p, "site", "site", cloud_usd_per_gpu_hour=12.0))
    cheap_to_own = solve(p)[2]
    m = cheap_to_own.break_even_month
    assert m is not None
    flows = cheap_to_own.money.opex_usd_by_year  # maintenance starts in year 4: month-by-month schedule
    monthly = [sum(v[(k - 1) // 12] for v in flows.values()) / 12 for k in range(1, 61)]
    own = cheap_to_own.capex_usd + sum(monthly[:m])
    assert own <= m * cheap_to_own.cloud_usd_per_year / 12 + 1e-6
    assert cheap_to_own.capex_usd + sum(monthly[: m - 1]) > (m - 1) * cheap_to_own.cloud_usd_per_year / 12


def test_break_even_month():
    assert break_even_month(1200.0, 0.0, 120.0, 10) == 120  # 10 $/month → month 120
    assert break_even_month(1200.0, 0.0, 120.0, 5) is None
    assert break_even_month(1200.0, 240.0, 120.0, 50) is None  # running costs more than renting
    assert break_even_month(0.0, 0.0, 0.0, 5) is None  # no GPUs: nothing to compare


def test_results_in_project_currency_too():
    p = build([(DGX, 0)])
    UndoStack(p).push(SetFields(p, "project", "project", currency="CNY", usd_exchange_rate=7.2))
    cost = solve(p)[2]
    assert cost.currency == "CNY"
    assert cost.totals_local["capex"] == pytest.approx(cost.capex_usd * 7.2)
    assert cost.totals_local["tco"] == pytest.approx(cost.tco_usd * 7.2)
    assert cost.local(10.0) == pytest.approx(72.0)


TYPES = (DGX, "nvidia-dgx-b200", "supermicro-sys-421ge-tnrt-l40s", QM9700)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.sampled_from(TYPES), st.one_of(st.none(), st.integers(0, 2))), max_size=10),
    st.sampled_from(TYPES),
    st.one_of(st.none(), st.integers(0, 2)),
    st.sampled_from(["generic-air-contained-aisle", ACTIVE_DOOR, "generic-cold-plate-dlc-cdu"]),
)
def test_adding_a_device_never_lowers_cost(devs, extra, rack, cooling):
    before = solve(build(devs, n_racks=3, cooling=cooling))[2]
    after = solve(build([*devs, (extra, rack)], n_racks=3, cooling=cooling))[2]
    assert after.capex_usd > before.capex_usd
    assert after.opex_usd_per_year >= before.opex_usd_per_year - 1e-6
    assert after.tco_usd > before.tco_usd
