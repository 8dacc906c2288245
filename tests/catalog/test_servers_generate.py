"""Every bundled server can be generated into a rail-optimised plan and analysed (small sizes).

Oracle: the plan holds servers × gpu_count GPUs, and the analysed maximum IT load is at least the servers'
own catalog maximum (switches and optics only add to it).
"""

from __future__ import annotations

import pytest

from gpuplanner.catalog import load_catalog
from gpuplanner.catalog.types import ServerType

CAT = load_catalog(include_user=False)
SERVERS = [s.id for s in CAT.of_kind("server") if isinstance(s, ServerType) and s.gpu_count]


def _leaf_for(server: ServerType) -> str:
    """A bundled leaf with ports at the server's compute speed, enough of them for one server's compute ports,
    of the same technology when there is one (InfiniBand NIC → InfiniBand switch)."""
    from gpuplanner.topology.plan import ports_at

    cp = server.ports("compute")[0]
    tech = "infiniband" if cp.type.startswith("infiniband") else "ethernet"
    fits = [
        (sw.technology == tech, ports_at(sw, cp.speed_gbps), sw.id)
        for sw in CAT.of_kind("switch")
        if ports_at(sw, cp.speed_gbps) >= cp.count
    ]
    assert fits, f"no bundled switch takes {cp.count} ports of {cp.speed_gbps:g} Gb/s"
    return max(fits)[2]


@pytest.mark.parametrize("server_id", SERVERS)
def test_server_generates_and_analyses(server_id):
    from gpuplanner.engine.analysis import analyze_project
    from gpuplanner.engine.summary import results_json
    from gpuplanner.model import Project
    from gpuplanner.topology import GenerateOptions, generate_into

    srv = CAT.get(server_id)
    n = 1 if srv.rack_scale else 2
    project = Project(CAT)
    generate_into(
        project,
        GenerateOptions(template="rail-leaf-spine", server=server_id, servers=n, leaf_switch=_leaf_for(srv)),
    )
    data = results_json(project, analyze_project(project), "en")
    assert data["gpus"] == n * srv.gpu_count
    assert data["it_kw_max"] >= n * srv.power_max_w / 1000 - 1e-6
