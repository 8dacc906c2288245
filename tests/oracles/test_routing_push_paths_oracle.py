"""Both ways the push moves traffic one hop closer (``routing_fields.push``) against the per-flow NetworkX
oracle: per (arc, column) adds (chosen where runs carry few columns, e.g. the injection level of an
all-to-all) and the sparse 64-column product (chosen where runs carry many). Each case is routed with
each way forced on every level, on every fabric family, with and without link failures."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.engine.fabric import routing_fields
from gpuplanner.engine.fabric.routing import build_router
from tests.oracles.ecmp_oracle import ecmp_per_flow
from tests.oracles.test_routing_patterns_oracle import FABRICS, PATTERNS, _fail_links

FORCED = {"per-column adds": 1 << 30, "sparse product": -1}


@pytest.mark.parametrize("way", list(FORCED))
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("pattern", ["all-to-all", "ring", "storage"])
@pytest.mark.parametrize("family", list(FABRICS))
def test_each_pull_matches_the_per_flow_oracle(monkeypatch, family, pattern, seed, way):
    monkeypatch.setattr(routing_fields, "SCALAR_PULL", FORCED[way])
    n, a, b, transit, gpus = FABRICS[family]()
    rng = np.random.default_rng([seed, len(family), len(pattern), 7])
    if seed:
        a, b, _ = _fail_links(rng, a, b, rng.uniform(0.02, 0.15))
    gpus = rng.permutation(gpus)[:64]
    src, dst = PATTERNS[pattern](rng, gpus)
    vol = rng.uniform(1.0, 1e9, src.size)
    loads = build_router(n, a, b, transit, block_size=64 if seed else 512).link_loads(src, dst, vol)
    ref = ecmp_per_flow(n, a, b, transit, src, dst, vol)
    atol = 1e-12 * vol.sum()
    np.testing.assert_allclose(loads.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(loads.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_array_equal(loads.unroutable, ref.unroutable)
