"""Pushes reused between equal components (``routing._push_or_reuse``) against the per-flow NetworkX oracle,
and against the same router with reuse switched off, which must give the very same numbers.

A block whose distance fields come from a search shared with an equal component (the other plane of a
two-plane fabric) takes the loads of an earlier push when its injections, shifted to the component's first
switch, equal that push's element for element. The cases:

* two-plane fat trees (2 and 3 tiers), every traffic pattern placed identically on both planes: intact, and
  with the same random links failed in both planes (reuse expected), with links failed in one plane only and
  with one flow's volume changed in one plane (reuse must not happen there);
* two copies of a random multigraph (parallel links, endpoints homed to several switches, switches that send
  and receive) side by side: the multi-homed last hop's arrivals are moved too;
* the training traffic of the engine (rings and pipeline sends from ``perf.traffic``) on a two-plane fabric.

Link by link, both directions, to 1e-9 relative against the oracle; unroutable flags and hop counts exactly;
bit for bit against the router without reuse.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gpuplanner.engine.fabric.fattree_arrays import FabricArrays, fat_tree_two_plane
from gpuplanner.engine.fabric.routing import Router, build_router
from gpuplanner.engine.perf.shapes import ModelShape, TrainConfig
from gpuplanner.engine.perf.traffic import KIND_CODES, training_flows
from tests.oracles.ecmp_oracle import ecmp_per_flow
from tests.oracles.test_routing_patterns_oracle import PATTERNS


def _without_reuse(router: Router) -> Router:
    """The same router with every block's shared place dropped: each block is pushed on its own."""
    block = router._block
    router._block = lambda b: dataclasses.replace(block(b), shared=None)  # type: ignore[method-assign]
    return router


