"""Slurm topology.conf, tree form: ``SwitchName=s Switches=… Nodes=…`` lines (hostlist expressions, '#'
comments, keys case-insensitive). A switch with nodes is a leaf, its parents spines, theirs cores; nodes are
compute servers. The file names no models: servers and switches get the defaults (listed as assumed). GPU
Planner's own virtual root (``gpuplanner-root``, written for dragonflies) is not a real switch and is skipped."""

from __future__ import annotations

from pathlib import Path

import hostlist

from gpuplanner.core.errors import ValidationError
from gpuplanner.imports.build import Builder
from gpuplanner.text import Msg

VIRTUAL_ROOT = "gpuplanner-root"


def parse(text: str, origin: str = "") -> dict[str, dict[str, list[str]]]:
    switches: dict[str, dict[str, list[str]]] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        kv = {}
        for tok in line.split():
            k, sep, v = tok.partition("=")
            if not sep:
                raise ValidationError(
                    Msg("error.import.not_key_value", {"line": n, "token": tok}), field="file", value=origin
                )
            kv[k.lower()] = v
        if "blockname" in kv:
            raise ValidationError(Msg("error.import.block_form"), field="file", value=origin)
        if "switchname" not in kv:
            raise ValidationError(Msg("error.import.no_switchname", {"line": n}), field="file", value=origin)
        try:
            switches[kv["switchname"]] = {
                "switches": hostlist.expand_hostlist(kv.get("switches", "")) if kv.get("switches") else [],
                "nodes": hostlist.expand_hostlist(kv.get("nodes", "")) if kv.get("nodes") else [],
            }
        except hostlist.BadHostlist as exc:
            raise ValidationError(
                Msg("error.import.bad_hostlist", {"line": n, "reason": exc}), field="file", value=origin
            ) from exc
    return switches


def read_topology_conf(path: Path, b: Builder) -> None:
    sw = parse(path.read_text(encoding="utf-8", errors="replace"), str(path))
    sw.pop(VIRTUAL_ROOT, None)
    tier: dict[str, int] = {s: 1 for s, v in sw.items() if v["nodes"]}
    changed = True
    while changed:  # parents are one tier above their highest child
        changed = False
        for s, v in sw.items():
            kids = [tier[c] for c in v["switches"] if c in tier]
            if kids and tier.get(s, 0) < max(kids) + 1:
                tier[s] = max(kids) + 1
                changed = True
    roles = {1: "leaf", 2: "spine"}
    for s in sw:
        b.add_device(s, "switch", roles.get(tier.get(s, 1), "core"))
    for v in sw.values():
        for n in v["nodes"]:
            b.add_device(n, "server", "compute")
    for s, v in sw.items():
        for c in v["switches"]:
            if c in sw:
                b.connect(s, c)
        for n in v["nodes"]:
            b.connect(s, n)
