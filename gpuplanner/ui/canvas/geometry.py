"""Canvas geometry: device and rack rectangles, U slots and port-group pads, as plain numbers.

Model coordinates are scene coordinates: a device's (x, y) is its top-left corner; a rack's (x, y) is the
top-left corner of its frame (U1 at the bottom, ``U_PX`` pixels per U, as the topology placement lays
servers out). A device whose centre lies in its rack's frame is drawn "framed" at its U slots' size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter

import numpy as np

from gpuplanner.catalog.types import RackType, ServerType, StorageType, SwitchType
from gpuplanner.model import Device, Project, Rack
from gpuplanner.topology.placement import U_PX

RACK_W = 130.0
RACK_HEADER_H = 40.0  # name, kW line and cooling badge above the frame
FRAME_INSET = 8.0
FRAMED_W = RACK_W - 2 * FRAME_INSET
FREE_SWITCH_W, FREE_SWITCH_H = 100.0, 28.0
FREE_SERVER_MIN_H = 30.0


def rack_ru(project: Project, rack: Rack) -> int:
    t = project.catalog.entries.get(rack.type_id)
    return int(t.ru) if isinstance(t, RackType) else 42


def rack_frame(project: Project, rack: Rack) -> tuple[float, float, float, float]:
    return (rack.x, rack.y, RACK_W, rack_ru(project, rack) * U_PX)


def rack_frames(project: Project, racks: Iterable[Rack]) -> np.ndarray:
    """``rack_frame`` of each rack as an (n, 4) array, the height looked up once per rack type (5,167 racks of
    one or two types at 131k GPUs)."""
    rs = list(racks)
    ru_of: dict[str, float] = {}
    for t in set(map(attrgetter("type_id"), rs)):
        entry = project.catalog.entries.get(t)
        ru_of[t] = float(entry.ru) if isinstance(entry, RackType) else 42.0
    out = np.empty((len(rs), 4))
    out[:, 0] = np.fromiter(map(attrgetter("x"), rs), float, len(rs))
    out[:, 1] = np.fromiter(map(attrgetter("y"), rs), float, len(rs))
    out[:, 2] = RACK_W
    out[:, 3] = np.fromiter((ru_of[t] for t in map(attrgetter("type_id"), rs)), float, len(rs)) * U_PX
    return out


def device_ru(project: Project, dev: Device) -> int:
    return int(getattr(project.catalog.entries.get(dev.type_id), "ru", 1) or 1)


def is_framed(project: Project, dev: Device) -> bool:
    """True when the device sits inside its rack's frame on the canvas (servers placed by the generator)."""
    rack = project.racks.get(dev.rack_id) if dev.rack_id else None
    if rack is None:
        return False
    x, y, w, h = rack_frame(project, rack)
    cx = dev.x + FRAMED_W / 2
    cy = dev.y + device_ru(project, dev) * U_PX / 2
    return x <= cx <= x + w and y <= cy <= y + h


def device_size(project: Project, dev: Device, framed: bool | None = None) -> tuple[float, float]:
    ru = device_ru(project, dev)
    if framed if framed is not None else is_framed(project, dev):
        return FRAMED_W, ru * U_PX
    entry = project.catalog.entries.get(dev.type_id)
    if isinstance(entry, ServerType):
        return FRAMED_W, max(ru * U_PX, FREE_SERVER_MIN_H)
    if isinstance(entry, SwitchType | StorageType):
        return FREE_SWITCH_W, FREE_SWITCH_H
    return FREE_SWITCH_W, FREE_SWITCH_H


def port_group_names(project: Project, type_id: str) -> tuple[str, ...]:
    entry = project.catalog.entries.get(type_id)
    return tuple(pg.name for pg in getattr(entry, "port_groups", ()) or ())


def slot_y(rack_y: float, rack_ru_: int, u: int, ru: int) -> float:
    """Scene y of the top of a device of ``ru`` units whose lowest unit is ``u`` (1-based)."""
    return rack_y + (rack_ru_ - (u + ru - 1)) * U_PX


