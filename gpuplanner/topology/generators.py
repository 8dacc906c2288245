"""Topology generators: options → a Plan of racks, devices, links and fabrics → one undoable command.

Impossible requests are refused with the reason (GenerationError), before anything is added.
"""

from __future__ import annotations

import math

from gpuplanner.catalog import PortGroup
from gpuplanner.catalog.names import named, named_with_id
from gpuplanner.catalog.types import ServerType, StorageType
from gpuplanner.commands import Compound
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device, Project
from gpuplanner.model.bounds import MAX_SERVERS
from gpuplanner.text import Msg
from gpuplanner.topology.auxiliary import add_management_fabric, add_storage_fabric
from gpuplanner.topology.dragonfly import dragonfly
from gpuplanner.topology.fattree import (
    X_SERVER,
    Y_TIER,
    _spread_x,
    compute_ports,
    leaf_shape,
    three_tier,
    two_tier_spines,
)
from gpuplanner.topology.options import TEMPLATES, GenerateOptions
from gpuplanner.topology.placement import lay_out_cells, place_network, place_servers
from gpuplanner.topology.plan import Plan, fabric_group, server_entry, switch_entry


def generate(project: Project, opts: GenerateOptions) -> Plan:
    """Builds the plan for ``opts`` against the project's catalog (the project itself is not changed)."""
    if opts.template not in TEMPLATES:
        raise GenerationError(
            Msg("error.gen.unknown_template", {"name": opts.template}),
            hint=Msg("error.gen.one_of", {"options": ", ".join(TEMPLATES)}),
        )
    if opts.servers < 1:
        raise GenerationError(Msg("error.gen.at_least_one_server"), field="servers", value=opts.servers)
    if opts.servers > MAX_SERVERS:  # feasibility before anything large is built
        raise GenerationError(
            Msg("error.gen.too_many_servers", {"max": MAX_SERVERS}), field="servers", value=opts.servers
        )
    if opts.oversub < 1:
        raise GenerationError(Msg("error.gen.oversub_below_one"), field="oversub", value=opts.oversub)
    if opts.planes < 1:
        raise GenerationError(Msg("error.gen.planes_below_one"), field="planes", value=opts.planes)
    if opts.phase_id and opts.phase_id not in project.tables["phases"]:
        raise GenerationError(
            Msg("error.gen.no_phase", {"phase": opts.phase_id}), field="phase_id", value=opts.phase_id
        )
    plan = Plan(project, prefix=opts.prefix, phase_id=opts.phase_id)
    srv = server_entry(project.catalog, opts.server)
    switch_entry(project.catalog, opts.leaf_switch)
    su_size = opts.su_size if opts.template in ("rail-leaf-spine", "fat-tree-3tier") else opts.servers
    servers = [
        plan.add_device(opts.server, f"node-{i + 1:04d}", "compute", group=f"su{i // max(1, su_size) + 1}")
        for i in range(opts.servers)
    ]
    place_servers(plan, servers, srv, opts)
    width = max(X_SERVER, max(d.x for d in plan.devices) + X_SERVER)
    fabric = plan.add_fabric(
        "compute",
        "compute",
        switch_entry(project.catalog, opts.leaf_switch).technology,
        opts.template,
        opts.to_json(),
    )
    if opts.template == "single-switch":
        _single_switch(plan, servers, srv, opts, fabric.id, width)
    elif opts.template == "dragonfly":
        dragonfly(plan, servers, srv, opts, fabric.id, width)
    else:
        _leaf_spine(plan, servers, srv, opts, fabric.id, width)
    if opts.storage_fabric:
        add_storage_fabric(plan, servers, srv, opts, width)
    if opts.management_fabric:
        add_management_fabric(plan, opts, width)
    place_network(plan, opts)
    lay_out_cells(plan)
    return plan


def apply_plan(project: Project, plan: Plan, text: str = "Generate topology") -> Compound:
    cmd = plan.to_command(text)
    cmd.apply(project)
    return cmd


def generate_into(project: Project, opts: GenerateOptions) -> Compound:
    return apply_plan(project, generate(project, opts), f"Generate {opts.template}")


