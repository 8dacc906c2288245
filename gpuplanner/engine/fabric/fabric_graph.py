"""The routing graph of a compiled project: switches are transit nodes; each server/storage link end is an
endpoint node (a NIC port, or a bundle of ports when the link has multiplicity > 1).

GPU → NIC: GPU g of a server uses the server's compute endpoint ``g * n_endpoints // gpu_count`` (links in
table order), i.e. rail g on a rail-optimised server with one NIC per GPU, as NCCL picks the nearest NIC.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpuplanner.engine.compiled import KIND_CODES, Compiled


@dataclass(frozen=True)
class _Subset:
    a: np.ndarray
    b: np.ndarray
    a_compute: np.ndarray  # bool: the a end is a compute port
    b_compute: np.ndarray


@dataclass(frozen=True)
class FabricGraph:
    n_nodes: int
    transit: np.ndarray  # bool[N]
    link_rows: np.ndarray  # int32[E] compiled link row of each graph link (compute-fabric links only)
    link_a: np.ndarray  # int32[E] node of each graph link's a end
    link_b: np.ndarray  # int32[E]
    node_device: np.ndarray  # int32[N] compiled device row of each node
    switch_node: np.ndarray  # int32[D] node of each switch device, -1 for others
    endpoint_link: np.ndarray  # int32[N] compiled link row of an endpoint node, -1 for switches
    gpu_server: np.ndarray  # int32[G] device row of each GPU (GPUs numbered server by server)
    gpu_local: np.ndarray  # int32[G] index inside its server
    gpu_endpoint: np.ndarray  # int32[G] endpoint node used by the GPU for compute traffic (-1: none)
    gpu_rail: np.ndarray  # int32[G] index of that endpoint among the server's compute endpoints


NOT_ROUTED = ("management", "storage", "frontend", "inband")


def build_fabric_graph(c: Compiled) -> FabricGraph:
    """Management, storage and front-end links stay out: the compute traffic never takes a 1 GbE detour."""
    dev, full = c.devices, c.links
    # roles per port key (a handful), then gathered per link end
    key_roles = full.port_key_role
    routed = np.array([r not in NOT_ROUTED for r in key_roles] or [True], dtype=bool)
    compute = np.array([r == "compute" for r in key_roles] or [False], dtype=bool)
    keep = routed[full.a_port_key] & routed[full.b_port_key]
    link_rows = np.flatnonzero(keep).astype(np.int32)
    lk = _Subset(full.a[keep], full.b[keep], compute[full.a_port_key[keep]], compute[full.b_port_key[keep]])
    n_dev = len(dev.ids)
    is_switch = dev.kind == KIND_CODES["switch"]
    switch_node = np.full(n_dev, -1, dtype=np.int32)
    n_sw = int(is_switch.sum())
    switch_node[is_switch] = np.arange(n_sw, dtype=np.int32)
    n_links = len(link_rows)
    a_sw = is_switch[lk.a] if n_links else np.zeros(0, bool)
    b_sw = is_switch[lk.b] if n_links else np.zeros(0, bool)
    # Endpoint nodes: one per non-switch link end, numbered after the switches.
    a_ep = ~a_sw
    b_ep = ~b_sw
    n_a = int(a_ep.sum())
    n_b = int(b_ep.sum())
    link_a = np.where(a_sw, switch_node[lk.a] if n_links else 0, 0).astype(np.int32)
    link_b = np.where(b_sw, switch_node[lk.b] if n_links else 0, 0).astype(np.int32)
    link_a[a_ep] = n_sw + np.arange(n_a, dtype=np.int32)
    link_b[b_ep] = n_sw + n_a + np.arange(n_b, dtype=np.int32)
    n_nodes = n_sw + n_a + n_b
    node_device = np.empty(n_nodes, dtype=np.int32)
    node_device[:n_sw] = np.flatnonzero(is_switch)
    node_device[n_sw : n_sw + n_a] = lk.a[a_ep]
    node_device[n_sw + n_a :] = lk.b[b_ep]
    endpoint_link = np.full(n_nodes, -1, dtype=np.int32)
    endpoint_link[n_sw : n_sw + n_a] = link_rows[np.flatnonzero(a_ep)]
    endpoint_link[n_sw + n_a :] = link_rows[np.flatnonzero(b_ep)]
    transit = np.zeros(n_nodes, dtype=bool)
    transit[:n_sw] = True
    # Compute endpoints per server, in link order.
    a_cmp = a_ep & lk.a_compute
    b_cmp = b_ep & lk.b_compute
    ep_nodes = np.concatenate([link_a[a_cmp], link_b[b_cmp]])
    ep_links = np.concatenate([np.flatnonzero(a_cmp), np.flatnonzero(b_cmp)])
    ep_dev = node_device[ep_nodes] if len(ep_nodes) else np.zeros(0, np.int32)
    # by device, then link: one stable sort of a combined key (the ends come in link order, mostly in device
    # order too, so the sort merges runs) — the order np.lexsort((ep_links, ep_dev)) gives
    order = np.argsort(ep_dev.astype(np.int64) * max(n_links, 1) + ep_links, kind="stable")
    ep_nodes, ep_dev = ep_nodes[order], ep_dev[order]
    n_ep_of_dev = np.bincount(ep_dev, minlength=n_dev)
    first_ep = np.cumsum(n_ep_of_dev) - n_ep_of_dev
    gpus = dev.gpu_count.astype(np.int64)
    gpu_server = np.repeat(np.arange(n_dev, dtype=np.int32), gpus)
    start = np.cumsum(gpus) - gpus
    gpu_local = (np.arange(int(gpus.sum())) - np.repeat(start, gpus)).astype(np.int32)
    n_ep = n_ep_of_dev[gpu_server]
    rail = np.where(n_ep > 0, gpu_local * np.maximum(n_ep, 1) // np.maximum(gpus[gpu_server], 1), -1).astype(
        np.int32
    )
    gpu_endpoint = np.where(
        n_ep > 0,
        ep_nodes[np.clip(first_ep[gpu_server] + rail, 0, max(len(ep_nodes) - 1, 0))] if len(ep_nodes) else -1,
        -1,
    )
    return FabricGraph(
        n_nodes=n_nodes,
        transit=transit,
        link_rows=link_rows,
        link_a=link_a,
        link_b=link_b,
        node_device=node_device,
        switch_node=switch_node,
        endpoint_link=endpoint_link,
        gpu_server=gpu_server,
        gpu_local=gpu_local,
        gpu_endpoint=np.asarray(gpu_endpoint, dtype=np.int32),
        gpu_rail=rail,
    )
