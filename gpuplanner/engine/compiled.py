"""compile(project) → Compiled: the project as struct-of-arrays, frozen, with id→row look-ups.

The engine's stages read only this (never the model), and write their results into their own objects
with the same row order. Rows follow the model's table order (insertion order), so a compiled row index
is stable across edits that do not add or remove rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gpuplanner.catalog.types import GpuType, ServerType, StorageType, SwitchType
from gpuplanner.model import Project

KIND_CODES = {"server": 0, "switch": 1, "storage": 2, "other": 3}
ROLE_CODES = {
    r: i
    for i, r in enumerate(
        ("compute", "leaf", "spine", "core", "storage", "storage-switch", "management", "other")
    )
}
TIER_OF_ROLE = {
    "leaf": "leaf",
    "spine": "spine",
    "core": "core",
    "storage-switch": "storage",
    "management": "management",
}


@dataclass(frozen=True)
class DeviceArrays:
    ids: list[str]
    row: dict[str, int]
    type_ids: list[str]
    names: list[str]
    kind: np.ndarray  # int8 KIND_CODES
    role: np.ndarray  # int8 ROLE_CODES
    rack: np.ndarray  # int32 rack row, -1 = not in a rack
    ru: np.ndarray  # int16
    u_position: np.ndarray  # int16, 0 = unplaced
    power_idle_w: np.ndarray
    power_typical_w: np.ndarray
    power_max_w: np.ndarray
    gpu_count: np.ndarray  # int32
    gpu_tdp_w: np.ndarray  # per GPU
    gpu_idle_w: np.ndarray  # per GPU
    psu_count: np.ndarray  # int16
    psu_needed: np.ndarray  # int16 (N of N+M)
    psu_rating_w: np.ndarray
    liquid_share: np.ndarray
    price_override_usd: np.ndarray  # NaN = catalog price
    x: np.ndarray
    y: np.ndarray


@dataclass(frozen=True)
class RackArrays:
    ids: list[str]
    row: dict[str, int]
    names: list[str]
    type_ids: list[str]
    row_label: list[str]
    position: np.ndarray  # int32
    ru: np.ndarray
    budget_kw: np.ndarray
    cooling_ids: list[str]  # "" = automatic
    pdu_capacity_kw: np.ndarray  # per PDU (per feed)
    pdu_count: np.ndarray
    floor_x_m: np.ndarray
    floor_y_m: np.ndarray


@dataclass(frozen=True)
class LinkArrays:
    ids: list[str]
    row: dict[str, int]
    a: np.ndarray  # device rows
    b: np.ndarray
    a_group: list[str]
    b_group: list[str]
    a_role: list[str]  # port-group roles at each end
    b_role: list[str]
    speed_gbps: np.ndarray  # per cable
    multiplicity: np.ndarray
    capacity_gbps: np.ndarray  # per direction = speed × multiplicity
    length_m: np.ndarray
    length_given: np.ndarray  # bool: set by the user
    medium: list[str]  # "" = automatic
    cable_ids: list[str]
    technology: list[str]  # infiniband | ethernet
    connector: list[str]  # cage/connector of the a end (osfp, qsfp112, qsfp56, qsfp28, sfp28, rj45)
    a_port_key: np.ndarray  # int32 index into port_keys: (device type, port group) of the a end
    b_port_key: np.ndarray
    port_keys: list[tuple[str, str]]
    port_key_speed_gbps: np.ndarray  # per port key: the group's port speed
    port_key_count: np.ndarray  # per port key: ports in the group


@dataclass(frozen=True)
class Compiled:
    devices: DeviceArrays
    racks: RackArrays
    links: LinkArrays
    gpu_types: dict[str, GpuType] = field(default_factory=dict)


def _rack_floor_positions(project: Project, racks: list) -> tuple[np.ndarray, np.ndarray]:
    """Floor position of each rack (m): its own when the floor plan placed it, else from row and position."""
    site = project.site
    labels = [r.row for r in racks]
    order = {lab: i for i, lab in enumerate(sorted(set(labels)))}
    aisle_rows = project.tables["aisle_rows"]
    row_y = {
        lab: (
            aisle_rows[lab].y_m
            if lab in aisle_rows and aisle_rows[lab].y_m is not None
            else i * site.row_pitch_m
        )
        for lab, i in order.items()
    }
    x = np.array(
        [r.floor_x_m if r.floor_x_m is not None else (r.position - 1) * site.rack_pitch_m for r in racks]
    )
    y = np.array([r.floor_y_m if r.floor_y_m is not None else row_y[r.row] for r in racks])
    return x.astype(np.float64), y.astype(np.float64)


def compile_project(project: Project) -> Compiled:
    cat = project.catalog
    # -- racks ----------------------------------------------------------------------------------------
    racks = list(project.racks.values())
    r_row = {r.id: i for i, r in enumerate(racks)}
    r_types = [cat.entries.get(r.type_id) for r in racks]
    pdu_cap = []
    for t in r_types:
        pdu = cat.entries.get(getattr(t, "pdu", None) or "") if t is not None else None
        pdu_cap.append(getattr(pdu, "capacity_kw", np.nan) if pdu is not None else np.nan)
    labels = [r.row for r in racks]
    positions = np.array([r.position for r in racks], dtype=np.int32)
    fx, fy = _rack_floor_positions(project, racks)
    rack_arrays = RackArrays(
        ids=[r.id for r in racks],
        row=r_row,
        names=[r.name for r in racks],
        type_ids=[r.type_id for r in racks],
        row_label=labels,
        position=positions,
        ru=np.array([getattr(t, "ru", 42) for t in r_types], dtype=np.int16),
        budget_kw=np.array(
            [
                r.power_budget_kw if r.power_budget_kw is not None else getattr(t, "power_budget_kw", np.nan)
                for r, t in zip(racks, r_types, strict=True)
            ],
            dtype=np.float64,
        ),
        cooling_ids=[r.cooling_id for r in racks],
        pdu_capacity_kw=np.array(pdu_cap, dtype=np.float64),
        pdu_count=np.array([getattr(t, "pdu_count", 2) for t in r_types], dtype=np.int16),
        floor_x_m=fx,
        floor_y_m=fy,
    )
    # -- devices --------------------------------------------------------------------------------------
    devs = list(project.devices.values())
    n = len(devs)
    d_row = {d.id: i for i, d in enumerate(devs)}
    types = [cat.entries.get(d.type_id) for d in devs]
    gpu_types: dict[str, GpuType] = {}

    def num(attr: str, default: float = 0.0) -> np.ndarray:
        return np.array([float(getattr(t, attr, default) or default) for t in types], dtype=np.float64)

    kind = np.array(
        [
            KIND_CODES["server"]
            if isinstance(t, ServerType)
            else KIND_CODES["switch"]
            if isinstance(t, SwitchType)
            else KIND_CODES["storage"]
            if isinstance(t, StorageType)
            else KIND_CODES["other"]
            for t in types
        ],
        dtype=np.int8,
    )
    gpu_tdp = np.zeros(n)
    gpu_idle = np.zeros(n)
    for i, t in enumerate(types):
        if isinstance(t, ServerType) and t.gpu and t.gpu_count:
            g = cat.entries.get(t.gpu)
            if isinstance(g, GpuType):
                gpu_types[g.id] = g
                gpu_tdp[i] = g.tdp_w
                gpu_idle[i] = g.idle_w()
    psu_needed = np.array(
        [t.psu_n_m()[0] if hasattr(t, "psu_n_m") and getattr(t, "psu_count", 0) else 0 for t in types],
        dtype=np.int16,
    )
    dev_arrays = DeviceArrays(
        ids=[d.id for d in devs],
        row=d_row,
        type_ids=[d.type_id for d in devs],
        names=[d.name for d in devs],
        kind=kind,
        role=np.array([ROLE_CODES.get(d.role, ROLE_CODES["other"]) for d in devs], dtype=np.int8),
        rack=np.array([r_row.get(d.rack_id, -1) if d.rack_id else -1 for d in devs], dtype=np.int32),
        ru=num("ru", 1).astype(np.int16),
        u_position=np.array([d.u_position or 0 for d in devs], dtype=np.int16),
        power_idle_w=num("power_idle_w"),
        power_typical_w=num("power_typical_w"),
        power_max_w=num("power_max_w"),
        gpu_count=num("gpu_count").astype(np.int32),
        gpu_tdp_w=gpu_tdp,
        gpu_idle_w=gpu_idle,
        psu_count=num("psu_count").astype(np.int16),
        psu_needed=psu_needed,
        psu_rating_w=num("psu_rating_w"),
        liquid_share=num("liquid_share"),
        price_override_usd=np.array([d.price_usd if d.price_usd is not None else np.nan for d in devs]),
        x=np.array([d.x for d in devs]),
        y=np.array([d.y for d in devs]),
    )
    return Compiled(
        devices=dev_arrays,
        racks=rack_arrays,
        links=_compile_links(project, d_row, types, dev_arrays, rack_arrays),
        gpu_types=gpu_types,
    )


def _compile_links(project, d_row, types, devs: DeviceArrays, racks: RackArrays) -> LinkArrays:
    """Per-link figures; port-group facts are looked up once per distinct (device type, group) pair."""
    links = list(project.links.values())
    site = project.site
    n = len(links)
    a = np.fromiter((d_row[lk.a_device] for lk in links), dtype=np.int32, count=n)
    b = np.fromiter((d_row[lk.b_device] for lk in links), dtype=np.int32, count=n)
    a_group = [lk.a_group for lk in links]
    b_group = [lk.b_group for lk in links]
    # (device type, port group) → one key per distinct pair, as integer arithmetic (no per-link tuples)
    t_table: dict[str, int] = {}
    dev_type = np.fromiter(
        (t_table.setdefault(t, len(t_table)) for t in devs.type_ids), np.int64, len(devs.type_ids)
    )
    g_table: dict[str, int] = {}
    a_g = np.fromiter((g_table.setdefault(g, len(g_table)) for g in a_group), np.int64, n)
    b_g = np.fromiter((g_table.setdefault(g, len(g_table)) for g in b_group), np.int64, n)
    n_g = max(len(g_table), 1)
    combo, inv = np.unique(
        np.concatenate([dev_type[a] * n_g + a_g, dev_type[b] * n_g + b_g]), return_inverse=True
    )
    a_pgi = inv[:n].astype(np.int32)
    b_pgi = inv[n:].astype(np.int32)
    t_names = list(t_table)
    g_names = list(g_table)
    keys = {(t_names[int(k) // n_g], g_names[int(k) % n_g]): i for i, k in enumerate(combo)}
    groups = []
    for tid, g in keys:
        e = project.catalog.entries.get(tid)
        groups.append(e.port_group(g) if e is not None and hasattr(e, "port_group") else None)
    pg_speed = np.array([pg.speed_gbps if pg else 0.0 for pg in groups] or [0.0])
    pg_role = np.array([pg.role if pg else "" for pg in groups] or [""], dtype=object)
    pg_ib = np.array([bool(pg and pg.type.startswith("infiniband")) for pg in groups] or [False])
    pg_conn = np.array([connector_of(pg.type) if pg else "" for pg in groups] or [""], dtype=object)
    speed = np.fromiter((lk.speed_gbps for lk in links), dtype=np.float64, count=n)
    speed = np.where(speed > 0, speed, np.minimum(pg_speed[a_pgi], pg_speed[b_pgi]))
    mult = np.fromiter((lk.multiplicity for lk in links), dtype=np.int32, count=n)
    length = np.fromiter(
        (np.nan if lk.length_m is None else lk.length_m for lk in links), dtype=np.float64, count=n
    )
    given = ~np.isnan(length)
    length = np.where(given, length, cable_lengths_m(a, b, devs, racks, site))
    # InfiniBand only when both ends are InfiniBand ports
    tech = np.where(pg_ib[a_pgi] & pg_ib[b_pgi], "infiniband", "ethernet")
    return LinkArrays(
        ids=[lk.id for lk in links],
        row={lk.id: i for i, lk in enumerate(links)},
        a=a,
        b=b,
        a_group=a_group,
        b_group=b_group,
        a_role=pg_role[a_pgi].tolist(),
        b_role=pg_role[b_pgi].tolist(),
        speed_gbps=speed,
        multiplicity=mult,
        capacity_gbps=speed * mult,
        length_m=length,
        length_given=given,
        medium=[lk.medium for lk in links],
        cable_ids=[lk.cable_id for lk in links],
        technology=tech.tolist(),
        # the cage of the end that runs at the link's speed (a 400G NIC cabled to a 25G switch takes its adapter)
        connector=np.where(
            (pg_speed[a_pgi] > speed) & (pg_speed[b_pgi] == speed), pg_conn[b_pgi], pg_conn[a_pgi]
        ).tolist(),
        a_port_key=a_pgi,
        b_port_key=b_pgi,
        port_keys=list(keys),
        port_key_speed_gbps=pg_speed[: len(keys)],
        port_key_count=np.array([pg.count if pg else 0 for pg in groups], dtype=np.int32),
    )


_IB_CAGE = {"edr": "qsfp28", "hdr": "qsfp56", "ndr": "osfp", "xdr": "osfp"}


def connector_of(port_type: str) -> str:
    """Cage of a NetBox interface type: ``400gbase-x-osfp`` → osfp, ``infiniband-ndr`` → osfp, ``1000base-t`` → rj45."""
    if port_type.startswith("infiniband-"):
        return _IB_CAGE.get(port_type.removeprefix("infiniband-"), "")
    if port_type.endswith("base-t"):
        return "rj45"
    for cage in ("osfp", "qsfp112", "qsfp56", "qsfp28", "qsfpdd", "sfp28", "sfp56", "sfpp"):
        if port_type.endswith(cage):
            return cage
    return ""


U_HEIGHT_M = 0.04445
RACK_TOP_M = 2.0  # a 42U rack is about 2 m tall; the tray runs above it


def cable_lengths_m(a: np.ndarray, b: np.ndarray, devs: DeviceArrays, racks: RackArrays, site) -> np.ndarray:
    """Route length between the two ends: within a rack along the U slots; between racks up into the tray,
    along rows (Manhattan), down again; plus slack. Unplaced devices get a nominal 5 m run (flagged)."""
    ra, rb = devs.rack[a], devs.rack[b]
    placed = (ra >= 0) & (rb >= 0)
    same = placed & (ra == rb)
    ua = devs.u_position[a].astype(np.float64) * U_HEIGHT_M
    ub = devs.u_position[b].astype(np.float64) * U_HEIGHT_M
    out = np.full(a.shape, 5.0 + site.cable_slack_m)
    out[same] = np.abs(ua[same] - ub[same]) + 0.5 + site.cable_slack_m * 0.5
    diff = placed & ~same
    if diff.any():
        xa, ya = racks.floor_x_m[ra[diff]], racks.floor_y_m[ra[diff]]
        xb, yb = racks.floor_x_m[rb[diff]], racks.floor_y_m[rb[diff]]
        top = RACK_TOP_M + site.tray_height_m
        vertical = (top - ua[diff]) + (top - ub[diff])
        out[diff] = np.abs(xa - xb) + np.abs(ya - yb) + np.maximum(vertical, 0) + site.cable_slack_m
    return np.round(out, 1)
