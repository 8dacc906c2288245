"""Time of collectives with the alpha-beta model and the nccl-tests bus-bandwidth relations.

nccl-tests define busbw so that it is comparable with link speed: busbw = algbw · 2(n-1)/n for all-reduce and
algbw · (n-1)/n for reduce-scatter / all-gather (NVIDIA nccl-tests doc/PERFORMANCE.md). So a ring all-reduce
of S bytes over n ranks takes 2(n-1)/n · S / busbw plus 2(n-1) latency steps.

A group of n ranks with g ranks per node runs inside the node over NVLink when n <= g; otherwise the
inter-node part is carried by the g members' NICs of each node (rail-optimised: one NIC per GPU), so its bus
bandwidth is min(NVLink busbw, g · NIC busbw · net_factor) — the hierarchical/ring bound NCCL reaches.
All functions take numpy arrays (or scalars) and broadcast; sizes in bytes, bandwidths in bytes/s, time in s.

Latency (alpha) follows NCCL's own cost model (src/graph/tuning.cc, ncclTopoTuneModel): a ring over n ranks on
N nodes takes k(n-1) steps, of which k(N-1) cross the network (k = 2 for all-reduce, 1 for reduce-scatter /
all-gather), so latency = (k(n-1) - k(N-1)) · alpha_nvlink + k(N-1) · alpha_net; a tree all-reduce takes
2((n/N - 1) · alpha_nvlink + log2(N) · alpha_net). Each network step also crosses the fabric's switches: alpha_net
= the endpoints' step latency (NIC, proxy, the leaf switch) + (hops - 1) · the latency of one switch, with hops
from the drawn fabric's routes or, without one, from the span of the group (same leaf, same 2-tier pod, or
across the spine tier). In-network reduction (InfiniBand SHARP via NCCL CollNet) is a third all-reduce
algorithm where the fabric has it: each NIC sends and receives its share once instead of 2(n-1)/n times.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.shapes import ClusterSpec

Floats = NDArray[np.float64]
Num = float | NDArray[Any]  # a scalar or an array of them (broadcast)


@dataclass(frozen=True)
class Links:
    """Bus bandwidths (bytes/s) and latencies (s) of one cluster for each collective kind."""

    nvl_busbw_byte_per_s: float
    nic_busbw_byte_per_s: float
    intra_latency_s: float
    inter_latency_s: float
    gpus_per_node: int
    factor: dict[str, float]
    override_byte_per_s: dict[str, float]
    # NVLink SHARP (in-switch reduction, NVSwitch 3+): all-reduce bus-bandwidth gain by ranks in the node
    nvls_gain: dict[int, float] = field(default_factory=dict)
    switch_latency_s: float = 0.0  # one switch crossed by a network step
    switch_hops: dict[str, float] = field(default_factory=dict)  # per kind, from the drawn fabric's routes
    leaf_nodes: float = np.inf  # nodes one leaf switch reaches (same rail): one switch between them
    pod_nodes: float = np.inf  # nodes one 2-tier pod reaches: three switches; beyond it, five
    in_network_reduction: bool = (
        False  # the scale-out switches reduce (InfiniBand SHARP through NCCL CollNet)
    )
    net_base_latency_s: float = 0.0  # once per collective that crosses nodes (NCCL's baseLat)

    def hops(self, kind: str, nodes: Num) -> Floats:
        """Switches a network step of a group spanning `nodes` nodes crosses."""
        nodes_f = np.asarray(nodes, dtype=float)
        if kind in self.switch_hops:
            return np.full(nodes_f.shape, float(self.switch_hops[kind]))
        return np.where(nodes_f <= self.leaf_nodes, 1.0, np.where(nodes_f <= self.pod_nodes, 3.0, 5.0))

    def net_step_s(self, kind: str, nodes: Num) -> Floats:
        """One network step: the endpoints' latency (with the first switch) + every further switch crossed."""
        extra = np.maximum(self.hops(kind, nodes) - 1.0, 0.0)
        out: Floats = self.inter_latency_s + extra * self.switch_latency_s
        return out

    def busbw(self, kind: str, n: Num, g: Num, nics: Num | None = None) -> Floats:
        """Bus bandwidth of a group of n ranks with g of them per node; `nics`: NICs per node that carry the
        inter-node part (default: one per member, as NCCL's rail-aligned rings)."""
        nf = np.asarray(n, dtype=float)
        gf = np.minimum(np.asarray(g, dtype=float), nf)
        if kind in self.override_byte_per_s:
            return np.full(np.broadcast(nf, gf).shape, self.override_byte_per_s[kind])
        carriers = gf if nics is None else np.minimum(gf, np.asarray(nics, dtype=float))
        inter = carriers * self.nic_busbw_byte_per_s * self.factor.get(kind, 1.0)
        return np.where(nf <= gf, self.nvl_busbw_byte_per_s, np.minimum(self.nvl_busbw_byte_per_s, inter))

    def latency(self, n: Num, g: Num, kind: str = "dp") -> Floats:
        """Latency of one step of a group of n ranks with g per node (NVLink inside a node, else the network)."""
        nf = np.asarray(n, dtype=float)
        gf = np.minimum(np.asarray(g, dtype=float), nf)
        nodes = np.ceil(nf / np.maximum(gf, 1.0))
        return np.where(nf <= gf, self.intra_latency_s, self.net_step_s(kind, nodes))

    def ring_latency_s(self, n: Num, g: Num, kind: str, k: float) -> Floats:
        """NCCL's ring latency: k(n-1) steps, k(N-1) of them across the network (k = 2 all-reduce, 1 RS/AG)."""
        nf = np.asarray(n, dtype=float)
        gf = np.clip(np.asarray(g, dtype=float), 1.0, np.maximum(nf, 1.0))
        nodes = np.ceil(nf / gf)
        net = k * (nodes - 1.0)
        base = np.where(nodes > 1.0, self.net_base_latency_s, 0.0)
        out: Floats = (
            base + (k * (nf - 1.0) - net) * self.intra_latency_s + net * self.net_step_s(kind, nodes)
        )
        return out

    def tree_latency_s(self, n: Num, g: Num, kind: str) -> Floats:
        """NCCL's tree latency: 2((n/N - 1) · alpha_nvlink + log2(N) · alpha_net); inside a node 2·log2(n) steps."""
        nf = np.asarray(n, dtype=float)
        gf = np.clip(np.asarray(g, dtype=float), 1.0, np.maximum(nf, 1.0))
        nodes = np.ceil(nf / gf)
        inside = 2.0 * np.ceil(np.log2(np.maximum(nf, 2.0))) * self.intra_latency_s
        across: Floats = self.net_base_latency_s + 2.0 * (
            (gf - 1.0) * self.intra_latency_s
            + np.ceil(np.log2(np.maximum(nodes, 2.0))) * self.net_step_s(kind, nodes)
        )
        return np.where(nodes > 1.0, across, inside)


