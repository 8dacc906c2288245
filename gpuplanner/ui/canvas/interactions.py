"""Gestures → commands: palette drop, link drawing, move (with rack placement), delete, copy and paste.

Each function looks at the project, decides, and returns one undoable command (or None with the reason in
one sentence for the status bar). The view pushes the command through ``Document.push``; nothing here
mutates the model.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable

import numpy as np

from gpuplanner.catalog.types import RackType, ServerType, StorageType, SwitchType
from gpuplanner.commands import AddRows, Command, Compound, MoveDevices, RemoveRows, ReplaceRows
from gpuplanner.model import Device, Link, Project, Rack
from gpuplanner.model.rows import row_to_dict
from gpuplanner.topology.placement import U_PX
from gpuplanner.ui.canvas import ports
from gpuplanner.ui.canvas.geometry import (
    FRAME_INSET,
    RACK_W,
    device_ru,
    device_size,
    is_framed,
    occupied_units,
    rack_ru,
    slot_y,
    u_at,
)
from gpuplanner.ui.entry_names import entry_name
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.plurals import counts

CLIPBOARD_MIME = "application/x-gpuplanner-rows"
CATALOG_MIME = "application/x-gpuplanner-catalog-id"
PASTE_OFFSET = 40.0


def unique_name(project: Project, prefix: str, table: str = "devices") -> str:
    """``prefix-NN`` with the next free number among the table's names."""
    pat = re.compile(rf"^{re.escape(prefix)}-(\d+)$")
    nums = [int(m.group(1)) for r in project.tables[table].values() if (m := pat.match(r.name))]
    return f"{prefix}-{(max(nums) + 1) if nums else 1:02d}"


def role_for(entry: object) -> str:
    if isinstance(entry, ServerType):
        return "compute"
    if isinstance(entry, SwitchType):
        return "leaf"
    if isinstance(entry, StorageType):
        return "storage"
    return "other"


class Occupancy:
    """Free U per rack during one gesture (so that several devices placed at once do not collide)."""

    def __init__(self, project: Project, skip: frozenset[str] = frozenset()) -> None:
        self.project, self.skip = project, skip
        self._used: dict[str, np.ndarray] = {}

    def used(self, rack_id: str) -> np.ndarray:
        if rack_id not in self._used:
            self._used[rack_id] = occupied_units(self.project, rack_id, self.skip)
        return self._used[rack_id]

    def fits(self, rack_id: str, u: int, ru: int) -> bool:
        used = self.used(rack_id)
        return u >= 1 and u + ru - 1 <= len(used) and not used[u - 1 : u - 1 + ru].any()

    def first_free(self, rack_id: str, ru: int) -> int | None:
        used = self.used(rack_id)
        for u in range(1, len(used) - ru + 2):
            if not used[u - 1 : u - 1 + ru].any():
                return u
        return None

    def take(self, rack_id: str, u: int, ru: int) -> None:
        self.used(rack_id)[u - 1 : u - 1 + ru] = True

    def free_count(self, rack_id: str) -> int:
        return int((~self.used(rack_id)).sum())


def no_room(project: Project, rack: Rack, what: str, ru: int, free: int) -> str:
    return translate(
        "interactions", "{rack} has no {ru} free consecutive U for {what} ({free} U free of {total})"
    ).format(rack=rack.name, ru=ru, what=what, free=free, total=rack_ru(project, rack))


def placed(project: Project, dev: Device, rack: Rack, u: int) -> Device:
    y = slot_y(rack.y, rack_ru(project, rack), u, device_ru(project, dev))
    return dataclasses.replace(dev, rack_id=rack.id, u_position=u, x=rack.x + FRAME_INSET, y=y)


