"""Regression tests for fancy-index accumulation in the engine (`a[idx] += v` keeps one addition per distinct
index when idx repeats; np.bincount / np.add.at add them all).

Found in ``engine/routing_fields.push``: an arc of a switch appears once per 64-destination word row that
uses it, and only the last word's share was kept. Fabrics with ≤ 64 switches fit one word and never showed
it; a 3-tier fat tree (hundreds of switches) under-counted switch-to-switch links by up to 86 %.
"""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.fabric.fattree_arrays import fat_tree_3tier
from gpuplanner.engine.fabric.routing import build_router
from tests.oracles.ecmp_oracle import ecmp_per_flow


def _fabric():
    # radix 16: 16 pods × (8 edge + 8 aggregation) + 64 cores = 320 switches (5 words of destinations)
    return fat_tree_3tier(128, gpus_per_server=8, radix=16)


def test_two_flows_from_one_leaf_to_two_pods_carry_twelve_byte_hops():
    """GPU 0 of server 0 (pod 0) sends 1 byte to a server of pod 1 and 1 byte to one of pod 15: 6 hops each.
    Their destination leaves are more than 64 switches apart, so they sit in different words: the old
    code counted the shared first switch-to-switch hops once (10 byte-hops)."""
    fa = _fabric()
    g = fa.gpu_node
    router = build_router(fa.n_nodes, fa.link_a, fa.link_b, fa.transit)
    src, dst = [g[0, 0], g[0, 0]], [g[8, 0], g[120, 0]]  # 8 servers per pod
    assert list(router.hop_counts(src, dst)) == [6, 6]
    loads = router.link_loads(src, dst, [1.0, 1.0])
    assert loads.load_ab_bytes.sum() + loads.load_ba_bytes.sum() == 12.0


def test_many_destination_words_match_the_per_flow_oracle():
    """All-to-all-like demand from one leaf to every pod: every switch arc against the per-flow oracle."""
    fa = _fabric()
    rng = np.random.default_rng(20)
    ep = fa.gpu_node
    src = ep[rng.integers(0, 8, 200), 0]  # pod 0, rail 0
    dst = ep[rng.integers(0, 128, 200), rng.integers(0, 8, 200)]
    vol = rng.uniform(1.0, 1e6, 200)
    loads = build_router(fa.n_nodes, fa.link_a, fa.link_b, fa.transit).link_loads(src, dst, vol)
    ref = ecmp_per_flow(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, src, dst, vol)
    np.testing.assert_allclose(loads.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=1e-9 * vol.sum())
    np.testing.assert_allclose(loads.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=1e-9 * vol.sum())
