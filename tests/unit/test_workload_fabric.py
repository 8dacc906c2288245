"""The performance model sees the drawn fabric: halving the spines of a 1:1 fabric halves what DP traffic
crossing them gets, and raises the DP communication time; link loads add up to the routed flow volumes."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.commands import AddRows, RemoveRows
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.fabric.network import analyze_fabric
from gpuplanner.engine.workload import analyze_workload
from gpuplanner.model import Project, Workload
from gpuplanner.topology import GenerateOptions, generate_into


def _project() -> tuple[Project, Workload]:
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=64, rails=False, rack_budget_kw=42))
    # DP across every node (TP inside a node), placement DP-major so that the ring crosses leaves.
    wl = Workload(
        id="w1", name="dp", model_id="llama3-8b", tp=8, pp=1, global_batch=512, seq_len=4096, zero_stage=0
    )
    AddRows("workloads", [wl]).apply(p)
    return p, wl


def _run(p: Project, wl: Workload):
    c = compile_project(p)
    fab = analyze_fabric(c, p.catalog)
    return c, analyze_workload(c, fab.graph, fab.router, wl)


def test_removing_spines_does_not_touch_node_local_rings_but_oversubscription_does():
    """Megatron's ring keeps DP neighbours under one leaf for 3 of every 4 hops here, so halving the spines of a
    1:1 fabric leaves DP time unchanged (the model says so); a 4:1 leaf tier does slow the crossing hops."""
    p, wl = _project()
    _, full = _run(p, wl)
    spines = sorted(d.id for d in p.devices.values() if d.role == "spine")
    RemoveRows("devices", spines[: len(spines) // 2]).apply(p)
    _, half = _run(p, wl)
    assert half.estimate.breakdown["dp_comm_s"] == pytest.approx(
        full.estimate.breakdown["dp_comm_s"], rel=1e-6
    )
    RemoveRows("devices", spines[len(spines) // 2 : -1]).apply(p)  # one spine left
    _, one = _run(p, wl)
    assert one.net_factor.get("dp", 1.0) < 1.0
    assert one.estimate.breakdown["dp_comm_s"] > full.estimate.breakdown["dp_comm_s"]


def test_link_loads_conserve_the_routed_volume():
    p, wl = _project()
    c, res = _run(p, wl)
    # Every inter-node byte enters the fabric on a server→leaf link and leaves on a leaf→server link.
    server_a = c.devices.kind[c.links.a] == 0
    into_fabric = (
        res.link_bytes_ab[server_a].sum()
        + res.link_bytes_ba[~server_a & (c.devices.kind[c.links.b] == 0)].sum()
    )
    out_of_fabric = (
        res.link_bytes_ba[server_a].sum()
        + res.link_bytes_ab[~server_a & (c.devices.kind[c.links.b] == 0)].sum()
    )
    assert into_fabric > 0
    assert into_fabric == pytest.approx(out_of_fabric, rel=1e-9)
    assert np.all(res.link_bytes_ab >= 0)


def test_the_drawn_fabric_gives_the_latency_model_its_switch_hops_and_latency():
    """A DP ring over 64 nodes on a leaf-spine fabric: the farthest step goes leaf-spine-leaf (3 switches, the
    routes say so, independent of the span rule), and the switch latency is the catalog's figure for the
    drawn switch model when it prints one (else the assumption's)."""
    from gpuplanner.engine.fabric.network import analyze_fabric as fabric_of
    from gpuplanner.engine.workload import switch_hops, switch_latency_ns

    p, wl = _project()
    c, res = _run(p, wl)
    assert res.cluster.switch_hops.get("dp") == 3.0
    drawn = {d.type_id for d in p.devices.values() if d.role in ("leaf", "spine")}
    printed = [p.catalog.get(t).latency_ns for t in drawn if p.catalog.get(t).latency_ns is not None]
    assert switch_latency_ns(c, p.catalog) == (max(printed) if printed else None)
    # one flow between two servers under the same leaf crosses one switch
    fab = fabric_of(c, p.catalog)
    from gpuplanner.engine.perf.traffic import KIND_CODES, Flows

    ep = fab.graph.gpu_endpoint
    same_leaf = Flows(
        src_gpu=np.array([0]),
        dst_gpu=np.array([8]),
        bytes_per_step=np.array([1.0]),
        kind=np.array([KIND_CODES["dp"]]),
        intra_node=np.array([False]),
    )
    assert ep[0] >= 0 and ep[8] >= 0
    assert switch_hops(fab.graph, fab.router, same_leaf) == {"dp": 1.0}