# -- palette drop ---------------------------------------------------------------------------------------
def drop_command(
    project: Project, type_id: str, x: float, y: float, rack_id: str | None
) -> tuple[Command | None, str]:
    """A catalog entry dropped at scene (x, y), over ``rack_id`` (or None)."""
    entry = project.catalog.entries.get(type_id)
    if entry is None:
        return None, translate("interactions", "'{id}' is not in the catalog").format(id=type_id)
    note = ""
    if entry.kind == "gpu":
        servers = [e for e in project.catalog.of_kind("server") if getattr(e, "gpu", None) == type_id]
        if not servers:
            return None, translate(
                "interactions", "no server in the catalog carries the {gpu}: drop a server instead"
            ).format(gpu=entry_name(project.catalog, entry))
        entry = servers[0]
        note = translate("interactions", "added a {server} (a server with this GPU)").format(
            server=entry_name(project.catalog, entry)
        )
    if isinstance(entry, RackType):
        return _new_rack(project, entry, x, y), ""
    if not isinstance(entry, ServerType | SwitchType | StorageType):
        return None, translate("interactions", "a {kind} cannot be placed on the canvas").format(
            kind=entry.kind
        )
    role = role_for(entry)
    prefix = {"compute": "node", "leaf": "switch", "storage": "storage"}.get(role, "device")
    dev = Device(id=project.new_id("devices"), name=unique_name(project, prefix), type_id=entry.id, role=role)
    if rack_id is not None:
        rack = project.racks[rack_id]
        occ = Occupancy(project)
        u = occ.first_free(rack_id, entry.ru)
        if u is None:
            name = entry_name(project.catalog, entry)
            return None, no_room(project, rack, name, entry.ru, occ.free_count(rack_id))
        dev = placed(project, dev, rack, u)
        text = translate("interactions", "Add {name} to {rack} at U{u}").format(
            name=dev.name, rack=rack.name, u=u
        )
    else:
        w, h = device_size(project, dev, framed=False)
        dev = dataclasses.replace(dev, x=round(x - w / 2), y=round(y - h / 2))
        text = translate("interactions", "Add {name}").format(name=dev.name)
    return AddRows("devices", [dev], text=text), note


def _new_rack(project: Project, entry: RackType, x: float, y: float) -> Command:
    racks = list(project.racks.values())
    if racks:
        near = min(racks, key=lambda r: (r.x - x) ** 2 + (r.y - y) ** 2)
        row = near.row
    else:
        row = "R01"
    position = 1 + max((r.position for r in racks if r.row == row), default=0)
    name = f"{row}-{position:02d}"
    if any(r.name == name for r in racks):
        name = unique_name(project, row, "racks")
    rack = Rack(
        id=project.new_id("racks"),
        name=name,
        type_id=entry.id,
        row=row,
        position=position,
        x=round(x - RACK_W / 2),
        y=round(y - entry.ru * U_PX / 2),
    )
    return AddRows("racks", [rack], text=translate("interactions", "Add rack {name}").format(name=name))


# -- links ----------------------------------------------------------------------------------------------
def link_command(
    project: Project, a_dev: str, a_group: str | None, b_dev: str, b_group: str | None
) -> tuple[Command | None, str]:
    """A link from a port group of one device to a port group of another (None: pick a compatible one)."""
    if a_dev == b_dev:
        return None, translate("interactions", "a link needs two different devices")
    a, b = project.devices[a_dev], project.devices[b_dev]
    pa = ports.group_of(project, a_dev, a_group) if a_group else None
    pb = ports.group_of(project, b_dev, b_group) if b_group else None
    if pa is None and pb is None:
        groups = ports.port_groups(project, a.type_id)
        if not groups:
            return None, translate("interactions", "{name} has no ports").format(name=a.name)
        pa = groups[0]
    if pb is None:
        pb, why = ports.pick_group(project, b_dev, pa)  # type: ignore[arg-type]
        if pb is None:
            return None, translate("interactions", "cannot link {a} to {b}: {why}").format(
                a=a.name, b=b.name, why=why
            )
    if pa is None:
        pa, why = ports.pick_group(project, a_dev, pb)
        if pa is None:
            return None, translate("interactions", "cannot link {a} to {b}: {why}").format(
                a=a.name, b=b.name, why=why
            )
    why = ports.incompatibility(pa, pb)
    if why:
        return None, translate("interactions", "cannot link {a} to {b}: {why}").format(
            a=a.name, b=b.name, why=why
        )
    for dev, pg in ((a, pa), (b, pb)):
        if ports.free_ports(project, dev.id, pg) < 1 - 1e-9:
            return None, translate(
                "interactions", "cannot link: {dev} port group '{g}' has all {n} ports in use"
            ).format(dev=dev.name, g=pg.name, n=pg.count)
    speed = float(min(pa.speed_gbps, pb.speed_gbps))
    link = Link(
        id=project.new_id("links"),
        a_device=a.id,
        a_group=pa.name,
        b_device=b.id,
        b_group=pb.name,
        speed_gbps=speed,
        multiplicity=_multiplicity(project, a.id, pa, b.id, pb, speed),
        fabric_id=a.fabric_id or b.fabric_id,
    )
    text = translate("interactions", "Link {a}:{ga} – {b}:{gb} ({n} × {speed})").format(
        a=a.name, ga=pa.name, b=b.name, gb=pb.name, n=link.multiplicity, speed=ports.speed_label(speed)
    )
    return AddRows("links", [link], text=text), ""