def links_for(cluster: ClusterSpec, a: Assumptions) -> Links:
    nvl_uni = cluster.scaleup_bw_gbyte_per_s * 1e9 / 2.0  # vendors print both directions added
    nic = cluster.nic_gbps_per_gpu * 1e9 / 8.0
    cal = cluster.calibration
    override = {k: v * 1e9 for k, v in (cal.busbw_gbyte_per_s.items() if cal else ())}
    steps = a.number("collective_latency_steps")
    intra_us = cluster.intra_node_latency_us
    inter_us = cluster.inter_node_latency_us
    intra_us = a.number("nvlink_step_latency_us") if intra_us is None else intra_us
    inter_us = a.number("net_step_latency_us") if inter_us is None else inter_us
    switch_ns = cluster.switch_latency_ns
    switch_ns = a.number("switch_latency_ns") if switch_ns is None else switch_ns
    nvls = {}
    if a.number("nvlink_sharp", cluster.gpu_name) > 0 and cluster.gpus_per_node >= 8:
        nvls = {int(k): float(v) for k, v in a.table("nvls_allreduce_gain").items()}
    return Links(
        nvl_busbw_byte_per_s=max(nvl_uni, 1.0) * a.number("nvlink_busbw_efficiency"),
        nic_busbw_byte_per_s=nic * a.number("nic_busbw_efficiency"),
        intra_latency_s=intra_us * 1e-6 * steps,
        inter_latency_s=inter_us * 1e-6 * steps,
        gpus_per_node=cluster.gpus_per_node,
        factor=dict(cluster.net_factor),
        override_byte_per_s=override,
        nvls_gain=nvls,
        switch_latency_s=switch_ns * 1e-9 * steps,
        switch_hops=dict(cluster.switch_hops),
        leaf_nodes=a.number("fabric_leaf_nodes"),
        pod_nodes=a.number("fabric_pod_nodes"),
        in_network_reduction=cluster.in_network_reduction,
        net_base_latency_s=a.number("net_collective_base_latency_us") * 1e-6 * steps,
    )


