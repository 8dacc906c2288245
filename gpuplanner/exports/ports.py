"""Port names for every device type and port numbers for every cable, assigned deterministically: per device
and port group, cables take ports 1, 2, 3 … in link order, named by the group's pattern
(``PortGroup.port_name``), or as the vendor prints them for models the NetBox devicetype-library has
(``netbox_library``). A cable slower than its port takes a breakout lane of it (``<port>s0``, ``<port>s1``
…, as switch OSes name split ports); a faster one takes as many ports as it needs (named by the first).
Where two groups of a type would give the same name, the group name is prefixed, so interface names are
unique per device (NetBox requires it)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from gpuplanner.exports.netbox_library import vendor_port_name


@dataclass(frozen=True)
class End:
    port: str  # the interface the cable plugs into (a breakout lane or a whole port)
    parent: str = ""  # the physical port of a breakout lane ("" for a whole port)


@dataclass(frozen=True)
class Cable:
    link_row: int
    index: int  # 1-based cable number within its link (multiplicity)
    a: End
    b: End

    @property
    def a_port(self) -> str:
        return self.a.port

    @property
    def b_port(self) -> str:
        return self.b.port


def interface_names(entry) -> dict[str, list[str]]:
    """Port group name → the names of its ports, unique across the type's groups."""
    groups = getattr(entry, "port_groups", ()) or ()
    tid = getattr(entry, "id", "")

    def name(pg, i: int) -> str:  # the vendor's printed name where the devicetype-library has the model
        return vendor_port_name(tid, pg.name, i) or pg.port_name(i)

    raw = {pg.name: [name(pg, i) for i in range(1, pg.count + 1)] for pg in groups}
    seen = Counter(n for names in raw.values() for n in names)
    return {g: [n if seen[n] == 1 else f"{g}-{n}" for n in names] for g, names in raw.items()}


def port_name(names: dict[str, list[str]], group: str, n: int) -> str:
    """Name of the n-th port (1-based) of ``group`` (``names`` from ``interface_names``); past the group's
    count, ``<group>-<n>`` (over-used groups are reported by the fabric checks)."""
    ports = names.get(group)
    if ports and n <= len(ports):
        return ports[n - 1]
    return f"{group}-{n}"


@dataclass
class _Cursor:
    """The next free port of one device's port group, and the lanes left on a split port."""

    port: int = 0  # ports used so far (the current split port included)
    lanes: int = 0  # lanes per port of the current split port
    lane: int = 0  # lanes used on it
    speeds: dict = field(default_factory=dict)

    def take(self, cable_gbps: float, port_gbps: float) -> tuple[int, int | None]:
        """(1-based port number, 0-based lane or None for a whole port)."""
        split = int(port_gbps // cable_gbps) if 0 < cable_gbps < port_gbps else 1
        if split > 1:
            if self.lanes == split and self.lane < split:
                self.lane += 1
                return self.port, self.lane - 1
            self.port += 1
            self.lanes, self.lane = split, 1
            return self.port, 0
        self.lanes = self.lane = 0
        width = math.ceil(cable_gbps / port_gbps) if port_gbps > 0 and cable_gbps > port_gbps else 1
        first = self.port + 1
        self.port += width
        return first, None


def cables(project, results) -> list[Cable]:
    """One entry per physical cable (a link of multiplicity m gives m cables)."""
    c = results.compiled
    lk, types = c.links, c.devices.type_ids
    entries = project.catalog.entries
    names = {t: interface_names(entries.get(t)) for t in set(types)}
    speeds = {
        t: {pg.name: pg.speed_gbps for pg in getattr(entries.get(t), "port_groups", ()) or ()} for t in names
    }
    cursors: dict[tuple[int, str], _Cursor] = {}
    out: list[Cable] = []

    def end(dev: int, group: str, gbps: float) -> End:
        t = types[dev]
        n, lane = cursors.setdefault((dev, group), _Cursor()).take(gbps, speeds[t].get(group, gbps))
        port = port_name(names[t], group, n)
        return End(port) if lane is None else End(f"{port}s{lane}", port)

    rows = zip(
        lk.a.tolist(),
        lk.b.tolist(),
        lk.a_group,
        lk.b_group,
        lk.multiplicity.tolist(),
        lk.speed_gbps.tolist(),
        strict=True,
    )
    for i, (a, b, ga, gb, m, gbps) in enumerate(rows):
        for k in range(1, int(m) + 1):
            out.append(Cable(i, k, end(a, ga, gbps), end(b, gb, gbps)))
    return out
