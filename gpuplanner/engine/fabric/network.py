"""Fabric analysis on any drawn topology: switches per tier, port use, cables and optics, bisection
bandwidth, oversubscription per tier, hop counts and diameter, and the network's cost share.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES, Compiled, codes_of
from gpuplanner.engine.fabric.cabling import MEDIUM_NAMES, CablePlan, plan_cables
from gpuplanner.engine.fabric.fabric_graph import FabricGraph, build_fabric_graph
from gpuplanner.engine.fabric.routing import Router, build_router, digest

ROLE_NAMES = {v: k for k, v in ROLE_CODES.items()}
TIER_RANK = {
    "compute": 0,
    "storage": 0,
    "other": 0,
    "leaf": 1,
    "storage-switch": 1,
    "management": 1,
    "spine": 2,
    "core": 3,
}
HOP_SAMPLE = 4000  # pairs sampled for the hop histogram (deterministic seed)


@dataclass(frozen=True)
class PortUse:
    device_row: int
    group: str
    ports: int
    used: float


@dataclass
class FabricResult:
    graph: FabricGraph
    router: Router
    cables: CablePlan
    link_tier: list[str]  # "node-leaf", "leaf-spine", "spine-core", … per link
    switches_by_tier: dict[str, int]
    endpoints: int
    gpus: int
    cables_by_tier: dict[str, int]
    cables_by_medium: dict[str, int]
    transceivers: dict[str, int]
    bisection_gbps: float
    oversubscription_by_tier: dict[str, float]
    hop_histogram: dict[int, int]
    max_hops: int
    port_use: list[PortUse] = field(default_factory=list)
    network_capex_usd: float = 0.0
    gpu_capex_usd: float = 0.0

    @property
    def network_share_of_gpu_cost(self) -> float | None:
        return self.network_capex_usd / self.gpu_capex_usd if self.gpu_capex_usd else None

    def to_json(self, c: Compiled) -> dict:
        over_ports = [
            {
                "device": c.devices.ids[p.device_row],
                "name": c.devices.names[p.device_row],
                "group": p.group,
                "ports": p.ports,
                "used": p.used,
            }
            for p in self.port_use
            if p.used > p.ports + 1e-9
        ]
        return {
            "switches_by_tier": self.switches_by_tier,
            "switches": int(sum(self.switches_by_tier.values())),
            "endpoints": self.endpoints,
            "gpus": self.gpus,
            "cables_by_tier": self.cables_by_tier,
            "cables_by_medium": self.cables_by_medium,
            "cables": self.cables.bom_cables,
            "transceivers": self.transceivers,
            "transceiver_count": int(sum(self.transceivers.values())),
            "bisection_gbps": self.bisection_gbps,
            "oversubscription_by_tier": self.oversubscription_by_tier,
            "hop_histogram": {str(k): v for k, v in sorted(self.hop_histogram.items())},
            "max_hops": self.max_hops,
            "ports_used": float(sum(p.used for p in self.port_use)),
            "ports_free": float(sum(max(0.0, p.ports - p.used) for p in self.port_use)),
            "over_subscribed_ports": over_ports,
            "links_too_long": [c.links.ids[i] for i in np.flatnonzero(self.cables.too_long)],
            # switches + cables + optics at catalog prices; the plan's one network share (with the servers'
            # NICs, over GPU server capex) is the top-level network_share_of_gpu_server_capex
            "switches_cables_optics_usd": self.network_capex_usd,
        }


def _tier_name(role: str) -> str:
    return {"compute": "node", "storage": "storage", "storage-switch": "storage-switch"}.get(role, role)


def _tier_table() -> np.ndarray:
    """role × role → tier pair name ("node-leaf", …), ordered by tier rank."""
    n_roles = len(ROLE_NAMES)
    names = np.empty((n_roles, n_roles), dtype=object)
    for i in range(n_roles):
        for j in range(n_roles):
            lo, hi = sorted((ROLE_NAMES[i], ROLE_NAMES[j]), key=lambda r: TIER_RANK.get(r, 0))
            names[i, j] = f"{_tier_name(lo)}-{_tier_name(hi)}"
    return names.ravel()


TIER_NAMES = _tier_table()  # index: role of a × len(ROLE_NAMES) + role of b
TIER_CODES = {t: [i for i, n in enumerate(TIER_NAMES) if n == t] for t in dict.fromkeys(TIER_NAMES)}


def link_tier_codes(c: Compiled) -> np.ndarray:
    """Index of each link's tier pair into TIER_NAMES (int64)."""
    role = c.devices.role.astype(np.int64)
    return role[c.links.a] * len(ROLE_NAMES) + role[c.links.b]


