"""The router (``gpuplanner.engine.fabric.routing``) against the per-flow NetworkX oracle on array fabrics of every
family, with random link failures, under every traffic pattern a GPU cluster carries — ring, NCCL's double
binary tree, all-to-all, pipeline sends, and storage-style incast/outcast (many GPUs to a few endpoints) —
link by link, both directions, to 1e-9 relative; unroutable flags and hop counts exactly.

The engine's training traffic today emits rings (TP/CP/DP), pipeline sends and all-to-all (``perf/traffic``);
tree collectives are timed analytically and storage links are not routed (``fabric_graph.NOT_ROUTED``). The
router is a general ECMP router, so the tree and storage patterns are checked here at its level.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.engine.fabric.fattree_arrays import fat_tree_3tier, fat_tree_two_plane, rail_leaf_spine
from gpuplanner.engine.fabric.routing import build_router
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.oracles.ecmp_oracle import ecmp_per_flow
from tests.oracles.project_oracle import ProjectNetwork


def _arrays(fa):
    return fa.n_nodes, fa.link_a, fa.link_b, fa.transit, fa.gpu_node.ravel()


def _generated(**opts):
    p = Project()
    generate_into(p, GenerateOptions(rack_budget_kw=42, **opts))
    net = ProjectNetwork(p)
    gpus = np.array(net.gpu_endpoint)
    return net.n_nodes, net.link_a, net.link_b, net.transit, gpus[gpus >= 0]


FABRICS = {
    "single-switch": lambda: _generated(template="single-switch", servers=4),
    "rail-leaf-spine": lambda: _arrays(rail_leaf_spine(16, gpus_per_server=4, su_servers=4, radix=16)),
    "rail-leaf-spine-2to1": lambda: _arrays(
        rail_leaf_spine(12, gpus_per_server=2, su_servers=4, radix=8, oversubscription=2.0)
    ),
    "leaf-spine": lambda: _generated(template="leaf-spine", servers=12, rails=False),
    "fat-tree-3tier": lambda: _arrays(fat_tree_3tier(128, gpus_per_server=8, radix=16)),  # 320 switches
    "fat-tree-3tier-non-rail": lambda: _arrays(
        fat_tree_3tier(48, gpus_per_server=4, radix=16, rail_optimised=False)
    ),
    "two-planes-3tier": lambda: _arrays(fat_tree_two_plane(32, gpus_per_server=4, radix=8)),
    "two-planes-2tier": lambda: _arrays(
        fat_tree_two_plane(16, gpus_per_server=4, radix=8, tiers=2, su_servers=4)
    ),
    "dragonfly": lambda: _generated(
        template="dragonfly", servers=24, server="nvidia-dgx-a100", leaf_switch="nvidia-quantum-qm8700"
    ),
}


def ring(rng, gpus):
    return gpus, np.roll(gpus, -1)


def double_binary_tree(rng, gpus):
    """NCCL's two trees over the ranks: parent of i is (i-1)//2 in one and mirrored in the other; reduce
    goes up, broadcast down."""
    n = gpus.size
    child = np.arange(1, n)
    parent = (child - 1) // 2
    src = np.concatenate([child, parent, n - 1 - child, n - 1 - parent])
    dst = np.concatenate([parent, child, n - 1 - parent, n - 1 - child])
    return gpus[src], gpus[dst]


def all_to_all(rng, gpus, group=8):
    members = gpus[: gpus.size // group * group].reshape(-1, group)
    src = np.repeat(members, group, axis=1).ravel()
    dst = np.tile(members, (1, group)).ravel()
    keep = src != dst
    return src[keep], dst[keep]


def pipeline(rng, gpus, stages=4):
    grid = gpus[: gpus.size // stages * stages].reshape(stages, -1)
    fwd_s, fwd_d = grid[:-1].ravel(), grid[1:].ravel()
    return np.concatenate([fwd_s, fwd_d]), np.concatenate([fwd_d, fwd_s])


def storage(rng, gpus, targets=3):
    """Every GPU writes to and reads from one of a few endpoints (a checkpoint to storage servers)."""
    t = rng.choice(gpus, targets, replace=False)
    peer = t[rng.integers(0, targets, gpus.size)]
    return np.concatenate([gpus, peer]), np.concatenate([peer, gpus])


PATTERNS = {
    "ring": ring,
    "tree": double_binary_tree,
    "all-to-all": all_to_all,
    "pipeline": pipeline,
    "storage": storage,
}
MAX_GPUS = 64  # GPUs sampled per case (the oracle is plain Python)


def _fail_links(rng, link_a, link_b, frac):
    keep = rng.random(link_a.size) >= frac
    return link_a[keep], link_b[keep], keep


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("family", list(FABRICS))
def test_router_matches_the_per_flow_oracle(family, pattern, seed):
    n, a, b, transit, gpus = FABRICS[family]()
    rng = np.random.default_rng([seed, len(family), len(pattern)])
    if seed:  # random failures: 2-15 % of the links, server links included
        a, b, _ = _fail_links(rng, a, b, rng.uniform(0.02, 0.15))
    gpus = rng.permutation(gpus)[:MAX_GPUS]
    src, dst = PATTERNS[pattern](rng, gpus)
    vol = rng.uniform(1.0, 1e9, src.size)
    router = build_router(n, a, b, transit)
    loads = router.link_loads(src, dst, vol)
    ref = ecmp_per_flow(n, a, b, transit, src, dst, vol)
    atol = 1e-12 * vol.sum()
    np.testing.assert_allclose(loads.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(loads.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_array_equal(loads.unroutable, ref.unroutable)
    np.testing.assert_array_equal(router.hop_counts(src, dst), ref.hops)
    if not seed and "two-planes" not in family:
        assert not ref.unroutable.any()  # an intact single-plane fabric routes everything


# ---- random multigraphs: parallel links, multi-homed endpoints, direct cables, > 64 switches ----------


@st.composite
def multigraphs(draw):
    n_sw = draw(st.sampled_from([1, 3, 6, 12, 70]))
    n_ep = draw(st.integers(2, 10))
    n = n_sw + n_ep
    rnd = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    p = draw(st.sampled_from([0.05, 0.3, 0.7])) if n_sw > 12 else draw(st.sampled_from([0.3, 0.7]))
    i, j = np.triu_indices(n_sw, 1)
    pick = rnd.random(i.size) < (p if n_sw <= 12 else 3.0 / n_sw)
    pairs = list(zip(i[pick].tolist(), j[pick].tolist(), strict=True))
    pairs += [pairs[k] for k in rnd.integers(0, len(pairs), len(pairs) // 4)] if pairs else []  # parallel
    for e in range(n_sw, n):  # endpoints homed to 0-3 switches, sometimes over parallel links
        for s in rnd.choice(n_sw, rnd.integers(0, min(3, n_sw) + 1), replace=False).tolist():
            pairs += [(e, s)] * int(rnd.integers(1, 3))
    for _ in range(int(rnd.integers(0, 3))):  # direct cables between endpoints
        x, y = rnd.integers(n_sw, n, 2).tolist()
        if x != y:
            pairs.append((x, y))
    order = rnd.permutation(len(pairs))
    flip = rnd.random(len(pairs)) < 0.5
    link_a = np.array([pairs[k][1 if f else 0] for k, f in zip(order, flip, strict=True)], np.int64)
    link_b = np.array([pairs[k][0 if f else 1] for k, f in zip(order, flip, strict=True)], np.int64)
    transit = np.arange(n) < n_sw
    lo = 0 if draw(st.booleans()) else n_sw  # sometimes switches send and receive too
    f = int(rnd.integers(0, 40))
    src, dst = rnd.integers(lo, n, f), rnd.integers(lo, n, f)
    return n, link_a, link_b, transit, src, dst, rnd.uniform(0, 1e9, f)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(multigraphs(), st.sampled_from([1, 3, 64, 512]))
def test_router_matches_the_oracle_on_random_multigraphs(case, block_size):
    n, a, b, transit, src, dst, vol = case
    router = build_router(n, a, b, transit, block_size=block_size)
    loads = router.link_loads(src, dst, vol)
    ref = ecmp_per_flow(n, a, b, transit, src, dst, vol)
    atol = 1e-12 * max(vol.sum(), 1.0)
    np.testing.assert_allclose(loads.load_ab_bytes, ref.load_ab_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_allclose(loads.load_ba_bytes, ref.load_ba_bytes, rtol=1e-9, atol=atol)
    np.testing.assert_array_equal(loads.unroutable, ref.unroutable)
    np.testing.assert_array_equal(router.hop_counts(src, dst), ref.hops)
