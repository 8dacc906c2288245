"""A Plan collects the rows a generator creates, tracks port use, and becomes one undoable command."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypeVar

from gpuplanner.catalog import Catalog, CatalogEntry, PortGroup
from gpuplanner.catalog.names import named_with_id
from gpuplanner.catalog.types import ServerType, StorageType, SwitchType
from gpuplanner.commands import AddRows, Compound
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Device, Fabric, Link, Project, Rack
from gpuplanner.text import Msg

E = TypeVar("E", bound=CatalogEntry)


def max_breakout(pg: PortGroup) -> int:
    """Links one switch cage can be split into: 8 electrical lanes in an OSFP/QSFP-DD cage (≥ 400G), 4 in
    a QSFP (40-200G), none below (SFP, RJ45)."""
    return 8 if pg.speed_gbps >= 400 else 4 if pg.speed_gbps >= 40 else 1


def links_per_port(pg: PortGroup, speed_gbps: float) -> int:
    """Links of ``speed_gbps`` one port of the group takes (an 800G port: 2 × 400G, 8 × 100G, not 32 × 25G)."""
    return max(1, min(int(pg.speed_gbps // speed_gbps), max_breakout(pg)))


def ports_at(switch: SwitchType, speed_gbps: float, roles: tuple[str, ...] = ("fabric", "downlink")) -> int:
    """Logical ports of ``speed_gbps`` a switch offers (an 800G port splits into 2 × 400G)."""
    total = 0
    for pg in switch.port_groups:
        if pg.role in roles and pg.speed_gbps >= speed_gbps:
            total += pg.count * links_per_port(pg, speed_gbps)
    return total


def fabric_group(switch: SwitchType, speed_gbps: float, prefer: str = "fabric") -> PortGroup:
    """The port group to use on a switch for links of ``speed_gbps`` (preferring the given role)."""
    cands = [pg for pg in switch.port_groups if pg.role != "management" and pg.speed_gbps >= speed_gbps]
    if not cands:
        raise GenerationError(
            Msg(
                "error.gen.switch_too_slow",
                {"switch": named_with_id(switch, None, with_figures=False), "speed": speed_gbps},
            ),
            entry=switch.id,
            hint=Msg("error.gen.switch_too_slow.hint"),
        )
    cands.sort(key=lambda pg: (pg.role != prefer, pg.speed_gbps, -pg.count))
    return cands[0]


@dataclass
class Plan:
    project: Project
    racks: list[Rack] = field(default_factory=list)
    devices: list[Device] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    fabrics: list[Fabric] = field(default_factory=list)
    port_use: dict[tuple[str, str], float] = field(default_factory=dict)
    prefix: str = ""
    phase_id: str = ""
    _entry_of: dict[str, CatalogEntry] = field(default_factory=dict)

    @property
    def catalog(self) -> Catalog:
        return self.project.catalog

    def new_id(self, table: str) -> str:
        return self.project.new_id(table)

    def add_fabric(
        self, name: str, kind: str, technology: str, topology: str, params_json: str = "{}"
    ) -> Fabric:
        f = Fabric(
            id=self.new_id("fabrics"),
            name=f"{self.prefix} {name}".strip(),
            kind=kind,
            technology=technology,
            topology=topology,
            params_json=params_json,
        )
        self.fabrics.append(f)
        return f

    def add_device(
        self,
        type_id: str,
        name: str,
        role: str,
        *,
        fabric_id: str | None = None,
        group: str = "",
        x: float = 0.0,
        y: float = 0.0,
    ) -> Device:
        d = Device(
            id=self.new_id("devices"),
            name=f"{self.prefix}-{name}" if self.prefix else name,
            phase_id=self.phase_id,
            type_id=type_id,
            role=role,
            fabric_id=fabric_id,
            group=group,
            x=x,
            y=y,
        )
        self.devices.append(d)
        self._entry_of[d.id] = self.catalog.get(type_id)
        return d

    def entry(self, device_id: str) -> CatalogEntry:
        e = self._entry_of.get(device_id)
        if e is None:
            e = self.catalog.get(self.project.devices[device_id].type_id)
        return e

    def link(
        self,
        a: Device,
        a_group: PortGroup,
        b: Device,
        b_group: PortGroup,
        *,
        multiplicity: int = 1,
        speed_gbps: float | None = None,
        fabric_id: str | None = None,
    ) -> Link:
        speed = speed_gbps or min(a_group.speed_gbps, b_group.speed_gbps)
        for dev, pg in ((a, a_group), (b, b_group)):
            key = (dev.id, pg.name)
            # A switch port faster than the link is split (an 800G cage takes 2 × 400G); a NIC port running
            # slower than its speed is still one port.
            per_link = 1.0 / links_per_port(pg, speed) if isinstance(self.entry(dev.id), SwitchType) else 1.0
            used = self.port_use.get(key, 0.0) + multiplicity * per_link
            if used > pg.count + 1e-9:
                raise GenerationError(
                    Msg(
                        "error.gen.port_group_full",
                        {"dev": dev.name, "group": pg.name, "need": math.ceil(used), "have": pg.count},
                    ),
                    entry=dev.type_id,
                    hint=Msg("error.gen.port_group_full.hint"),
                )
            self.port_use[key] = used
        lk = Link(
            id=self.new_id("links"),
            a_device=a.id,
            a_group=a_group.name,
            b_device=b.id,
            b_group=b_group.name,
            multiplicity=multiplicity,
            speed_gbps=float(speed),
            fabric_id=fabric_id,
            phase_id=self.phase_id,
        )
        self.links.append(lk)
        return lk

    def ports_free(self, dev: Device, pg: PortGroup) -> float:
        return pg.count - self.port_use.get((dev.id, pg.name), 0.0)

    def to_command(self, text: str) -> Compound:
        children = []
        if self.fabrics:
            children.append(AddRows("fabrics", self.fabrics))
        if self.racks:
            children.append(AddRows("racks", self.racks))
        if self.devices:
            children.append(AddRows("devices", self.devices))
        if self.links:
            children.append(AddRows("links", self.links))
        return Compound(text, children)


def require(catalog: Catalog, type_id: str, cls: type[E], what: str) -> E:
    e = catalog.get(type_id)
    if not isinstance(e, cls):
        raise GenerationError(
            Msg("error.gen.wrong_kind", {"name": type_id, "kind": e.kind, "what": what}), entry=type_id
        )
    return e


def server_entry(catalog: Catalog, type_id: str) -> ServerType:
    return require(catalog, type_id, ServerType, "server")


def switch_entry(catalog: Catalog, type_id: str) -> SwitchType:
    return require(catalog, type_id, SwitchType, "switch")


def storage_entry(catalog: Catalog, type_id: str) -> StorageType:
    return require(catalog, type_id, StorageType, "storage")
