"""compile(project) → Compiled: the project as struct-of-arrays, frozen, with id→row look-ups.

The engine's stages read only this (never the model), and write their results into their own objects
with the same row order. Rows follow the model's table order (insertion order), so a compiled row index
is stable across edits that do not add or remove rows.

A scenario and a build-out phase are filters at compile time (engine/selection.py): compile reads the rows
the phase holds and applies the scenario's overrides to the columns it builds; ``Compiled.inputs`` carries
the settings, workloads, teams and floor items as that scenario and phase see them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from gpuplanner.catalog.types import GpuType, PoweredType, ServerType, StorageType, SwitchType
from gpuplanner.engine.arrays import FloatArray, dense_unique
from gpuplanner.engine.codes import (
    CONNECTORS,
    KIND_CODES,
    ROLE_CODES,
    TECHNOLOGIES,
    TypeCoded,
    codes_of,
    connector_of,
)
from gpuplanner.engine.link_rows import LinkRowCache, RowIndex, read_link_rows
from gpuplanner.engine.selection import Inputs, Selection, select
from gpuplanner.model import Project
from gpuplanner.model.rows import AisleRow, Rack, Site


@dataclass(frozen=True)
class DeviceArrays(TypeCoded):
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
    partition_code: np.ndarray  # int32 index into `partitions`
    partitions: list[str]  # scheduler partitions ("" = the default one), in order of first appearance

    def partition_rows(self, partition: str) -> npt.NDArray[np.int64]:
        """Rows of the devices in ``partition``, in row order (empty when no device names it)."""
        if partition not in self.partitions:
            return np.zeros(0, np.int64)
        return np.flatnonzero(self.partition_code == self.partitions.index(partition)).astype(np.int64)


@dataclass(frozen=True)
class RackArrays(TypeCoded):
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
    """Per-link columns. The per-link strings derived from port keys (``a_role``, ``b_role``, ``technology``,
    ``connector``) are built on first read from the integer codes: no engine stage reads them."""

    ids: list[str]
    row: Mapping[str, int]  # id → row (a RowIndex, built on first use)
    a: np.ndarray  # device rows
    b: np.ndarray
    a_group: list[str]
    b_group: list[str]
    speed_gbps: np.ndarray  # per cable
    multiplicity: np.ndarray
    capacity_gbps: np.ndarray  # per direction = speed × multiplicity
    length_m: np.ndarray
    length_given: np.ndarray  # bool: set by the user
    medium: list[str]  # "" = automatic
    cable_ids: list[str]
    a_port_key: np.ndarray  # int32 index into port_keys: (device type, port group) of the a end
    b_port_key: np.ndarray
    port_keys: list[tuple[str, str]]
    port_key_speed_gbps: np.ndarray  # per port key: the group's port speed
    port_key_count: np.ndarray  # per port key: ports in the group
    port_key_role: list[str]  # per port key: the group's role ("" = unknown group)
    infiniband: np.ndarray  # bool: technology == "infiniband"
    connector_code: np.ndarray  # int8 index into CONNECTORS of `connector`

    @cached_property
    def a_role(self) -> list[str]:
        """Port-group role at the a end of each link ("" = unknown group)."""
        return _gather_names(self.port_key_role, self.a_port_key)

    @cached_property
    def b_role(self) -> list[str]:
        return _gather_names(self.port_key_role, self.b_port_key)

    @cached_property
    def technology(self) -> list[str]:
        """infiniband | ethernet per link."""
        return _gather_names(list(TECHNOLOGIES), self.infiniband.astype(np.int8))

    @cached_property
    def connector(self) -> list[str]:
        """Cage/connector of each link (osfp, qsfp112, qsfp56, qsfp28, sfp28, rj45; "" = unknown)."""
        return _gather_names(list(CONNECTORS), self.connector_code)


def _gather_names(names: list[str], codes: npt.NDArray[np.integer[Any]]) -> list[str]:
    table = np.array(names or [""], dtype=object)
    out: list[str] = table[codes].tolist()
    return out


@dataclass(frozen=True)
class Compiled:
    devices: DeviceArrays
    racks: RackArrays
    links: LinkArrays
    inputs: Inputs  # settings, workloads, teams, floor items as the compiled scenario and phase see them
    gpu_types: dict[str, GpuType] = field(default_factory=dict)


def column(rows: Sequence[Any], name: str, overrides: Mapping[str, Any]) -> list[Any]:
    """One field of every row (a C-level ``map``), or the scenario's value for the whole column."""
    if name in overrides:
        return [overrides[name]] * len(rows)
    return list(map(attrgetter(name), rows))


