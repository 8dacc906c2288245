"""`generate --storage` succeeds for every server, storage system and storage switch of the catalog at 1, 32
and 64 servers; every storage port of the servers and systems is cabled, and no switch port group is used
beyond its count (the Plan's port check, counted in physical cages split at most 8 / 4 ways)."""

from __future__ import annotations

import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate
from gpuplanner.topology.plan import links_per_port, max_breakout

CAT = default_catalog()
SERVERS = sorted(e.id for e in CAT.entries.values() if e.kind == "server")
SYSTEMS = sorted(e.id for e in CAT.entries.values() if e.kind == "storage")
# storage switches: every switch whose data ports run at 25 Gb/s or more (the 1G management switch is not one)
SWITCHES = sorted(
    e.id
    for e in CAT.entries.values()
    if e.kind == "switch" and max(pg.speed_gbps for pg in e.fabric_ports()) >= 25
)


def _leaf(server: str) -> str:
    """A compute leaf that takes the server's compute ports (a rack-scale server's 72 ports need a higher radix
    than 64; an 800G server an 800G switch): the advisor's own choice."""
    from gpuplanner.advisor.space import pick_switch

    srv = CAT.get(server)
    if srv.rack_scale:
        return "nvidia-quantum-x800-q3400-ra"
    sw = pick_switch(CAT, srv)
    return sw.id if sw is not None else "nvidia-quantum-2-qm9700"


def _system_for(switch: str) -> str:
    """The DDN appliance in the variant whose data ports speak the storage switch's technology."""
    return "ddn-ai400x2" if CAT.get(switch).technology == "infiniband" else "ddn-ai400x2-eth"


def _plan(server: str, n: int, system: str, switch: str = "nvidia-spectrum-4-sn5600"):
    opts = GenerateOptions(
        template="rail-leaf-spine",
        server=server,
        servers=n,
        leaf_switch=_leaf(server),
        su_size=min(n, 16),  # 16 servers per unit fit every leaf of the catalog (40-port HDR too)
        storage_fabric=True,
        storage_system=system,
        storage_units=4,
        storage_switch=switch,
    )
    return generate(Project(), opts)


def _check(plan, server: str, system: str) -> None:
    srv = CAT.get(server)
    storage_fabric = next(f.id for f in plan.fabrics if f.kind == "storage")
    links = [lk for lk in plan.links if lk.fabric_id == storage_fabric]
    by_dev = {}
    for lk in links:
        for d in (lk.a_device, lk.b_device):
            by_dev[d] = by_dev.get(d, 0) + lk.multiplicity
    groups = srv.ports("storage") or srv.ports("frontend")
    for d in plan.devices:
        if d.role == "compute":
            assert by_dev.get(d.id) == groups[0].count, d.name
        if d.role == "storage":
            assert d.type_id == system and by_dev.get(d.id) == CAT.get(system).port_groups[0].count
    assert sum(d.role == "storage" for d in plan.devices) == 4
    for (dev_id, grp), used in plan.port_use.items():
        pg = plan.entry(dev_id).port_group(grp)
        assert used <= pg.count + 1e-9


@pytest.mark.parametrize("n", [1, 32, 64])
@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("server", SERVERS)
def test_storage_fabric_for_every_server_and_system(server, system, n):
    if CAT.get(server).rack_scale and n > 1:
        n = 2  # a rack-scale server is a whole rack of GPUs: 2 racks exercise the same code as 64 racks
    _check(_plan(server, n, system), server, system)


@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("server", ["nvidia-dgx-h100", "nvidia-dgx-b200", "nvidia-gb200-nvl72"])
def test_storage_fabric_on_every_storage_switch(server, switch):
    n = 2 if CAT.get(server).rack_scale else 64
    system = _system_for(switch)
    _check(_plan(server, n, system, switch), server, system)


def test_issue_command_line_storage_units_8_b200_64_servers():
    opts = GenerateOptions(
        template="rail-leaf-spine",
        server="nvidia-dgx-b200",
        servers=64,
        su_size=32,
        leaf_switch="nvidia-quantum-2-qm9700",
        storage_fabric=True,
        storage_system="ddn-ai400x2",
        storage_units=8,
    )
    plan = generate(Project(), opts)
    assert sum(d.role == "storage" for d in plan.devices) == 8


def test_breakout_is_capped_by_the_cage_lanes():
    sw = CAT.get("nvidia-spectrum-4-sn5600")
    osfp = sw.port_group("osfp800")
    assert max_breakout(osfp) == 8
    assert links_per_port(osfp, 400) == 2 and links_per_port(osfp, 100) == 8 and links_per_port(osfp, 25) == 8


def test_storage_fabric_never_without_storage():
    # `--storage` alone drew a storage switch and no storage (issue 22): now the default system, 1 unit
    plan = generate(Project(), GenerateOptions(template="rail-leaf-spine", servers=4, storage_fabric=True))
    units = [d for d in plan.devices if d.role == "storage"]
    # the reference appliance in the variant of the storage switch's technology (the default switch is Ethernet)
    assert len(units) == 1 and units[0].type_id == "ddn-ai400x2-eth"