def _zero_if_single(n: Num, t: Num) -> Floats:
    return np.where(np.asarray(n) > 1, t, 0.0)


def ring_all_reduce_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> Floats:
    n = np.asarray(n, dtype=float)
    t = 2.0 * (n - 1.0) / n * size_byte / busbw + 2.0 * (n - 1.0) * alpha_s
    return _zero_if_single(n, t)


def tree_all_reduce_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> Floats:
    """Double binary tree: ~2·S over the bus (reduce up, broadcast down), 2·log2(n) latency steps."""
    n = np.asarray(n, dtype=np.float64)
    t = 2.0 * size_byte / busbw + 2.0 * np.ceil(np.log2(np.maximum(n, 2.0))) * alpha_s
    return _zero_if_single(n, t)


def all_reduce_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> Floats:
    """NCCL picks the faster of ring and tree."""
    return np.minimum(
        ring_all_reduce_s(size_byte, n, busbw, alpha_s), tree_all_reduce_s(size_byte, n, busbw, alpha_s)
    )


def reduce_scatter_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> Floats:
    """`size_byte` is the full (unsharded) buffer; each rank ends with size/n."""
    n = np.asarray(n, dtype=np.float64)
    return _zero_if_single(n, (n - 1.0) / n * size_byte / busbw + (n - 1.0) * alpha_s)


def all_gather_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> Floats:
    """`size_byte` is the gathered (full) buffer; each rank contributes size/n."""
    return reduce_scatter_s(size_byte, n, busbw, alpha_s)


def all_to_all_s(size_byte: Num, n: Num, g: Num, links: Links, kind: str = "ep") -> Floats:
    """Each rank sends size/n to every other member: the intra-node share over NVLink, the rest over NICs."""
    n = np.asarray(n, dtype=np.float64)
    g = np.minimum(np.asarray(g, dtype=np.float64), n)
    per_peer = size_byte / n
    intra = per_peer * (g - 1.0) / (links.nvl_busbw_byte_per_s)
    nic = links.nic_busbw_byte_per_s * links.factor.get(kind, 1.0)
    if kind in links.override_byte_per_s:
        nic = links.override_byte_per_s[kind]
    inter = per_peer * (n - g) / nic
    t = np.maximum(intra, inter) + (n - 1.0) * links.latency(n, g, kind)
    return _zero_if_single(n, t)


def reachable_nodes(nodes: Num, groups: int, group_topk: int) -> Floats:
    """Nodes a token's experts can sit on when they come from at most `group_topk` of `groups` expert groups.

    Experts are laid out in order over the EP ranks, so a group spans nodes/groups nodes (several groups share a
    node when there are fewer nodes than groups). DeepSeek-V3 trains with EP 64 on 8 nodes and 8 groups, top 4:
    at most 4 nodes (report §2.1.2). Without groups every node of the EP group is reachable.
    """
    n_nodes = np.asarray(nodes, dtype=np.float64)
    if not groups:
        return n_nodes
    out: Floats = np.minimum(n_nodes, group_topk * np.maximum(1.0, n_nodes / groups))
    return out


