"""Ambient temperature → free-cooling hours → cooling overhead (engine/facility/climate.py), hand-computed.
Constants: catalogs/assumptions/facility.yaml free_cooling (economiser 21 °C, σ 8 K, s 0.4, reference 12 °C;
ASHRAE TC 9.9 recommended inlet range and ASHRAE climatic design data, estimates)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from gpuplanner.engine.facility.climate import climate_factor, climate_json, free_cooling_share
from gpuplanner.engine.facility.power import load_assumptions
from gpuplanner.model.rows import Site


def phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def test_free_cooling_share_is_a_normal_tail():
    assert free_cooling_share(21.0, 21.0, 8.0) == pytest.approx(0.5)
    assert free_cooling_share(13.0, 21.0, 8.0) == pytest.approx(phi(1.0))  # 0.841
    assert free_cooling_share(25.0, 21.0, 8.0) == pytest.approx(phi(-0.5))  # 0.309


def test_auto_climate_scales_the_overhead_by_ambient():
    a = load_assumptions("facility")
    hot = dataclasses.replace(Site(), climate="auto", ambient_temp_c=25.0)
    ref = dataclasses.replace(Site(), climate="auto", ambient_temp_c=12.0)
    cold = dataclasses.replace(Site(), climate="auto", ambient_temp_c=5.0)
    expected = (1 - 0.4 * phi(-0.5)) / (1 - 0.4 * phi(9 / 8))
    assert climate_factor(hot, a) == pytest.approx(expected)  # ≈ 1.34
    assert climate_factor(ref, a) == pytest.approx(1.0)
    assert climate_factor(cold, a) < 1.0 < climate_factor(hot, a)
    # a label ignores the ambient temperature
    assert climate_factor(dataclasses.replace(hot, climate="temperate"), a) == 1.0
    js = climate_json(hot, a)
    assert js["free_cooling_hours_per_year"] == round(8760 * phi(-0.5)) and js["uses_ambient"]
