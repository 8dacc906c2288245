"""Generator inputs and the list of templates."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

TEMPLATES = {
    "single-switch": "one switch for a pilot of a few servers (25/100 GbE or one IB switch)",
    "rail-leaf-spine": "rail-optimised 2-tier leaf-spine in scalable units: one leaf per rail per SU",
    "leaf-spine": "non-rail 2-tier leaf-spine: all NICs of a server to one top-of-rack leaf",
    "fat-tree-3tier": "3-tier leaf/spine/core Clos (fat tree) in pods, rail-optimised when rails=yes",
    "dragonfly": "dragonfly: groups of all-to-all connected switches joined by global links",
}


@dataclass(frozen=True)
class GenerateOptions:
    template: str = "rail-leaf-spine"
    server: str = "nvidia-dgx-h100"
    servers: int = 32
    leaf_switch: str = "nvidia-quantum-2-qm9700"
    spine_switch: str = ""  # "" = same as leaf
    core_switch: str = ""  # "" = same as spine
    oversub: float = 1.0
    su_size: int = 32
    rails: bool = True
    planes: int = 1
    rack: str = "generic-48u-600x1200-hd"
    rack_budget_kw: float | None = None  # None = the rack type's budget
    # switches and storage go to network racks of their own type and budget (NVIDIA SuperPOD RAs put the
    # fabric in separate network racks); "" or a type missing from the catalog = the compute rack type
    network_rack: str = "generic-48u-800x1200-network"
    racks_per_row: int = 10
    storage_fabric: bool = False
    storage_switch: str = "nvidia-spectrum-4-sn5600"
    storage_system: str = ""
    storage_units: int = 0
    management_fabric: bool = False
    mgmt_switch: str = "nvidia-spectrum-sn2201"
    mgmt_spine_switch: str = "nvidia-spectrum-3-sn4600c"
    name: str = ""
    prefix: str = ""  # prefix of every device name (e.g. "pilot" → pilot-node-0001), for phases side by side
    phase_id: str = ""  # the phase the generated rows belong to
    first_row: int = 0  # rack rows are numbered from R{first_row + 1}
    server_ports: str = ""  # server port group to connect ("" = its compute ports)
    nic_ports: int = 0  # ports of that group to connect per server (0 = all)
    # kW of the successive server racks (the site's free floor positions, most capable first); racks past
    # the list use rack_budget_kw / the rack type's budget. () = every rack alike.
    rack_budgets_kw: tuple[float, ...] = ()

    def with_(self, **kw: Any) -> GenerateOptions:
        return dataclasses.replace(self, **kw)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), sort_keys=True)
