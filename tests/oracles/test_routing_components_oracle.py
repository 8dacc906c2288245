"""Distance fields searched per connected component and shared between identical planes
(``engine/fabric/routing_components``) against the plain search over every switch arc, and the router that
uses them against the per-flow NetworkX oracle.

The shared path is taken when a block's attachment switches lie in one component whose switches are a
contiguous range and another component's arcs equal it shifted: the two planes of a multi-plane fabric.
Small block sizes make many blocks per plane, so most blocks are served by a search of the other plane.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.engine.fabric.fattree_arrays import fat_tree_3tier, fat_tree_two_plane
from gpuplanner.engine.fabric.routing import _ranges, build_router
from gpuplanner.engine.fabric.routing_fields import compute_block
from tests.oracles.ecmp_oracle import ecmp_per_flow
from tests.oracles.test_routing_patterns_oracle import PATTERNS


def _two_planes(tiers):
    if tiers == 3:
        fa = fat_tree_two_plane(32, gpus_per_server=4, radix=8)
    else:
        fa = fat_tree_two_plane(16, gpus_per_server=4, radix=8, tiers=2, su_servers=4)
    return fa.n_nodes, fa.link_a, fa.link_b, fa.transit, fa.gpu_node.ravel(), fa.plane


def _fail_in_one_plane(rng, a, b, transit, plane, frac=0.15):
    """Drop switch-to-switch links of plane 1 only: the planes are no longer the same graph."""
    between = transit[a] & transit[b] & (plane[a] == 1)
    keep = ~(between & (rng.random(a.size) < frac))
    assert not keep.all()
    return a[keep], b[keep]


def _permuted(rng, n, a, b, transit, gpus, plane):
    """Node ids shuffled: each plane's switches are no longer a contiguous range of local indices."""
    perm = rng.permutation(n)
    inv = np.empty(n, np.int64)
    inv[perm] = np.arange(n)
    return n, inv[a], inv[b], transit[perm], inv[gpus], plane[perm]


def _case(tiers, variant, seed):
    rng = np.random.default_rng([tiers, seed, len(variant)])
    n, a, b, transit, gpus, plane = _two_planes(tiers)
    if variant == "one-plane-failed":
        a, b = _fail_in_one_plane(rng, a, b, transit, plane)
    if variant == "permuted":
        n, a, b, transit, gpus, plane = _permuted(rng, n, a, b, transit, gpus, plane)
    return rng, n, a, b, transit, gpus


VARIANTS = ["intact", "one-plane-failed", "permuted"]


@pytest.mark.parametrize("block_size", [1, 3, 8, 64, 512])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("tiers", [2, 3])
def test_fields_equal_the_search_over_every_arc(tiers, variant, block_size):
    _, n, a, b, transit, _ = _case(tiers, variant, 0)
    router = build_router(n, a, b, transit, block_size=block_size)
    g = router._g
    every = np.arange(g.switches.nodes.size)
    for blk in range(g.n_blocks):
        got = router._block(blk)
        fields = g.block_fields(blk)
        counts = g.field_ptr[fields + 1] - g.field_ptr[fields]
        init = g.field_init[_ranges(g.field_ptr[fields], counts)]
        ref = compute_block(g.switches, init, np.repeat(np.arange(fields.size), counts), fields.size)
        assert got.dist.dtype == ref.dist.dtype and got.unreached == ref.unreached
        np.testing.assert_array_equal(got.dist_rows(every), ref.dist)
        assert len(got.levels) == len(ref.levels)
        for lv_got, lv_ref, any_got, any_ref in zip(
            got.levels, ref.levels, got.level_any, ref.level_any, strict=True
        ):
            np.testing.assert_array_equal(lv_got, lv_ref)
            np.testing.assert_array_equal(any_got, any_ref)
        rows = np.random.default_rng(blk).integers(0, every.size, 50)
        cols = np.random.default_rng(blk + 1).integers(0, fields.size, 50)
        d = ref.dist[rows, cols].astype(np.int64)
        np.testing.assert_array_equal(got.dist_of(rows, cols), np.where(d == ref.unreached, -1, d))
    searches = router._search.searches
    if variant == "intact" and block_size == 1:  # the two planes are one graph shifted: searched once
        assert 2 * searches == g.n_blocks
    if variant == "one-plane-failed":  # no block of plane 1 may reuse a search of plane 0
        assert searches == g.n_blocks


@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("tiers", [2, 3])
def test_router_with_shared_fields_matches_the_per_flow_oracle(tiers, variant, pattern):
    rng, n, a, b, transit, gpus = _case(tiers, variant, 1)
    gpus = rng.permutation(gpus)[:64]
    src, dst = PATTERNS[pattern](rng, gpus)
    vol = rng.uniform(1.0, 1e9, src.size)
    router = build_router(n, a, b, transit, block_size=3)
    loads = router.link_loads(src, dst, vol)
    ref = ecmp_per_flow(n, a, b, transit, src, dst, vol)
    atol = 1e-12 * vol.sum()
    np.testing.assert_allclose(loads.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(loads.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_array_equal(loads.unroutable, ref.unroutable)
    np.testing.assert_array_equal(router.hop_counts(src, dst), ref.hops)


def test_one_component_is_searched_over_every_arc_once_per_block():
    fa = fat_tree_3tier(64, gpus_per_server=8, radix=16)
    router = build_router(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, block_size=8)
    for blk in range(router._g.n_blocks):
        router._block(blk)
    assert router._search.searches == router._g.n_blocks