def _rack_floor_positions(
    site: Site,
    aisle_rows: Mapping[str, AisleRow],
    labels: list[str],
    position: list[int],
    floor_x: list[float | None],
    floor_y: list[float | None],
) -> tuple[FloatArray, FloatArray]:
    """Floor position of each rack (m): its own when the floor plan placed it, else from row and position."""
    order = {lab: i for i, lab in enumerate(sorted(set(labels)))}
    row_y = {
        lab: (
            aisle_rows[lab].y_m
            if lab in aisle_rows and aisle_rows[lab].y_m is not None
            else i * site.row_pitch_m
        )
        for lab, i in order.items()
    }
    x = np.array(
        [
            fxi if fxi is not None else (p - 1) * site.rack_pitch_m
            for fxi, p in zip(floor_x, position, strict=True)
        ]
    )
    y = np.array([fyi if fyi is not None else row_y[lab] for fyi, lab in zip(floor_y, labels, strict=True)])
    return x.astype(np.float64), y.astype(np.float64)


def rack_floor_positions(project: Project, racks: Sequence[Rack]) -> tuple[FloatArray, FloatArray]:
    """Floor position (m) of each of ``racks`` as compile places them (the floor view draws with this)."""
    return _rack_floor_positions(
        project.site,
        project.rows_of(AisleRow),
        [r.row for r in racks],
        [r.position for r in racks],
        [r.floor_x_m for r in racks],
        [r.floor_y_m for r in racks],
    )


def rack_budgets_kw(given: list[float | None], types: list[Any]) -> FloatArray:
    """Each rack's power budget (kW): its own, else its type's (NaN = none)."""
    return np.array(
        [
            b if b is not None else getattr(t, "power_budget_kw", np.nan)
            for b, t in zip(given, types, strict=True)
        ],
        dtype=np.float64,
    )


def device_slots(
    rack_ids: list[str | None], u_positions: list[int | None], r_row: Mapping[str, int], phased: bool
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int16]]:
    """Each device's rack row (-1 = not in a rack) and U position (0 = unplaced). In a phase, a device
    whose rack comes in a later phase stands unracked (rack -1, U 0) until then."""
    n = len(rack_ids)
    code, distinct = codes_of(rack_ids)  # one look-up per distinct rack
    rack_of = np.array([r_row.get(r, -1) if r else -1 for r in distinct] or [-1], dtype=np.int32)
    rack = rack_of[code] if n else np.zeros(0, np.int32)
    u_pos = np.array([u or 0 for u in u_positions], dtype=np.int16)
    if phased and n:
        later = np.array([r is not None and r not in r_row for r in distinct] or [False])[code]
        u_pos[later] = 0
    return rack, u_pos


