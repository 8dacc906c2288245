"""The alpha-beta collective model with per-hop latency and in-network reduction (engine/perf/collectives.py).

Oracles: a rank-by-rank walk of the ring (slow and obvious) for NCCL's latency split; NCCL's cost model as
written in NVIDIA/nccl src/graph/tuning.cc; published nccl-tests measurements of small all-reduces between
nodes (the messages where latency is the whole time)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.collectives import (
    group_all_gather_s,
    group_all_reduce_s,
    group_reduce_scatter_s,
    in_network_all_reduce_s,
    links_for,
    nvls_factor,
)
from gpuplanner.engine.perf.shapes import ClusterSpec

A = load_assumptions()
A100 = ClusterSpec(
    gpu_name="NVIDIA A100 SXM4 80GB",
    peak_bf16_tflops=312,
    mem_gb=80,
    mem_bw_tbyte_per_s=2.0,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=600,
    nic_gbps_per_gpu=200,
)
H20 = ClusterSpec(
    gpu_name="NVIDIA H20 96GB",
    peak_bf16_tflops=148,
    mem_gb=96,
    mem_bw_tbyte_per_s=4.0,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=900,
    nic_gbps_per_gpu=400,
)


def walk_ring_latency_s(n: int, g: int, k: int, links, kind: str) -> float:
    """Rank-by-rank: ranks placed node by node, the ring 0 → 1 → … → n-1; k passes of its first n-1 edges,
    each edge costing the NVLink step inside a node and the network step (with its switches) between nodes,
    plus the base latency once when the group spans nodes."""
    nodes = math.ceil(n / g)
    net_step = float(links.net_step_s(kind, nodes))
    total = float(links.net_base_latency_s) if nodes > 1 else 0.0
    for _ in range(k):
        for r in range(n - 1):
            same_node = r // g == (r + 1) // g
            total += links.intra_latency_s if same_node else net_step
    return total


@pytest.mark.parametrize(("n", "g"), [(2, 1), (8, 8), (16, 8), (64, 8), (40, 4), (1536, 8), (300, 1)])
def test_ring_latency_is_the_rank_by_rank_walk(n: int, g: int) -> None:
    links = links_for(A100, A)
    for k, fn in ((2, None), (1, group_reduce_scatter_s), (1, group_all_gather_s)):
        got = float(links.ring_latency_s(n, g, "dp", float(k)))
        assert got == pytest.approx(walk_ring_latency_s(n, g, k, links, "dp"), rel=1e-12)
        if fn is not None:  # a zero-byte reduce-scatter / all-gather is its latency alone
            assert float(fn(0.0, n, g, links, "dp")) == pytest.approx(got, rel=1e-12)


def test_latency_constants_are_nccls() -> None:
    """The constants the model uses sit where NCCL's own cost model puts them (tuning.cc, commit 01afd20):
    base latency = Ring/LL 6.6 us; network step between LL (2.7) and Simple (9.6); NVLink step between LL
    (0.47) and Simple (3.4)."""
    links = links_for(A100, A)
    assert links.net_base_latency_s == pytest.approx(6.6e-6)
    assert 2.7e-6 <= links.inter_latency_s <= 9.6e-6
    assert 0.47e-6 <= links.intra_latency_s <= 3.4e-6


def test_each_switch_crossed_adds_its_latency_to_every_network_step() -> None:
    """A deep-buffer chassis (Arista 7816R4, 4,000 ns per the catalog) against a cut-through switch (130 ns):
    a ring over 256 nodes (beyond one 2-tier pod: five switches per step) pays 4 extra switches on each of its
    2(N-1) network steps."""
    fast = links_for(dataclasses.replace(A100, switch_latency_ns=130.0), A)
    deep = links_for(dataclasses.replace(A100, switch_latency_ns=4000.0), A)
    n, g = 256 * 8, 8
    assert float(fast.hops("dp", 256)) == 5.0
    extra = float(deep.ring_latency_s(n, g, "dp", 2.0) - fast.ring_latency_s(n, g, "dp", 2.0))
    assert extra == pytest.approx(2 * 255 * 4 * (4000 - 130) * 1e-9, rel=1e-9)
    # inside one leaf's reach (<= 32 nodes) the route crosses the leaf only: the switch model does not matter
    assert float(deep.ring_latency_s(16 * 8, g, "dp", 2.0)) == pytest.approx(
        float(fast.ring_latency_s(16 * 8, g, "dp", 2.0)), rel=1e-12
    )
    # hops a drawn fabric measured replace the span rule
    drawn = links_for(dataclasses.replace(A100, switch_hops={"dp": 3.0}, switch_latency_ns=4000.0), A)
    assert float(drawn.net_step_s("dp", 256)) == pytest.approx(drawn.inter_latency_s + 2 * 4e-6)


def test_small_messages_pay_latency_large_ones_bandwidth() -> None:
    links = links_for(A100, A)
    n, g = 64 * 8, 8
    small = float(group_all_reduce_s(8.0, n, g, links, "dp"))
    lat = min(float(links.ring_latency_s(n, g, "dp", 2.0)), float(links.tree_latency_s(n, g, "dp")))
    assert small == pytest.approx(lat, rel=1e-6)
    big = 4e9
    t = float(group_all_reduce_s(big, n, g, links, "dp"))
    ring_bw = 2 * (n - 1) / n * big / float(links.busbw("dp", n, g))
    assert ring_bw < t < 1.01 * ring_bw


# nccl-tests all_reduce_perf, out-of-place time of the smallest size, as published:
# NVIDIA/nccl-tests issue #150 (2023-06): 2 nodes x 1 A100 80GB, InfiniBand HDR, 8 B: 19.90 us.
# NVIDIA/nccl issue #1244 (2024-04): 2 nodes x 8 H20 (NVLink SHARP on), 1 MiB: 121.8 us.
PUBLISHED = [
    ("nccl-tests#150", A100, 2, 1, 8.0, False, 19.90e-6),
    ("nccl#1244", H20, 16, 8, 2.0**20, True, 121.8e-6),
]


def flat_model_s(cluster: ClusterSpec, size: float, n: int, g: int, nvls: bool) -> float:
    """The model before the per-hop split: every step of a multi-node group at the network constant, no base
    latency (ring 2(n-1) steps, tree 2·log2(n)); NVLink SHARP applied only inside a node, as now."""
    links = links_for(cluster, A)
    bw = float(links.busbw("dp", n, g))
    if nvls and n <= g:
        bw *= float(nvls_factor(n, g, links))
    a = links.inter_latency_s if n > g else links.intra_latency_s
    ring = 2 * (n - 1) / n * size / bw + 2 * (n - 1) * a
    tree = 2 * size / bw + 2 * math.ceil(math.log2(max(n, 2))) * a
    return min(ring, tree)


@pytest.mark.parametrize(("source", "cluster", "n", "g", "size", "nvls", "measured"), PUBLISHED)
def test_small_all_reduces_between_nodes_move_toward_the_measurement(
    source: str, cluster: ClusterSpec, n: int, g: int, size: float, nvls: bool, measured: float
) -> None:
    links = links_for(cluster, A)
    got = float(group_all_reduce_s(size, n, g, links, "dp", nvls=nvls))
    before = flat_model_s(cluster, size, n, g, nvls)
    assert got <= measured  # still optimistic: the model has no protocol switch-over or launch jitter
    assert abs(got / measured - 1) < abs(before / measured - 1)


def test_the_two_node_one_gpu_latency_is_within_a_fifth() -> None:
    """nccl-tests #150: 19.90 us for 8 B between two A100 nodes; the model: base + 2 network steps."""
    links = links_for(A100, A)
    got = float(group_all_reduce_s(8.0, 2, 1, links, "dp"))
    assert got == pytest.approx(19.90e-6, rel=0.2)


