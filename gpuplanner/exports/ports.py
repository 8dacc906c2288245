"""Port names for every device type and port numbers for every cable, assigned deterministically: per device
and port group, cables take ports 1, 2, 3 … in link order, named by the group's pattern
(``PortGroup.port_name``). Where two groups of a type would give the same name, the group name is prefixed,
so interface names are unique per device (NetBox requires it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Cable:
    link_row: int
    index: int  # 1-based cable number within its link (multiplicity)
    a_port: str
    b_port: str


def interface_names(entry) -> dict[str, list[str]]:
    """Port group name → the names of its ports, unique across the type's groups."""
    groups = getattr(entry, "port_groups", ()) or ()
    raw = {pg.name: [pg.port_name(i) for i in range(1, pg.count + 1)] for pg in groups}
    seen = Counter(n for names in raw.values() for n in names)
    return {g: [n if seen[n] == 1 else f"{g}-{n}" for n in names] for g, names in raw.items()}


def port_name(names: dict[str, list[str]], group: str, n: int) -> str:
    """Name of the n-th port (1-based) of ``group`` (``names`` from ``interface_names``); past the group's
    count, ``<group>-<n>`` (over-used groups are reported by the fabric checks)."""
    ports = names.get(group)
    if ports and n <= len(ports):
        return ports[n - 1]
    return f"{group}-{n}"


def cables(project, results) -> list[Cable]:
    """One entry per physical cable (a link of multiplicity m gives m cables)."""
    c = results.compiled
    lk, types = c.links, c.devices.type_ids
    entries = project.catalog.entries
    names = {t: interface_names(entries.get(t)) for t in set(types)}
    used: dict[tuple[int, str], int] = {}
    out: list[Cable] = []
    for i, (a, b, ga, gb, m) in enumerate(
        zip(lk.a.tolist(), lk.b.tolist(), lk.a_group, lk.b_group, lk.multiplicity.tolist(), strict=True)
    ):
        pa, pb = names[types[a]], names[types[b]]
        for k in range(1, int(m) + 1):
            na = used[(a, ga)] = used.get((a, ga), 0) + 1
            nb = used[(b, gb)] = used.get((b, gb), 0) + 1
            out.append(Cable(i, k, port_name(pa, ga, na), port_name(pb, gb, nb)))
    return out