def compile_project(
    project: Project, link_rows: LinkRowCache | None = None, selection: Selection | None = None
) -> Compiled:
    """The project as arrays, as ``selection`` (a scenario and phase, engine/selection.py) sees it; None:
    the project as drawn. ``link_rows``: a cache of the link columns owned by the caller (the engine
    runner); None reads every link row."""
    sel = selection if selection is not None else select(project)
    cat = sel.inputs.catalog
    site = sel.inputs.site
    # -- racks ----------------------------------------------------------------------------------------
    racks = sel.racks
    r_ov = sel.overrides.get("racks", {})
    r_ids = column(racks, "id", r_ov)
    r_row = {r: i for i, r in enumerate(r_ids)}
    r_type_ids = column(racks, "type_id", r_ov)
    r_types = [cat.entries.get(t) for t in r_type_ids]
    pdu_cap = []
    for t in r_types:
        pdu = cat.entries.get(getattr(t, "pdu", None) or "") if t is not None else None
        pdu_cap.append(getattr(pdu, "capacity_kw", np.nan) if pdu is not None else np.nan)
    labels = column(racks, "row", r_ov)
    position_list = column(racks, "position", r_ov)
    positions = np.array(position_list, dtype=np.int32)
    fx, fy = _rack_floor_positions(
        site,
        sel.inputs.aisle_rows,
        labels,
        position_list,
        column(racks, "floor_x_m", r_ov),
        column(racks, "floor_y_m", r_ov),
    )
    rack_arrays = RackArrays(
        ids=r_ids,
        row=r_row,
        names=column(racks, "name", r_ov),
        type_ids=r_type_ids,
        row_label=labels,
        position=positions,
        ru=np.array([getattr(t, "ru", 42) for t in r_types], dtype=np.int16),
        budget_kw=rack_budgets_kw(column(racks, "power_budget_kw", r_ov), r_types),
        cooling_ids=column(racks, "cooling_id", r_ov),
        pdu_capacity_kw=np.array(pdu_cap, dtype=np.float64),
        pdu_count=np.array([getattr(t, "pdu_count", 2) for t in r_types], dtype=np.int16),
        floor_x_m=fx,
        floor_y_m=fy,
    )
    # -- devices --------------------------------------------------------------------------------------
    devs = sel.devices
    d_ov = sel.overrides.get("devices", {})
    ids = column(devs, "id", d_ov)
    d_row = dict(zip(ids, range(len(devs)), strict=True))
    type_ids = column(devs, "type_id", d_ov)
    if sel.swap:  # a scenario's "swap.<type>": one look-up per device, in C
        type_ids = list(map(lambda t: sel.swap.get(t, t), type_ids))
    # catalog facts once per distinct type, then one gather per field
    t_code, t_names = codes_of(type_ids)
    types = [cat.entries.get(t) for t in t_names]
    gpu_types: dict[str, GpuType] = {}

    def num(attr: str, default: float = 0.0) -> FloatArray:
        per_type = np.array([float(getattr(t, attr, default) or default) for t in types], dtype=np.float64)
        return per_type[t_code]

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
    gpu_tdp = np.zeros(len(types))
    gpu_idle = np.zeros(len(types))
    for i, t in enumerate(types):
        if isinstance(t, ServerType) and t.gpu and t.gpu_count:
            g = cat.entries.get(t.gpu)
            if isinstance(g, GpuType):
                gpu_types[g.id] = g
                gpu_tdp[i] = g.tdp_w
                gpu_idle[i] = g.idle_w()
    psu_needed = np.array(
        [t.psu_n_m()[0] if isinstance(t, PoweredType) and t.psu_count else 0 for t in types],
        dtype=np.int16,
    )
    role_code, role_names = codes_of(column(devs, "role", d_ov))
    rack, u_position = device_slots(
        column(devs, "rack_id", d_ov), column(devs, "u_position", d_ov), r_row, sel.phased
    )
    prices = column(devs, "price_usd", d_ov)
    part_code, partitions = codes_of(column(devs, "partition", d_ov))
    dev_arrays = DeviceArrays(
        ids=ids,
        row=d_row,
        type_ids=type_ids,
        names=column(devs, "name", d_ov),
        kind=kind[t_code] if len(devs) else np.zeros(0, np.int8),
        role=np.array([ROLE_CODES.get(r, ROLE_CODES["other"]) for r in role_names], dtype=np.int8)[role_code],
        rack=rack,
        ru=num("ru", 1).astype(np.int16),
        u_position=u_position,
        power_idle_w=num("power_idle_w"),
        power_typical_w=num("power_typical_w"),
        power_max_w=num("power_max_w"),
        gpu_count=num("gpu_count").astype(np.int32),
        gpu_tdp_w=gpu_tdp[t_code],
        gpu_idle_w=gpu_idle[t_code],
        psu_count=num("psu_count").astype(np.int16),
        psu_needed=psu_needed[t_code] if len(devs) else np.zeros(0, np.int16),
        psu_rating_w=num("psu_rating_w"),
        liquid_share=num("liquid_share"),
        price_override_usd=np.full(len(devs), np.nan)
        if prices.count(None) == len(prices)
        else np.array([np.nan if p is None else p for p in prices]),
        x=np.array(column(devs, "x", d_ov)),
        y=np.array(column(devs, "y", d_ov)),
        partition_code=part_code,
        partitions=partitions,
    )
    return Compiled(
        devices=dev_arrays,
        racks=rack_arrays,
        links=_compile_links(sel, d_row, dev_arrays, rack_arrays, link_rows),
        inputs=sel.inputs,
        gpu_types=gpu_types,
    )


