"""Fabric analysis on any drawn topology: switches per tier, port use, cables and optics, bisection
bandwidth, oversubscription per tier, hop counts and diameter, and the network's cost share.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.engine.cabling import CablePlan, plan_cables
from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES, Compiled
from gpuplanner.engine.fabric_graph import FabricGraph, build_fabric_graph
from gpuplanner.engine.routing import Router, build_router

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
            "network_capex_usd": self.network_capex_usd,
            "network_share_of_gpu_cost": self.network_share_of_gpu_cost,
        }


def _tier_name(role: str) -> str:
    return {"compute": "node", "storage": "storage", "storage-switch": "storage-switch"}.get(role, role)


def link_tiers(c: Compiled) -> list[str]:
    """Tier pair of each link ("node-leaf", "leaf-spine", …), vectorised through a role × role name table."""
    n_roles = len(ROLE_NAMES)
    names = np.empty((n_roles, n_roles), dtype=object)
    for i in range(n_roles):
        for j in range(n_roles):
            lo, hi = sorted((ROLE_NAMES[i], ROLE_NAMES[j]), key=lambda r: TIER_RANK.get(r, 0))
            names[i, j] = f"{_tier_name(lo)}-{_tier_name(hi)}"
    return names[c.devices.role[c.links.a], c.devices.role[c.links.b]].tolist()


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
    combo, inv = np.unique(dev * nk + key, return_inverse=True)
    used = np.bincount(inv, weights=w, minlength=len(combo))
    used_of = {
        (int(d), lk.port_keys[int(k)][1]): float(u)
        for d, k, u in zip(combo // nk, combo % nk, used, strict=True)
    }
    out = []
    for d in np.flatnonzero(c.devices.kind == KIND_CODES["switch"]).tolist():
        for pg in catalog.entries[c.devices.type_ids[d]].port_groups:
            u = used_of.get((d, pg.name), 0.0)
            if pg.role != "management" or u:
                out.append(PortUse(d, pg.name, pg.count, u))
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


def _bisection_and_oversub(c: Compiled, tiers: list[str]) -> tuple[float, dict[str, float]]:
    """Bisection of a tiered fabric: the smallest tier boundary's capacity, halved (both halves send across).
    Oversubscription per tier: capacity down / capacity up, worst switch of the tier (compute fabric)."""
    lk = c.links
    cap = lk.capacity_gbps
    tier_arr = np.array(tiers, dtype=object) if tiers else np.zeros(0, object)
    boundaries = {}
    for t in ("node-leaf", "leaf-spine", "spine-core"):
        m = tier_arr == t
        if m.any():
            boundaries[t] = float(cap[m].sum())
    bisection = min(boundaries.values()) / 2 if boundaries else 0.0
    oversub: dict[str, float] = {}
    n_dev = len(c.devices.ids)
    for role, down_t, up_t in (("leaf", "node-leaf", "leaf-spine"), ("spine", "leaf-spine", "spine-core")):
        if up_t not in boundaries:
            continue
        down = np.zeros(n_dev)
        up = np.zeros(n_dev)
        code = ROLE_CODES[role]
        for t, arr in ((down_t, down), (up_t, up)):
            m = tier_arr == t
            for ends in (lk.a[m], lk.b[m]):
                sel = c.devices.role[ends] == code
                np.add.at(arr, ends[sel], cap[m][sel])
        has = (c.devices.role == code) & (up > 0)
        if has.any():
            oversub[role] = float(np.max(down[has] / up[has]))
    return bisection, oversub


def _capex(c: Compiled, catalog: Catalog, cables: CablePlan) -> tuple[float, float]:
    def price(tid: str) -> float:
        p = catalog.price_usd(tid)
        return float(p) if p is not None else 0.0

    net = 0.0
    gpu = 0.0
    for i, tid in enumerate(c.devices.type_ids):
        p = c.devices.price_override_usd[i]
        p = price(tid) if np.isnan(p) else float(p)
        if c.devices.kind[i] == KIND_CODES["switch"]:
            net += p
        elif c.devices.gpu_count[i] > 0:
            gpu += p
    for k, v in cables.bom_cables.items():
        p = catalog.prices.get(k)
        net += price(k) * (cables.bom_cable_m.get(k, 0.0) if p is not None and p.unit == "per_m" else v)
    net += sum(price(k) * v for k, v in cables.bom_transceivers.items())
    return net, gpu


def analyze_fabric(c: Compiled, catalog: Catalog, *, router: Router | None = None) -> FabricResult:
    g = build_fabric_graph(c)
    if router is None:
        router = build_router(g.n_nodes, g.link_a, g.link_b, g.transit)
    cables = plan_cables(c, catalog)
    tiers = link_tiers(c)
    sw_roles = c.devices.role[c.devices.kind == KIND_CODES["switch"]]
    switches_by_tier = {
        ROLE_NAMES[int(r)]: int(n) for r, n in zip(*np.unique(sw_roles, return_counts=True), strict=True)
    }
    for t in ("leaf", "spine", "core"):
        switches_by_tier.setdefault(t, 0)
    cables_by_tier: Counter = Counter()
    cables_by_medium: Counter = Counter()
    for t, m, mult in zip(tiers, cables.medium, c.links.multiplicity.tolist(), strict=True):
        cables_by_tier[t] += mult
        cables_by_medium[m] += mult
    bisection, oversub = _bisection_and_oversub(c, tiers)
    # Hop counts between compute endpoints (GPU NICs): a deterministic sample of pairs.
    eps = np.unique(g.gpu_endpoint[g.gpu_endpoint >= 0])
    hist: dict[int, int] = {}
    max_hops = 0
    if len(eps) > 1:
        rng = np.random.default_rng(0)
        k = min(HOP_SAMPLE, len(eps) * (len(eps) - 1))
        src = eps[rng.integers(0, len(eps), k)]
        dst = eps[rng.integers(0, len(eps), k)]
        keep = src != dst
        hops = router.hop_counts(src[keep], dst[keep])
        vals, counts = np.unique(hops[hops >= 0], return_counts=True)
        hist = {int(v): int(n) for v, n in zip(vals, counts, strict=True)}
        max_hops = int(vals.max()) if len(vals) else 0
    net, gpu = _capex(c, catalog, cables)
    return FabricResult(
        graph=g,
        router=router,
        cables=cables,
        link_tier=tiers,
        switches_by_tier=switches_by_tier,
        endpoints=int(len(eps)),
        gpus=int(c.devices.gpu_count.sum()),
        cables_by_tier=dict(sorted(cables_by_tier.items())),
        cables_by_medium=dict(sorted(cables_by_medium.items())),
        transceivers=cables.bom_transceivers,
        bisection_gbps=bisection,
        oversubscription_by_tier=oversub,
        hop_histogram=hist,
        max_hops=max_hops,
        port_use=port_use(c, catalog),
        network_capex_usd=net,
        gpu_capex_usd=gpu,
    )
