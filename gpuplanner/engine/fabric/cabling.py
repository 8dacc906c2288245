"""Cable and optics plan: each link's medium from its speed, technology and length.

Preference, by cost and power: passive copper (DAC) → active copper (ACC/AEC) → active optical cable (AOC)
→ transceivers + fiber (multimode before single-mode). A user's choice of cable on a link is kept and
checked against its reach. Loops run over the few distinct (speed, technology) pairs, not over links.

Transceivers are counted per cage: an end whose cage is twin-port (every switch OSFP cage, and a device port
group with ``ports_per_cage: 2`` such as the DGX H100's four OSFP cages for eight ConnectX-7 ports) takes a
twin-port module serving two links; the BOM rounds up per (device, port group, module), so an odd number of
links on a twin-cage group still takes a whole module for the last cage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.types import CableType, TransceiverType
from gpuplanner.engine.arrays import dense_unique, few_unique, first_index
from gpuplanner.engine.compiled import CONNECTORS, KIND_CODES, TECHNOLOGIES, Compiled, LinkArrays, codes_of

DIRECT_ORDER = {"utp": 0, "dac": 0, "acc": 1, "aec": 1, "aoc": 2}
MEDIA = ("dac", "acc", "aec", "aoc", "utp", "fiber-mmf", "fiber-smf", "none")
COPPER = ("dac", "acc", "aec", "utp")
MEDIUM_NAMES = ("", *MEDIA)  # CablePlan.medium_code indexes this


@dataclass(frozen=True)
class CablePlan:
    """Per-link choices as integer codes (``medium_code`` into MEDIUM_NAMES; ``cable_code``, ``tr_a_code``,
    ``tr_b_code`` into ``code_ids``); the per-link id strings (``medium``, ``cable_id``, ``transceiver_a``,
    ``transceiver_b``) are built from them on first read (exports and the desktop read them, no stage does)."""

    medium_code: np.ndarray  # int32 per link: index into MEDIUM_NAMES
    transceivers_a: np.ndarray  # modules at the a end (twin-port modules serve 2 links)
    transceivers_b: np.ndarray
    reach_m: np.ndarray  # reach of the chosen medium (NaN = none)
    too_long: np.ndarray  # bool: no medium (or the user's cable) reaches
    copper_reach_m: (
        np.ndarray
    )  # longest passive/active copper (DAC, ACC, AEC, UTP) the link's ports take; NaN = none
    optics_power_w: np.ndarray  # per link, both ends
    bom_cables: dict[str, int] = field(default_factory=dict)
    bom_cable_m: dict[str, float] = field(
        default_factory=dict
    )  # total metres per cable id (per-metre prices)
    bom_transceivers: dict[str, int] = field(default_factory=dict)
    cable_code: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # per link, into code_ids
    tr_a_code: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # per link, into code_ids
    tr_b_code: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    code_ids: list[str] = field(default_factory=lambda: [""])  # catalog ids the plan names (0 = none)

    @cached_property
    def medium(self) -> list[str]:
        """Medium per link ("none" when nothing fits)."""
        return _names_of(list(MEDIUM_NAMES), self.medium_code)

    @cached_property
    def cable_id(self) -> list[str]:
        """Cable per link ("" = none found)."""
        return _names_of(self.code_ids, self.cable_code)

    @cached_property
    def transceiver_a(self) -> list[str]:
        """Module at the a end per link ("" for direct cables)."""
        return _names_of(self.code_ids, self.tr_a_code)

    @cached_property
    def transceiver_b(self) -> list[str]:
        return _names_of(self.code_ids, self.tr_b_code)


def _names_of(names: list[str], codes: np.ndarray) -> list[str]:
    out: list[str] = np.array(names, dtype=object)[codes].tolist()
    return out


def _fits(item_connector: str, cage: str) -> bool:
    """A cable or module fits the cage (unknown cages accept anything, so user drawings still get a medium)."""
    return (
        not cage
        or not item_connector
        or item_connector == cage
        or (cage == "rj45" and item_connector in ("rj45", "utp"))
    )


def _tech_ok(item_tech: str, tech: str) -> bool:
    return item_tech in ("any", tech) or (item_tech == "vpi")


class _Choices:
    """Per-link choices as integer codes into small tables (no per-link Python objects)."""

    def __init__(self, n: int) -> None:
        self.ids: list[str] = [""]  # code 0 = none
        self.medium_names: list[str] = list(MEDIUM_NAMES)
        self.cable = np.zeros(n, np.int32)
        self.tr_a = np.zeros(n, np.int32)
        self.tr_b = np.zeros(n, np.int32)
        self.medium = np.zeros(n, np.int32)

    def code(self, entry_id: str) -> int:
        if entry_id not in self.ids:
            self.ids.append(entry_id)
        return self.ids.index(entry_id)

    def medium_code(self, medium: str) -> int:
        return self.medium_names.index(medium)


def _link_groups(lk: LinkArrays) -> tuple[np.ndarray, list[tuple[float, str, str]]]:
    """Code of each link's (speed, technology, connector) group, groups numbered in order of first
    appearance, from the compiled integer codes (no per-link tuples)."""
    n = len(lk.ids)
    if not n:
        return np.zeros(0, np.int32), []
    # codes without sorting the 393k-link columns: the few distinct speeds by binary search, the key
    # combinations by a table of flags (np.unique of each gives the same codes)
    speeds, speed_code = few_unique(lk.speed_gbps)
    key = (speed_code * 2 + lk.infiniband) * len(CONNECTORS) + lk.connector_code
    size = len(speeds) * 2 * len(CONNECTORS)
    combos, inv = dense_unique(key, size)
    first = first_index(key, size)[combos]
    order = np.argsort(first)
    rank = np.empty(len(combos), np.int32)
    rank[order] = np.arange(len(combos), dtype=np.int32)
    keys = [
        (
            float(speeds[k // len(CONNECTORS) // 2]),
            TECHNOLOGIES[k // len(CONNECTORS) % 2],
            CONNECTORS[k % len(CONNECTORS)],
        )
        for k in combos[order].tolist()
    ]
    return rank[inv], keys


def _twin_port_keys(lk: LinkArrays, catalog: Catalog) -> np.ndarray:
    """Per port key (device type, port group): True when its cages are twin-port (ports_per_cage ≥ 2)."""
    out = np.zeros(max(len(lk.port_keys), 1), dtype=bool)
    for k, (type_id, group) in enumerate(lk.port_keys):
        entry = catalog.entries.get(type_id)
        pg = entry.port_group(group) if entry is not None and hasattr(entry, "port_group") else None
        out[k] = pg is not None and int(getattr(pg, "ports_per_cage", 1) or 1) >= 2
    return out


def _modules_per_cage(
    lk: LinkArrays, ch: _Choices, n_tr_a: np.ndarray, n_tr_b: np.ndarray, n_ids: int
) -> np.ndarray:
    """Modules per catalog code: Σ over (device, port key, module) of ceil(links' module shares) — whole
    modules per device port group, never a half module shared between two devices."""
    if not len(n_tr_a):
        return np.zeros(n_ids)
    nk = int(max(lk.a_port_key.max(), lk.b_port_key.max())) + 1
    size = (int(max(lk.a.max(), lk.b.max())) + 1) * nk * n_ids
    share = np.concatenate([n_tr_a, n_tr_b])
    if size <= 8 * len(share) + 65536:
        # a dense (device, port key, module) table: one bincount over both ends in the order a ends, b ends
        # (the order np.unique's groups summed in); ends with no module add 0 to their own cells, and cells
        # of code 0 ("no module") are not counted
        combo = np.concatenate(
            [
                (lk.a.astype(np.int64) * nk + lk.a_port_key) * n_ids + ch.tr_a,
                (lk.b.astype(np.int64) * nk + lk.b_port_key) * n_ids + ch.tr_b,
            ]
        )
        whole = np.ceil(np.bincount(combo, weights=share, minlength=size) - 1e-9).reshape(-1, n_ids)
        per_id: np.ndarray = np.maximum(whole, 0.0).sum(axis=0)  # whole modules: integer sums, exact
        per_id[0] = 0.0
        return per_id
    dev = np.concatenate([lk.a, lk.b]).astype(np.int64)
    key = np.concatenate([lk.a_port_key, lk.b_port_key]).astype(np.int64)
    mod = np.concatenate([ch.tr_a, ch.tr_b]).astype(np.int64)
    used = (mod > 0) & (share > 0)
    combo = (dev[used] * nk + key[used]) * n_ids + mod[used]
    groups, inv = np.unique(combo, return_inverse=True)
    whole = np.ceil(np.bincount(inv.ravel(), weights=share[used]) - 1e-9)
    return np.bincount(groups % n_ids, weights=whole, minlength=n_ids)


def plan_cables(c: Compiled, catalog: Catalog) -> CablePlan:
    """Vectorised over links; Python loops only over distinct (speed, technology, cage) groups and catalog
    candidates, working on index arrays of each group."""
    lk = c.links
    n = len(lk.ids)
    cables = [e for e in catalog.entries.values() if isinstance(e, CableType)]
    fibers = sorted((cb for cb in cables if cb.medium.startswith("fiber-")), key=lambda cb: cb.reach_max_m)
    xcvrs = [e for e in catalog.entries.values() if isinstance(e, TransceiverType)]
    ch = _Choices(n)
    reach = np.full(n, np.nan)
    copper_reach = np.full(n, np.nan)
    n_tr_a = np.zeros(n)
    n_tr_b = np.zeros(n)
    power = np.zeros(n)
    mult = lk.multiplicity.astype(np.float64)
    length = lk.length_m
    twin_key = _twin_port_keys(lk, catalog)
    a_sw = (
        (c.devices.kind[lk.a] == KIND_CODES["switch"]) | twin_key[lk.a_port_key] if n else np.zeros(0, bool)
    )
    b_sw = (
        (c.devices.kind[lk.b] == KIND_CODES["switch"]) | twin_key[lk.b_port_key] if n else np.zeros(0, bool)
    )
    want_code, want_names = codes_of(lk.medium)
    # per medium: which of the drawn medium codes take it ("" = any); gathered per group of links below
    want_tab = {name: np.array([w in ("", name) for w in want_names] or [True]) for name in MEDIA}
    any_medium = want_names == [""]  # nothing drawn with a medium: every link takes any (the common case)

    def wanted(name: str, group: np.ndarray) -> np.ndarray | bool:
        return True if any_medium else want_tab[name][want_code[group]]

    done = np.zeros(n, dtype=bool)

    def assign(rows: np.ndarray, medium: str, cable: str, reach_m: float) -> None:
        ch.medium[rows] = ch.medium_code(medium)
        ch.cable[rows] = ch.code(cable) if cable else 0
        reach[rows] = reach_m
        done[rows] = True

    # 1. the user's own cable choice is kept (and checked against its reach below)
    user_code, user_names = codes_of(lk.cable_ids)
    for k, cid in enumerate(user_names):
        cb = catalog.entries.get(cid)
        if cid and isinstance(cb, CableType):
            rows = np.flatnonzero(user_code == k)
            assign(rows, cb.medium, cb.id, cb.reach_max_m)
            power[rows] = 2 * cb.power_w * mult[rows]
    group_code, group_keys = _link_groups(lk)
    for k, (speed, tech, conn) in enumerate(group_keys):
        group = np.flatnonzero((group_code == k) & ~done)
        if not len(group):
            continue
        # 2. direct-attach cables, cheapest medium first, shortest sufficient reach first
        direct = sorted(
            (
                cb
                for cb in cables
                if cb.medium in DIRECT_ORDER
                and _tech_ok(cb.technology, tech)
                and _fits(cb.connector, conn)
                and (cb.speed_gbps == speed or (cb.medium == "utp" and cb.speed_gbps >= speed))
            ),
            key=lambda cb: (DIRECT_ORDER[cb.medium], cb.reach_max_m),
        )
        copper = [cb.reach_max_m for cb in direct if cb.medium in COPPER]
        if copper:
            copper_reach[group] = max(copper)
        g_len = length[group]
        free = np.ones(len(group), dtype=bool)  # the group's links not yet given a medium
        for cb in direct:
            pick = free & (g_len <= cb.reach_max_m) & wanted(cb.medium, group)
            rows = group[pick]
            if len(rows):
                free &= ~pick
                assign(rows, cb.medium, cb.id, cb.reach_max_m)
                power[rows] = 2 * cb.power_w * mult[rows]
        # 3. transceivers + fiber: multimode first, twin-port modules in twin-port cages
        optics = sorted(
            (
                t
                for t in xcvrs
                if (t.speed_gbps == speed or t.speed_gbps * t.ports == speed)
                and _tech_ok(t.technology, tech)
                and _fits(t.form_factor, conn)
            ),
            key=lambda t: (t.fiber != "mmf", t.reach_max_m, t.ports),
        )
        for fiber in ("mmf", "smf"):
            for reach_m in sorted({t.reach_max_m for t in optics if t.fiber == fiber}):
                pick = free & (g_len <= reach_m) & wanted(f"fiber-{fiber}", group)
                rows = group[pick]
                if not len(rows):
                    continue
                free &= ~pick
                same = [t for t in optics if t.fiber == fiber and t.reach_max_m >= reach_m]
                if any(t.speed_gbps == speed for t in same):
                    same = [t for t in same if t.speed_gbps == speed]  # per-port modules
                single = next((t for t in same if t.ports == 1), same[0])
                twin = next((t for t in same if t.ports == 2), single)
                fib = next(
                    (cb for cb in fibers if cb.medium == f"fiber-{fiber}" and cb.reach_max_m >= reach_m), None
                )
                assign(rows, f"fiber-{fiber}", fib.id if fib else "", reach_m)
                sa, sb = a_sw[rows], b_sw[rows]
                ch.tr_a[rows] = np.where(sa, ch.code(twin.id), ch.code(single.id))
                ch.tr_b[rows] = np.where(sb, ch.code(twin.id), ch.code(single.id))
                # modules per end: links over the links one module carries (a 2×400G module: two 400G links
                # or one 800G link)
                per_twin = twin.speed_gbps * twin.ports / speed
                per_single = single.speed_gbps * single.ports / speed
                n_tr_a[rows] = mult[rows] / np.where(sa, per_twin, per_single)
                n_tr_b[rows] = mult[rows] / np.where(sb, per_twin, per_single)
                power[rows] = n_tr_a[rows] * np.where(sa, twin.power_w, single.power_w) + n_tr_b[
                    rows
                ] * np.where(sb, twin.power_w, single.power_w)
    ch.medium[~done] = ch.medium_code("none")
    too_long = ~done | (np.nan_to_num(reach, nan=np.inf) < length)
    n_ids = len(ch.ids)
    cnt = np.bincount(ch.cable, weights=mult, minlength=n_ids)
    trs = _modules_per_cage(lk, ch, n_tr_a, n_tr_b, n_ids)
    return CablePlan(
        medium_code=ch.medium,
        transceivers_a=n_tr_a,
        transceivers_b=n_tr_b,
        reach_m=reach,
        too_long=too_long,
        copper_reach_m=copper_reach,
        optics_power_w=power,
        bom_cables={
            ch.ids[i]: int(round(cnt[i]))
            for i in sorted(range(1, n_ids), key=lambda i: ch.ids[i])
            if cnt[i] > 0
        },
        bom_cable_m=bom_cable_m(ch.cable, ch.ids, mult, length),
        bom_transceivers={
            ch.ids[i]: int(np.ceil(trs[i] - 1e-9))
            for i in sorted(range(1, n_ids), key=lambda i: ch.ids[i])
            if trs[i] > 0
        },
        cable_code=ch.cable,
        tr_a_code=ch.tr_a,
        tr_b_code=ch.tr_b,
        code_ids=list(ch.ids),
    )


def bom_cable_m(
    cable_code: np.ndarray, code_ids: list[str], mult: np.ndarray, length_m: np.ndarray
) -> dict[str, float]:
    """Total metres per cable id (for per-metre prices), summed in link order."""
    n_ids = len(code_ids)
    cnt = np.bincount(cable_code, weights=mult, minlength=n_ids)
    metres = np.bincount(cable_code, weights=mult * length_m, minlength=n_ids)
    return {code_ids[i]: round(float(metres[i]), 1) for i in range(1, n_ids) if cnt[i] > 0}