def u_at(rack_y: float, rack_ru_: int, scene_y: float) -> int:
    """The U number under a scene y inside a rack frame (1 = bottom)."""
    return int(rack_ru_ - int((scene_y - rack_y) // U_PX))


def occupied_units(
    project: Project, rack_id: str, skip: set[str] | frozenset[str] = frozenset()
) -> np.ndarray:
    """Bool per U (index 0 = U1) of the rack: True where a device (other than ``skip``) sits."""
    ru = rack_ru(project, project.racks[rack_id])
    used = np.zeros(ru + 1, dtype=bool)
    for d in project.devices.values():
        if d.rack_id == rack_id and d.id not in skip and d.u_position:
            lo = max(1, d.u_position)
            used[lo : min(ru, lo + device_ru(project, d) - 1) + 1] = True
    return used[1:]


@dataclass
class DeviceGeometry:
    """Device rectangles as arrays (row order = ``ids``), for the link layer and the overview."""

    ids: list[str]
    index: dict[str, int]
    x: np.ndarray
    y: np.ndarray
    w: np.ndarray
    h: np.ndarray
    role: list[str]
    groups: list[tuple[str, ...]]
    version: int = 0  # bumped by ``update`` (the overview caches role codes per geometry and version)

    # per row: a code for the device model (rows of one model share it; ``model_groups[code]`` are its
    # port-group names) — the link layer looks pad positions up per (model, group), not per link
    model: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    model_groups: list[tuple[str, ...]] = field(default_factory=list)

    @classmethod
    def build(cls, project: Project) -> DeviceGeometry:
        """Per device, what ``device_size`` says, computed per model and with array masks (a 131k-GPU plan
        has 26,624 devices of a handful of models)."""
        devs = list(project.devices.values())
        n = len(devs)
        ids, xs, ys, types, rack_ids, roles = (
            list(map(attrgetter(f), devs)) for f in ("id", "x", "y", "type_id", "rack_id", "role")
        )
        x = np.array(xs, dtype=float).reshape(n)
        y = np.array(ys, dtype=float).reshape(n)
        type_code: dict[str, int] = {}
        model = np.fromiter((type_code.setdefault(t, len(type_code)) for t in types), np.int64, n)
        ru_of, free_w, free_h, names = [], [], [], []
        for t in type_code:  # insertion order = code order
            probe = Device(id="", name="", type_id=t)
            ru_of.append(device_ru(project, probe))
            fw, fh = device_size(project, probe, framed=False)
            free_w.append(fw)
            free_h.append(fh)
            names.append(port_group_names(project, t))
        ru = np.array(ru_of, dtype=float)[model] if n else np.zeros(0)
        # the rack frame of each device (NaN: not in a rack on the canvas)
        rack_ids_all = list(project.racks)
        rack_row = {r: k for k, r in enumerate(rack_ids_all)}
        frames = rack_frames(project, project.racks.values())
        frames = np.vstack([frames, np.full((1, 4), np.nan)])
        rk = np.fromiter((rack_row.get(r, -1) if r else -1 for r in rack_ids), np.int64, n)
        fx, fy, fw_, fh_ = frames[rk].T if n else (np.zeros(0),) * 4
        cx, cy = x + FRAMED_W / 2, y + ru * U_PX / 2
        with np.errstate(invalid="ignore"):
            framed = (fx <= cx) & (cx <= fx + fw_) & (fy <= cy) & (cy <= fy + fh_)
        w = np.where(framed, FRAMED_W, np.array(free_w, dtype=float)[model] if n else 0.0)
        h = np.where(framed, ru * U_PX, np.array(free_h, dtype=float)[model] if n else 0.0)
        return cls(
            ids=list(ids),
            index={d: i for i, d in enumerate(ids)},
            x=x,
            y=y,
            w=w.astype(float).reshape(n),
            h=h.astype(float).reshape(n),
            role=list(roles),
            groups=[names[k] for k in model.tolist()],
            model=model,
            model_groups=names,
        )

    def update(self, project: Project, ids: set[str]) -> None:
        for i in ids:
            row = self.index.get(i)
            d = project.devices.get(i)
            if row is None or d is None:
                continue
            self.x[row], self.y[row] = d.x, d.y
            self.w[row], self.h[row] = device_size(project, d)
            self.role[row] = d.role
        self.version += 1

    def pad_fraction(self, row: int, group: str) -> float:
        """Where along the device's width the port group's pad sits (0..1, its centre)."""
        names = self.groups[row]
        if group in names and names:
            return (names.index(group) + 0.5) / len(names)
        return 0.5