def link_tiers(c: Compiled) -> list[str]:
    """Tier pair of each link ("node-leaf", "leaf-spine", …), vectorised through a role × role name table."""
    return TIER_NAMES[link_tier_codes(c)].tolist()


def _count_by_name(codes: np.ndarray, names, weights: np.ndarray) -> dict[str, int]:
    """Σ weights per name of the codes present (several codes may share a name), sorted by name."""
    present = np.flatnonzero(np.bincount(codes, minlength=len(names)))
    sums = np.bincount(codes, weights=weights, minlength=len(names))
    out: dict[str, int] = {}
    for k in present.tolist():
        out[names[k]] = out.get(names[k], 0) + int(sums[k])
    return dict(sorted(out.items()))


def _switch_port_use(
    c: Compiled, catalog: Catalog, combo: np.ndarray, used: np.ndarray, nk: int
) -> list[PortUse]:
    """Every port group of every switch, in device then catalog order, with its use (0 when no link): the
    groups of each distinct switch type are listed once and repeated per switch of that type."""
    lk = c.links
    sw = np.flatnonzero(c.devices.kind == KIND_CODES["switch"])
    if not len(sw):
        return []
    t_code, t_names = codes_of([c.devices.type_ids[d] for d in sw.tolist()])
    key_of = {k: i for i, k in enumerate(lk.port_keys)}
    groups = [catalog.entries[t].port_groups for t in t_names]
    n_groups = np.array([len(g) for g in groups], dtype=np.int64)
    flat = [(t, pg) for t, gs in zip(t_names, groups, strict=True) for pg in gs]
    g_key = np.array([key_of.get((t, pg.name), -1) for t, pg in flat] or [-1], dtype=np.int64)
    g_mgmt = np.array([pg.role == "management" for _, pg in flat] or [False])
    # entries: one per (switch, group of its type)
    per_sw = n_groups[t_code]
    first = (np.cumsum(n_groups) - n_groups)[t_code]
    gi = np.repeat(first - np.cumsum(per_sw) + per_sw, per_sw) + np.arange(int(per_sw.sum()))
    d = np.repeat(sw, per_sw).astype(np.int64)
    k = g_key[gi]
    pos = np.searchsorted(combo, d * nk + k)
    hit = (k >= 0) & (pos < len(combo))
    hit[hit] = combo[pos[hit]] == (d * nk + k)[hit]
    u = np.where(hit, used[np.minimum(pos, max(len(used) - 1, 0))] if len(used) else 0.0, 0.0)
    show = ~g_mgmt[gi] | (u != 0)
    return [
        PortUse(dd, flat[g][1].name, flat[g][1].count, uu)
        for dd, g, uu in zip(d[show].tolist(), gi[show].tolist(), u[show].tolist(), strict=True)
    ]


