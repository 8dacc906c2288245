"""Slurm ``topology.conf``: the tree plugin form (each switch with its nodes or child switches) and, where the
fabric is block shaped (servers fall into groups that share the same leaves, e.g. the scalable units of a
rail-optimised fabric), the block plugin form. Names are the project's (characters Slurm cannot parse → '_')."""

from __future__ import annotations

from gpuplanner.core.errors import ValidationError
from gpuplanner.exports.hostlist import compress, safe_name
from gpuplanner.exports.topology import leaf_sets, switch_tree

HEADER = "# Slurm topology.conf written by GPU Planner from project '{name}' ({plugin} plugin)\n"


def _names(tree, rows: list[int]) -> str:
    return compress([safe_name(tree.names[r]) for r in rows])


def tree_conf(project, results) -> str:
    tree = switch_tree(results)
    if not tree.switches:
        raise ValidationError(
            "the plan has no compute-fabric switches to describe", field="format", value="slurm"
        )
    lines = [HEADER.format(name=project.info.name, plugin="topology/tree")]
    lines.append("# TopologyPlugin=topology/tree\n")
    for sw in tree.switches:
        parts = [f"SwitchName={safe_name(tree.names[sw])}"]
        if sw in tree.switches_below:
            parts.append(f"Switches={_names(tree, tree.switches_below[sw])}")
        if sw in tree.nodes_below:
            parts.append(f"Nodes={_names(tree, tree.nodes_below[sw])}")
        if len(parts) > 1:
            lines.append(" ".join(parts) + "\n")
    top = max(tree.tier.values())
    tops = [s for s in tree.switches if tree.tier[s] == top]
    if len(tops) > 1 and any(tree.peers.get(s) for s in tops):  # a direct-connected top tier (dragonfly)
        lines.append("# the top tier is joined switch to switch; a virtual root lets jobs span it\n")
        lines.append(f"SwitchName=gpuplanner-root Switches={_names(tree, tops)}\n")
    return "".join(lines)


def blocks(results) -> list[list[int]]:
    """Server rows grouped by identical leaf sets; raises when groups share leaves (not block shaped)."""
    tree = switch_tree(results)
    groups: dict[tuple[int, ...], list[int]] = {}
    for node, leaves in leaf_sets(tree).items():
        groups.setdefault(leaves, []).append(node)
    seen: set[int] = set()
    for leaves in groups:
        if seen & set(leaves):
            raise ValidationError(
                "the fabric is not block shaped: server groups share leaf switches",
                field="plugin",
                value="block",
                hint="use --plugin tree",
            )
        seen |= set(leaves)
    missing = set(tree.servers) - {n for g in groups.values() for n in g}
    if missing or not groups:
        raise ValidationError(
            "some servers are not connected to the compute fabric", field="plugin", value="block"
        )
    return [sorted(g) for g in sorted(groups.values(), key=min)]


def block_conf(project, results) -> str:
    names = results.compiled.devices.names
    groups = blocks(results)
    base = min(len(g) for g in groups)
    sizes, s = [], base
    total = sum(len(g) for g in groups)
    while s <= total:
        sizes.append(s)
        s *= 2
    lines = [
        HEADER.format(name=project.info.name, plugin="topology/block"),
        "# TopologyPlugin=topology/block\n",
    ]
    for i, g in enumerate(groups, start=1):
        lines.append(
            f"BlockName=block{i:0{len(str(len(groups)))}d} Nodes={compress([safe_name(names[r]) for r in g])}\n"
        )
    lines.append(f"BlockSizes={','.join(str(x) for x in sizes)}\n")
    return "".join(lines)
