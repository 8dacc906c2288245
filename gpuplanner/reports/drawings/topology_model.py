"""The topology as the report draws it: devices gathered into blocks per tier (one device, one rack, one
scalable unit/pod, or an even chunk — whatever keeps a tier to at most ``MAX_BLOCKS``), and links gathered into
bundles between blocks, each with its cable count and the utilisation of its busiest link."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gpuplanner.engine.compiled import ROLE_CODES

ROW_ROLES = ("core", "spine", "leaf", "compute", "storage-switch", "storage", "other")
OMITTED_ROLES = ("management",)
MAX_BLOCKS = 40  # one block per device or rack up to this many in a tier
AGG_BLOCKS = 16  # an aggregated tier: at most this many blocks (whole groups merged, or even chunks)


@dataclass(frozen=True)
class Block:
    row: int  # index into TopologyModel.rows
    role: str
    label: str
    count: int  # devices in the block
    order: float  # mean canvas x, for left-to-right order


@dataclass(frozen=True)
class TopologyModel:
    rows: list[str]  # roles present, top to bottom
    row_devices: list[int]
    blocks: list[Block]
    bundle_a: np.ndarray  # block index
    bundle_b: np.ndarray
    bundle_cables: np.ndarray  # Σ multiplicity
    bundle_util: np.ndarray  # max utilisation of its links
    devices_drawn: int
    links_drawn: int
    omitted_switches: int
    omitted_cables: int

    @property
    def aggregated(self) -> bool:
        return len(self.blocks) < self.devices_drawn or len(self.bundle_a) < self.links_drawn


def _partition(members: np.ndarray, keys: list[str], order: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """Members grouped by key (insertion order of their canvas order)."""
    groups: dict[str, list[int]] = {}
    for m in members[np.argsort(order[members], kind="stable")].tolist():
        groups.setdefault(keys[m], []).append(m)
    return [(k, np.asarray(v)) for k, v in groups.items()]


def _chunks(members: np.ndarray, order: np.ndarray) -> list[np.ndarray]:
    sorted_m = members[np.argsort(order[members], kind="stable")]
    size = math.ceil(len(sorted_m) / AGG_BLOCKS)
    return [sorted_m[i : i + size] for i in range(0, len(sorted_m), size)]


def _merge(groups: list[tuple[str, np.ndarray]]) -> list[tuple[str, np.ndarray]]:
    """Neighbouring groups merged so that at most AGG_BLOCKS remain (labelled first–last)."""
    per = math.ceil(len(groups) / AGG_BLOCKS)
    out = []
    for i in range(0, len(groups), per):
        part = groups[i : i + per]
        label = part[0][0] if len(part) == 1 else f"{part[0][0]}–{part[-1][0]}"
        out.append((label, np.concatenate([m for _, m in part])))
    return out


def _row_blocks(
    role: str, members: np.ndarray, names, rack_names, racks, groups, x
) -> list[tuple[str, np.ndarray]]:
    """(label, device rows) of one tier."""
    if role == "compute" and (racks[members] >= 0).all():
        per_rack = _partition(members, [str(r) for r in racks], x)
        if len(per_rack) <= MAX_BLOCKS:
            return [(rack_names[int(k)], m) for k, m in per_rack]
    if len(members) <= MAX_BLOCKS:
        return [(names[i], np.asarray([i])) for i in members[np.argsort(x[members], kind="stable")].tolist()]
    by_group = _partition(members, groups, x)
    if len(by_group) > 1 and all(k for k, _ in by_group):
        return _merge(by_group)
    return [(names[int(m[0])], m) for m in _chunks(members, x)]


def build_topology_model(project, results) -> TopologyModel:
    c = results.compiled
    d = c.devices
    role_names = {v: k for k, v in ROLE_CODES.items()}
    roles = [role_names[int(r)] for r in d.role]
    groups = [project.devices[i].group if i in project.devices else "" for i in d.ids]
    block_of = np.full(len(d.ids), -1, dtype=np.int64)
    blocks: list[Block] = []
    rows: list[str] = []
    row_devices: list[int] = []
    role_arr = np.asarray(roles, dtype=object)
    for role in ROW_ROLES:
        members = np.flatnonzero(role_arr == role)
        if not len(members):
            continue
        rows.append(role)
        row_devices.append(len(members))
        for label, m in _row_blocks(role, members, d.names, c.racks.names, d.rack, groups, d.x):
            block_of[m] = len(blocks)
            blocks.append(Block(len(rows) - 1, role, label, len(m), float(d.x[m].mean())))
    lk = c.links
    ba, bb = block_of[lk.a], block_of[lk.b]
    keep = (ba >= 0) & (bb >= 0)
    mgmt = ~keep
    lo, hi = np.minimum(ba, bb)[keep], np.maximum(ba, bb)[keep]
    nb = max(len(blocks), 1)
    pair, inv = np.unique(lo * nb + hi, return_inverse=True)
    util = results.link_util[keep] if len(results.link_util) else np.zeros(int(keep.sum()))
    bundle_util = np.zeros(len(pair))
    np.maximum.at(bundle_util, inv, util)
    cables = np.bincount(inv, weights=lk.multiplicity[keep], minlength=len(pair))
    om_sw = int(np.isin(role_arr, OMITTED_ROLES).sum())
    return TopologyModel(
        rows=rows,
        row_devices=row_devices,
        blocks=blocks,
        bundle_a=pair // nb,
        bundle_b=pair % nb,
        bundle_cables=cables,
        bundle_util=bundle_util,
        devices_drawn=int((block_of >= 0).sum()),
        links_drawn=int(keep.sum()),
        omitted_switches=om_sw,
        omitted_cables=int(lk.multiplicity[mgmt].sum()),
    )
