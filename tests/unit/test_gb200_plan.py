"""GB200 NVL72 plans: rails grouped on leaves, switches in network racks, reference NIC bandwidth, unused ports.

Sources: NVIDIA DGX GB200 User Guide, Hardware (18 compute trays × 4 ConnectX-7 400G per NVL72 rack: 72 compute
ports, 400 Gb/s per GPU); NVIDIA DGX SuperPOD RAs (switches in separate network racks; non-blocking leaves:
half the 64 ports of a QM9700 down, half up)."""

from __future__ import annotations

from collections import Counter

import pytest

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into

GB200 = "nvidia-gb200-nvl72"


@pytest.fixture(scope="module")
def gb200():
    p = Project()
    generate_into(
        p,
        GenerateOptions(
            template="rail-leaf-spine",
            server=GB200,
            servers=8,
            su_size=8,
            rack="nvidia-mgx-nvl72-rack",
        ),
    )
    return p, analyze_project(p)


def test_eight_nvl72_racks_take_18_leaves_of_32_down_ports(gb200):
    p, res = gb200
    leaves = [d for d in p.devices.values() if d.role == "leaf"]
    # 72 rails; a 64-port leaf at 1:1 has 32 down ports = 4 rails × 8 racks → 72 / 4 = 18 leaves
    assert len(leaves) == 18
    down = Counter()
    for lk in p.links.values():
        if lk.b_device in {d.id for d in leaves} and p.devices[lk.a_device].type_id == GB200:
            down[lk.b_device] += lk.multiplicity
    assert set(down.values()) == {32}
    assert sum(down.values()) == 8 * 72


def test_switches_sit_in_network_racks_with_their_own_budget(gb200):
    p, _ = gb200
    rack_of = {d.rack_id for d in p.devices.values() if d.type_id != GB200 and d.rack_id}
    types = {p.racks[r].type_id for r in rack_of}
    assert types == {"generic-48u-800x1200-network"}
    assert all(p.racks[r].power_budget_kw is None for r in rack_of)  # the 20 kW of the catalog type


def test_no_nic_finding_at_the_reference_400g_per_gpu_and_no_idle_ports(gb200):
    _, res = gb200
    rules = {f.rule for f in res.findings}
    assert "nic-bandwidth-per-gpu-low" not in rules
    assert "switch-ports-unused" not in rules
    share = res.cost.network_share
    assert 0.15 < share < 0.30  # network share in the 20–30 % band of cost.yaml network_share_normal


def test_unused_switch_ports_are_reported():
    p = Project()
    # two DGX H100 on a rail-optimised SU sized for 32: 8 leaves with 2 of 32 down ports used
    generate_into(p, GenerateOptions(template="rail-leaf-spine", servers=2, su_size=32))
    res = analyze_project(p)
    f = next(f for f in res.findings if f.rule == "switch-ports-unused")
    assert f.params["pct"] > 25
