"""Plain-array fat-tree fabrics for routing tests and benchmarks.

These are not the user-facing generators (those live in ``gpuplanner.topology`` and emit model edits);
they build the arrays the router consumes directly, fast enough for 131,072 GPUs.

Node numbering: NIC endpoints first, ``node = server * gpus_per_server + rail``, then leaves (pod-major,
so destination switches that share a pod are neighbours in bit order), then spines/aggregation, then cores.
Each GPU has one NIC port (an endpoint). Parallel cables between two switches are one link whose capacity
is ``multiplicity × port_gbps``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TIER_ENDPOINT, TIER_LEAF, TIER_SPINE, TIER_CORE = 0, 1, 2, 3


@dataclass(frozen=True)
class FabricArrays:
    n_nodes: int
    link_a: np.ndarray  # int32[L]
    link_b: np.ndarray  # int32[L]
    capacity_gbps: np.ndarray  # float64[L], per direction, already × multiplicity
    multiplicity: np.ndarray  # int32[L], cables per link
    transit: np.ndarray  # bool[N]
    tier: np.ndarray  # int8[N]: TIER_* codes
    plane: np.ndarray  # int8[N]
    endpoint_server: np.ndarray  # int32[N], -1 for switches
    endpoint_rail: np.ndarray  # int32[N], -1 for switches
    gpu_node: np.ndarray  # int32[n_servers, gpus_per_server]: endpoint node of each GPU's NIC

    @property
    def n_endpoints(self) -> int:
        return int(self.gpu_node.size)

    @property
    def n_servers(self) -> int:
        return int(self.gpu_node.shape[0])

    def ports_used(self) -> np.ndarray:
        """Cables attached to each node (int64[N]), counting multiplicity."""
        return np.bincount(self.link_a, self.multiplicity, self.n_nodes) + np.bincount(
            self.link_b, self.multiplicity, self.n_nodes
        )


def _smallest_group_count(uplinks: int, n_lower: int, radix: int) -> int:
    """Fewest upper switches g (a divisor of `uplinks`) so each lower switch reaches each of them with
    uplinks/g parallel cables and an upper switch needs n_lower × uplinks/g ≤ radix ports."""
    for g in range(1, uplinks + 1):
        if uplinks % g == 0 and n_lower * (uplinks // g) <= radix:
            return g
    raise ValueError(f"{n_lower} lower switches exceed what radix-{radix} upper switches can reach")


class _Builder:
    """Collects links as arrays; switch ids are allocated after the endpoints."""

    def __init__(self, n_endpoints: int, port_gbps: float) -> None:
        self.next_id = n_endpoints
        self.port_gbps = port_gbps
        self.a: list[np.ndarray] = []
        self.b: list[np.ndarray] = []
        self.mult: list[np.ndarray] = []
        self.tier: list[np.ndarray] = []
        self.plane: list[np.ndarray] = []

    def switches(self, count: int, tier: int, plane: int) -> np.ndarray:
        ids = np.arange(self.next_id, self.next_id + count, dtype=np.int64)
        self.next_id += count
        self.tier.append(np.full(count, tier, np.int8))
        self.plane.append(np.full(count, plane, np.int8))
        return ids

    def links(self, a: np.ndarray, b: np.ndarray, multiplicity: int = 1) -> None:
        a, b = np.broadcast_arrays(np.asarray(a).ravel(), np.asarray(b).ravel())
        self.a.append(a.astype(np.int32))
        self.b.append(b.astype(np.int32))
        self.mult.append(np.full(a.size, multiplicity, np.int32))

    def finish(self, gpu_node: np.ndarray, ep_plane: np.ndarray) -> FabricArrays:
        n_ep = gpu_node.size
        n = self.next_id
        tier = np.concatenate([np.zeros(n_ep, np.int8), *self.tier])
        plane = np.concatenate([ep_plane.astype(np.int8), *self.plane])
        server = np.full(n, -1, np.int32)
        rail = np.full(n, -1, np.int32)
        s_idx, r_idx = np.indices(gpu_node.shape)
        server[gpu_node.ravel()] = s_idx.ravel()
        rail[gpu_node.ravel()] = r_idx.ravel()
        mult = np.concatenate(self.mult)
        return FabricArrays(
            n_nodes=n,
            link_a=np.concatenate(self.a),
            link_b=np.concatenate(self.b),
            capacity_gbps=mult * float(self.port_gbps),
            multiplicity=mult,
            transit=tier > TIER_ENDPOINT,
            tier=tier,
            plane=plane,
            endpoint_server=server,
            endpoint_rail=rail,
            gpu_node=gpu_node.astype(np.int32),
        )


def _gpu_nodes(n_servers: int, gpus_per_server: int) -> np.ndarray:
    return np.arange(n_servers * gpus_per_server, dtype=np.int64).reshape(n_servers, gpus_per_server)


def _two_tier(bld: _Builder, ep: np.ndarray, su_servers: int, radix: int, uplinks: int, plane: int) -> None:
    """Rail-optimised leaf-spine over endpoint matrix ep[server, rail] (one leaf per rail per SU)."""
    n_servers, rails = ep.shape
    n_su = -(-n_servers // su_servers)
    leaves = bld.switches(n_su * rails, TIER_LEAF, plane).reshape(n_su, rails)
    su_of_server = np.arange(n_servers) // su_servers
    bld.links(ep, leaves[su_of_server])
    n_spines = _smallest_group_count(uplinks, leaves.size, radix)
    spines = bld.switches(n_spines, TIER_SPINE, plane)
    bld.links(np.repeat(leaves.ravel(), n_spines), np.tile(spines, leaves.size), uplinks // n_spines)


def rail_leaf_spine(
    n_servers: int,
    *,
    gpus_per_server: int = 8,
    su_servers: int = 32,
    radix: int = 64,
    oversubscription: float = 1.0,
    port_gbps: float = 400.0,
) -> FabricArrays:
    """Rail-optimised 2-tier leaf-spine: scalable units of `su_servers` servers, one leaf per rail per SU,
    each leaf with `su_servers` NIC downlinks and `su_servers / oversubscription` uplinks spread evenly over
    the spines (parallel cables merged). Raises ValueError beyond what radix-`radix` switches can build
    in two tiers (k²/2 endpoints at 1:1)."""
    uplinks = round(su_servers / oversubscription)
    if uplinks < 1 or su_servers + uplinks > radix:
        raise ValueError(f"a leaf needs {su_servers} down + {uplinks} up ports, more than radix {radix}")
    gpu_node = _gpu_nodes(n_servers, gpus_per_server)
    bld = _Builder(gpu_node.size, port_gbps)
    _two_tier(bld, gpu_node, su_servers, radix, uplinks, plane=0)
    return bld.finish(gpu_node, np.zeros(gpu_node.size, np.int8))


def _three_tier(bld: _Builder, ep: np.ndarray, radix: int, rail_optimised: bool, plane: int) -> None:
    """k-ary fat tree (pods of k/2 edge + k/2 aggregation switches) over endpoint matrix ep[server, rail].
    With fewer than k pods, each aggregation switch reaches fewer cores through parallel cables."""
    n_servers, rails = ep.shape
    half = radix // 2
    if radix % 2 or half % rails:
        raise ValueError(f"radix {radix}: k/2 must be a multiple of the {rails} NICs per server")
    servers_per_pod = half * half // rails
    n_pods = -(-n_servers // servers_per_pod)
    if n_pods > radix:
        raise ValueError(
            f"{n_servers * rails} endpoints exceed a 3-tier radix-{radix} fat tree ({radix**3 // 4}); "
            "use two planes or a higher radix"
        )
    edges = bld.switches(n_pods * half, TIER_LEAF, plane).reshape(n_pods, half)
    s = np.arange(n_servers)
    pod, local = s // servers_per_pod, s % servers_per_pod
    if rail_optimised:  # an edge switch holds one rail of one SU of k/2 servers
        edge_of = edges[pod[:, None], (local // half)[:, None] * rails + np.arange(rails)]
    else:  # an edge switch holds every NIC of k/2 / rails servers
        edge_of = np.repeat(edges[pod, local // (half // rails)][:, None], rails, axis=1)
    bld.links(ep, edge_of)
    aggs = bld.switches(n_pods * half, TIER_SPINE, plane).reshape(n_pods, half)
    bld.links(np.repeat(edges, half, axis=1), np.tile(aggs, (1, half)))
    per_group = _smallest_group_count(half, n_pods, radix)
    cores = bld.switches(half * per_group, TIER_CORE, plane).reshape(half, per_group)
    # aggregation switch i of every pod connects to the cores of group i
    a = np.repeat(aggs, per_group, axis=1)
    c = np.tile(cores.ravel(), (n_pods, 1))
    bld.links(a, c, half // per_group)


def fat_tree_3tier(
    n_servers: int,
    *,
    gpus_per_server: int = 8,
    radix: int = 64,
    rail_optimised: bool = True,
    port_gbps: float = 400.0,
) -> FabricArrays:
    """1:1 three-tier fat tree of radix-k switches (k³/4 endpoints at most, k pods)."""
    gpu_node = _gpu_nodes(n_servers, gpus_per_server)
    bld = _Builder(gpu_node.size, port_gbps)
    _three_tier(bld, gpu_node, radix, rail_optimised, plane=0)
    return bld.finish(gpu_node, np.zeros(gpu_node.size, np.int8))


def fat_tree_two_plane(
    n_servers: int,
    *,
    gpus_per_server: int = 8,
    radix: int = 64,
    tiers: int = 3,
    su_servers: int = 32,
    port_gbps: float = 400.0,
) -> FabricArrays:
    """Two independent rail-optimised planes: rails [0, R/2) on plane 0, [R/2, R) on plane 1.

    No switch joins the planes, so traffic between GPUs of rails on different planes is unroutable in
    the fabric (servers forward it internally, which the array model does not include)."""
    if gpus_per_server % 2:
        raise ValueError("two planes need an even number of NICs per server")
    gpu_node = _gpu_nodes(n_servers, gpus_per_server)
    half_r = gpus_per_server // 2
    bld = _Builder(gpu_node.size, port_gbps)
    for p in range(2):  # two planes
        ep = gpu_node[:, p * half_r : (p + 1) * half_r]
        if tiers == 3:
            _three_tier(bld, ep, radix, rail_optimised=True, plane=p)
        elif su_servers * 2 > radix:
            raise ValueError(
                f"a leaf needs {su_servers} down + {su_servers} up ports, more than radix {radix}"
            )
        else:
            _two_tier(bld, ep, su_servers, radix, su_servers, plane=p)
    ep_plane = (np.arange(gpu_node.size) % gpus_per_server >= half_r).astype(np.int8)
    return bld.finish(gpu_node, ep_plane)
