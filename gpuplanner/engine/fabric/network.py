"""Fabric analysis on any drawn topology: switches per tier, port use, cables and optics, bisection
bandwidth, oversubscription per tier, hop counts and diameter, and the network's cost share.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.types import SwitchType
from gpuplanner.engine.arrays import FloatArray, IntArray
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


@dataclass(frozen=True, eq=False)  # columns of arrays: compared by identity, never hashed by value
class PortUseTable(Sequence[PortUse]):
    """Ports used per (device, port group), as columns: every switch group in device then catalog order,
    then the over-used groups of other devices. Indexing or iterating gives ``PortUse`` rows (the checks and
    the JSON read the columns; 10,240 switches × their groups are never turned into objects)."""

    device_row: IntArray  # int64
    group_code: IntArray  # int64 index into group_names
    group_names: list[str]
    ports: IntArray  # int64: ports in the group
    used: FloatArray  # Σ multiplicity × link speed / port speed

    def __len__(self) -> int:
        return len(self.device_row)

    def _row(self, i: int) -> PortUse:
        return PortUse(
            int(self.device_row[i]),
            self.group_names[int(self.group_code[i])],
            int(self.ports[i]),
            float(self.used[i]),
        )

    @overload
    def __getitem__(self, i: int) -> PortUse: ...

    @overload
    def __getitem__(self, i: slice) -> list[PortUse]: ...

    def __getitem__(self, i: int | slice) -> PortUse | list[PortUse]:
        if isinstance(i, slice):
            return [self._row(k) for k in range(len(self))[i]]
        return self._row(range(len(self))[i])

    def __iter__(self) -> Iterator[PortUse]:
        return (self._row(k) for k in range(len(self)))

    def group(self, i: int) -> str:
        return self.group_names[int(self.group_code[i])]

    def over_used(self) -> IntArray:
        """Rows using more ports than the group has."""
        rows: IntArray = np.flatnonzero(self.used > self.ports + 1e-9)
        return rows

    def free(self) -> FloatArray:
        """Free ports per row (never negative)."""
        out: FloatArray = np.maximum(0.0, self.ports - self.used)
        return out


def running_sum(values: npt.NDArray[Any]) -> float:
    """Σ values added one after another in order, as Python's ``sum`` over the rows did (np.sum adds
    pairwise, which can differ in the last bit)."""
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


@dataclass
class FabricResult:
    graph: FabricGraph
    router: Router
    cables: CablePlan
    link_tier_code: IntArray  # per link: index into TIER_NAMES
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
    port_use: PortUseTable = field(default_factory=lambda: _port_table([], [], [], [], []))
    network_capex_usd: float = 0.0
    gpu_capex_usd: float = 0.0

    @cached_property
    def link_tier(self) -> list[str]:
        """Tier pair of each link: "node-leaf", "leaf-spine", "spine-core", … (built on first read)."""
        names: list[str] = TIER_NAMES[self.link_tier_code].tolist()
        return names

    @property
    def network_share_of_gpu_cost(self) -> float | None:
        return self.network_capex_usd / self.gpu_capex_usd if self.gpu_capex_usd else None

    def to_json(self, c: Compiled) -> dict[str, Any]:
        pu = self.port_use
        over_ports = [
            {
                "device": c.devices.ids[p.device_row],
                "name": c.devices.names[p.device_row],
                "group": p.group,
                "ports": p.ports,
                "used": p.used,
            }
            for p in (pu[i] for i in pu.over_used().tolist())
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
            "ports_used": running_sum(pu.used),
            "ports_free": running_sum(pu.free()),
            "over_subscribed_ports": over_ports,
            "links_too_long": [c.links.ids[i] for i in np.flatnonzero(self.cables.too_long)],
            # switches + cables + optics at catalog prices; the plan's one network share (with the servers'
            # NICs, over GPU server capex) is the top-level network_share_of_gpu_server_capex
            "switches_cables_optics_usd": self.network_capex_usd,
        }


def _tier_name(role: str) -> str:
    return {"compute": "node", "storage": "storage", "storage-switch": "storage-switch"}.get(role, role)


def _tier_table() -> npt.NDArray[np.object_]:
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
# per tier pair name: a bool table over TIER_NAMES codes (one gather per link instead of np.isin)
_TIER_IS = {t: np.isin(np.arange(len(TIER_NAMES)), codes) for t, codes in TIER_CODES.items()}


def link_tier_codes(c: Compiled) -> IntArray:
    """Index of each link's tier pair into TIER_NAMES (int64)."""
    role: IntArray = c.devices.role.astype(np.int64)
    codes: IntArray = role[c.links.a] * len(ROLE_NAMES) + role[c.links.b]
    return codes