def _compile_links(
    sel: Selection,
    d_row: dict[str, int],
    devs: DeviceArrays,
    racks: RackArrays,
    cache: LinkRowCache | None = None,
) -> LinkArrays:
    """Per-link figures; port-group facts are looked up once per distinct (device type, group) pair."""
    rows = read_link_rows(sel.link_columns, devs.ids, d_row, cache, sel.overrides.get("links"))
    site = sel.inputs.site
    catalog = sel.inputs.catalog
    n = len(rows.ids)
    a, b, a_group, b_group = rows.a, rows.b, rows.a_group, rows.b_group
    # (device type, port group) → one key per distinct pair, as integer arithmetic (no per-link tuples)
    dev_type, t_names = codes_of(devs.type_ids)
    g_codes, g_names = rows.group_codes, rows.group_names
    a_g, b_g = g_codes[:n].astype(np.int64), g_codes[n:].astype(np.int64)
    n_g = max(len(g_names), 1)
    dev_type = dev_type.astype(np.int64)
    # the pairs as ascending key codes: a table of len(types) × len(groups) flags, no sort of 786k ends
    combo, inv = dense_unique(
        np.concatenate([dev_type[a] * n_g + a_g, dev_type[b] * n_g + b_g]), max(len(t_names), 1) * n_g
    )
    a_pgi = inv[:n].astype(np.int32)
    b_pgi = inv[n:].astype(np.int32)
    keys = {(t_names[int(k) // n_g], g_names[int(k) % n_g]): i for i, k in enumerate(combo)}
    groups = []
    for tid, g in keys:
        e = catalog.entries.get(tid)
        groups.append(e.port_group(g) if e is not None and hasattr(e, "port_group") else None)
    pg_speed = np.array([pg.speed_gbps if pg else 0.0 for pg in groups] or [0.0])
    pg_role = np.array([pg.role if pg else "" for pg in groups] or [""], dtype=object)
    pg_ib = np.array([bool(pg and pg.type.startswith("infiniband")) for pg in groups] or [False])
    pg_conn = np.array(
        [CONNECTORS.index(connector_of(pg.type)) if pg else 0 for pg in groups] or [0], dtype=np.int8
    )
    speed = rows.speed_gbps
    speed = np.where(speed > 0, speed, np.minimum(pg_speed[a_pgi], pg_speed[b_pgi]))
    mult = rows.multiplicity
    length = rows.length_m
    given = ~np.isnan(length)
    length = np.where(given, length, cable_lengths_m(a, b, devs, racks, site))
    # InfiniBand only when both ends are InfiniBand ports
    ib = pg_ib[a_pgi] & pg_ib[b_pgi]
    # the cage of the end that runs at the link's speed (a 400G NIC cabled to a 25G switch takes its adapter)
    conn = np.where((pg_speed[a_pgi] > speed) & (pg_speed[b_pgi] == speed), pg_conn[b_pgi], pg_conn[a_pgi])
    return LinkArrays(
        ids=rows.ids,
        row=RowIndex(rows.ids),
        a=a,
        b=b,
        a_group=a_group,
        b_group=b_group,
        speed_gbps=speed,
        multiplicity=mult,
        capacity_gbps=speed * mult,
        length_m=length,
        length_given=given,
        medium=rows.medium,
        cable_ids=rows.cable_ids,
        a_port_key=a_pgi,
        b_port_key=b_pgi,
        port_keys=list(keys),
        port_key_speed_gbps=pg_speed[: len(keys)],
        port_key_count=np.array([pg.count if pg else 0 for pg in groups], dtype=np.int32),
        port_key_role=pg_role[: len(keys)].tolist(),
        infiniband=ib,
        connector_code=conn.astype(np.int8),
    )


U_HEIGHT_M = 0.04445
RACK_TOP_M = 2.0  # a 42U rack is about 2 m tall; the tray runs above it


def cable_lengths_m(
    a: npt.NDArray[np.integer[Any]],
    b: npt.NDArray[np.integer[Any]],
    devs: DeviceArrays,
    racks: RackArrays,
    site: Site,
) -> FloatArray:
    """Route length between the two ends: within a rack along the U slots; between racks up into the tray,
    along rows (Manhattan), down again; plus slack. Unplaced devices get a nominal 5 m run (flagged)."""
    ra, rb = devs.rack[a], devs.rack[b]
    placed = (ra >= 0) & (rb >= 0)
    same = placed & (ra == rb)
    ua = devs.u_position[a].astype(np.float64) * U_HEIGHT_M
    ub = devs.u_position[b].astype(np.float64) * U_HEIGHT_M
    slack = site.cable_slack_m
    # each case over every link, then picked per link (no masked gathers); the same formula per element
    out: FloatArray = np.where(same, np.abs(ua - ub) + 0.5 + slack * 0.5, 5.0 + slack)
    diff = placed & ~same
    if len(racks.floor_x_m) and diff.any():
        ia, ib = np.maximum(ra, 0), np.maximum(rb, 0)
        fx, fy = racks.floor_x_m, racks.floor_y_m
        top = RACK_TOP_M + site.tray_height_m
        vertical = (top - ua) + (top - ub)
        out = np.where(
            diff, np.abs(fx[ia] - fx[ib]) + np.abs(fy[ia] - fy[ib]) + np.maximum(vertical, 0) + slack, out
        )
    rounded: FloatArray = np.round(out, 1)
    return rounded


# LinkRowCache and RowIndex live in engine/link_rows.py, codes_of and the code tables in engine/codes.py;
# callers import them from here too
__all__ = [
    "CONNECTORS",
    "KIND_CODES",
    "ROLE_CODES",
    "TECHNOLOGIES",
    "Compiled",
    "DeviceArrays",
    "LinkArrays",
    "LinkRowCache",
    "RackArrays",
    "RowIndex",
    "cable_lengths_m",
    "codes_of",
    "compile_project",
    "connector_of",
    "rack_floor_positions",
]
