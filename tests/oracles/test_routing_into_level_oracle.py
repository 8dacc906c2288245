"""Both ways the push finds the arcs one hop closer (``routing_fields._next_hop_arcs``) against the per-flow
NetworkX oracle and against each other: every arc out of the word rows' switches (kept where the mask is not
empty), or the arcs into the switches one hop closer, head by head (``BlockFields.into_level``), kept where
their tail carries traffic and sorted into the same order. The second is chosen where it is far smaller (core
→ aggregation in a 3-tier fat tree). Each case is routed with each way forced on every level, on every fabric
family, with and without link failures; the two ways must give the same numbers bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.engine.fabric import routing_fields
from gpuplanner.engine.fabric.fattree_arrays import fat_tree_3tier
from gpuplanner.engine.fabric.routing import build_router
from tests.oracles.ecmp_oracle import ecmp_per_flow
from tests.oracles.test_routing_patterns_oracle import FABRICS, PATTERNS, _fail_links, multigraphs

FORCED = {"arcs into the next level": float("inf"), "arcs out of the word rows": 0.0}


def _both_ways(monkeypatch, n, a, b, transit, src, dst, vol, block_size):
    out = {}
    for way, share in FORCED.items():
        monkeypatch.setattr(routing_fields, "INTO_LEVEL_SHARE", share)
        router = build_router(n, a, b, transit, block_size=block_size)
        out[way] = (router.link_loads(src, dst, vol), router.hop_counts(src, dst))
    (into, hops), (outof, _) = out.values()
    np.testing.assert_array_equal(into.load_ab_bytes, outof.load_ab_bytes)
    np.testing.assert_array_equal(into.load_ba_bytes, outof.load_ba_bytes)
    ref = ecmp_per_flow(n, a, b, transit, src, dst, vol)
    atol = 1e-12 * max(float(vol.sum()), 1.0)
    np.testing.assert_allclose(into.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(into.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_array_equal(into.unroutable, ref.unroutable)
    np.testing.assert_array_equal(hops, ref.hops)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("family", list(FABRICS))
def test_both_ways_match_the_per_flow_oracle(monkeypatch, family, pattern, seed):
    n, a, b, transit, gpus = FABRICS[family]()
    rng = np.random.default_rng([seed, len(family), len(pattern), 19])
    if seed:  # random failures: 2-15 % of the links, server links included
        a, b, _ = _fail_links(rng, a, b, rng.uniform(0.02, 0.15))
    gpus = rng.permutation(gpus)[:64]
    src, dst = PATTERNS[pattern](rng, gpus)
    vol = rng.uniform(1.0, 1e9, src.size)
    _both_ways(monkeypatch, n, a, b, transit, src, dst, vol, 64 if seed else 512)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(multigraphs(), st.sampled_from([1, 3, 64]))
def test_both_ways_on_random_multigraphs(monkeypatch, case, block_size):
    """Parallel links, endpoints homed to several switches, direct cables, switches that send and receive."""
    n, a, b, transit, src, dst, vol = case
    _both_ways(monkeypatch, n, a, b, transit, src, dst, vol, block_size)


@pytest.mark.parametrize("family", ["fat-tree-3tier", "two-planes-3tier", "dragonfly", "leaf-spine"])
def test_the_entries_into_a_level_are_every_arc_whose_head_is_at_that_distance(family):
    n, a, b, transit, _ = FABRICS[family]()
    router = build_router(n, a, b, transit, block_size=64)
    sub = router._g.switches
    for blk in range(router._g.n_blocks):
        bf = router._block(blk)
        width = bf.levels[0].shape[1]
        for d, lv in enumerate(bf.levels):
            count, entries = bf.into_level(d, build=True)
            assert entries is not None and count == entries.size
            expected = [
                p * width + w  # a plain loop over heads, their in-arcs (CSR order) and words
                for h in range(sub.nodes.size)
                for w in range(width)
                if lv[h, w]
                for p in np.flatnonzero(sub.head == h).tolist()
            ]
            np.testing.assert_array_equal(entries, np.array(expected, np.int64).reshape(-1))


def test_a_three_tier_ring_enumerates_into_the_aggregation_level(monkeypatch):
    """The case the second way is for (few destination pods per word, traffic on every core): with the
    default share it is taken on some level, and the loads equal the oracle's."""
    fa = fat_tree_3tier(128, gpus_per_server=8, radix=16)
    built = []
    into_level = routing_fields.BlockFields.into_level

    def spy(self, d, build):
        built.append(build)
        return into_level(self, d, build)

    monkeypatch.setattr(routing_fields.BlockFields, "into_level", spy)
    src, dst = PATTERNS["ring"](None, fa.gpu_node.ravel())
    vol = np.random.default_rng(3).uniform(1.0, 1e9, src.size)
    router = build_router(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, block_size=16)
    loads = router.link_loads(src, dst, vol)
    assert any(built)
    ref = ecmp_per_flow(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, src, dst, vol)
    np.testing.assert_allclose(loads.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=1e-12 * vol.sum())
    np.testing.assert_allclose(loads.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=1e-12 * vol.sum())
