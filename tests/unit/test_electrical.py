"""Electrical chain (engine/facility/electrical.py) against hand-computed cases. Formulas: three-phase current
I = P / (√3 × V × PF); NEC 210.20(A) continuous load ≤ 80 % of the rating; IEC 60898/60947 standard
ratings; UPS/generator/transformer counts under N, N+1 and 2N. Constants: catalogs/assumptions/electrical.yaml
(400 V, PF 0.95, 63 A rack feeds, 500 kVA UPS modules, 2,500 kVA gensets, 750 kW CDUs)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.facility.electrical import current_a, standard_rating, units
from gpuplanner.model import Device, Project, Rack


def test_three_phase_current_and_standard_ratings():
    # 40.8 kW (4 × DGX H100 at 10.2 kW) at 400 V, PF 0.95: 40,800 / (1.732 × 400 × 0.95) = 61.99 A
    assert current_a(40.8, 400, 0.95)[()] == pytest.approx(40_800 / (math.sqrt(3) * 400 * 0.95))
    ratings = [16, 20, 25, 32, 40, 50, 63]
    r, n = standard_rating(np.array([77.5, 30.0, 16.0]), ratings)
    # 77.5 A > 63 A: two 63 A devices in parallel (38.75 A each → the 40 A rating, count 2)
    assert r.tolist() == [40.0, 32.0, 16.0] and n.tolist() == [2, 1, 1]


def test_redundancy_counts():
    assert units(1487.1, 500, "N") == (3, 3)
    assert units(1487.1, 500, "N+1") == (3, 4)
    assert units(1487.1, 500, "2N") == (3, 6)
    assert units(0.0, 500, "2N") == (0, 0)


def _one_rack(n_dgx: int, **site) -> object:
    p = Project()
    s = UndoStack(p)
    s.push(AddRows("racks", [Rack(id="r0", name="R0", type_id="generic-48u-600x1200-hd")]))
    s.push(
        AddRows(
            "devices",
            [Device(id=f"d{i}", name=f"n{i}", type_id="nvidia-dgx-h100", rack_id="r0") for i in range(n_dgx)],
        )
    )
    if site:
        s.push(SetFields(p, "site", "site", **site))
    return analyze_project(p)


def test_one_rack_of_four_dgx_h100_by_hand():
    res = _one_rack(4)
    e = res.electrical
    side = 40_800 / (math.sqrt(3) * 400 * 0.95)  # 61.99 A on each of A and B
    assert e.rack_side_current_a[0] == pytest.approx(side)
    assert e.rack_circuits_per_side[0] == 2  # 61.99 / 0.8 = 77.5 A > one 63 A feed
    assert e.rack_breaker_a[0] == 40.0  # 77.5 / 2 = 38.7 A → 40 A
    row = e.rows[0]
    assert row["busway_a"] == 160.0 and row["busways_per_side"] == 1  # 77.5 A → 160 A track busway
    # UPS: 40.8 / 0.95 = 42.9 kVA → one 500 kVA module; 2N installs two
    assert e.ups["modules_needed"] == 1 and e.ups["modules_installed"] == 2
    assert e.ups["battery_kwh"] == pytest.approx(40.8 * 10 / 60 / 0.96)
    assert e.ups["loss_kw_at_load"] == pytest.approx(res.power.it_kw_load * (1 / 0.96 - 1))
    # the rack PDUs (2 × 63 A, one per side) cannot take 2 circuits per side: one grouped finding
    rules = [f.rule for f in res.findings]
    assert rules.count("rack-needs-several-circuits") == 1
    n1 = _one_rack(4, redundancy="N+1").electrical
    assert n1.ups["modules_installed"] == 2 and n1.generator["installed"] == 2
    n = _one_rack(4, redundancy="N").electrical
    assert n.ups["modules_installed"] == 1 and n.transformer["installed"] == 1


def test_cdus_per_row_for_liquid_load():
    res = _one_rack(4)
    liquid = float(res.thermal.rack_liquid_kw_max[0] + res.thermal.rack_loop_kw_max[0])
    row = res.electrical.rows[0]
    assert row["liquid_kw_max"] == pytest.approx(liquid)
    expected = (math.ceil(liquid / 750) + 1) if liquid > 0 else 0
    assert row["cdus"] == expected
    assert res.electrical.cdus["count"] == expected


def test_pue_with_designed_electrical_losses():
    res = _one_rack(2)
    e = res.electrical
    losses = e.ups["loss_kw_at_load"] + e.transformer["loss_kw_at_load"]
    assert e.pue == pytest.approx(res.thermal.pue - 0.058 + losses / res.power.it_kw_load)
    # the transformer passes IT + UPS loss + mechanical load
    t_in = e.utility["kw_at_load"] - e.transformer["loss_kw_at_load"]
    assert e.transformer["loss_kw_at_load"] == pytest.approx(t_in * (1 / 0.985 - 1))


def test_a_budget_raised_above_the_rack_rating_is_said():
    # generic-48u-600x1200-hd is rated 40 kW (catalogs/rack); a 42 kW budget is set on the rack
    p = Project()
    s = UndoStack(p)
    s.push(
        AddRows(
            "racks",
            [
                Rack(id="r0", name="R0", type_id="generic-48u-600x1200-hd", power_budget_kw=42.0),
                Rack(id="r1", name="R1", type_id="generic-48u-600x1200-hd"),
            ],
        )
    )
    res = analyze_project(p)
    found = [f for f in res.findings if f.rule == "rack-budget-above-rating"]
    assert len(found) == 1 and found[0].items == ("r0",)
    assert (found[0].params["budget_kw"], found[0].params["rated_kw"]) == (42.0, 40.0)
    assert "42" in found[0].message("zh") and "40" in found[0].message("zh")
    # the rack type by its name in the message's language (s11): Chinese words in Chinese, the catalog's name
    assert "the rack type 48U rack, 600 × 1200 mm, high density (40 kW) is rated for" in found[0].message(
        "en"
    )
    assert "高于机柜（48U，600 × 1,200 mm）的额定 40.0 kW" in found[0].message("zh")
    assert found[0].to_json("zh")["params"]["type"] == "机柜（48U，600 × 1,200 mm）"
