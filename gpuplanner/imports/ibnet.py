"""``ibnetdiscover`` output (infiniband-diags): blocks per node — ``Switch <ports> "S-<guid>" # "<desc>"`` or
``Ca <ports> "H-<guid>" # "<desc>"`` — followed by one line per cabled port ``[p] "<peer>"[q] … 4xNDR``.
Host channel adapters are grouped into their server by the host name that starts their description
(``node-0001 HCA-1``, ``node-0001 mlx5_3``); switch names come from the description (``MF0;leaf1:MQM9700/U1``
→ leaf1, model MQM9700). Each cable is seen from both ends; it is counted once."""

from __future__ import annotations

import re
from pathlib import Path

from gpuplanner.core.errors import ValidationError
from gpuplanner.imports.build import Builder
from gpuplanner.text import Msg

_NODE = re.compile(r'^(Switch|Ca)\s+(\d+)\s+"([^"]+)"\s*#\s*"([^"]*)"')
_PORT = re.compile(r'^\[(\d+)\](?:\([0-9a-fx]+\))?\s+"([^"]+)"\[(\d+)\]')
_SPEED = re.compile(r"(\d+)x(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)\b")
LANE_GBPS = {
    "SDR": 2.5,
    "DDR": 5,
    "QDR": 10,
    "FDR10": 10,
    "FDR": 14,
    "EDR": 25,
    "HDR": 50,
    "NDR": 100,
    "XDR": 200,
}


def _switch_name(desc: str) -> tuple[str, str]:
    """(name, model) from a switch description: 'MF0;leaf1:MQM9700/U1' → ('leaf1', 'MQM9700')."""
    m = re.match(r"^(?:[^;]*;)?([^:]+)(?::([^/]+))?", desc)
    return (m.group(1).strip(), (m.group(2) or "").strip()) if m else (desc, "")


def read_ibnetdiscover(path: Path, b: Builder) -> None:
    nodes: dict[str, tuple[str, str, str]] = {}  # guid id → (kind, name, model)
    ports: list[tuple[str, int, str, int, float]] = []
    current = None
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.strip()
        m = _NODE.match(line)
        if m:
            kind, _, gid, desc = m.groups()
            if kind == "Switch":
                name, model = _switch_name(desc)
            else:
                name, model = (desc.split() or [gid])[0], ""
            nodes[gid] = (kind, name, model)
            current = gid
            continue
        m = _PORT.match(line)
        if m and current:
            sp = _SPEED.search(line)
            gbps = int(sp.group(1)) * LANE_GBPS[sp.group(2)] if sp else 0.0
            ports.append((current, int(m.group(1)), m.group(2), int(m.group(3)), float(gbps)))
    if not nodes:
        raise ValidationError(Msg("error.import.no_ib_blocks"), field="file", value=str(path))
    up: dict[str, set[str]] = {}
    for kind, name, _ in nodes.values():
        if kind == "Switch":
            up.setdefault(name, set())
    for a, _, bb, _, _ in ports:  # a switch cabled to hosts is a leaf; one cabled to leaves only, a spine
        if a in nodes and bb in nodes and nodes[a][0] == "Switch":
            up[nodes[a][1]].add(nodes[bb][0])
    for kind, name, model in nodes.values():
        if kind == "Switch":
            b.add_device(name, "switch", "leaf" if "Ca" in up[name] else "spine", model)
        else:
            b.add_device(name, "server", "compute")
    seen = set()
    for a, pa, bb, pb, gbps in ports:
        if bb not in nodes:
            continue
        key = tuple(sorted([(a, pa), (bb, pb)]))
        if key in seen:
            continue
        seen.add(key)
        b.connect(nodes[a][1], nodes[bb][1], speed_gbps=gbps)