def _miss(total: Num, taken: Num, draws: float) -> Floats:
    """Probability that `draws` picks without replacement from `total` items miss all `taken` of them."""
    out = np.ones_like(np.asarray(total, dtype=np.float64) * np.asarray(taken, dtype=np.float64))
    for i in range(int(draws)):
        out = out * np.maximum(total - taken - i, 0.0) / np.maximum(total - i, 1.0)
    return out


def distinct_remote_nodes(
    top_k: int, nodes: Num, experts: int, groups: int = 0, group_topk: int = 0
) -> Floats:
    """Expected number of other nodes a token's top_k expert copies go to (each node counted once).

    Experts lie in order over the nodes of the EP group (experts/nodes each). Without groups the top_k experts
    are a uniform draw without replacement. With group-limited routing the router keeps the `group_topk`
    groups whose best experts score highest, so each kept group holds at least one of the token's experts and
    the other top_k - kept fall anywhere in the kept groups; a group spans nodes/groups nodes, and when groups
    share a node the kept groups are a draw without replacement of groups. By symmetry the token's own node is
    one of the distinct nodes with probability distinct/nodes.
    """
    n_nodes = np.maximum(np.asarray(nodes, dtype=np.float64), 1.0)
    if not groups:
        distinct = n_nodes * (1.0 - _miss(float(experts), experts / n_nodes, top_k))
    else:
        kept = float(min(group_topk, top_k))
        per_group = n_nodes / groups
        spread = np.maximum(per_group, 1.0)
        hit = 1.0 - (1.0 - 1.0 / spread) * (1.0 - 1.0 / (kept * spread)) ** (top_k - kept)
        shared = n_nodes * (1.0 - _miss(float(groups), groups / n_nodes, kept))
        distinct = np.where(per_group >= 1.0, reachable_nodes(n_nodes, groups, int(kept)) * hit, shared)
    return distinct * (1.0 - 1.0 / n_nodes)


def expert_dispatch_s(
    token_bytes: Num,
    top_k: int,
    n: Num,
    g: Num,
    links: Links,
    dedup: bool,
    experts: int = 0,
    groups: int = 0,
    group_topk: int = 0,
) -> Floats:
    """One dispatch (or combine) of `token_bytes` of tokens to their top_k experts over an EP group of n ranks.

    Without `dedup` (Megatron's all-to-all dispatcher) every (token, expert) copy is its own message: an
    all-to-all of top_k copies, of which the share on other nodes crosses the network whatever nodes the router
    allowed. With `dedup` (DeepEP / HybridEP, Megatron's flex dispatcher) a token crosses the network once per
    destination node and NVLink fans it out to that node's experts (DeepSeek-V3 report §3.2.2), so node-limited
    routing (`groups`, `group_topk`) caps the network bytes at the reachable nodes.
    """
    if not dedup:
        return all_to_all_s(np.asarray(token_bytes, dtype=np.float64) * top_k, n, g, links, "ep")
    n = np.asarray(n, dtype=np.float64)
    g = np.minimum(np.asarray(g, dtype=np.float64), n)
    nodes = n / g
    remote = distinct_remote_nodes(top_k, nodes, experts or top_k * int(np.max(n)), groups, group_topk)
    nic = links.nic_busbw_byte_per_s * links.factor.get("ep", 1.0)
    if "ep" in links.override_byte_per_s:
        nic = links.override_byte_per_s["ep"]
    inter = token_bytes * remote / nic
    intra = token_bytes * top_k * (g - 1.0) / g / links.nvl_busbw_byte_per_s
    t = np.maximum(intra, inter) + (n - 1.0) * links.latency(n, g, "ep")
    return _zero_if_single(n, t)


