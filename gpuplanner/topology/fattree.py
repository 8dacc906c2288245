"""Leaf-spine and fat-tree generators (rail-optimised or not, 2 or 3 tiers, one or more planes).

Counts follow the textbook fat tree: a 2-tier non-blocking tree of radix-k switches holds k²/2 endpoints
(k leaves, k/2 spines); a 3-tier one k³/4 (k pods of k/2 leaves + k/2 spines, (k/2)² cores). Rail-optimised
designs (NVIDIA DGX SuperPOD reference architecture) put rail r of every server of a scalable unit (SU) on
that SU's leaf r.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gpuplanner.catalog import PortGroup
from gpuplanner.catalog.names import named_with_id
from gpuplanner.catalog.types import ServerType, SwitchType
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device
from gpuplanner.text import Msg
from gpuplanner.topology.plan import Plan, fabric_group, ports_at, switch_entry

X_SERVER = 150.0  # canvas spacing of rack columns
Y_TIER = {"core": 0.0, "spine": 220.0, "leaf": 440.0, "racks": 660.0}


@dataclass
class Tier:
    devices: list[Device]
    group: PortGroup


def _divisor_at_least(n: int, lo: int) -> int:
    """Smallest divisor of n that is ≥ lo (n itself at worst)."""
    for d in range(max(1, lo), n + 1):
        if n % d == 0:
            return d
    return n


def _spread_x(count: int, width: float, x0: float = 0.0) -> list[float]:
    if count <= 1:
        return [x0 + width / 2]
    step = width / count
    return [x0 + step * (i + 0.5) for i in range(count)]


def compute_ports(server: ServerType) -> PortGroup:
    groups = server.ports("compute")
    if not groups:
        raise GenerationError(
            Msg(
                "error.gen.server_no_compute_ports",
                {"server": named_with_id(server, None, with_figures=False)},
            ),
            entry=server.id,
            field="port_groups",
        )
    return groups[0]


def leaf_shape(k: int, down: int, oversub: float) -> tuple[int, int]:
    """(down, up) ports of a leaf: ``up = ceil(down / oversub)``; refuse when it does not fit radix k."""
    up = math.ceil(down / oversub)
    if down + up > k:
        raise GenerationError(
            Msg("error.gen.leaf_too_small", {"k": k, "down": down, "oversub": oversub, "ports": down + up}),
            hint=Msg("error.gen.leaf_too_small.hint"),
        )
    return down, up


def connect_up(
    plan: Plan,
    lower: list[Device],
    lower_group: PortGroup,
    up_per_lower: int,
    upper: list[Device],
    upper_group: PortGroup,
    speed: float,
    fabric_id: str,
) -> None:
    """Each lower switch spreads ``up_per_lower`` links evenly over every upper switch (multiplicity)."""
    if up_per_lower % len(upper):
        raise GenerationError(
            Msg("error.gen.uplinks_uneven", {"uplinks": up_per_lower, "switches": len(upper)})
        )
    mult = up_per_lower // len(upper)
    for lo in lower:
        for hi in upper:
            plan.link(
                lo, lower_group, hi, upper_group, multiplicity=mult, speed_gbps=speed, fabric_id=fabric_id
            )


def two_tier_spines(
    plan: Plan,
    leaves: list[Device],
    up: int,
    leaf_sw: SwitchType,
    spine_id: str,
    speed: float,
    fabric_id: str,
    x_width: float,
    label: str = "",
) -> list[Device]:
    spine_sw = switch_entry(plan.catalog, spine_id)
    k_spine = ports_at(spine_sw, speed)
    total_up = len(leaves) * up
    n_spines = _divisor_at_least(up, math.ceil(total_up / k_spine))
    if len(leaves) * (up // n_spines) > k_spine:
        endpoints_max = k_spine * (ports_at(leaf_sw, speed) * 1 // 2)
        raise GenerationError(
            Msg("error.gen.two_tier_full", {"k": k_spine, "endpoints": endpoints_max, "leaves": len(leaves)}),
            hint=Msg("error.gen.two_tier_full.hint"),
        )
    xs = _spread_x(n_spines, x_width)
    spines = [
        plan.add_device(
            spine_id, f"{label}spine-{i + 1:02d}", "spine", fabric_id=fabric_id, x=xs[i], y=Y_TIER["spine"]
        )
        for i in range(n_spines)
    ]
    connect_up(
        plan,
        leaves,
        fabric_group(leaf_sw, speed, "uplink"),
        up,
        spines,
        fabric_group(spine_sw, speed),
        speed,
        fabric_id,
    )
    return spines


def three_tier(
    plan: Plan,
    leaves: list[Device],
    up: int,
    leaf_sw: SwitchType,
    spine_id: str,
    core_id: str,
    speed: float,
    fabric_id: str,
    leaves_per_pod: int,
    x_width: float,
    label: str = "",
) -> tuple[list[Device], list[Device]]:
    """Pods of ``leaves_per_pod`` leaves; each leaf one link to each of its pod's ``up`` spines; spine j of every
    pod to core group j."""
    spine_sw = switch_entry(plan.catalog, spine_id)
    core_sw = switch_entry(plan.catalog, core_id)
    k_spine = ports_at(spine_sw, speed)
    k_core = ports_at(core_sw, speed)
    if 2 * leaves_per_pod > k_spine:
        raise GenerationError(
            Msg("error.gen.pod_spines_too_small", {"leaves": leaves_per_pod, "ports": 2 * leaves_per_pod})
        )
    pods = [leaves[i : i + leaves_per_pod] for i in range(0, len(leaves), leaves_per_pod)]
    n_pods = len(pods)
    up_s = leaves_per_pod  # 1:1 above the leaves
    cores_per_group = _divisor_at_least(up_s, math.ceil(n_pods * up_s / k_core))
    mult = up_s // cores_per_group
    if n_pods * mult > k_core:
        max_ep = k_core * leaves_per_pod * (ports_at(leaf_sw, speed) - up)
        raise GenerationError(
            Msg("error.gen.three_tier_full", {"k": k_core, "endpoints": max_ep, "pods": n_pods}),
            hint=Msg("error.gen.three_tier_full.hint"),
        )
    spines: list[Device] = []
    pod_w = x_width / n_pods
    leaf_grp = fabric_group(leaf_sw, speed, "uplink")
    spine_grp = fabric_group(spine_sw, speed)
    core_grp = fabric_group(core_sw, speed)
    pod_spines: list[list[Device]] = []
    for p, pod in enumerate(pods):
        xs = _spread_x(up, pod_w, p * pod_w)
        ps = [
            plan.add_device(
                spine_id,
                f"{label}pod{p + 1:02d}-spine-{j + 1:02d}",
                "spine",
                fabric_id=fabric_id,
                group=f"pod{p + 1}",
                x=xs[j],
                y=Y_TIER["spine"],
            )
            for j in range(up)
        ]
        connect_up(plan, pod, leaf_grp, up, ps, spine_grp, speed, fabric_id)
        spines += ps
        pod_spines.append(ps)
    xs = _spread_x(up * cores_per_group, x_width)
    cores = []
    for j in range(up):
        group = [
            plan.add_device(
                core_id,
                f"{label}core-{j + 1:02d}-{c + 1:02d}",
                "core",
                fabric_id=fabric_id,
                x=xs[j * cores_per_group + c],
                y=Y_TIER["core"],
            )
            for c in range(cores_per_group)
        ]
        for ps in pod_spines:
            for core in group:
                plan.link(
                    ps[j], spine_grp, core, core_grp, multiplicity=mult, speed_gbps=speed, fabric_id=fabric_id
                )
        cores += group
    return spines, cores
