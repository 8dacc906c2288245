"""The compute fabric as a switch tree: which switches and nodes hang below each switch (used by the Slurm
export). Management and storage networks are left out; they carry no job traffic."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES

TIER_OF = {ROLE_CODES["leaf"]: 1, ROLE_CODES["spine"]: 2, ROLE_CODES["core"]: 3}


@dataclass
class SwitchTree:
    names: list[str]  # device names by compiled row
    switches: list[int] = field(default_factory=list)  # compute-fabric switch rows, lowest tier first
    tier: dict[int, int] = field(default_factory=dict)
    nodes_below: dict[int, list[int]] = field(default_factory=dict)  # switch → server rows
    switches_below: dict[int, list[int]] = field(default_factory=dict)  # switch → lower-tier switch rows
    peers: dict[int, list[int]] = field(default_factory=dict)  # same-tier links (dragonfly)
    servers: list[int] = field(default_factory=list)


def switch_tree(results) -> SwitchTree:
    c = results.compiled
    d, lk = c.devices, c.links
    tree = SwitchTree(names=list(d.names))
    fabric_sw = np.isin(d.role, list(TIER_OF)) & (d.kind == KIND_CODES["switch"])
    server = (d.kind == KIND_CODES["server"]) & (d.role == ROLE_CODES["compute"])
    tree.servers = np.flatnonzero(server).tolist()
    rows = np.flatnonzero(fabric_sw).tolist()
    tree.tier = {r: TIER_OF[int(d.role[r])] for r in rows}
    tree.switches = sorted(rows, key=lambda r: (tree.tier[r], r))
    for a, b in zip(lk.a.tolist(), lk.b.tolist(), strict=True):
        for x, y in ((a, b), (b, a)):
            if x not in tree.tier:
                continue
            if server[y]:
                tree.nodes_below.setdefault(x, []).append(y)
            elif y in tree.tier:
                if tree.tier[y] < tree.tier[x]:
                    tree.switches_below.setdefault(x, []).append(y)
                elif tree.tier[y] == tree.tier[x]:
                    tree.peers.setdefault(x, []).append(y)
    for dct in (tree.nodes_below, tree.switches_below, tree.peers):
        for k, v in dct.items():
            dct[k] = sorted(set(v))
    return tree


def leaf_sets(tree: SwitchTree) -> dict[int, tuple[int, ...]]:
    """Each server's set of leaf switches."""
    out: dict[int, list[int]] = {}
    for sw, nodes in tree.nodes_below.items():
        for n in nodes:
            out.setdefault(n, []).append(sw)
    return {n: tuple(sorted(v)) for n, v in out.items()}