def server_port_group(srv: ServerType, opts: GenerateOptions) -> PortGroup:
    """The server port group the fabric connects: the one named, else compute, frontend or storage ports."""
    if opts.server_ports:
        pg = srv.port_group(opts.server_ports)
        if pg is None:
            names = ", ".join(g.name for g in srv.port_groups)
            raise GenerationError(
                Msg(
                    "error.gen.no_port_group",
                    {
                        "server": named_with_id(srv, None, with_figures=False),
                        "group": opts.server_ports,
                        "names": names,
                    },
                ),
                field="server_ports",
            )
        return pg
    groups = srv.ports("compute") or srv.ports("frontend") or srv.ports("storage")
    if not groups:
        raise GenerationError(
            Msg(
                "error.gen.server_no_network_ports", {"server": named_with_id(srv, None, with_figures=False)}
            ),
            entry=srv.id,
        )
    return groups[0]


def _single_switch(
    plan: Plan, servers: list[Device], srv: ServerType, opts: GenerateOptions, fabric_id: str, width: float
) -> None:
    sw = switch_entry(plan.catalog, opts.leaf_switch)
    cp = server_port_group(srv, opts)
    fastest = max(pg.speed_gbps for pg in sw.fabric_ports())
    speed = min(cp.speed_gbps, fastest)  # a 400G NIC port runs at 100 or 25 Gb/s on a slower switch
    sw_grp = fabric_group(sw, speed)
    per_server = min(cp.count, opts.nic_ports) if opts.nic_ports else cp.count
    need = len(servers) * per_server
    have = sw_grp.count * int(sw_grp.speed_gbps // speed)
    if need > have:
        raise GenerationError(
            Msg(
                "error.gen.single_switch_full",
                {
                    "switch": named(sw, plan.catalog),
                    "have": have,
                    "speed": speed,
                    "servers": len(servers),
                    "need": need,
                },
            ),
            hint=Msg("error.gen.single_switch_full.hint"),
        )
    switch = plan.add_device(sw.id, "switch-01", "leaf", fabric_id=fabric_id, x=width / 2, y=Y_TIER["leaf"])
    for s in servers:
        plan.link(s, cp, switch, sw_grp, multiplicity=per_server, speed_gbps=speed, fabric_id=fabric_id)


def _leaf_spine(
    plan: Plan, servers: list[Device], srv: ServerType, opts: GenerateOptions, fabric_id: str, width: float
) -> None:
    cp = compute_ports(srv)
    speed = cp.speed_gbps
    leaf_sw = switch_entry(plan.catalog, opts.leaf_switch)
    spine_id = opts.spine_switch or opts.leaf_switch
    core_id = opts.core_switch or spine_id
    switch_entry(plan.catalog, spine_id)
    switch_entry(plan.catalog, core_id)
    from gpuplanner.topology.plan import ports_at

    k = ports_at(leaf_sw, speed)
    if k == 0:
        raise GenerationError(
            Msg(
                "error.gen.leaf_no_speed",
                {"leaf": named_with_id(leaf_sw, None, with_figures=False), "speed": speed},
            ),
            entry=leaf_sw.id,
        )
    rails = cp.count
    if rails % opts.planes:
        raise GenerationError(
            Msg("error.gen.planes_split", {"rails": rails, "planes": opts.planes}), field="planes"
        )
    rails_pp = rails // opts.planes
    leaf_down_grp = fabric_group(leaf_sw, speed)
    placed = {d.id: d for d in plan.devices}
    three = opts.template == "fat-tree-3tier"
    for plane in range(opts.planes):
        label = f"p{plane + 1}-" if opts.planes > 1 else ""
        plane_rails = list(range(plane * rails_pp, (plane + 1) * rails_pp))
        leaves: list[Device] = []
        if opts.rails and opts.template != "leaf-spine":
            per = rails_per_leaf(srv, k, opts.su_size, rails_pp, opts.oversub)
            down, up = leaf_shape(k, opts.su_size * per, opts.oversub)
            groups_pp = rails_pp // per
            sus = [servers[i : i + opts.su_size] for i in range(0, len(servers), opts.su_size)]
            for su_i, su in enumerate(sus):
                xs = [placed[d.id].x for d in su]  # positions after rack placement
                lo, hi = min(xs), max(xs) + X_SERVER * 0.8
                lx = _spread_x(groups_pp, hi - lo, lo)
                for j in range(groups_pp):
                    r = plane_rails[j * per]
                    name = f"r{r + 1}" if per == 1 else f"r{r + 1}-{r + per}"
                    leaf = plan.add_device(
                        leaf_sw.id,
                        f"{label}su{su_i + 1:02d}-leaf-{name}",
                        "leaf",
                        fabric_id=fabric_id,
                        group=f"su{su_i + 1}",
                        x=lx[j],
                        y=Y_TIER["leaf"],
                    )
                    leaves.append(leaf)
                    for s in su:
                        plan.link(
                            s,
                            cp,
                            leaf,
                            leaf_down_grp,
                            multiplicity=per,
                            speed_gbps=speed,
                            fabric_id=fabric_id,
                        )
            leaves_per_pod = max(
                groups_pp,
                (ports_at(switch_entry(plan.catalog, spine_id), speed) // 2) // groups_pp * groups_pp,
            )
        else:
            max_down = math.floor(k * opts.oversub / (opts.oversub + 1))
            per_leaf = max_down // rails_pp
            if per_leaf < 1:
                raise GenerationError(Msg("error.gen.leaf_cannot_take_server", {"k": k, "ports": rails_pp}))
            down, up = leaf_shape(k, per_leaf * rails_pp, opts.oversub)
            groups = [servers[i : i + per_leaf] for i in range(0, len(servers), per_leaf)]
            for g_i, grp in enumerate(groups):
                xs = [placed[d.id].x for d in grp]
                leaf = plan.add_device(
                    leaf_sw.id,
                    f"{label}leaf-{g_i + 1:03d}",
                    "leaf",
                    fabric_id=fabric_id,
                    group=f"leaf{g_i + 1}",
                    x=(min(xs) + max(xs)) / 2 + X_SERVER * 0.4,
                    y=Y_TIER["leaf"],
                )
                leaves.append(leaf)
                for s in grp:
                    plan.link(
                        s,
                        cp,
                        leaf,
                        leaf_down_grp,
                        multiplicity=rails_pp,
                        speed_gbps=speed,
                        fabric_id=fabric_id,
                    )
            leaves_per_pod = ports_at(switch_entry(plan.catalog, spine_id), speed) // 2
        if len(leaves) == 1 and not three:
            continue  # one leaf: no spine tier needed
        if three:
            three_tier(
                plan, leaves, up, leaf_sw, spine_id, core_id, speed, fabric_id, leaves_per_pod, width, label
            )
        else:
            two_tier_spines(plan, leaves, up, leaf_sw, spine_id, speed, fabric_id, width, label)


def rails_per_leaf(srv: ServerType, k: int, su_size: int, rails: int, oversub: float) -> int:
    """Rails one leaf carries. One (a leaf per rail per SU, DGX SuperPOD RA) unless the server is a rack-scale
    NVLink domain (GB200/GB300 NVL72: 72 NIC ports per 'server'): then a leaf takes as many rails as its down
    ports hold for the SU's racks (a divisor of the rails), so 8 NVL72 racks on 64-port leaves at 1:1 use
    4 rails × 8 racks = 32 down ports per leaf and 18 leaves per SU instead of 72 leaves with 8 ports used."""
    if not srv.rack_scale or su_size <= 0:
        return 1
    fit = max(1, math.floor(k * oversub / (oversub + 1)) // su_size)
    return max(d for d in range(1, min(fit, rails) + 1) if rails % d == 0)


def template_list() -> dict[str, str]:
    return dict(TEMPLATES)


__all__ = [
    "GenerateOptions",
    "Plan",
    "apply_plan",
    "generate",
    "generate_into",
    "template_list",
    "StorageType",
]
