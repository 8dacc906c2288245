"""Edits of devices that their links must follow: a new model for a server or switch.

A device's links name port groups of its model (``compute``, ``ndr``, …). When the model changes, each link
end moves to the new model's port group of the same kind (the group's role: compute, storage, fabric,
management …), preferring the same name, then the same interface type, then the nearest speed; the links and
the devices change in one undo step, and the command says which links moved and which groups now carry more
cables than they have ports. When no group of the new model can take a link (a storage link on a server
with no storage ports), the edit is refused with a message naming the links — as a professional tool would,
rather than leaving links to ports that do not exist (such a project would not reopen).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gpuplanner.catalog.names import named
from gpuplanner.catalog.types import PortGroup
from gpuplanner.commands.base import Command, ReplaceRows
from gpuplanner.core.errors import ValidationError
from gpuplanner.model import Device, Link, Project
from gpuplanner.model.validate import check_device_kind
from gpuplanner.text import Msg


@dataclass(frozen=True)
class Remap:
    link_id: str
    device: str  # the device's name
    old_group: str
    new_group: str


@dataclass(frozen=True)
class Overfull:
    device: str
    group: str
    cables: int
    ports: int


def pick_group(old: PortGroup | None, name: str, new_groups: Iterable[PortGroup]) -> PortGroup | None:
    """The new model's port group for a link end that used ``name`` (``old``, its group on the old model)."""
    groups = list(new_groups)
    if old is None:  # the old model did not know the group either: only the same name can do
        return next((g for g in groups if g.name == name), None)
    same_role = [g for g in groups if g.role == old.role]
    for g in same_role:
        if g.name == name:
            return g
    if same_role:
        return min(
            same_role,
            key=lambda g: (g.type != old.type, abs(g.speed_gbps - old.speed_gbps), -g.count, g.name),
        )
    same_type = [g for g in groups if g.type == old.type]
    return min(same_type, key=lambda g: (-g.count, g.name)) if same_type else None


class EditDevices(Command):
    """Replace device rows (same ids); links of a device whose model changes move to the new model's port
    groups in the same step. Raises ValidationError (nothing changed) when a link cannot move."""

    def __init__(self, project: Project, rows: Iterable[Device], text: str = "") -> None:
        self.new = list(rows)
        self.text = text or f"Edit {len(self.new)} devices"
        self.old = [project.row("devices", r.id) for r in self.new]
        self.old_links: list[Link] = []
        self.new_links: list[Link] = []
        self.remapped: list[Remap] = []
        self.overfull: list[Overfull] = []
        self._plan(project)

    def _plan(self, project: Project) -> None:
        changed = {r.id: r for r, o in zip(self.new, self.old, strict=True) if r.type_id != o.type_id}
        if not changed:
            return
        cat = project.catalog
        for dev in changed.values():
            entry = cat.entries.get(dev.type_id)
            if entry is None:
                raise ValidationError(
                    Msg("error.edit.unknown_type", {"name": dev.name}), field="type_id", value=dev.type_id
                )
            check_device_kind(dev, entry, cat)
        link_ids = sorted({lid for d in changed for lid in project.links_of(d)})
        unmapped: list[str] = []
        model: str | Msg = ""
        for lid in link_ids:
            lk = project.links[lid]
            fields: dict[str, Any] = {}
            for side in ("a", "b"):
                dev_id = getattr(lk, f"{side}_device")
                if dev_id not in changed:
                    continue
                name = getattr(lk, f"{side}_group")
                old_entry = cat.entries.get(project.devices[dev_id].type_id)
                new_entry = cat.entries.get(changed[dev_id].type_id)
                if new_entry is None:
                    continue  # the device check refuses an unknown model with its own message
                old_pg = (
                    old_entry.port_group(name)
                    if old_entry is not None and hasattr(old_entry, "port_group")
                    else None
                )
                pg = pick_group(old_pg, name, getattr(new_entry, "port_groups", ()))
                if pg is None:
                    model = named(new_entry, cat)  # in the message's language
                    unmapped.append(f"'{lid}' ({changed[dev_id].name}: {name})")
                    continue
                if pg.name != name:
                    fields[f"{side}_group"] = pg.name
                    self.remapped.append(Remap(lid, changed[dev_id].name, name, pg.name))
            if fields:
                self.old_links.append(lk)
                self.new_links.append(dataclasses.replace(lk, **fields))
        if unmapped:
            more = Msg("error.edit.and_more", {"n": len(unmapped) - 5}) if len(unmapped) > 5 else ""
            raise ValidationError(
                Msg(
                    "error.edit.no_group_for_links",
                    {"model": model, "links": ", ".join(unmapped[:5]), "more": more},
                ),
                field="type_id",
            )
        self._count_ports(project, changed)

    def _count_ports(self, project: Project, changed: dict[str, Device]) -> None:
        moved = {lk.id: lk for lk in self.new_links}
        for dev_id, dev in changed.items():
            entry = project.catalog.entries.get(dev.type_id)
            cables: dict[str, int] = {}
            for lid in project.links_of(dev_id):
                lk = moved.get(lid, project.links[lid])
                for side in ("a", "b"):
                    if getattr(lk, f"{side}_device") == dev_id:
                        g = getattr(lk, f"{side}_group")
                        cables[g] = cables.get(g, 0) + lk.multiplicity
            for g, n in sorted(cables.items()):
                pg = entry.port_group(g) if entry is not None and hasattr(entry, "port_group") else None
                if pg is not None and n > pg.count:
                    self.overfull.append(Overfull(dev.name, g, n, pg.count))

    def apply(self, project: Project) -> None:
        with project.batch():
            for lk in self.old_links:
                project.delete("links", lk.id)
            for r in self.new:
                project.replace("devices", r)
            for lk in self.new_links:
                project.insert("links", lk)

    def revert(self, project: Project) -> None:
        with project.batch():
            for lk in self.new_links:
                project.delete("links", lk.id)
            for r in self.old:
                project.replace("devices", r)
            for lk in self.old_links:
                project.insert("links", lk)


def edit_rows(project: Project, table: str, rows: Iterable[Any], text: str = "") -> Command:
    """The command that replaces ``rows`` of ``table``: an EditDevices when a device's model changes (its
    links follow), else a plain ReplaceRows."""
    rows = list(rows)
    if table == "devices" and any(r.type_id != project.row("devices", r.id).type_id for r in rows):
        return EditDevices(project, rows, text=text)
    return ReplaceRows(table, rows, text=text)
