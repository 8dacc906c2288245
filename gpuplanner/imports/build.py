"""Collects what an importer reads (devices with a model hint, racks, connections) and turns it into rows:
catalog matching, port groups per connection, a simple canvas layout, one ``Plan`` → one undoable command."""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict

from gpuplanner.catalog.types import ServerType, StorageType, SwitchType
from gpuplanner.core.errors import ValidationError
from gpuplanner.model import Project, Rack
from gpuplanner.text import Msg
from gpuplanner.topology.generators import apply_plan
from gpuplanner.topology.placement import U_PX
from gpuplanner.topology.plan import Plan, fabric_group

RACK_TYPE = "generic-48u-600x1200-hd"
ROLE_Y = {"core": 0.0, "spine": 150.0, "leaf": 300.0, "storage-switch": 300.0, "management": 300.0}


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(s).lower())


class Builder:
    def __init__(self, project: Project, *, server: str, switch: str) -> None:
        self.project = project
        cat = project.catalog
        for tid, cls, what in ((server, ServerType, "server"), (switch, SwitchType, "switch")):
            if not isinstance(cat.entries.get(tid), cls):
                raise ValidationError(
                    Msg("error.import.not_in_catalog", {"id": tid, "what": what}), field=what, value=tid
                )
        self.defaults = {"server": server, "switch": switch}
        self.devices: dict[str, dict] = {}  # name → {kind, role, type_id, rack, u}
        self.racks: dict[str, str] = {}  # name → row label
        self.connections: dict[tuple[str, str], list[tuple[str, str, float]]] = defaultdict(list)
        self.unmatched: list[str] = []
        self.assumed: list[str] = []

    # -- matching -------------------------------------------------------------------------------------
    def match(self, hint: str, kind: str) -> str | None:
        """Catalog id of ``kind`` whose id, model, name or a part number in its model equals ``hint``."""
        want = _norm(hint)
        if not want:
            return None
        classes = {"server": ServerType, "switch": SwitchType, "storage": StorageType}
        cls = classes.get(kind, (ServerType, SwitchType, StorageType))
        best = None
        for e in self.project.catalog.entries.values():
            if not isinstance(e, cls):
                continue
            if want in (_norm(e.id), _norm(e.model), _norm(e.name)):
                return e.id
            tokens = [_norm(t) for t in re.split(r"[\s()/,]+", f"{e.model} {e.name}") if t]
            if want in tokens or any(t.startswith(want) and len(want) >= 5 for t in tokens):
                best = best or e.id
        return best

    def add_device(
        self, name: str, kind: str, role: str, hint: str = "", *, rack: str = "", u: int = 0
    ) -> None:
        if name in self.devices:
            return
        tid = self.match(hint, kind) if hint else None
        if tid is None:
            tid = self.defaults["switch" if kind == "switch" else "server"]
            (self.unmatched if hint else self.assumed).append(f"{name} ({hint})" if hint else name)
        e = self.project.catalog.entries[tid]
        kind = "switch" if isinstance(e, SwitchType) else kind
        self.devices[name] = {"kind": kind, "role": role, "type_id": tid, "rack": rack, "u": u}

    def connect(self, a: str, b: str, a_port: str = "", b_port: str = "", speed_gbps: float = 0.0) -> None:
        key = (a, b) if a <= b else (b, a)
        ports = (a_port, b_port) if a <= b else (b_port, a_port)
        self.connections[key].append((*ports, speed_gbps))

    # -- rows -----------------------------------------------------------------------------------------
    def _group(self, type_id: str, port: str, speed: float, is_switch: bool):
        e = self.project.catalog.entries[type_id]
        groups = [pg for pg in e.port_groups if pg.role != "management"] or list(e.port_groups)
        base = re.sub(r"s\d+$", "", port)
        for pg in e.port_groups:  # the group whose port names include this one (management too)
            if port and any(pg.port_name(i) in (port, base) for i in range(1, pg.count + 1)):
                return pg
        if is_switch:
            return fabric_group(e, speed or min(pg.speed_gbps for pg in groups))
        order = {"compute": 0, "frontend": 1, "storage": 2}
        return sorted(groups, key=lambda pg: (order.get(pg.role, 3), -pg.speed_gbps))[0]

    def apply(self, text: str) -> None:
        if not self.devices:
            raise ValidationError(Msg("error.import.no_devices"), field="file")
        plan = Plan(self.project)
        rack_rows = {}
        for k, (rname, row) in enumerate(sorted(self.racks.items())):
            rack_rows[rname] = Rack(id=plan.new_id("racks"), name=rname, type_id=RACK_TYPE, row=row or "A",
                                    position=k + 1, x=k * 150.0, y=500.0)  # fmt: skip
        plan.racks = list(rack_rows.values())
        made = {}
        per_role: dict[str, int] = defaultdict(int)
        for name, d in self.devices.items():
            k = per_role[d["role"]]
            per_role[d["role"]] += 1
            y = ROLE_Y.get(d["role"], 700.0 + (k // 32) * 60.0)
            x = (k % 32 if d["role"] not in ROLE_Y else k) * 130.0
            dev = plan.add_device(d["type_id"], name, d["role"], x=x, y=y)
            if d["rack"] in rack_rows:
                r = rack_rows[d["rack"]]
                ru = int(getattr(self.project.catalog.entries[d["type_id"]], "ru", 1) or 1)
                dev = dataclasses.replace(
                    dev, rack_id=r.id, u_position=d["u"] or None,
                    x=r.x + 8.0, y=r.y + (48 - (d["u"] or 1) - ru + 1) * U_PX,
                )  # fmt: skip
                plan.devices[-1] = dev
                plan._entry_of[dev.id] = self.project.catalog.entries[d["type_id"]]
            made[name] = dev
        for (a, b), cables in self.connections.items():
            if a not in made or b not in made:
                continue
            da, db = self.devices[a], self.devices[b]
            speed = max(c[2] for c in cables)
            ga = self._group(da["type_id"], cables[0][0], speed, da["kind"] == "switch")
            gb = self._group(db["type_id"], cables[0][1], speed, db["kind"] == "switch")
            plan.link(made[a], ga, made[b], gb, multiplicity=len(cables), speed_gbps=speed or None)
        apply_plan(self.project, plan, text)
