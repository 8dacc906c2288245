"""Storage and management (out-of-band) fabrics, each with its own switches."""

from __future__ import annotations

import math

from gpuplanner.catalog import PortGroup
from gpuplanner.catalog.names import named, named_with_id
from gpuplanner.catalog.types import ServerType, StorageType, SwitchType
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device
from gpuplanner.text import Msg
from gpuplanner.topology.fattree import Y_TIER, _spread_x
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.topology.plan import Plan, fabric_group, links_per_port, storage_entry, switch_entry

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
    """Endpoints (device, port group, ports) onto leaves of ``switch_id``; leaves up to pairs of spines.

    A leaf is counted in physical ports, as the port check of `Plan.link` counts them: an endpoint port
    takes 1/k of a cage split k ways (`links_per_port`). Each leaf's uplinks carry `up_ratio` of its
    downlink bandwidth; when they share the downlinks' port group, a leaf takes endpoints only while its
    downlinks and its uplinks together fit. An endpoint port faster than the switch runs at the switch's
    speed (a 400G NIC at 100G on a 100G storage switch)."""
    sw = switch_entry(plan.catalog, switch_id)
    data_groups = [pg for pg in sw.port_groups if pg.role in ("fabric", "downlink")] or list(
        sw.fabric_ports()
    )
    fastest = max(pg.speed_gbps for pg in data_groups)
    speed = min(min(pg.speed_gbps for _, pg, _ in endpoints), fastest)
    down_grp = fabric_group(sw, speed)
    up_groups = [
        pg
        for pg in sw.port_groups
        if pg.role == "uplink" and pg is not down_grp and pg.speed_gbps >= min(speed, 100) and pg.count >= 2
    ]
    up_grp = up_groups[0] if up_groups else down_grp
    shared = up_grp is down_grp
    up_speed = up_grp.speed_gbps

    def link_speed(pg: PortGroup) -> float:
        return min(pg.speed_gbps, down_grp.speed_gbps)

    def uplinks(bw_gbps: float) -> int:  # physical uplink ports for a leaf's downlink bandwidth, in pairs
        if not shared:
            return 2 * (up_grp.count // 2)
        return 2 * max(1, math.ceil(math.ceil(up_ratio * bw_gbps / up_speed) / 2))

    leaves: list[Device] = [plan.add_device(sw.id, f"{prefix}-leaf-01", leaf_role, fabric_id=fabric_id, y=y)]
    leaf_bw: list[float] = [0.0]
    used, bw = 0.0, 0.0
    for dev, pg, n in endpoints:
        ls = link_speed(pg)
        lpp = links_per_port(down_grp, ls)
        left = n
        while left > 0:  # a device with more ports than a leaf has (a rack-scale system) spans leaves
            k = left
            while k > 0 and used + k / lpp + (uplinks(bw + k * ls) if shared else 0) > down_grp.count + 1e-9:
                k -= 1
            if k == 0 and leaves and used == 0.0:
                raise GenerationError(
                    Msg(
                        "error.gen.leaf_cannot_take_device",
                        {"dev": dev.name, "switch": named(sw, plan.catalog)},
                    )
                )
            if k == 0 or (
                k < left and used > 0 and k < n
            ):  # keep a device on one leaf when it fits on a new one
                leaves.append(
                    plan.add_device(
                        sw.id, f"{prefix}-leaf-{len(leaves) + 1:02d}", leaf_role, fabric_id=fabric_id, y=y
                    )
                )
                leaf_bw.append(0.0)
                used, bw = 0.0, 0.0
                continue
            plan.link(dev, pg, leaves[-1], down_grp, multiplicity=k, speed_gbps=ls, fabric_id=fabric_id)
            used += k / lpp
            bw += k * ls
            leaf_bw[-1] = bw
            left -= k
    _set_x(plan, leaves, _spread_x(len(leaves), width))
    if len(leaves) < 2:
        return
    spine_sw = switch_entry(plan.catalog, spine_id)
    spine_grp = fabric_group(spine_sw, up_speed)
    spine_ports = spine_grp.count * links_per_port(spine_grp, up_speed)
    # each leaf dual-homed to one pair of spines; leaves fill a pair until its ports are used
    per_spine = [max(1, min(uplinks(b) // 2, spine_ports)) for b in leaf_bw]
    pair_of: list[int] = []
    load = [0]
    for k in per_spine:
        if load[-1] + k > spine_ports:
            load.append(0)
        load[-1] += k
        pair_of.append(len(load) - 1)
    spines = [
        plan.add_device(
            spine_sw.id, f"{prefix}-spine-{i + 1:02d}", spine_role, fabric_id=fabric_id, x=x, y=y - 110
        )
        for i, x in enumerate(_spread_x(2 * len(load), width))
    ]
    for leaf, j, k in zip(leaves, pair_of, per_spine, strict=True):
        for sp in spines[2 * j : 2 * j + 2]:
            plan.link(leaf, up_grp, sp, spine_grp, multiplicity=k, speed_gbps=up_speed, fabric_id=fabric_id)


def _set_x(plan: Plan, devices: list[Device], xs: list[float]) -> None:
    import dataclasses

    index = {d.id: i for i, d in enumerate(plan.devices)}
    for d, x in zip(devices, xs, strict=True):
        plan.devices[index[d.id]] = dataclasses.replace(d, x=x)


def _technology(port_type: str) -> str:
    return "infiniband" if port_type.startswith("infiniband") else "ethernet"


# A storage fabric is never drawn without storage: when none is named, the storage of NVIDIA's DGX SuperPOD
# reference architecture (DDN AI400X2), and the CLI says which it used.
DEFAULT_STORAGE_SYSTEM = "ddn-ai400x2"


def default_storage_system(plan: Plan, technology: str = "infiniband") -> str:
    """The reference storage (DDN AI400X2) in the variant whose data ports speak the fabric's technology."""

    def speaks(e: StorageType) -> bool:
        return any(pg.role != "management" and _technology(pg.type) == technology for pg in e.port_groups)

    storages = [e for e in plan.catalog.entries.values() if isinstance(e, StorageType)]  # kind "storage"
    fit = {e.id for e in storages if speaks(e)}
    for name in (DEFAULT_STORAGE_SYSTEM, DEFAULT_STORAGE_SYSTEM + "-eth"):
        if name in fit:
            return name
    names = sorted(fit) or sorted(e.id for e in storages)
    if not names:
        raise GenerationError(Msg("error.gen.no_storage_system"), field="storage_system")
    return names[0]


def add_storage_fabric(
    plan: Plan, servers: list[Device], srv: ServerType, opts: GenerateOptions, width: float
) -> None:
    # the storage NICs; a server without them reaches storage over its front-end (converged) ports
    groups = srv.ports("storage") or srv.ports("frontend")
    if not groups:
        raise GenerationError(
            Msg(
                "error.gen.server_no_storage_ports", {"server": named_with_id(srv, None, with_figures=False)}
            ),
            entry=srv.id,
        )
    sw = switch_entry(plan.catalog, opts.storage_switch)
    system = opts.storage_system or default_storage_system(plan, sw.technology)
    st = storage_entry(plan.catalog, system)
    st_groups = [pg for pg in st.port_groups if pg.role != "management"]
    if not st_groups:
        raise GenerationError(
            Msg("error.gen.storage_no_data_ports", {"storage": named_with_id(st, None, with_figures=False)}),
            entry=st.id,
        )
    same = [pg for pg in st_groups if _technology(pg.type) == sw.technology]
    default_switch = GenerateOptions.__dataclass_fields__["storage_switch"].default
    if not same and opts.storage_system and opts.storage_switch == default_switch:
        # a named appliance decides the storage fabric's technology when the switch was left at its default:
        # the compute leaf's model when it speaks it, else the catalog's first switch that does
        tech = _technology(st_groups[0].type)
        leaf = plan.catalog.entries.get(opts.leaf_switch)
        pick = leaf if getattr(leaf, "technology", "") == tech else None
        pick = pick or next(
            (
                e
                for e in sorted(plan.catalog.of_kind("switch"), key=lambda e: e.id)
                if isinstance(e, SwitchType) and e.technology == tech
            ),
            None,
        )
        if pick is not None:
            sw = switch_entry(plan.catalog, pick.id)
            same = [pg for pg in st_groups if _technology(pg.type) == sw.technology]
    fabric = plan.add_fabric("storage", "storage", sw.technology, "leaf-spine")
    endpoints: list[tuple[Device, PortGroup, int]] = [(s, groups[0], groups[0].count) for s in servers]
    same = [pg for pg in st_groups if _technology(pg.type) == sw.technology]
    if not same:
        raise GenerationError(
            Msg(
                "error.gen.storage_technology_mismatch",
                {
                    "storage": named_with_id(st, None, with_figures=False),
                    "storage_tech": _technology(st_groups[0].type),
                    "switch": named_with_id(sw, None, with_figures=False),
                    "switch_tech": sw.technology,
                },
            ),
            entry=st.id,
        )
    st_groups = same
    units = max(opts.storage_units, 1)
    xs = _spread_x(units, width)
    for i in range(units):
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
