"""Slurm topology: ``topology.conf`` in the tree plugin form (each switch with its nodes or child switches) or
the block form (servers grouped by the leaves they share, e.g. the scalable units of a rail-optimised
fabric), and ``topology.yaml`` (Slurm 24.11+, which reads it instead of topology.conf when both exist) holding
the same tree and, where the fabric is block shaped, the blocks as a second topology.

Names are the project's, made into host names once for every Slurm file (``slurm_names``). Free text (the
project name) only ever appears inside a one-line comment.

Tree rules Slurm enforces (measured on slurmctld 22.05): a switch must have nodes or child switches, and
every child switch named must be defined — so a switch that carries no node below it (a transit switch of a
partly filled dragonfly group) is left out together with the links to it. ``virtual_leaves=True`` replaces
the leaves of a rail-optimised fabric (where each server hangs under one leaf per rail, which Slurm warns
about: "Multiple leaf switches contain nodes") with one virtual leaf per group of servers sharing the same
leaves — a scalable unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import yaml

from gpuplanner.core.errors import ValidationError
from gpuplanner.core.outfile import one_line
from gpuplanner.exports.names import hostlist, unique_hostnames
from gpuplanner.exports.topology import SwitchTree, leaf_sets, switch_tree

HEADER = "# Slurm {what} written by GPU Planner from project: {name}\n"
ROOT = "gpuplanner-root"


def device_hostnames(project) -> dict[str, str]:
    """Device id → host name (unique, Slurm/DNS safe): the one mapping every Slurm/Kubernetes file uses."""
    devs = list(project.devices.values())
    return dict(
        zip((d.id for d in devs), unique_hostnames((d.name for d in devs), reserved=(ROOT,)), strict=True)
    )


def slurm_names(project, results) -> list[str]:
    """Host name of every compiled device row, in compiled row order."""
    by_id = device_hostnames(project)
    return [by_id[i] for i in results.compiled.devices.ids]


@dataclass
class SlurmTree:
    """The switches Slurm is given, lowest tier first: name → child switch names and node names."""

    switches: list[str] = field(default_factory=list)
    children: dict[str, list[str]] = field(default_factory=dict)
    nodes: dict[str, list[str]] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)  # switches with nothing below them
    root_note: str = ""


def _groups(tree: SwitchTree) -> list[list[int]]:
    """Server rows grouped by identical leaf sets (a scalable unit on a rail-optimised fabric)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for node, leaves in leaf_sets(tree).items():
        groups.setdefault(leaves, []).append(node)
    return [sorted(g) for g in sorted(groups.values(), key=min)]


def slurm_tree(project, results, *, virtual_leaves: bool = False) -> SlurmTree:
    tree = switch_tree(results)
    if not tree.switches:
        raise ValidationError(
            "the plan has no compute-fabric switches to describe", field="format", value="slurm"
        )
    names = slurm_names(project, results)
    out = SlurmTree()
    kept: set[int] = set()
    below: dict[int, list[str]] = {}  # kept switch row → names of its kept children
    sw_rows = list(tree.switches)
    if virtual_leaves:
        leaves = [s for s in sw_rows if tree.tier[s] == 1]
        width = len(str(len(_groups(tree))))
        vleaf_of: dict[int, list[str]] = {}  # real leaf → virtual leaves under it
        for k, grp in enumerate(_groups(tree), start=1):
            vname = f"su{k:0{width}d}-vleaf"
            out.switches.append(vname)
            out.nodes[vname] = [names[n] for n in grp]
            for leaf in set().union(*(set(leaf_sets(tree)[n]) for n in grp)):
                vleaf_of.setdefault(leaf, []).append(vname)
        for leaf in leaves:
            if leaf in vleaf_of:
                kept.add(leaf)
                below[leaf] = vleaf_of[leaf]
        sw_rows = [s for s in sw_rows if tree.tier[s] > 1]
    for sw in sw_rows:
        nodes = [names[n] for n in tree.nodes_below.get(sw, [])]
        kids: list[str] = []
        for c in tree.switches_below.get(sw, []):
            if c in kept:
                kids.extend(below[c])
        if not nodes and not kids:
            out.left_out.append(names[sw])
            continue
        kept.add(sw)
        out.switches.append(names[sw])
        below[sw] = [names[sw]]
        if kids:
            out.children[names[sw]] = sorted(set(kids))
        if nodes:
            out.nodes[names[sw]] = nodes
    if not out.nodes:
        raise ValidationError("no server is connected to the compute fabric", field="format", value="slurm")
    top_tier = max(tree.tier[s] for s in kept)
    tops = [s for s in kept if tree.tier[s] == top_tier]
    if len(tops) > 1 and any(tree.peers.get(s) for s in tops):  # a direct-connected top tier (dragonfly)
        out.switches.append(ROOT)
        out.children[ROOT] = sorted(c for s in tops for c in below[s])
        out.root_note = "the top tier is joined switch to switch; a virtual root lets jobs span it"
    return out