def p2p_s(size_byte: Num, intra_node: Num, links: Links, kind: str = "pp") -> Floats:
    """One point-to-point send; inter-node sends use the sender's NIC."""
    nic = links.nic_busbw_byte_per_s * links.factor.get(kind, 1.0)
    if kind in links.override_byte_per_s:
        nic = links.override_byte_per_s[kind]
    bw = np.where(intra_node, links.nvl_busbw_byte_per_s, nic)
    lat = np.where(intra_node, links.intra_latency_s, links.net_step_s(kind, 2.0))
    return size_byte / bw + lat


def nvls_factor(n: Num, g: Num, links: Links) -> Floats:
    """Bus-bandwidth gain of NVLink SHARP for an all-reduce of n ranks (1 outside a node or without it)."""
    n = np.asarray(n, dtype=np.float64)
    if not links.nvls_gain:
        return np.ones_like(n)
    top = max(links.nvls_gain)
    k = np.clip(n, 1, top).astype(int)
    table = np.ones(top + 1)
    for ranks, gain in links.nvls_gain.items():
        table[ranks] = gain
    return np.where(n <= np.asarray(g, dtype=np.float64), table[k], 1.0)


def group_all_reduce_s(size_byte: Num, n: Num, g: Num, links: Links, kind: str, nvls: bool = False) -> Floats:
    """All-reduce of a group of n ranks, g per node, with the kind's bus bandwidth: the fastest of NCCL's ring,
    tree and (where the switches reduce) in-network algorithms, each with its own latency. `nvls`: NCCL may use
    NVLink SHARP for it (a plain all-reduce inside an NVSwitch node)."""
    n = np.asarray(n, dtype=float)
    bw = links.busbw(kind, n, g)
    if nvls:
        bw = bw * nvls_factor(n, g, links)
    ring = 2.0 * (n - 1.0) / np.maximum(n, 1.0) * size_byte / bw + links.ring_latency_s(n, g, kind, 2.0)
    tree = 2.0 * size_byte / bw + links.tree_latency_s(n, g, kind)
    t = np.minimum(ring, tree)
    if links.in_network_reduction:
        t = np.minimum(t, in_network_all_reduce_s(size_byte, n, g, links, kind))
    return _zero_if_single(n, t)


def in_network_all_reduce_s(size_byte: Num, n: Num, g: Num, links: Links, kind: str) -> Floats:
    """SHARP all-reduce (NCCL CollNet): reduce-scatter inside the node, each NIC sends its 1/g share up the
    switch tree once and receives the reduced share once (a ring sends and receives it 2(n-1)/n times), then
    all-gather inside the node. Latency: the intra-node steps plus one network traversal. Infinite inside a node."""
    n = np.asarray(n, dtype=float)
    g = np.clip(np.asarray(g, dtype=float), 1.0, np.maximum(n, 1.0))
    nodes = np.ceil(n / g)
    nic = g * links.nic_busbw_byte_per_s * links.factor.get(kind, 1.0)
    if kind in links.override_byte_per_s:
        nic = np.broadcast_to(links.override_byte_per_s[kind], np.shape(nic))
    intra = 2.0 * (g - 1.0) / g * np.asarray(size_byte) / links.nvl_busbw_byte_per_s
    t = np.maximum(np.asarray(size_byte) / nic, intra)
    lat = links.net_base_latency_s + 2.0 * (g - 1.0) * links.intra_latency_s + links.net_step_s(kind, nodes)
    return np.where(nodes > 1.0, t + lat, np.inf)


def group_reduce_scatter_s(
    size_byte: Num, n: Num, g: Num, links: Links, kind: str, nics: Num | None = None
) -> Floats:
    n = np.asarray(n, dtype=float)
    t = (n - 1.0) / np.maximum(n, 1.0) * size_byte / links.busbw(kind, n, g, nics)
    return _zero_if_single(n, t + links.ring_latency_s(n, g, kind, 1.0))


def group_all_gather_s(
    size_byte: Num, n: Num, g: Num, links: Links, kind: str, nics: Num | None = None
) -> Floats:
    return group_reduce_scatter_s(size_byte, n, g, links, kind, nics)
