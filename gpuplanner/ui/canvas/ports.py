"""Port groups: which can be linked (technology, medium, speed), how many ports are in use, and why not.

Interface types use NetBox's vocabulary (``infiniband-ndr``, ``400gbase-x-osfp``, ``1000base-t``).
Two groups can be joined when they speak the same technology (InfiniBand or Ethernet), use the same medium
(twisted-pair copper or pluggable cages) and their speeds differ by at most a 1:4 breakout.
"""

from __future__ import annotations

from gpuplanner.catalog.types import PortGroup
from gpuplanner.model import Project
from gpuplanner.ui.i18n import translate

MAX_BREAKOUT = 4


def technology(pg: PortGroup) -> str:
    return "infiniband" if pg.type.startswith("infiniband-") else "ethernet"


def is_twisted_pair(pg: PortGroup) -> bool:
    return pg.type.endswith("base-t")


def speed_label(speed_gbps: float) -> str:
    return f"{speed_gbps / 1000:g} Tb/s" if speed_gbps >= 1000 else f"{speed_gbps:g} Gb/s"


def incompatibility(a: PortGroup, b: PortGroup) -> str | None:
    """None when the two groups can be linked, else the reason in one sentence."""
    if technology(a) != technology(b):
        return translate(
            "ports", "{a} is {ta} and {b} is {tb}: InfiniBand and Ethernet ports cannot be linked"
        ).format(a=a.name, ta=a.type, b=b.name, tb=b.type)
    if is_twisted_pair(a) != is_twisted_pair(b):
        return translate(
            "ports", "{a} ({ta}) and {b} ({tb}) use different media (RJ45 copper vs pluggable cage)"
        ).format(a=a.name, ta=a.type, b=b.name, tb=b.type)
    lo, hi = sorted((a.speed_gbps, b.speed_gbps))
    if not is_twisted_pair(a) and (lo <= 0 or hi / lo > MAX_BREAKOUT or (hi / lo) % 1):
        return translate(
            "ports", "{a} runs at {sa} and {b} at {sb}: more than a 1:{n} breakout apart"
        ).format(
            a=a.name, sa=speed_label(a.speed_gbps), b=b.name, sb=speed_label(b.speed_gbps), n=MAX_BREAKOUT
        )
    return None


def ports_used(project: Project, device_id: str, group: str, pg: PortGroup) -> float:
    """Ports of ``group`` on the device taken by links (a 400G link on an 800G port takes half a port)."""
    used = 0.0
    for lid in project.links_of(device_id):
        lk = project.links[lid]
        for dev, grp in ((lk.a_device, lk.a_group), (lk.b_device, lk.b_group)):
            if dev == device_id and grp == group:
                speed = lk.speed_gbps or pg.speed_gbps
                used += lk.multiplicity * min(1.0, speed / pg.speed_gbps if pg.speed_gbps else 1.0)
    return used


def port_groups(project: Project, type_id: str) -> tuple[PortGroup, ...]:
    return tuple(getattr(project.catalog.entries.get(type_id), "port_groups", ()) or ())


def group_of(project: Project, device_id: str, group: str) -> PortGroup | None:
    for pg in port_groups(project, project.devices[device_id].type_id):
        if pg.name == group:
            return pg
    return None


def free_ports(project: Project, device_id: str, pg: PortGroup) -> float:
    return pg.count - ports_used(project, device_id, pg.name, pg)


def links_fit(project: Project, device_id: str, pg: PortGroup, speed_gbps: float) -> int:
    """How many links of ``speed_gbps`` the group still takes (a breakout port takes several slower links)."""
    per_port = max(1.0, pg.speed_gbps / speed_gbps) if speed_gbps > 0 else 1.0
    return int(free_ports(project, device_id, pg) * per_port + 1e-9)


def is_switch(project: Project, device_id: str) -> bool:
    entry = project.catalog.entries.get(project.devices[device_id].type_id)
    return getattr(entry, "kind", "") == "switch"


def pick_group(project: Project, device_id: str, other: PortGroup) -> tuple[PortGroup | None, str]:
    """The device's first port group that is compatible with ``other`` and has a free port (else why not)."""
    reasons = []
    groups = sorted(
        port_groups(project, project.devices[device_id].type_id),
        key=lambda pg: (pg.role == "management", abs(pg.speed_gbps - other.speed_gbps)),
    )
    for pg in groups:
        why = incompatibility(other, pg)
        if why is None and free_ports(project, device_id, pg) >= 1 - 1e-9:
            return pg, ""
        reasons.append(why or translate("ports", "{g}: all {n} ports in use").format(g=pg.name, n=pg.count))
    return None, "; ".join(reasons) or translate("ports", "the device has no ports")