def _check(n, a, b, transit, src, dst, vol, *, block_size):
    """Loads of the router (reuse on) against the oracle and against the router with reuse off."""
    router = build_router(n, a, b, transit, block_size=block_size)
    loads = router.link_loads(src, dst, vol)
    plain = _without_reuse(build_router(n, a, b, transit, block_size=block_size)).link_loads(src, dst, vol)
    np.testing.assert_array_equal(loads.load_ab_bytes, plain.load_ab_bytes)
    np.testing.assert_array_equal(loads.load_ba_bytes, plain.load_ba_bytes)
    ref = ecmp_per_flow(n, a, b, transit, src, dst, vol)
    atol = 1e-12 * max(float(vol.sum()), 1.0)
    np.testing.assert_allclose(loads.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(loads.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_array_equal(loads.unroutable, ref.unroutable)
    np.testing.assert_array_equal(router.hop_counts(src, dst), ref.hops)
    return router.pushes_reused


# ---- two-plane fat trees -------------------------------------------------------------------------------


def _two_planes(tiers: int) -> FabricArrays:
    if tiers == 3:
        return fat_tree_two_plane(32, gpus_per_server=4, radix=8)
    return fat_tree_two_plane(16, gpus_per_server=4, radix=8, tiers=2, su_servers=4)


def _plane_map(fa: FabricArrays) -> np.ndarray:
    """Node → its counterpart in plane 0 (plane-0 nodes map to themselves)."""
    to0 = np.arange(fa.n_nodes)
    half = fa.gpu_node.shape[1] // 2
    to0[fa.gpu_node[:, half:]] = fa.gpu_node[:, :half]
    sw0 = np.flatnonzero(fa.transit & (fa.plane == 0))
    sw1 = np.flatnonzero(fa.transit & (fa.plane == 1))
    assert sw0.size == sw1.size
    to0[sw1] = sw0
    return to0


def _failed_links(rng, fa: FabricArrays, variant: str) -> np.ndarray:
    """Links kept: all; the same random links of both planes failed; or links of plane 1 failed only."""
    a, b = fa.link_a.astype(np.int64), fa.link_b.astype(np.int64)
    if variant == "intact":
        return np.ones(a.size, bool)
    to0 = _plane_map(fa)
    lo, hi = np.minimum(to0[a], to0[b]), np.maximum(to0[a], to0[b])
    key = lo * fa.n_nodes + hi  # a link and its counterpart in the other plane share this key
    distinct = np.unique(key)
    failed = rng.choice(distinct, max(1, distinct.size // 10), replace=False)
    hit = np.isin(key, failed)
    if variant == "one-plane-failed":
        hit &= fa.plane[a] == 1
    return ~hit


def _plane0_leaves(fa: FabricArrays) -> int:
    """Switches of plane 0 with GPUs: their fields come first, then plane 1's (routing_graph), so a block of
    this many fields holds one plane's GPU destinations and the next block the other plane's."""
    a, b = fa.link_a.astype(np.int64), fa.link_b.astype(np.int64)
    ep = np.zeros(fa.n_nodes, bool)
    ep[fa.gpu_node.ravel()] = True
    sw = np.where(ep[a], b, np.where(ep[b], a, -1))
    sw = np.unique(sw[sw >= 0])
    return int(np.count_nonzero(fa.plane[sw] == 0))


def _mirrored(rng, fa: FabricArrays, pattern: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A pattern on sampled GPUs of plane 0 and the same pattern, same volumes, on their plane-1 twins."""
    half = fa.gpu_node.shape[1] // 2
    servers = rng.permutation(fa.gpu_node.shape[0])[:16]
    picked = fa.gpu_node[servers][:, :half].ravel()
    src0, dst0 = PATTERNS[pattern](rng, picked)
    twin = np.arange(fa.n_nodes)
    twin[fa.gpu_node[:, :half]] = fa.gpu_node[:, half:]
    vol0 = rng.uniform(1.0, 1e9, src0.size)
    return np.r_[src0, twin[src0]], np.r_[dst0, twin[dst0]], np.r_[vol0, vol0]


@pytest.mark.parametrize("block", ["3", "plane"])
@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("variant", ["intact", "both-planes-failed", "one-plane-failed"])
@pytest.mark.parametrize("tiers", [2, 3])
def test_mirrored_traffic_on_two_planes(tiers, variant, pattern, block):
    fa = _two_planes(tiers)
    block_size = 3 if block == "3" else _plane0_leaves(fa)
    rng = np.random.default_rng([tiers, len(variant), len(pattern), len(block)])
    keep = _failed_links(rng, fa, variant)
    a, b = fa.link_a[keep], fa.link_b[keep]
    src, dst, vol = _mirrored(rng, fa, pattern)
    reused = _check(fa.n_nodes, a, b, fa.transit, src, dst, vol, block_size=block_size)
    if variant == "one-plane-failed":  # the planes are no longer one graph: nothing may be reused
        assert reused == 0
    elif block == "plane":  # one block per plane's leaves: the plane-1 block reuses the plane-0 push
        assert reused == 1


@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("tiers", [2, 3])
def test_a_different_volume_in_one_plane_is_pushed_on_its_own(tiers, pattern):
    fa = _two_planes(tiers)
    rng = np.random.default_rng([tiers, len(pattern), 7])
    src, dst, vol = _mirrored(rng, fa, pattern)
    size = _plane0_leaves(fa)
    assert _check(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, src, dst, vol, block_size=size) == 1
    moved = vol.copy()
    moved[-1] *= 1.0 + 2.0**-40  # the last flow is on plane 1; a change in the last bits only
    assert _check(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, src, dst, moved, block_size=size) == 0


def test_the_same_flows_in_another_order_are_pushed_on_their_own():
    fa = _two_planes(3)
    rng = np.random.default_rng(11)
    src, dst, vol = _mirrored(rng, fa, "all-to-all")
    h = src.size // 2
    order = np.r_[np.arange(h), h + rng.permutation(h)]  # plane 1's flows shuffled among themselves
    reused = _check(
        fa.n_nodes,
        fa.link_a,
        fa.link_b,
        fa.transit,
        src[order],
        dst[order],
        vol[order],
        block_size=_plane0_leaves(fa),
    )
    assert reused == 0  # the sums would run in another order: not the same numbers, so not reused


# ---- two copies of a random multigraph: multi-homed endpoints, parallel links, switch senders -----------


def _random_component(rng, n_sw: int, n_ep: int) -> tuple[np.ndarray, np.ndarray]:
    """A connected switch graph (a path plus random chords, some doubled) with endpoints on 1-3 switches."""
    pairs = [(i, i + 1) for i in range(n_sw - 1)]
    i, j = np.triu_indices(n_sw, 2)
    pick = rng.random(i.size) < 0.3
    pairs += list(zip(i[pick].tolist(), j[pick].tolist(), strict=True))
    pairs += [pairs[k] for k in rng.integers(0, len(pairs), len(pairs) // 4)]  # parallel links
    for e in range(n_sw, n_sw + n_ep):
        for s in rng.choice(n_sw, int(rng.integers(1, 4)), replace=False).tolist():
            pairs += [(e, s)] * int(rng.integers(1, 3))
    order = rng.permutation(len(pairs))
    flip = rng.random(len(pairs)) < 0.5
    a = np.array([pairs[k][1 if f else 0] for k, f in zip(order, flip, strict=True)], np.int64)
    b = np.array([pairs[k][0 if f else 1] for k, f in zip(order, flip, strict=True)], np.int64)
    return a, b


@pytest.mark.parametrize("block_size", [1, 2, 64])
@pytest.mark.parametrize("seed", range(8))
def test_two_equal_components_with_multi_homed_endpoints(seed, block_size):
    rng = np.random.default_rng([seed, block_size])
    n_sw, n_ep = int(rng.integers(3, 14)), int(rng.integers(3, 9))
    size = n_sw + n_ep
    a, b = _random_component(rng, n_sw, n_ep)
    transit = np.r_[np.arange(size) < n_sw, np.arange(size) < n_sw]
    lo = 0 if seed % 2 else n_sw  # odd seeds: switches send and receive too
    f = int(rng.integers(5, 40))
    src, dst, vol = rng.integers(lo, size, f), rng.integers(lo, size, f), rng.uniform(0.0, 1e9, f)
    reused = _check(
        2 * size, np.r_[a, a + size], np.r_[b, b + size], transit,
        np.r_[src, src + size], np.r_[dst, dst + size], np.r_[vol, vol], block_size=block_size,
    )  # fmt: skip
    if block_size == 1:  # every field a block of its own: the second copy's blocks reuse the first's
        assert reused > 0
    if block_size == 64:  # every field in one block, spanning both copies: no component of its own
        assert reused == 0


# ---- the engine's training traffic --------------------------------------------------------------------


def test_training_flows_on_two_planes():
    fa = fat_tree_two_plane(64, gpus_per_server=4, radix=8)
    shape = ModelShape(
        architecture="dense",
        layers=8,
        hidden=1024,
        heads=8,
        kv_heads=8,
        ffn_hidden=4096,
        vocab=32000,
        seq_len=2048,
    )
    cfg = TrainConfig(tp=4, pp=4, dp=16, cp=1, micro_batch=1, global_batch=64, seq_len=2048)
    flows = training_flows(shape, cfg, gpus_per_node=4)
    gpu = fa.gpu_node.ravel()
    inter = ~flows.intra_node
    assert inter.any()
    total = 0
    for code in (KIND_CODES["dp"], KIND_CODES["pp"]):
        m = inter & (flows.kind == code)
        src, dst = gpu[flows.src_gpu[m]], gpu[flows.dst_gpu[m]]
        total += _check(
            fa.n_nodes,
            fa.link_a,
            fa.link_b,
            fa.transit,
            src,
            dst,
            flows.bytes_per_step[m],
            block_size=_plane0_leaves(fa),
        )
    assert total >= 1
