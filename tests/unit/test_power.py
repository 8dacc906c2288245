"""Power stage: draw model, rack/row sums, feed and PSU redundancy, incremental moves."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.commands import AddRows, UndoStack
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.facility.power import compute_power, device_draw_w, load_assumptions, update_rack_of
from gpuplanner.model import Device, Project, Rack

DGX = "nvidia-dgx-h100"  # 10.2 kW max, 6 × 3.3 kW PSUs 4+2 (NVIDIA DGX H100 User Guide)
HD_RACK = "generic-48u-600x1200-hd"  # 40 kW budget, 2 × 43.6 kW PDUs
NVL72_RACK = "nvidia-mgx-nvl72-rack"  # busbar, no PDU data
SWITCH = "nvidia-quantum-2-qm9700"
TYPES = (DGX, "nvidia-dgx-b200", "supermicro-sys-421ge-tnrt-l40s", SWITCH, "nvidia-spectrum-sn2201")


def build(racks: list[tuple[str, str]], devices: list[tuple[str, int | None]]) -> Project:
    """racks: (type, row label); devices: (type, rack index or None). Through commands, as a user would."""
    p = Project()
    stack = UndoStack(p)
    stack.push(
        AddRows(
            "racks", [Rack(id=f"r{i}", name=f"R{i}", type_id=t, row=row) for i, (t, row) in enumerate(racks)]
        )
    )
    rows = [
        Device(id=f"d{i}", name=f"n{i}", type_id=t, rack_id=None if r is None else f"r{r}")
        for i, (t, r) in enumerate(devices)
    ]
    if rows:
        stack.push(AddRows("devices", rows))
    return p


def dgx_rack(n: int = 4) -> Project:
    return build([(HD_RACK, "A")], [(DGX, 0)] * n)


def test_dgx_h100_rack_of_four_is_40_8_kw_at_max():
    # NVIDIA DGX H100 User Guide: 10.2 kW max per system → 4 systems = 40.8 kW.
    power = compute_power(compile_project(dgx_rack()), 0.8)
    assert power.rack_kw_max[0] == pytest.approx(40.8)
    assert power.it_kw_max == pytest.approx(40.8)


def test_server_draw_model_hits_idle_typical_and_scales_gpu_swing():
    c = compile_project(dgx_rack(1))
    d0, d1, d8 = (device_draw_w(c, u).load_w[0] for u in (0.0, 1.0, 0.8))
    assert d0 == pytest.approx(2000)  # catalog idle
    assert d1 == pytest.approx(7650)  # catalog typical = sustained training at full GPU load
    # GPU swing 8 × (700 − 70) W carries u fully; the rest (k = 610/3160 of its swing) too, linearly.
    assert d8 == pytest.approx(2000 + 0.8 * (8 * 630 + 610))
    assert device_draw_w(c, 5.0).load_w[0] == pytest.approx(d1)  # clipped to u = 1


def test_switch_draws_typical_whatever_the_gpus_do():
    c = compile_project(build([(HD_RACK, "A")], [(SWITCH, 0)]))
    assert device_draw_w(c, 0.0).load_w[0] == device_draw_w(c, 1.0).load_w[0] == pytest.approx(747)


def test_rest_fraction_default_when_server_has_no_typical():
    c = compile_project(dgx_rack(1))
    d = dataclasses.replace(c.devices, power_typical_w=np.zeros(1))
    draw = device_draw_w(dataclasses.replace(c, devices=d), 1.0)
    k = load_assumptions("facility").number("server_rest_fraction_at_full")
    assert draw.load_w[0] == pytest.approx(2000 + 8 * 630 + k * (10200 - 2000 - 8 * 630))


def test_rows_and_unracked_are_summed_apart():
    p = build([(HD_RACK, "A"), (HD_RACK, "B"), (HD_RACK, "A")], [(DGX, 0), (DGX, 1), (DGX, 2), (DGX, None)])
    power = compute_power(compile_project(p), 0.5)
    assert power.row_labels == ["A", "B"]
    assert power.row_kw_max == pytest.approx([20.4, 10.2])
    assert power.unracked_kw_max == pytest.approx(10.2)
    assert power.it_kw_max == pytest.approx(40.8)


def test_feed_redundancy_one_feed_must_carry_the_rack():
    ok = compute_power(compile_project(dgx_rack(4)), 0.8)
    assert ok.rack_feed_kw[0] == pytest.approx(43.6) and ok.rack_feed_ok[0]
    bad = compute_power(compile_project(dgx_rack(5)), 0.8)  # 51 kW > 43.6 kW left on one feed
    assert not bad.rack_feed_ok[0]


def test_feed_with_four_pdus_keeps_two_and_unknown_without_pdus():
    c = compile_project(dgx_rack(5))
    four = dataclasses.replace(c, racks=dataclasses.replace(c.racks, pdu_count=np.array([4], dtype=np.int16)))
    assert compute_power(four, 0.8).rack_feed_kw[0] == pytest.approx(2 * 43.6)
    one = dataclasses.replace(c, racks=dataclasses.replace(c.racks, pdu_count=np.array([1], dtype=np.int16)))
    assert not compute_power(one, 0.8).rack_feed_ok[0]  # a single PDU is no A/B pair
    busbar = compute_power(compile_project(build([(NVL72_RACK, "A")], [("nvidia-gb200-nvl72", 0)])), 0.8)
    assert not busbar.rack_feed_known[0] and busbar.rack_feed_ok[0]


def test_psu_redundancy_n_psus_must_carry_max():
    c = compile_project(dgx_rack(1))
    assert compute_power(c, 0.8).psu_ok[0]  # 4 × 3.3 kW ≥ 10.2 kW
    weak = dataclasses.replace(c.devices, psu_rating_w=np.array([2500.0]))  # 4 × 2.5 kW < 10.2 kW
    assert not compute_power(dataclasses.replace(c, devices=weak), 0.8).psu_ok[0]


def test_budget_flags_at_load_and_at_max():
    power = compute_power(compile_project(dgx_rack(4)), 0.8)  # 26.1 kW at load, 40.8 at max, budget 40
    assert not power.rack_over_budget[0] and power.rack_over_budget_max[0]


# -- properties -------------------------------------------------------------------------------------------
rack_specs = st.lists(
    st.tuples(st.sampled_from([HD_RACK, "generic-42u-600x1200"]), st.sampled_from("ABC")),
    min_size=1,
    max_size=5,
)


@st.composite
def projects(draw):
    racks = draw(rack_specs)
    devs = draw(
        st.lists(
            st.tuples(st.sampled_from(TYPES), st.one_of(st.none(), st.integers(0, len(racks) - 1))),
            max_size=14,
        )
    )
    return racks, devs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(projects(), st.floats(0, 1))
def test_conservation_device_rack_row_it(spec, util):
    power = compute_power(compile_project(build(*spec)), util)
    for q in ("idle", "load", "typical", "max"):
        dev = getattr(power, f"device_{q}_w").sum() / 1000
        un = getattr(power, f"unracked_kw_{q}")
        assert getattr(power, f"rack_kw_{q}").sum() + un == pytest.approx(dev, abs=1e-9)
        assert getattr(power, f"row_kw_{q}").sum() + un == pytest.approx(dev, abs=1e-9)
        assert getattr(power, f"it_kw_{q}") == pytest.approx(dev, abs=1e-9)
    assert np.all(power.device_idle_w <= power.device_load_w + 1e-9)
    assert np.all(power.device_load_w <= power.device_max_w + 1e-9)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(projects(), st.sampled_from(TYPES), st.floats(0, 1), st.data())
def test_adding_a_device_never_lowers_rack_kw(spec, extra, util, data):
    racks, devs = spec
    target = data.draw(st.integers(0, len(racks) - 1))
    before = compute_power(compile_project(build(racks, devs)), util)
    after = compute_power(compile_project(build(racks, [*devs, (extra, target)])), util)
    for q in ("load", "typical", "max"):
        assert np.all(getattr(after, f"rack_kw_{q}") >= getattr(before, f"rack_kw_{q}") - 1e-12)
    assert after.rack_kw_max[target] > before.rack_kw_max[target]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(projects(), st.floats(0, 1), st.data())
def test_incremental_move_equals_full_recompute(spec, util, data):
    c = compile_project(build(*spec))
    n_dev, n_rack = len(c.devices.ids), len(c.racks.ids)
    if n_dev == 0:
        return
    power = compute_power(c, util)
    racks = c.devices.rack.copy()
    moves = data.draw(
        st.lists(st.tuples(st.integers(0, n_dev - 1), st.integers(-1, n_rack - 1)), max_size=12)
    )
    for dev, rack in moves:
        power = update_rack_of(power, dev, rack)
        racks[dev] = rack
    full = compute_power(dataclasses.replace(c, devices=dataclasses.replace(c.devices, rack=racks)), util)
    assert np.array_equal(power.device_rack, full.device_rack)
    for q in ("idle", "load", "typical", "max"):
        for part in ("rack_kw", "row_kw"):
            # exact: the touched racks are re-summed in device order, as the full bincount does
            np.testing.assert_array_equal(getattr(power, f"{part}_{q}"), getattr(full, f"{part}_{q}"))
        assert getattr(power, f"unracked_kw_{q}") == getattr(full, f"unracked_kw_{q}")
    assert np.array_equal(power.rack_feed_ok, full.rack_feed_ok)
    assert np.array_equal(power.rack_over_budget, full.rack_over_budget)
