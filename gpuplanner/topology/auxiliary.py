"""Storage and management (out-of-band) fabrics, each with its own switches."""

from __future__ import annotations

import math

from gpuplanner.catalog import PortGroup
from gpuplanner.catalog.types import ServerType
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device
from gpuplanner.topology.fattree import Y_TIER, _spread_x
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.topology.plan import Plan, fabric_group, storage_entry, switch_entry

Y_STORAGE = Y_TIER["racks"] + 700.0
Y_MGMT = Y_STORAGE + 220.0


def _leaf_spine_for(
    plan: Plan,
    endpoints: list[tuple[Device, PortGroup, int]],
    switch_id: str,
    *,
    spine_id: str,
    fabric_id: str,
    leaf_role: str,
    spine_role: str,
    prefix: str,
    y: float,
    width: float,
    up_ratio: float,
) -> None:
    """Endpoints (device, port group, ports) onto leaves of ``switch_id``; leaves up to one or two spines."""
    sw = switch_entry(plan.catalog, switch_id)
    speed = min(pg.speed_gbps for _, pg, _ in endpoints)
    down_grp = fabric_group(sw, speed)
    up_groups = [
        pg for pg in sw.port_groups if pg.role == "uplink" and pg.speed_gbps >= speed and pg.count >= 2
    ]
    up_grp = up_groups[0] if up_groups else down_grp
    per_port = int(down_grp.speed_gbps // speed) or 1
    capacity = down_grp.count * per_port
    if up_grp is down_grp:
        capacity = int(capacity / (1 + up_ratio))
    leaves: list[Device] = []
    used = capacity  # start a new leaf at once
    for dev, pg, n in endpoints:
        if n > capacity:
            raise GenerationError(f"{dev.name}: {n} ports exceed one {sw.name}'s {capacity}")
        if used + n > capacity:
            leaves.append(
                plan.add_device(
                    sw.id, f"{prefix}-leaf-{len(leaves) + 1:02d}", leaf_role, fabric_id=fabric_id, y=y
                )
            )
            used = 0
        plan.link(
            dev, pg, leaves[-1], down_grp, multiplicity=n, speed_gbps=pg.speed_gbps, fabric_id=fabric_id
        )
        used += n
    _set_x(plan, leaves, _spread_x(len(leaves), width))
    if len(leaves) < 2:
        return
    up_speed = up_grp.speed_gbps
    spine_sw = switch_entry(plan.catalog, spine_id)
    spine_grp = fabric_group(spine_sw, up_speed)
    spine_ports = spine_grp.count * int(spine_grp.speed_gbps // up_speed)
    want = up_grp.count if up_grp is not down_grp else max(2, math.ceil(capacity * up_ratio / per_port))
    per_spine = max(1, want // 2)
    # Spines come in pairs (each leaf dual-homed to one pair, leaves dealt round-robin): enough pairs that
    # the fullest pair, with ceil(leaves / pairs) leaves, still has a port for every uplink.
    per_spine = min(per_spine, spine_ports)
    pairs = math.ceil(len(leaves) / (spine_ports // per_spine))
    spines = [
        plan.add_device(
            spine_sw.id, f"{prefix}-spine-{i + 1:02d}", spine_role, fabric_id=fabric_id, x=x, y=y - 110
        )
        for i, x in enumerate(_spread_x(2 * pairs, width))
    ]
    for i, leaf in enumerate(leaves):
        j = i % pairs
        for sp in spines[2 * j : 2 * j + 2]:
            plan.link(
                leaf, up_grp, sp, spine_grp, multiplicity=per_spine, speed_gbps=up_speed, fabric_id=fabric_id
            )


def _set_x(plan: Plan, devices: list[Device], xs: list[float]) -> None:
    import dataclasses

    index = {d.id: i for i, d in enumerate(plan.devices)}
    for d, x in zip(devices, xs, strict=True):
        plan.devices[index[d.id]] = dataclasses.replace(d, x=x)


def _technology(port_type: str) -> str:
    return "infiniband" if port_type.startswith("infiniband") else "ethernet"


def add_storage_fabric(
    plan: Plan, servers: list[Device], srv: ServerType, opts: GenerateOptions, width: float
) -> None:
    groups = srv.ports("storage")
    if not groups:
        raise GenerationError(f"server '{srv.id}' has no storage ports for a storage fabric", entry=srv.id)
    sw = switch_entry(plan.catalog, opts.storage_switch)
    fabric = plan.add_fabric("storage", "storage", sw.technology, "leaf-spine")
    endpoints: list[tuple[Device, PortGroup, int]] = [(s, groups[0], groups[0].count) for s in servers]
    if opts.storage_system and opts.storage_units > 0:
        st = storage_entry(plan.catalog, opts.storage_system)
        st_groups = [pg for pg in st.port_groups if pg.role != "management"]
        if not st_groups:
            raise GenerationError(f"storage '{st.id}' has no data ports", entry=st.id)
        # each device's ports are cabled by their own protocol: an appliance joins the storage fabric only
        # through ports of the fabric's technology (InfiniBand ports never go to an Ethernet switch)
        same = [pg for pg in st_groups if _technology(pg.type) == sw.technology]
        if not same:
            raise GenerationError(
                f"storage '{st.id}' has {_technology(st_groups[0].type)} data ports but the storage switch "
                f"'{sw.id}' is {sw.technology}: choose a storage system or switch of the same technology",
                entry=st.id,
            )
        st_groups = same
        xs = _spread_x(opts.storage_units, width)
        for i in range(opts.storage_units):
            unit = plan.add_device(st.id, f"storage-{i + 1:02d}", "storage", x=xs[i], y=Y_STORAGE + 110)
            endpoints.append((unit, st_groups[0], st_groups[0].count))
    _leaf_spine_for(
        plan,
        endpoints,
        sw.id,
        spine_id=sw.id,
        fabric_id=fabric.id,
        leaf_role="storage-switch",
        spine_role="storage-switch",
        prefix="stor",
        y=Y_STORAGE,
        width=width,
        up_ratio=0.5,
    )


def add_management_fabric(plan: Plan, opts: GenerateOptions, width: float) -> None:
    sw = switch_entry(plan.catalog, opts.mgmt_switch)
    fabric = plan.add_fabric("management", "management", "ethernet", "leaf-spine")
    endpoints: list[tuple[Device, PortGroup, int]] = []
    for d in list(plan.devices):
        e = plan.entry(d.id)
        mg = [pg for pg in getattr(e, "port_groups", ()) if pg.role == "management"]
        if mg:
            endpoints.append((d, min(mg, key=lambda pg: pg.speed_gbps), 1))
    if not endpoints:
        return
    _leaf_spine_for(
        plan,
        endpoints,
        sw.id,
        spine_id=opts.mgmt_spine_switch or sw.id,
        fabric_id=fabric.id,
        leaf_role="management",
        spine_role="management",
        prefix="mgmt",
        y=Y_MGMT,
        width=width,
        up_ratio=0.1,
    )