def link_tiers(c: Compiled) -> list[str]:
    """Tier pair of each link ("node-leaf", "leaf-spine", …), vectorised through a role × role name table."""
    names: list[str] = TIER_NAMES[link_tier_codes(c)].tolist()
    return names


def _count_by_name(
    codes: IntArray, names: Sequence[str] | npt.NDArray[np.object_], weights: FloatArray
) -> dict[str, int]:
    """Σ weights per name of the codes present (several codes may share a name), sorted by name."""
    present = np.flatnonzero(np.bincount(codes, minlength=len(names)))
    sums = np.bincount(codes, weights=weights, minlength=len(names))
    out: dict[str, int] = {}
    for k in present.tolist():
        out[names[k]] = out.get(names[k], 0) + int(sums[k])
    return dict(sorted(out.items()))


def _port_table(
    device_row: Any, group_code: Any, group_names: list[str], ports: Any, used: Any
) -> PortUseTable:
    return PortUseTable(
        device_row=np.asarray(device_row, dtype=np.int64),
        group_code=np.asarray(group_code, dtype=np.int64),
        group_names=group_names,
        ports=np.asarray(ports, dtype=np.int64),
        used=np.asarray(used, dtype=np.float64),
    )


def _switch_port_use(
    c: Compiled, catalog: Catalog, combo: np.ndarray, used: np.ndarray, nk: int
) -> tuple[IntArray, IntArray, list[str], IntArray, FloatArray]:
    """Every port group of every switch, in device then catalog order, with its use (0 when no link): the
    groups of each distinct switch type are listed once and repeated per switch of that type. Columns:
    device row, group code, group names, ports, used."""
    lk = c.links
    sw = np.flatnonzero(c.devices.kind == KIND_CODES["switch"])
    if not len(sw):
        z = np.zeros(0, np.int64)
        return z, z, [], z, np.zeros(0)
    t_code, t_names = codes_of([c.devices.type_ids[d] for d in sw.tolist()])
    key_of = {k: i for i, k in enumerate(lk.port_keys)}
    groups = [catalog.get_typed(t, SwitchType).port_groups for t in t_names]  # kind "switch": a SwitchType
    n_groups = np.array([len(g) for g in groups], dtype=np.int64)
    flat = [(t, pg) for t, gs in zip(t_names, groups, strict=True) for pg in gs]
    g_key = np.array([key_of.get((t, pg.name), -1) for t, pg in flat] or [-1], dtype=np.int64)
    g_mgmt = np.array([pg.role == "management" for _, pg in flat] or [False])
    g_count = np.array([pg.count for _, pg in flat] or [0], dtype=np.int64)
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
    return d[show], gi[show], [pg.name for _, pg in flat], g_count[gi[show]], u[show].astype(np.float64)


def port_use(c: Compiled, catalog: Catalog) -> PortUseTable:
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
    d, g, names, ports, u = _switch_port_use(c, catalog, combo, used, nk)
    counts = lk.port_key_count[combo % nk] if len(combo) else np.zeros(0, np.int64)
    over = (
        np.flatnonzero((used > counts + 1e-9) & (c.devices.kind[combo // nk] != KIND_CODES["switch"]))
        if len(combo)
        else np.zeros(0, np.int64)
    )
    # the over-used groups of other devices, named by their port key (codes after the switch groups')
    return _port_table(
        np.concatenate([d, combo[over] // nk]),
        np.concatenate([g, len(names) + combo[over] % nk]),
        names + [k[1] for k in lk.port_keys],
        np.concatenate([ports, counts[over]]),
        np.concatenate([u, used[over]]),
    )


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
    masks = {t: _TIER_IS[t][codes] for t in ("node-leaf", "leaf-spine", "spine-core")}
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
        listed = catalog.prices.get(k)
        per_m = listed is not None and listed.unit == "per_m"
        net += price(k) * (cables.bom_cable_m.get(k, 0.0) if per_m else v)
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

    def _entry(self, key: str, g: FabricGraph) -> tuple[Router, dict[str, tuple[dict[int, int], int]]]:
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
        link_tier_code=tier_codes,
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