def test_in_network_reduction_halves_the_network_bytes_of_a_large_all_reduce() -> None:
    """SHARP: each NIC sends and receives its share once instead of 2(n-1)/n times (a ring, in the nccl-tests
    bus-bandwidth convention the model uses)."""
    base = dataclasses.replace(A100, scaleup_bw_gbyte_per_s=6000)  # NVLink far faster: the NICs bind
    plain = links_for(base, A)
    sharp = links_for(dataclasses.replace(base, in_network_reduction=True), A)
    n, g, size = 16 * 8, 8, 8e9
    ring = float(group_all_reduce_s(size, n, g, plain, "dp"))
    got = float(group_all_reduce_s(size, n, g, sharp, "dp"))
    assert ring / got == pytest.approx(2 * (n - 1) / n, rel=0.01)
    # inside a node the switches play no part
    assert float(in_network_all_reduce_s(size, 8, 8, sharp, "dp")) == np.inf
    assert float(group_all_reduce_s(size, 8, 8, sharp, "dp")) == float(
        group_all_reduce_s(size, 8, 8, plain, "dp")
    )
    # small messages: one traversal of the switch tree instead of log2(N) (tree) or 2(N-1) (ring) network steps
    small_sharp = float(group_all_reduce_s(8.0, n, g, sharp, "dp"))
    assert small_sharp < float(group_all_reduce_s(8.0, n, g, plain, "dp"))


def test_validate_shows_the_published_collectives_with_the_models_figures() -> None:
    """catalogs/validation/collective_runs.yaml holds the same published figures as PUBLISHED above, and
    `gpuplanner validate` predicts them with the same all-reduce model."""
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.validation_collectives import check_collectives

    rows = check_collectives(default_catalog())
    assert [r.measured_us for r in rows] == pytest.approx([m * 1e6 for *_, m in PUBLISHED])
    for r, (_, cluster, n, g, size, nvls, _m) in zip(rows, PUBLISHED, strict=True):
        assert (r.ranks, r.size_byte) == (n, size)
        want = float(group_all_reduce_s(size, n, g, links_for(cluster, A), "dp", nvls=nvls)) * 1e6
        assert r.predicted_us == pytest.approx(want, rel=0.02)  # catalog GPU figures vs the test's round ones
        assert r.error == pytest.approx(r.measured_us / r.predicted_us - 1.0)