def port_use(c: Compiled, catalog: Catalog) -> list[PortUse]:
    """Ports used per (device, port group): Σ multiplicity × link speed / port speed (a 800G port carries two
    400G links); every switch group is listed, other devices' groups only when over-used."""
    lk = c.links
    nk = max(len(lk.port_keys), 1)
    dev = np.concatenate([lk.a, lk.b]).astype(np.int64)
    key = np.concatenate([lk.a_port_key, lk.b_port_key]).astype(np.int64)
    pg_speed = lk.port_key_speed_gbps
    w = (
        np.tile(lk.multiplicity * lk.speed_gbps, 2) / np.where(pg_speed[key] > 0, pg_speed[key], 1.0)
        if len(key)
        else np.zeros(0)
    )
    flat = dev * nk + key
    size = len(c.devices.ids) * nk
    if size <= 8 * len(flat) + 65536:  # dense (device, key) table: no sort
        combo = np.flatnonzero(np.bincount(flat, minlength=size))
        used = np.bincount(flat, weights=w, minlength=size)[combo]
    else:
        combo, inv = np.unique(flat, return_inverse=True)
        used = np.bincount(inv, weights=w, minlength=len(combo))
    out = _switch_port_use(c, catalog, combo, used, nk)
    counts = lk.port_key_count[combo % nk] if len(combo) else np.zeros(0)
    over = (
        np.flatnonzero((used > counts + 1e-9) & (c.devices.kind[combo // nk] != KIND_CODES["switch"]))
        if len(combo)
        else []
    )
    for i in over:
        d, k = int(combo[i] // nk), int(combo[i] % nk)
        out.append(PortUse(d, lk.port_keys[k][1], int(counts[i]), float(used[i])))
    return out


def _cap_at_role(c: Compiled, m: np.ndarray, code: int, n_dev: int) -> np.ndarray:
    """Σ capacity of the masked links per device of the role, a ends then b ends in link order (one
    bincount adds in that order, as np.add.at did)."""
    lk = c.links
    ends = np.concatenate([lk.a[m], lk.b[m]])
    cap = np.tile(lk.capacity_gbps[m], 2)
    sel = c.devices.role[ends] == code
    return np.bincount(ends[sel], weights=cap[sel], minlength=n_dev).astype(np.float64)


def _bisection_and_oversub(c: Compiled, tiers: np.ndarray) -> tuple[float, dict[str, float]]:
    """Bisection of a tiered fabric: the smallest tier boundary's capacity, halved (both halves send across).
    Oversubscription per tier: capacity down / capacity up, worst switch of the tier (compute fabric)."""
    lk = c.links
    cap = lk.capacity_gbps
    codes = np.asarray(tiers, dtype=np.int64)
    masks = {t: np.isin(codes, TIER_CODES[t]) for t in ("node-leaf", "leaf-spine", "spine-core")}
    boundaries = {}
    for t, m in masks.items():
        if m.any():
            boundaries[t] = float(cap[m].sum())
    bisection = min(boundaries.values()) / 2 if boundaries else 0.0
    oversub: dict[str, float] = {}
    n_dev = len(c.devices.ids)
    for role, down_t, up_t in (("leaf", "node-leaf", "leaf-spine"), ("spine", "leaf-spine", "spine-core")):
        if up_t not in boundaries:
            continue
        code = ROLE_CODES[role]
        down, up = (_cap_at_role(c, masks[t], code, n_dev) for t in (down_t, up_t))
        has = (c.devices.role == code) & (up > 0)
        if has.any():
            oversub[role] = float(np.max(down[has] / up[has]))
    return bisection, oversub


def _capex(c: Compiled, catalog: Catalog, cables: CablePlan) -> tuple[float, float]:
    def price(tid: str) -> float:
        p = catalog.price_usd(tid)
        return float(p) if p is not None else 0.0

    # catalog price once per distinct type; np.cumsum adds in device order like a running Python sum
    t_code, t_names = codes_of(c.devices.type_ids)
    per_type = np.array([price(tid) for tid in t_names] or [0.0])
    override = c.devices.price_override_usd
    p = np.where(np.isnan(override), per_type[t_code], override).astype(np.float64)
    is_switch = c.devices.kind == KIND_CODES["switch"]
    is_gpu = ~is_switch & (c.devices.gpu_count > 0)
    net = float(np.cumsum(p[is_switch])[-1]) if is_switch.any() else 0.0
    gpu = float(np.cumsum(p[is_gpu])[-1]) if is_gpu.any() else 0.0
    for k, v in cables.bom_cables.items():
        p = catalog.prices.get(k)
        net += price(k) * (cables.bom_cable_m.get(k, 0.0) if p is not None and p.unit == "per_m" else v)
    net += sum(price(k) * v for k, v in cables.bom_transceivers.items())
    return net, gpu


def _hop_histogram(eps: np.ndarray, router: Router) -> tuple[dict[int, int], int]:
    """Hop counts between compute endpoints (GPU NICs): a deterministic sample of pairs."""
    if len(eps) < 2:
        return {}, 0
    rng = np.random.default_rng(0)
    k = min(HOP_SAMPLE, len(eps) * (len(eps) - 1))
    src = eps[rng.integers(0, len(eps), k)]
    dst = eps[rng.integers(0, len(eps), k)]
    keep = src != dst
    hops = router.hop_counts(src[keep], dst[keep])
    vals, counts = np.unique(hops[hops >= 0], return_counts=True)
    hist = {int(v): int(n) for v, n in zip(vals, counts, strict=True)}
    return hist, int(vals.max()) if len(vals) else 0


def _topology_key(g: FabricGraph) -> str:
    return digest(np.array([g.n_nodes]), g.link_a, g.link_b, g.transit)


class TopologyCache:
    """The routers (with the distance fields they have computed) and hop histograms of the last few
    topologies, keyed by a digest of the routing graph: an edit that leaves the drawn topology alone (a
    workload, a price, a cable choice, a rack's budget) re-analyses without rebuilding them. A router is a
    pure function of the graph, so results are the same with or without the cache."""

    SIZE = 2

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[Router, dict[str, tuple[dict[int, int], int]]]] = OrderedDict()

    def _entry(self, key: str, g: FabricGraph):
        with self._lock:
            e = self._entries.get(key)
            if e is None:
                e = self._entries[key] = (build_router(g.n_nodes, g.link_a, g.link_b, g.transit), {})
                while len(self._entries) > self.SIZE:
                    self._entries.popitem(last=False)
            self._entries.move_to_end(key)
            return e

    def router(self, key: str, g: FabricGraph) -> Router:
        return self._entry(key, g)[0]

    def hops(self, key: str, eps: np.ndarray, router: Router) -> tuple[dict[int, int], int]:
        with self._lock:
            e = self._entries.get(key)
        if e is None or e[0] is not router:
            return _hop_histogram(eps, router)
        ek = digest(eps)
        if ek not in e[1]:
            e[1][ek] = _hop_histogram(eps, router)
        hist, max_hops = e[1][ek]
        return dict(hist), max_hops

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def analyze_fabric(
    c: Compiled,
    catalog: Catalog,
    *,
    router: Router | None = None,
    topologies: TopologyCache | None = None,
) -> FabricResult:
    """The fabric stage. ``topologies``: the caller's cache of routers and hop histograms (the engine
    runner owns one); None builds them."""
    g = build_fabric_graph(c)
    topo = ""
    if router is None:
        if topologies is not None:
            topo = _topology_key(g)
            router = topologies.router(topo, g)
        else:
            router = build_router(g.n_nodes, g.link_a, g.link_b, g.transit)
    cables = plan_cables(c, catalog)
    tier_codes = link_tier_codes(c)
    tiers = TIER_NAMES[tier_codes].tolist()
    sw_roles = c.devices.role[c.devices.kind == KIND_CODES["switch"]]
    switches_by_tier = {
        ROLE_NAMES[int(r)]: int(n) for r, n in zip(*np.unique(sw_roles, return_counts=True), strict=True)
    }
    for t in ("leaf", "spine", "core"):
        switches_by_tier.setdefault(t, 0)
    mult = c.links.multiplicity.astype(np.float64)  # integer sums, exact in float64
    cables_by_tier = _count_by_name(tier_codes, TIER_NAMES, mult)
    cables_by_medium = _count_by_name(cables.medium_code, MEDIUM_NAMES, mult)
    bisection, oversub = _bisection_and_oversub(c, tier_codes)
    on = np.zeros(g.n_nodes, bool)  # distinct compute endpoints in node order (np.unique without a sort)
    on[g.gpu_endpoint[g.gpu_endpoint >= 0]] = True
    eps = np.flatnonzero(on).astype(g.gpu_endpoint.dtype)
    hist, max_hops = (
        topologies.hops(topo, eps, router) if topologies is not None and topo else _hop_histogram(eps, router)
    )
    net, gpu = _capex(c, catalog, cables)
    return FabricResult(
        graph=g,
        router=router,
        cables=cables,
        link_tier=tiers,
        switches_by_tier=switches_by_tier,
        endpoints=int(len(eps)),
        gpus=int(c.devices.gpu_count.sum()),
        cables_by_tier=cables_by_tier,
        cables_by_medium=cables_by_medium,
        transceivers=cables.bom_transceivers,
        bisection_gbps=bisection,
        oversubscription_by_tier=oversub,
        hop_histogram=hist,
        max_hops=max_hops,
        port_use=port_use(c, catalog),
        network_capex_usd=net,
        gpu_capex_usd=gpu,
    )


def with_cables(fabric: FabricResult, c: Compiled, catalog: Catalog, cables: CablePlan) -> FabricResult:
    """``fabric`` with another cable plan for the same links (devices moved between racks change lengths,
    not the topology): the cable-dependent figures again, the graph, router, hops and port use kept."""
    mult = c.links.multiplicity.astype(np.float64)
    net, gpu = _capex(c, catalog, cables)
    return dataclasses.replace(
        fabric,
        cables=cables,
        cables_by_medium=_count_by_name(cables.medium_code, MEDIUM_NAMES, mult),
        transceivers=cables.bom_transceivers,
        network_capex_usd=net,
        gpu_capex_usd=gpu,
    )
