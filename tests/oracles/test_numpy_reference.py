"""The numpy reference ECMP (used by the routing benchmark at 4k-16k GPUs) against the per-flow NetworkX
oracle, so that agreement with it at scale means agreement with the oracle's rule."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.engine.fabric.fattree_arrays import fat_tree_3tier, fat_tree_two_plane, rail_leaf_spine
from tests.oracles.ecmp_oracle import ecmp_per_flow
from tests.oracles.numpy_ecmp import ecmp_numpy

FABRICS = [
    lambda: rail_leaf_spine(16, gpus_per_server=4, su_servers=4, radix=16),
    lambda: fat_tree_3tier(64, gpus_per_server=8, radix=16),
    lambda: fat_tree_3tier(24, gpus_per_server=4, radix=8, rail_optimised=False),
    lambda: fat_tree_two_plane(16, gpus_per_server=4, radix=8),
]


def _multi_homed(rng):
    """Endpoints on 1-3 switches of a random switch graph, with parallel links."""
    n_sw, n_ep = 20, 30
    i, j = np.triu_indices(n_sw, 1)
    pick = rng.random(i.size) < 0.15
    a, b = [*i[pick], *i[pick][:5]], [*j[pick], *j[pick][:5]]
    for e in range(n_sw, n_sw + n_ep):
        for s in rng.choice(n_sw, rng.integers(1, 4), replace=False):
            a += [e] * int(rng.integers(1, 3))
            b += [s] * (len(a) - len(b))
    return n_sw + n_ep, np.array(a), np.array(b), np.arange(n_sw + n_ep) < n_sw, np.arange(n_sw, n_sw + n_ep)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("case", range(len(FABRICS) + 1))
def test_numpy_reference_matches_the_per_flow_oracle(case, seed):
    rng = np.random.default_rng([case, seed])
    if case < len(FABRICS):
        fa = FABRICS[case]()
        n, a, b, transit, ep = fa.n_nodes, fa.link_a, fa.link_b, fa.transit, fa.gpu_node.ravel()
    else:
        n, a, b, transit, ep = _multi_homed(rng)
    if seed:  # random failures
        keep = rng.random(a.size) >= rng.uniform(0.02, 0.2)
        a, b = a[keep], b[keep]
    src, dst = rng.choice(ep, 400), rng.choice(ep, 400)
    vol = rng.uniform(1.0, 1e9, 400)
    ab, ba, unroutable = ecmp_numpy(n, a, b, transit, src, dst, vol)
    ref = ecmp_per_flow(n, a, b, transit, src, dst, vol)
    np.testing.assert_allclose(ab, ref.load_ab_bytes, rtol=1e-9, atol=1e-12 * vol.sum())
    np.testing.assert_allclose(ba, ref.load_ba_bytes, rtol=1e-9, atol=1e-12 * vol.sum())
    np.testing.assert_array_equal(unroutable, ref.unroutable)