def _multiplicity(project: Project, a: str, pa, b: str, pb, speed: float) -> int:
    """A server, storage or other endpoint is linked with every free port of its group (a DGX H100's eight
    400G compute ports to a leaf), as far as the other end has room; switch to switch starts with one link
    that the inspector widens."""
    if ports.is_switch(project, a) and ports.is_switch(project, b):
        return 1
    return max(1, min(ports.links_fit(project, a, pa, speed), ports.links_fit(project, b, pb, speed)))


# -- moves ----------------------------------------------------------------------------------------------
RackAt = Callable[[float, float], str | None]


def move_command(
    project: Project,
    dev_pos: dict[str, tuple[float, float]],
    rack_pos: dict[str, tuple[float, float]],
    rack_at: RackAt,
) -> tuple[Command | None, list[str]]:
    """The command for a finished drag, and the refusals (devices that go back where they were)."""
    occ = Occupancy(project, frozenset(dev_pos))
    messages: list[str] = []
    dev_rows: list[Device] = []
    plain = not rack_pos
    for did, (x, y) in dev_pos.items():
        d = project.devices[did]
        row, msg = _moved_device(project, d, x, y, rack_pos, rack_at, occ)
        if msg:
            messages.append(msg)
        if row is not None:
            dev_rows.append(row)
            plain &= row.rack_id == d.rack_id and row.u_position == d.u_position
    rack_rows = [dataclasses.replace(project.racks[r], x=x, y=y) for r, (x, y) in rack_pos.items()]
    if plain and dev_rows:
        return MoveDevices(
            project, {d.id: (d.x, d.y) for d in dev_rows}, text=translate("interactions", "Move")
        ), messages
    children: list[Command] = []
    if rack_rows:
        children.append(ReplaceRows("racks", rack_rows))
    if dev_rows:
        children.append(ReplaceRows("devices", dev_rows))
    return (Compound(translate("interactions", "Move"), children) if children else None), messages


def _moved_device(
    project: Project, d: Device, x: float, y: float, rack_pos: dict, rack_at: RackAt, occ: Occupancy
) -> tuple[Device | None, str]:
    framed = is_framed(project, d)
    if framed and d.rack_id in rack_pos:  # moved along with its rack
        return dataclasses.replace(d, x=x, y=y), ""
    ru = device_ru(project, d)
    w, h = device_size(project, d)
    target = rack_at(x + w / 2, y + h / 2)
    if target is not None and (target != d.rack_id or framed):
        rack = project.racks[target]
        rru = rack_ru(project, rack)
        if target == d.rack_id:
            u = min(max(1, u_at(rack.y, rru, y + ru * U_PX - U_PX / 2)), max(1, rru - ru + 1))
            if not occ.fits(target, u, ru):
                return None, translate("interactions", "{dev}: U{u} of {rack} is taken").format(
                    dev=d.name, u=u, rack=rack.name
                )
        else:
            u = occ.first_free(target, ru)
            if u is None:
                return None, no_room(project, rack, d.name, ru, occ.free_count(target))
        occ.take(target, u, ru)
        return placed(project, d, rack, u), ""
    if target is None and framed:
        return dataclasses.replace(d, rack_id=None, u_position=None, x=x, y=y), ""
    return dataclasses.replace(d, x=x, y=y), ""


