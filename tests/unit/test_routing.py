"""ECMP router (gpuplanner.engine.fabric.routing) and the fat-tree array builders.

The router is checked against a straightforward NetworkX per-destination ECMP
(benchmarks/networkx_ecmp.py) on random small graphs, and for invariants on generated fat trees.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.networkx_ecmp import ecmp_reference, to_networkx
from gpuplanner.engine.fabric.fattree_arrays import (
    TIER_LEAF,
    TIER_SPINE,
    FabricArrays,
    fat_tree_3tier,
    fat_tree_two_plane,
    rail_leaf_spine,
)
from gpuplanner.engine.fabric.routing import build_router, utilization

PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _router(fa: FabricArrays, **kw):
    return build_router(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, **kw)


def _node_flows(n_nodes, link_a, link_b, loads):
    """(bytes into each node, bytes out of each node)."""
    into = np.bincount(link_b, loads.load_ab_bytes, n_nodes) + np.bincount(
        link_a, loads.load_ba_bytes, n_nodes
    )
    out = np.bincount(link_a, loads.load_ab_bytes, n_nodes) + np.bincount(
        link_b, loads.load_ba_bytes, n_nodes
    )
    return into, out


# ---- random graphs vs. the NetworkX reference -----------------------------------------------------


@st.composite
def random_graphs(draw):
    """Small graphs: switches with random links, endpoints homed to 0-3 switches, a few direct cables."""
    n_sw = draw(st.integers(1, 7))
    n_ep = draw(st.integers(2, 9))
    n = n_sw + n_ep
    pairs = set()
    for i in range(n_sw):
        for j in range(i + 1, n_sw):
            if draw(st.booleans()):
                pairs.add((i, j))
    for e in range(n_sw, n):
        for s in draw(st.sets(st.integers(0, n_sw - 1), max_size=3)):
            pairs.add((e, s) if draw(st.booleans()) else (s, e))
    for _ in range(draw(st.integers(0, 2))):
        a, b = draw(st.integers(n_sw, n - 1)), draw(st.integers(n_sw, n - 1))
        if a != b and (b, a) not in pairs:
            pairs.add((a, b))
    pairs = sorted(pairs)
    order = draw(st.permutations(range(len(pairs))))
    link_a = np.array([pairs[i][0] for i in order], np.int32)
    link_b = np.array([pairs[i][1] for i in order], np.int32)
    transit = np.arange(n) < n_sw
    nodes = st.integers(0, n - 1) if draw(st.booleans()) else st.integers(n_sw, n - 1)
    flows = draw(st.lists(st.tuples(nodes, nodes, st.floats(0, 1e9)), max_size=25))
    src = np.array([f[0] for f in flows], np.int32)
    dst = np.array([f[1] for f in flows], np.int32)
    vol = np.array([f[2] for f in flows], np.float64)
    return n, link_a, link_b, transit, src, dst, vol


@PROPS
@given(random_graphs(), st.sampled_from([1, 2, 3, 512]))
def test_matches_networkx_reference_on_random_graphs(case, block_size):
    n, a, b, transit, src, dst, vol = case
    router = build_router(n, a, b, transit, block_size=block_size)
    loads = router.link_loads(src, dst, vol)
    ref_ab, ref_ba, ref_unroutable, ref_hops = ecmp_reference(n, a, b, transit, src, dst, vol)
    np.testing.assert_allclose(loads.load_ab_bytes, ref_ab, rtol=1e-9, atol=1e-3)
    np.testing.assert_allclose(loads.load_ba_bytes, ref_ba, rtol=1e-9, atol=1e-3)
    np.testing.assert_array_equal(loads.unroutable, ref_unroutable)
    np.testing.assert_array_equal(router.hop_counts(src, dst), ref_hops)


@PROPS
@given(random_graphs())
def test_diameter_matches_all_pairs_reference(case):
    n, a, b, transit, *_ = case
    ep = np.flatnonzero(~transit)
    src, dst = (x.ravel() for x in np.meshgrid(ep, ep))
    keep = src != dst
    *_, hops = ecmp_reference(n, a, b, transit, src[keep], dst[keep], np.ones(keep.sum()))
    assert build_router(n, a, b, transit).diameter() == max(0, int(hops.max(initial=0)))


@PROPS
@given(random_graphs())
def test_conservation_and_delivery_on_random_graphs(case):
    n, a, b, transit, src, dst, vol = case
    between_endpoints = ~transit[src] & ~transit[dst]
    src, dst = src[between_endpoints], dst[between_endpoints]
    vol = np.full(src.size, 1e6)
    loads = build_router(n, a, b, transit).link_loads(src, dst, vol)
    into, out = _node_flows(n, a, b, loads)
    np.testing.assert_allclose(into[transit], out[transit], atol=1e-3)
    ok = ~loads.unroutable & (src != dst)
    np.testing.assert_allclose(into[~transit], np.bincount(dst[ok], vol[ok], n)[~transit], atol=1e-3)
    np.testing.assert_allclose(out[~transit], np.bincount(src[ok], vol[ok], n)[~transit], atol=1e-3)


# ---- fat trees ------------------------------------------------------------------------------------

FABRICS = st.sampled_from(
    [
        lambda: rail_leaf_spine(8, gpus_per_server=2, su_servers=4, radix=8),
        lambda: rail_leaf_spine(6, gpus_per_server=2, su_servers=4, radix=8, oversubscription=2.0),
        lambda: rail_leaf_spine(32, gpus_per_server=4, su_servers=8, radix=16),
        lambda: fat_tree_3tier(8, gpus_per_server=2, radix=4),
        lambda: fat_tree_3tier(12, gpus_per_server=4, radix=8, rail_optimised=False),
        lambda: fat_tree_3tier(32, gpus_per_server=4, radix=8),
        lambda: fat_tree_two_plane(8, gpus_per_server=4, radix=4),
        lambda: fat_tree_two_plane(16, gpus_per_server=4, radix=8, tiers=2, su_servers=4),
    ]
)


@PROPS
@given(FABRICS, st.data())
def test_flow_conservation_and_delivery_on_fat_trees(make, data):
    fa = make()
    ep = np.flatnonzero(~fa.transit)
    n_flows = data.draw(st.integers(1, 60))
    idx = st.lists(st.integers(0, ep.size - 1), min_size=n_flows, max_size=n_flows)
    src, dst = ep[data.draw(idx)], ep[data.draw(idx)]
    vol = np.array(data.draw(st.lists(st.floats(1.0, 1e9), min_size=n_flows, max_size=n_flows)))
    router = _router(fa)
    loads = router.link_loads(src, dst, vol)
    # two planes do not join: only rails on the same plane can reach each other
    np.testing.assert_array_equal(loads.unroutable, fa.plane[src] != fa.plane[dst])
    into, out = _node_flows(fa.n_nodes, fa.link_a, fa.link_b, loads)
    np.testing.assert_allclose(into[fa.transit], out[fa.transit], rtol=1e-12, atol=1e-6)
    ok = ~loads.unroutable & (src != dst)
    np.testing.assert_allclose(into[ep], np.bincount(dst[ok], vol[ok], fa.n_nodes)[ep], rtol=1e-12)
    # and demand by demand: conserved at every switch, delivered in full at its destination
    for i in np.flatnonzero(ok)[:5]:
        one = router.link_loads(src[i : i + 1], dst[i : i + 1], vol[i : i + 1])
        into, out = _node_flows(fa.n_nodes, fa.link_a, fa.link_b, one)
        np.testing.assert_allclose(into[fa.transit], out[fa.transit], rtol=1e-12, atol=1e-6)
        assert into[dst[i]] == pytest.approx(vol[i]) and out[src[i]] == pytest.approx(vol[i])
        assert into[ep].sum() == pytest.approx(vol[i])


@PROPS
@given(FABRICS, st.data())
def test_loads_symmetric_when_topology_and_demand_are(make, data):
    fa = make()
    ep = np.flatnonzero(~fa.transit)
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(ep), st.sampled_from(ep)), min_size=1, max_size=30))
    src = np.array([p[0] for p in pairs])
    dst = np.array([p[1] for p in pairs])
    vol = np.array(data.draw(st.lists(st.floats(1.0, 1e9), min_size=len(pairs), max_size=len(pairs))))
    both = _router(fa).link_loads(np.r_[src, dst], np.r_[dst, src], np.r_[vol, vol])
    np.testing.assert_allclose(both.load_ab_bytes, both.load_ba_bytes, rtol=1e-9)


def test_uniform_all_to_all_loads_every_leaf_uplink_equally():
    fa = rail_leaf_spine(32, gpus_per_server=4, su_servers=8, radix=16)
    ep = np.flatnonzero(~fa.transit)
    src, dst = (x.ravel() for x in np.meshgrid(ep, ep))
    loads = _router(fa).link_loads(src, dst, np.ones(src.size))
    up = (fa.tier[fa.link_a] == TIER_LEAF) & (fa.tier[fa.link_b] == TIER_SPINE)
    assert up.any()
    np.testing.assert_allclose(loads.load_ab_bytes[up], loads.load_ab_bytes[up][0], rtol=1e-12)
    np.testing.assert_allclose(loads.load_ba_bytes[up], loads.load_ab_bytes[up][0], rtol=1e-12)


def _spine_links(fa: FabricArrays) -> np.ndarray:
    return (fa.tier[fa.link_a] == TIER_LEAF) & (fa.tier[fa.link_b] == TIER_SPINE)


def test_ecmp_splits_evenly_over_spines():
    fa = rail_leaf_spine(16, gpus_per_server=2, su_servers=4, radix=16)  # 8 leaves, 2 spines x 2 cables
    spines = np.flatnonzero(fa.tier == TIER_SPINE)
    s, d = fa.gpu_node[0, 0], fa.gpu_node[4, 0]  # same rail, different SU
    loads = _router(fa).link_loads([s], [d], [1200.0])
    up = _spine_links(fa)
    leaf_s = fa.link_b[fa.link_a == s][0]
    from_leaf = up & (fa.link_a == leaf_s)
    np.testing.assert_allclose(loads.load_ab_bytes[from_leaf], 1200.0 / spines.size)
    assert loads.load_ab_bytes[up & ~from_leaf].sum() == 0
    assert _router(fa).hop_counts([s], [d])[0] == 4


def test_split_is_per_hop_not_per_path():
    # s=5 -> switches 0 | 1; 0 -> 2 | 3; 1 -> 4; 2, 3, 4 -> endpoint 6. Per path 0 would get 2/3.
    links = [(5, 0), (5, 1), (0, 2), (0, 3), (1, 4), (2, 6), (3, 6), (4, 6)]
    a, b = np.array(links).T
    transit = np.arange(7) < 5
    loads = build_router(7, a, b, transit).link_loads([5], [6], [8.0])
    np.testing.assert_allclose(loads.load_ab_bytes, [4, 4, 2, 2, 4, 2, 2, 4])
    np.testing.assert_allclose(loads.load_ba_bytes, 0)


def test_removing_a_spine_raises_the_others_by_s_over_s_minus_1():
    fa = rail_leaf_spine(32, gpus_per_server=4, su_servers=8, radix=16)
    ep = np.flatnonzero(~fa.transit)
    rng = np.random.default_rng(1)
    src, dst = (x.ravel() for x in np.meshgrid(ep, ep))
    vol = np.repeat(rng.uniform(1, 10, ep.size), ep.size)  # varied per source, uniform over spines
    up = _spine_links(fa)
    spines = np.unique(fa.link_b[up])
    before = _router(fa).link_loads(src, dst, vol)
    keep = fa.link_b != spines[0]
    after = build_router(fa.n_nodes, fa.link_a[keep], fa.link_b[keep], fa.transit).link_loads(src, dst, vol)
    survivors = up[keep] & (fa.link_b[keep] != spines[0])
    factor = spines.size / (spines.size - 1)
    np.testing.assert_allclose(after.load_ab_bytes[survivors], before.load_ab_bytes[keep][survivors] * factor)
    np.testing.assert_allclose(after.load_ba_bytes[survivors], before.load_ba_bytes[keep][survivors] * factor)
    assert not after.unroutable.any()


def test_unroutable_demands_are_flagged_and_carry_nothing():
    # 0, 1 switches (not linked); endpoints 2, 3 on 0; 4 on 1; 5 has no link; 6 reachable only via 3
    links = [(2, 0), (3, 0), (4, 1), (3, 6)]
    a, b = np.array(links).T
    transit = np.arange(7) < 2
    router = build_router(7, a, b, transit)
    src, dst, vol = [2, 2, 5, 2, 3], [3, 4, 2, 6, 6], [1.0, 2.0, 4.0, 8.0, 16.0]
    loads = router.link_loads(src, dst, vol)
    np.testing.assert_array_equal(loads.unroutable, [False, True, True, True, False])
    np.testing.assert_array_equal(router.hop_counts(src, dst), [2, -1, -1, -1, 1])
    np.testing.assert_allclose(loads.load_ab_bytes, [1, 0, 0, 16])  # endpoint 3 never forwards 2 → 6
    np.testing.assert_allclose(loads.load_ba_bytes, [0, 1, 0, 0])


def test_multi_homed_endpoint_splits_over_its_switches():
    # leaf 0 with endpoint 3; endpoint 4 homed to leaves 1 and 2, both linked to leaf 0
    links = [(3, 0), (0, 1), (0, 2), (4, 1), (2, 4)]
    a, b = np.array(links).T
    transit = np.arange(5) < 3
    router = build_router(5, a, b, transit)
    to4 = router.link_loads([3], [4], [10.0])
    np.testing.assert_allclose(to4.load_ab_bytes, [10, 5, 5, 0, 5])
    np.testing.assert_allclose(to4.load_ba_bytes, [0, 0, 0, 5, 0])
    from4 = router.link_loads([4], [3], [10.0])
    np.testing.assert_allclose(from4.load_ab_bytes, [0, 0, 0, 5, 0])
    np.testing.assert_allclose(from4.load_ba_bytes, [10, 5, 5, 0, 5])


def test_parallel_links_share_equally_and_direct_cables_win():
    # endpoints 2, 3 on switch 0 (endpoint 3 by two cables), switch 1 with two links to 0; 2-4 direct
    links = [(2, 0), (3, 0), (0, 3), (0, 1), (1, 0), (5, 1), (2, 4), (4, 0)]
    a, b = np.array(links).T
    transit = np.arange(6) < 2
    router = build_router(6, a, b, transit)
    loads = router.link_loads([2, 2, 5], [3, 4, 2], [6.0, 7.0, 8.0])
    np.testing.assert_allclose(loads.load_ab_bytes, [6, 0, 3, 0, 4, 8, 7, 0])
    np.testing.assert_allclose(loads.load_ba_bytes, [8, 3, 0, 4, 0, 0, 0, 0])
    np.testing.assert_array_equal(router.hop_counts([2, 2, 5, 2], [3, 4, 2, 2]), [2, 1, 3, 0])


def test_repeated_and_block_split_results_agree():
    fa = fat_tree_3tier(32, gpus_per_server=4, radix=8)
    rng = np.random.default_rng(3)
    ep = np.flatnonzero(~fa.transit)
    src, dst, vol = rng.choice(ep, 500), rng.choice(ep, 500), rng.uniform(0, 1e6, 500)
    router = _router(fa)
    first = router.link_loads(src, dst, vol)
    again = router.link_loads(src, dst, vol)
    small = _router(fa, block_size=3).link_loads(src, dst, vol)
    np.testing.assert_array_equal(first.load_ab_bytes, again.load_ab_bytes)
    np.testing.assert_allclose(small.load_ab_bytes, first.load_ab_bytes, rtol=1e-12)
    np.testing.assert_allclose(small.load_ba_bytes, first.load_ba_bytes, rtol=1e-12)


def test_fat_tree_loads_match_networkx_reference():
    fa = fat_tree_3tier(32, gpus_per_server=4, radix=8)
    rng = np.random.default_rng(5)
    ep = np.flatnonzero(~fa.transit)
    src, dst, vol = rng.choice(ep, 300), rng.choice(ep, 300), rng.uniform(0, 1e6, 300)
    loads = _router(fa).link_loads(src, dst, vol)
    g = to_networkx(fa.n_nodes, fa.link_a, fa.link_b, fa.transit)
    assert g.number_of_edges() == fa.link_a.size  # no parallel links: the reference applies
    ref_ab, ref_ba, *_ = ecmp_reference(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, src, dst, vol)
    np.testing.assert_allclose(loads.load_ab_bytes, ref_ab, rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(loads.load_ba_bytes, ref_ba, rtol=1e-9, atol=1e-6)


def test_hop_counts_and_diameters_of_fat_trees():
    two = rail_leaf_spine(8, gpus_per_server=2, su_servers=4, radix=8)
    three = fat_tree_3tier(32, gpus_per_server=4, radix=8)
    assert _router(two).diameter() == 4
    assert _router(three).diameter() == 6
    g = three.gpu_node
    hops = _router(three).hop_counts([g[0, 0]] * 4, [g[0, 0], g[1, 0], g[0, 1], g[-1, 0]])
    np.testing.assert_array_equal(hops, [0, 2, 4, 6])


# ---- textbook sizes of the array builders ---------------------------------------------------------


@pytest.mark.parametrize("k", [16, 32, 64])
def test_two_tier_nonblocking_fat_tree_holds_k_squared_over_2(k):
    fa = rail_leaf_spine(k // 8 * k // 2, gpus_per_server=8, su_servers=k // 2, radix=k)
    assert fa.n_endpoints == k * k // 2
    assert (fa.tier == TIER_LEAF).sum() == k and (fa.tier == TIER_SPINE).sum() == k // 2
    assert fa.ports_used()[fa.transit].max() == k
    with pytest.raises(ValueError):
        rail_leaf_spine(k // 8 * k // 2 + 1, gpus_per_server=8, su_servers=k // 2, radix=k)


@pytest.mark.parametrize(
    ("k", "rails", "rail_optimised"), [(4, 2, True), (8, 4, False), (16, 8, True), (32, 8, True)]
)
def test_three_tier_fat_tree_holds_k_cubed_over_4(k, rails, rail_optimised):
    fa = fat_tree_3tier(k**3 // 4 // rails, gpus_per_server=rails, radix=k, rail_optimised=rail_optimised)
    assert fa.n_endpoints == k**3 // 4
    assert fa.transit.sum() == 5 * k * k // 4  # k pods of k/2 + k/2, (k/2)^2 cores
    assert np.all(fa.ports_used()[fa.transit] == k)
    assert np.all(fa.ports_used()[~fa.transit] == 1)
    with pytest.raises(ValueError):
        fat_tree_3tier(k**3 // 4 // rails + 1, gpus_per_server=rails, radix=k)


def test_two_planes_double_the_endpoints_and_keep_rails_apart():
    fa = fat_tree_two_plane(8 * 8 * 8 // 4 * 2 // 4, gpus_per_server=4, radix=8)
    assert fa.n_endpoints == 2 * 8**3 // 4
    assert fa.ports_used()[fa.transit].max() == 8
    np.testing.assert_array_equal(fa.plane[fa.gpu_node[0]], [0, 0, 1, 1])
    assert np.all(fa.plane[fa.link_a] == fa.plane[fa.link_b])


def test_rail_optimised_leaves_hold_one_rail_of_one_scalable_unit():
    fa = rail_leaf_spine(64, gpus_per_server=8, su_servers=32, radix=64)
    leaf_of_nic = fa.link_b[~fa.transit[fa.link_a]]
    nic = fa.link_a[~fa.transit[fa.link_a]]
    for leaf in np.unique(leaf_of_nic):
        on = nic[leaf_of_nic == leaf]
        assert np.unique(fa.endpoint_rail[on]).size == 1
        assert np.unique(fa.endpoint_server[on] // 32).size == 1 and on.size == 32


# ---- utilisation and input checks -----------------------------------------------------------------


def test_utilization_per_direction():
    a, b = np.array([0, 0]), np.array([1, 2])
    loads = build_router(3, a, b, np.array([True, False, False])).link_loads([1], [2], [1e9])
    ab, ba = utilization(loads, np.array([8.0, 0.0]), window_s=2.0)
    np.testing.assert_allclose(ba, [0.5, 0.0])
    assert ab[0] == 0 and ab[1] == np.inf


def test_invalid_inputs_are_rejected():
    with pytest.raises(ValueError, match="itself"):
        build_router(2, [0, 1], [1, 1], [True, False])
    with pytest.raises(ValueError, match="transit"):
        build_router(3, [0], [1], [True, False])
    router = build_router(3, [0, 0], [1, 2], [True, False, False])
    with pytest.raises(ValueError, match="non-negative"):
        router.link_loads([1], [2], [-1.0])
    with pytest.raises(ValueError, match="node indices"):
        router.link_loads([1], [3], [1.0])
    with pytest.raises(ValueError, match="volume"):
        router.link_loads([1], [2], [1.0, 2.0])


def test_degenerate_topologies():
    no_switch = build_router(3, [0], [1], [False, False, False])
    loads = no_switch.link_loads([0, 1, 0, 2], [1, 0, 2, 2], [3.0, 4.0, 5.0, 6.0])
    np.testing.assert_array_equal(loads.unroutable, [False, False, True, False])
    np.testing.assert_allclose([loads.load_ab_bytes[0], loads.load_ba_bytes[0]], [3.0, 4.0])
    assert no_switch.diameter() == 1
    empty = build_router(0, [], [], []).link_loads([], [], [])
    assert empty.load_ab_bytes.size == 0 and empty.unroutable.size == 0
    chain = build_router(3, [0, 1], [1, 2], [True, True, True])  # switch-to-switch demand
    np.testing.assert_array_equal(chain.hop_counts([0, 2], [2, 2]), [2, 0])
    np.testing.assert_allclose(chain.link_loads([0], [2], [1.0]).load_ab_bytes, [1.0, 1.0])


def test_repeated_demands_are_answered_from_memory_without_sharing_arrays():
    fa = rail_leaf_spine(32, gpus_per_server=4, su_servers=8, radix=16)
    ep = np.flatnonzero(~fa.transit)
    src, dst = ep, np.roll(ep, 5)
    router = _router(fa)
    first = router.link_loads(src, dst, np.ones(src.size))
    expect = first.load_ab_bytes.copy()
    first.load_ab_bytes[:] = -1.0  # the caller owns what it got
    again = router.link_loads(src, dst, np.ones(src.size))
    np.testing.assert_array_equal(again.load_ab_bytes, expect)
    fresh = _router(fa).link_loads(src, dst, np.ones(src.size))
    np.testing.assert_array_equal(again.load_ba_bytes, fresh.load_ba_bytes)
    double = router.link_loads(src, dst, np.full(src.size, 2.0))  # another demand is routed, not recalled
    np.testing.assert_allclose(double.load_ab_bytes, 2 * expect)
