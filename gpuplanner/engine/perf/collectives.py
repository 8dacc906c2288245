"""Time of collectives with the alpha-beta model and the nccl-tests bus-bandwidth relations.

nccl-tests define busbw so that it is comparable with link speed: busbw = algbw · 2(n-1)/n for all-reduce and
algbw · (n-1)/n for reduce-scatter / all-gather (NVIDIA nccl-tests doc/PERFORMANCE.md). So a ring all-reduce
of S bytes over n ranks takes 2(n-1)/n · S / busbw plus 2(n-1) latency steps.

A group of n ranks with g ranks per node runs inside the node over NVLink when n <= g; otherwise the
inter-node part is carried by the g members' NICs of each node (rail-optimised: one NIC per GPU), so its bus
bandwidth is min(NVLink busbw, g · NIC busbw · net_factor) — the hierarchical/ring bound NCCL reaches.
All functions take numpy arrays (or scalars) and broadcast; sizes in bytes, bandwidths in bytes/s, time in s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpuplanner.engine.arrays import Flag, FloatArray, Num
from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.shapes import ClusterSpec


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

    def busbw(self, kind: str, n: Num, g: Num, nics: Num | None = None) -> FloatArray:
        """Bus bandwidth of a group of n ranks with g of them per node; `nics`: NICs per node that carry the
        inter-node part (default: one per member, as NCCL's rail-aligned rings)."""
        n = np.asarray(n, dtype=np.float64)
        g = np.minimum(np.asarray(g, dtype=np.float64), n)
        if kind in self.override_byte_per_s:
            return np.full(np.broadcast(n, g).shape, self.override_byte_per_s[kind])
        carriers = g if nics is None else np.minimum(g, nics)
        inter = carriers * self.nic_busbw_byte_per_s * self.factor.get(kind, 1.0)
        return np.where(n <= g, self.nvl_busbw_byte_per_s, np.minimum(self.nvl_busbw_byte_per_s, inter))

    def latency(self, n: Num, g: Num) -> FloatArray:
        n = np.asarray(n, dtype=np.float64)
        return np.where(n <= np.asarray(g, dtype=np.float64), self.intra_latency_s, self.inter_latency_s)


def links_for(cluster: ClusterSpec, a: Assumptions) -> Links:
    nvl_uni = cluster.scaleup_bw_gbyte_per_s * 1e9 / 2.0  # vendors print both directions added
    nic = cluster.nic_gbps_per_gpu * 1e9 / 8.0
    cal = cluster.calibration
    override = {k: v * 1e9 for k, v in (cal.busbw_gbyte_per_s.items() if cal else ())}
    steps = a.number("collective_latency_steps")
    nvls = {}
    if a.number("nvlink_sharp", cluster.gpu_name) > 0 and cluster.gpus_per_node >= 8:
        nvls = {int(k): float(v) for k, v in a.table("nvls_allreduce_gain").items()}
    return Links(
        nvl_busbw_byte_per_s=max(nvl_uni, 1.0) * a.number("nvlink_busbw_efficiency"),
        nic_busbw_byte_per_s=nic * a.number("nic_busbw_efficiency"),
        intra_latency_s=cluster.intra_node_latency_us * 1e-6 * steps,
        inter_latency_s=cluster.inter_node_latency_us * 1e-6 * steps,
        gpus_per_node=cluster.gpus_per_node,
        factor=dict(cluster.net_factor),
        override_byte_per_s=override,
        nvls_gain=nvls,
    )


def _zero_if_single(n: Num, t: Num) -> FloatArray:
    return np.where(np.asarray(n) > 1, t, 0.0)


def ring_all_reduce_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> FloatArray:
    n = np.asarray(n, dtype=np.float64)
    t = 2.0 * (n - 1.0) / n * size_byte / busbw + 2.0 * (n - 1.0) * alpha_s
    return _zero_if_single(n, t)


def tree_all_reduce_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> FloatArray:
    """Double binary tree: ~2·S over the bus (reduce up, broadcast down), 2·log2(n) latency steps."""
    n = np.asarray(n, dtype=np.float64)
    t = 2.0 * size_byte / busbw + 2.0 * np.ceil(np.log2(np.maximum(n, 2.0))) * alpha_s
    return _zero_if_single(n, t)


def all_reduce_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> FloatArray:
    """NCCL picks the faster of ring and tree."""
    return np.minimum(
        ring_all_reduce_s(size_byte, n, busbw, alpha_s), tree_all_reduce_s(size_byte, n, busbw, alpha_s)
    )


def reduce_scatter_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> FloatArray:
    """`size_byte` is the full (unsharded) buffer; each rank ends with size/n."""
    n = np.asarray(n, dtype=np.float64)
    return _zero_if_single(n, (n - 1.0) / n * size_byte / busbw + (n - 1.0) * alpha_s)


def all_gather_s(size_byte: Num, n: Num, busbw: Num, alpha_s: Num) -> FloatArray:
    """`size_byte` is the gathered (full) buffer; each rank contributes size/n."""
    return reduce_scatter_s(size_byte, n, busbw, alpha_s)


def all_to_all_s(size_byte: Num, n: Num, g: Num, links: Links, kind: str = "ep") -> FloatArray:
    """Each rank sends size/n to every other member: the intra-node share over NVLink, the rest over NICs."""
    n = np.asarray(n, dtype=np.float64)
    g = np.minimum(np.asarray(g, dtype=np.float64), n)
    per_peer = size_byte / n
    intra = per_peer * (g - 1.0) / (links.nvl_busbw_byte_per_s)
    nic = links.nic_busbw_byte_per_s * links.factor.get(kind, 1.0)
    if kind in links.override_byte_per_s:
        nic = links.override_byte_per_s[kind]
    inter = per_peer * (n - g) / nic
    t = np.maximum(intra, inter) + (n - 1.0) * links.latency(n, g)
    return _zero_if_single(n, t)


def p2p_s(size_byte: Num, intra_node: Flag, links: Links, kind: str = "pp") -> FloatArray:
    """One point-to-point send; inter-node sends use the sender's NIC."""
    nic = links.nic_busbw_byte_per_s * links.factor.get(kind, 1.0)
    if kind in links.override_byte_per_s:
        nic = links.override_byte_per_s[kind]
    bw = np.where(intra_node, links.nvl_busbw_byte_per_s, nic)
    lat = np.where(intra_node, links.intra_latency_s, links.inter_latency_s)
    return size_byte / bw + lat


def nvls_factor(n: Num, g: Num, links: Links) -> FloatArray:
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


def group_all_reduce_s(
    size_byte: Num, n: Num, g: Num, links: Links, kind: str, nvls: bool = False
) -> FloatArray:
    """All-reduce of a group of n ranks, g per node, with the kind's bus bandwidth; `nvls`: NCCL may use
    NVLink SHARP for it (a plain all-reduce inside an NVSwitch node)."""
    bw = links.busbw(kind, n, g)
    if nvls:
        bw = bw * nvls_factor(n, g, links)
    return all_reduce_s(size_byte, n, bw, links.latency(n, g))


def group_reduce_scatter_s(
    size_byte: Num, n: Num, g: Num, links: Links, kind: str, nics: Num | None = None
) -> FloatArray:
    return reduce_scatter_s(size_byte, n, links.busbw(kind, n, g, nics), links.latency(n, g))


def group_all_gather_s(
    size_byte: Num, n: Num, g: Num, links: Links, kind: str, nics: Num | None = None
) -> FloatArray:
    return all_gather_s(size_byte, n, links.busbw(kind, n, g, nics), links.latency(n, g))