# -- delete, copy, paste --------------------------------------------------------------------------------
def delete_command(project: Project, ids: list[str]) -> Command | None:
    links = [i for i in ids if i in project.links]
    devices = [i for i in ids if i in project.devices]
    racks = [i for i in ids if i in project.racks]
    children: list[Command] = []
    if links:
        children.append(RemoveRows("links", links))
    if devices:
        children.append(RemoveRows("devices", devices))
    if racks:
        children.append(RemoveRows("racks", racks))
    if not children:
        return None
    n = len(links) + len(devices) + len(racks)
    return Compound(counts().delete_items(n), children)


def copy_text(project: Project, ids: list[str]) -> str:
    racks = [row_to_dict(project.racks[i]) for i in ids if i in project.racks]
    rack_ids = {r["id"] for r in racks}
    devices = [
        row_to_dict(d)
        for d in project.devices.values()
        if d.id in ids or d.rack_id in rack_ids and is_framed(project, d)
    ]
    dev_ids = {d["id"] for d in devices}
    links = [
        row_to_dict(lk) for lk in project.links.values() if lk.a_device in dev_ids and lk.b_device in dev_ids
    ]
    return json.dumps({"gpuplanner": 1, "racks": racks, "devices": devices, "links": links})


def paste_command(
    project: Project, text: str, dx: float = PASTE_OFFSET, dy: float = PASTE_OFFSET
) -> tuple[Command | None, list[str]]:
    """Rows from ``copy_text`` with new ids and names, shifted by (dx, dy); returns the new ids too."""
    try:
        data = json.loads(text)
        racks_in, devs_in, links_in = data["racks"], data["devices"], data["links"]
    except (ValueError, KeyError, TypeError):
        return None, []
    rack_map: dict[str, str] = {}
    dev_map: dict[str, str] = {}
    try:
        racks = [_copy_rack(project, r, rack_map, dx, dy) for r in racks_in]
        devs = [_copy_device(project, d, rack_map, dev_map, dx, dy) for d in devs_in]
        links = [
            Link(
                **{
                    **lk,
                    "id": project.new_id("links"),
                    "a_device": dev_map[lk["a_device"]],
                    "b_device": dev_map[lk["b_device"]],
                }
            )
            for lk in links_in
        ]
    except (TypeError, KeyError):
        return None, []
    children: list[Command] = []
    for table, rows in (("racks", racks), ("devices", devs), ("links", links)):
        if rows:
            children.append(AddRows(table, rows))
    if not children:
        return None, []
    new_ids = [r.id for r in racks] + [d.id for d in devs] + [lk.id for lk in links]
    return Compound(counts().paste_items(len(new_ids)), children), new_ids


def _copy_rack(project: Project, r: dict, rack_map: dict[str, str], dx: float, dy: float) -> Rack:
    new_id = project.new_id("racks")
    project_names = {x.name for x in project.racks.values()}
    name = r["name"] + "-copy"
    k = 2
    while name in project_names:
        name, k = f"{r['name']}-copy{k}", k + 1
    rack_map[r["id"]] = new_id
    return Rack(**{**r, "id": new_id, "name": name, "x": r["x"] + dx, "y": r["y"] + dy})


def _copy_device(project: Project, d: dict, rack_map: dict, dev_map: dict, dx: float, dy: float) -> Device:
    new_id = project.new_id("devices")
    dev_map[d["id"]] = new_id
    rack_id = rack_map.get(d["rack_id"]) if d.get("rack_id") else None
    u = d["u_position"] if rack_id else None
    return Device(
        **{
            **d,
            "id": new_id,
            "name": d["name"] + "-copy",
            "rack_id": rack_id,
            "u_position": u,
            "x": d["x"] + dx,
            "y": d["y"] + dy,
        }
    )
