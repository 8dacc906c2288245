"""Cable and optics plan: each link's medium from its speed, technology and length.

Preference, by cost and power: passive copper (DAC) → active copper (ACC/AEC) → active optical cable (AOC)
→ transceivers + fiber (multimode before single-mode). A user's choice of cable on a link is kept and
checked against its reach. Loops run over the few distinct (speed, technology) pairs, not over links.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.types import CableType, TransceiverType
from gpuplanner.engine.compiled import KIND_CODES, Compiled

DIRECT_ORDER = {"utp": 0, "dac": 0, "acc": 1, "aec": 1, "aoc": 2}
MEDIA = ("dac", "acc", "aec", "aoc", "fiber-mmf", "fiber-smf", "none")


@dataclass(frozen=True)
class CablePlan:
    medium: list[str]  # per link
    cable_id: list[str]  # per link ("" = none found)
    transceiver_a: list[str]  # per link, "" for direct cables
    transceiver_b: list[str]
    transceivers_a: np.ndarray  # modules at the a end (twin-port modules serve 2 links)
    transceivers_b: np.ndarray
    reach_m: np.ndarray  # reach of the chosen medium (NaN = none)
    too_long: np.ndarray  # bool: no medium (or the user's cable) reaches
    optics_power_w: np.ndarray  # per link, both ends
    bom_cables: dict[str, int] = field(default_factory=dict)
    bom_cable_m: dict[str, float] = field(
        default_factory=dict
    )  # total metres per cable id (per-metre prices)
    bom_transceivers: dict[str, int] = field(default_factory=dict)


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


def plan_cables(c: Compiled, catalog: Catalog) -> CablePlan:
    """Vectorised over links; Python loops only over (speed, technology) pairs and catalog candidates."""
    lk = c.links
    n = len(lk.ids)
    cables = [e for e in catalog.entries.values() if isinstance(e, CableType)]
    xcvrs = [e for e in catalog.entries.values() if isinstance(e, TransceiverType)]
    medium = np.full(n, "", dtype=object)
    cable_id = np.full(n, "", dtype=object)
    tr_a = np.full(n, "", dtype=object)
    tr_b = np.full(n, "", dtype=object)
    reach = np.full(n, np.nan)
    n_tr_a = np.zeros(n)
    n_tr_b = np.zeros(n)
    power = np.zeros(n)
    mult = lk.multiplicity.astype(np.float64)
    length = lk.length_m
    a_sw = c.devices.kind[lk.a] == KIND_CODES["switch"] if n else np.zeros(0, bool)
    b_sw = c.devices.kind[lk.b] == KIND_CODES["switch"] if n else np.zeros(0, bool)
    want = np.array(lk.medium, dtype=object) if n else np.zeros(0, object)
    tech_arr = np.array(lk.technology, dtype=object) if n else np.zeros(0, object)
    user = np.array(lk.cable_ids, dtype=object) if n else np.zeros(0, object)
    done = np.zeros(n, dtype=bool)
    # 1. the user's own cable choice is kept (and checked against its reach below)
    for cid in set(user.tolist()) - {""}:
        cb = catalog.entries.get(cid)
        if isinstance(cb, CableType):
            m = user == cid
            medium[m], cable_id[m], reach[m] = cb.medium, cb.id, cb.reach_max_m
            power[m] = 2 * cb.power_w * mult[m]
            done |= m
    conn_arr = np.array(lk.connector, dtype=object) if n else np.zeros(0, object)
    keys = {
        (float(a), b, k) for a, b, k in zip(lk.speed_gbps.tolist(), lk.technology, lk.connector, strict=True)
    }
    for speed, tech, conn in keys:
        group = ~done & (lk.speed_gbps == speed) & (tech_arr == tech) & (conn_arr == conn)
        if not group.any():
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
        for cb in direct:
            m = group & ~done & (length <= cb.reach_max_m) & ((want == "") | (want == cb.medium))
            medium[m], cable_id[m], reach[m] = cb.medium, cb.id, cb.reach_max_m
            power[m] = 2 * cb.power_w * mult[m]
            done |= m
        # 3. transceivers + fiber: multimode first, twin-port modules in switch cages
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
                same = [t for t in optics if t.fiber == fiber and t.reach_max_m >= reach_m]
                if any(t.speed_gbps == speed for t in same):
                    same = [t for t in same if t.speed_gbps == speed]  # per-port modules
                single = next((t for t in same if t.ports == 1), same[0])
                twin = next((t for t in same if t.ports == 2), single)
                m = group & ~done & (length <= reach_m) & ((want == "") | (want == f"fiber-{fiber}"))
                if not m.any():
                    continue
                fib = next(
                    (
                        cb
                        for cb in sorted(cables, key=lambda cb: cb.reach_max_m)
                        if cb.medium == f"fiber-{fiber}" and cb.reach_max_m >= reach_m
                    ),
                    None,
                )
                medium[m] = f"fiber-{fiber}"
                cable_id[m] = fib.id if fib else ""
                reach[m] = reach_m
                tr_a[m] = np.where(a_sw[m], twin.id, single.id)
                tr_b[m] = np.where(b_sw[m], twin.id, single.id)
                # modules per end: links over the links one module carries (a 2×400G module: two 400G links
                # or one 800G link)
                per_twin = twin.speed_gbps * twin.ports / speed
                per_single = single.speed_gbps * single.ports / speed
                n_tr_a[m] = mult[m] / np.where(a_sw[m], per_twin, per_single)
                n_tr_b[m] = mult[m] / np.where(b_sw[m], per_twin, per_single)
                pa = np.where(a_sw[m], twin.power_w, single.power_w)
                pb = np.where(b_sw[m], twin.power_w, single.power_w)
                power[m] = n_tr_a[m] * pa + n_tr_b[m] * pb
                done |= m
    medium[~done] = "none"
    too_long = ~done | (np.nan_to_num(reach, nan=np.inf) < length)
    bom_c: Counter = Counter()
    bom_m: Counter = Counter()
    ids, inverse = np.unique(cable_id.astype(str), return_inverse=True)
    counts = np.bincount(inverse, weights=mult, minlength=len(ids))
    metres = np.bincount(inverse, weights=mult * length, minlength=len(ids))
    for cid, cnt, mtr in zip(ids.tolist(), counts.tolist(), metres.tolist(), strict=True):
        if cid:
            bom_c[cid] = int(cnt)
            bom_m[cid] = round(float(mtr), 1)
    bom_t: Counter = Counter()
    for ids, counts in ((tr_a, n_tr_a), (tr_b, n_tr_b)):
        has = ids != ""
        for tid in set(ids[has].tolist()):
            bom_t[tid] += float(counts[ids == tid].sum())
    return CablePlan(
        medium=medium.tolist(),
        cable_id=cable_id.tolist(),
        transceiver_a=tr_a.tolist(),
        transceiver_b=tr_b.tolist(),
        transceivers_a=n_tr_a,
        transceivers_b=n_tr_b,
        reach_m=reach,
        too_long=too_long,
        optics_power_w=power,
        bom_cables=dict(sorted(bom_c.items())),
        bom_cable_m=dict(sorted(bom_m.items())),
        bom_transceivers={k: int(np.ceil(v)) for k, v in sorted(bom_t.items())},
    )