def tree_conf(project, results, *, virtual_leaves: bool = False) -> str:
    t = slurm_tree(project, results, virtual_leaves=virtual_leaves)
    lines = [HEADER.format(what="topology.conf (topology/tree)", name=one_line(project.info.name))]
    lines.append("# slurm.conf: TopologyPlugin=topology/tree (Slurm 24.11+ reads topology.yaml instead)\n")
    if virtual_leaves:
        lines.append("# one virtual leaf per scalable unit (servers that share the same rail leaves)\n")
    if t.left_out:
        lines.append(
            f"# {len(t.left_out)} switch(es) with no server below them are left out: {hostlist(t.left_out)}\n"
        )
    if t.root_note:
        lines.append(f"# {t.root_note}\n")
    for sw in t.switches:
        parts = [f"SwitchName={sw}"]
        if sw in t.children:
            parts.append(f"Switches={hostlist(t.children[sw])}")
        if sw in t.nodes:
            parts.append(f"Nodes={hostlist(t.nodes[sw])}")
        lines.append(" ".join(parts) + "\n")
    return "".join(lines)


def blocks(results) -> list[list[int]]:
    """Server rows grouped by identical leaf sets; raises when groups share leaves (not block shaped)."""
    tree = switch_tree(results)
    groups = _groups(tree)
    seen: set[int] = set()
    sets = leaf_sets(tree)
    for g in groups:
        leaves = set(sets[g[0]])
        if seen & leaves:
            raise ValidationError(
                "the fabric is not block shaped: server groups share leaf switches",
                field="plugin",
                value="block",
                hint="use --plugin tree",
            )
        seen |= leaves
    missing = set(tree.servers) - {n for g in groups for n in g}
    if missing or not groups:
        raise ValidationError(
            "some servers are not connected to the compute fabric", field="plugin", value="block"
        )
    return groups


def block_sizes(groups: list[list[int]]) -> list[int]:
    """Base block size (the smallest group) and its doublings up to the whole cluster."""
    base = min(len(g) for g in groups)
    total = sum(len(g) for g in groups)
    sizes, s = [], base
    while s <= total:
        sizes.append(s)
        s *= 2
    return sizes


def _block_names(groups: list[list[int]]) -> list[str]:
    return [f"block{i:0{len(str(len(groups)))}d}" for i in range(1, len(groups) + 1)]


def block_conf(project, results) -> str:
    names = slurm_names(project, results)
    groups = blocks(results)
    lines = [
        HEADER.format(what="topology.conf (topology/block)", name=one_line(project.info.name)),
        "# slurm.conf: TopologyPlugin=topology/block (Slurm 23.11+)\n",
    ]
    for bname, g in zip(_block_names(groups), groups, strict=True):
        lines.append(f"BlockName={bname} Nodes={hostlist(names[r] for r in g)}\n")
    lines.append(f"BlockSizes={','.join(str(x) for x in block_sizes(groups))}\n")
    return "".join(lines)


def topology_yaml(project, results, *, virtual_leaves: bool = False) -> str:
    """topology.yaml (Slurm 24.11+): the tree as the cluster default and, where the fabric is block shaped,
    the blocks as a second topology that partitions can select with ``Topology=blocks``."""
    t = slurm_tree(project, results, virtual_leaves=virtual_leaves)
    switches = []
    for sw in t.switches:
        entry: dict = {"switch": sw}
        if sw in t.children:
            entry["children"] = hostlist(t.children[sw])
        if sw in t.nodes:
            entry["nodes"] = hostlist(t.nodes[sw])
        switches.append(entry)
    docs: list[dict] = [{"topology": "tree", "cluster_default": True, "tree": {"switches": switches}}]
    try:
        groups = blocks(results)
    except ValidationError:
        groups = []
    if groups:
        names = slurm_names(project, results)
        docs.append(
            {
                "topology": "blocks",
                "cluster_default": False,
                "block": {
                    "block_sizes": block_sizes(groups),
                    "blocks": [
                        {"block": b, "nodes": hostlist(names[r] for r in g)}
                        for b, g in zip(_block_names(groups), groups, strict=True)
                    ],
                },
            }
        )
    head = HEADER.format(what="topology.yaml (Slurm 24.11+)", name=one_line(project.info.name))
    return head + yaml.safe_dump(docs, sort_keys=False, allow_unicode=False)
