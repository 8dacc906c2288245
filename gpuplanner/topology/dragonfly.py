"""Dragonfly (Kim et al., ISCA 2008): groups of ``a`` switches, all-to-all inside a group, ``h`` global links
per switch, ``p`` endpoint ports per switch; the balanced choice a = 2p = 2h (radix k = 4p − 1) and at most
a·h + 1 groups. A documented option: GPU training fabrics are usually fat trees.
"""

from __future__ import annotations

import math

from gpuplanner.catalog.types import ServerType
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device
from gpuplanner.text import Msg
from gpuplanner.topology.fattree import Y_TIER, _spread_x, compute_ports
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.topology.plan import Plan, fabric_group, ports_at, switch_entry


def dragonfly(
    plan: Plan, servers: list[Device], srv: ServerType, opts: GenerateOptions, fabric_id: str, width: float
) -> None:
    cp = compute_ports(srv)
    speed = cp.speed_gbps
    sw = switch_entry(plan.catalog, opts.leaf_switch)
    k = ports_at(sw, speed)
    p = (k + 1) // 4
    a, h = 2 * p, p
    if p < 1:
        raise GenerationError(Msg("error.gen.dragonfly_radix", {"k": k}))
    servers_per_switch = max(1, p // cp.count)
    ep_per_group = a * servers_per_switch
    groups = math.ceil(len(servers) / ep_per_group)
    if groups > a * h + 1:
        raise GenerationError(
            Msg(
                "error.gen.dragonfly_groups",
                {"k": k, "groups": a * h + 1, "servers": (a * h + 1) * ep_per_group},
            ),
            hint=Msg("error.gen.dragonfly_groups.hint"),
        )
    grp = fabric_group(sw, speed)
    sw_of: list[list[Device]] = []
    xs = _spread_x(groups * a, width)
    for g in range(groups):
        row = [
            plan.add_device(
                sw.id,
                f"g{g + 1:02d}-sw{i + 1:02d}",
                "leaf",
                fabric_id=fabric_id,
                group=f"g{g + 1}",
                x=xs[g * a + i],
                y=Y_TIER["leaf"],
            )
            for i in range(a)
        ]
        sw_of.append(row)
        for i in range(a):  # all-to-all inside the group
            for j in range(i + 1, a):
                plan.link(row[i], grp, row[j], grp, speed_gbps=speed, fabric_id=fabric_id)
    for n, s in enumerate(servers):
        g, rest = divmod(n, ep_per_group)
        plan.link(
            s,
            cp,
            sw_of[g][rest // servers_per_switch],
            grp,
            multiplicity=cp.count,
            speed_gbps=speed,
            fabric_id=fabric_id,
        )
    if groups < 2:
        return
    # Global links: the group's a·h global ports are dealt round-robin over the other groups.
    per_pair = max(1, (a * h) // (groups - 1))
    for gi in range(groups):
        for gj in range(gi + 1, groups):
            for t in range(per_pair):
                si = ((gj - gi - 1) * per_pair + t) % a
                sj = ((gi - gj - 1) % groups * per_pair + t) % a
                if plan.ports_free(sw_of[gi][si], grp) < 1 or plan.ports_free(sw_of[gj][sj], grp) < 1:
                    continue
                plan.link(sw_of[gi][si], grp, sw_of[gj][sj], grp, speed_gbps=speed, fabric_id=fabric_id)
