"""Fabric figures the report prints — switches and cables per tier, bisection bandwidth, oversubscription per
tier, ports used per switch port group, diameter — from ``engine/network.analyze_fabric`` against a
per-link Python loop over the project's rows and catalog entries (and, for the diameter, the per-flow
NetworkX oracle), on every generator family with random link failures.

Rules as ``engine/fabric/network.py`` states them:
* a link's tier is the pair of its ends' roles, lower tier first (compute → "node"): "node-leaf",
  "leaf-spine", "spine-core", …; its capacity is multiplicity × speed (speed 0 = the slower port group);
* bisection = half the smallest capacity among the node-leaf, leaf-spine and spine-core tiers present;
* oversubscription of leaves (spines) = the worst switch's down capacity / up capacity, over switches with
  uplinks;
* ports used of a (device, port group) = Σ multiplicity × link speed / the group's port speed.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from gpuplanner.commands import RemoveRows
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.fabric.network import analyze_fabric
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.oracles.project_oracle import ProjectNetwork
from tests.oracles.test_routing_project_oracle import FAMILIES

RANK = {"compute": 0, "storage": 0, "other": 0, "leaf": 1, "storage-switch": 1, "management": 1}
RANK |= {"spine": 2, "core": 3}
NAME = {"compute": "node"}


def _project(family: str, seed: int) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(rack_budget_kw=42, **FAMILIES[family]))
    if seed:
        rng = np.random.default_rng(seed)
        ids = sorted(p.links)
        RemoveRows("links", rng.choice(ids, max(1, len(ids) // 10), replace=False).tolist()).apply(p)
    return p


def _reference(p: Project) -> dict:
    cat = p.catalog
    dev = p.devices
    tier_cap: dict[str, float] = defaultdict(float)
    cables: dict[str, int] = defaultdict(int)
    cap_at: dict[tuple[str, str], float] = defaultdict(float)  # (device, tier) → capacity
    used: dict[tuple[str, str], float] = defaultdict(float)
    for lk in p.links.values():
        ga = cat.get(dev[lk.a_device].type_id).port_group(lk.a_group)
        gb = cat.get(dev[lk.b_device].type_id).port_group(lk.b_group)
        speed = lk.speed_gbps or min(ga.speed_gbps, gb.speed_gbps)
        lo, hi = sorted((dev[lk.a_device].role, dev[lk.b_device].role), key=lambda r: RANK.get(r, 0))
        tier = f"{NAME.get(lo, lo)}-{NAME.get(hi, hi)}"
        tier_cap[tier] += lk.multiplicity * speed
        cables[tier] += lk.multiplicity
        for d in (lk.a_device, lk.b_device):
            cap_at[d, tier] += lk.multiplicity * speed
        used[lk.a_device, lk.a_group] += lk.multiplicity * speed / ga.speed_gbps
        used[lk.b_device, lk.b_group] += lk.multiplicity * speed / gb.speed_gbps
    present = [tier_cap[t] for t in ("node-leaf", "leaf-spine", "spine-core") if t in tier_cap]
    oversub = {}
    for role, down, up in (("leaf", "node-leaf", "leaf-spine"), ("spine", "leaf-spine", "spine-core")):
        if up not in tier_cap:
            continue
        ratios = [
            cap_at[d.id, down] / cap_at[d.id, up]
            for d in dev.values()
            if d.role == role and cap_at[d.id, up] > 0
        ]
        if ratios:
            oversub[role] = max(ratios)
    switches = defaultdict(int)
    for d in dev.values():
        if cat.get(d.type_id).kind == "switch":
            switches[d.role] += 1
    return {
        "cables_by_tier": dict(cables),
        "bisection_gbps": min(present) / 2 if present else 0.0,
        "oversub": oversub,
        "used": used,
        "switches": switches,
    }


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_fabric_figures_match_a_per_link_loop(family, seed):
    p = _project(family, seed)
    fab = analyze_fabric(compile_project(p), p.catalog)
    ref = _reference(p)
    assert fab.cables_by_tier == ref["cables_by_tier"]
    assert fab.bisection_gbps == pytest.approx(ref["bisection_gbps"], rel=1e-12)
    assert fab.oversubscription_by_tier.keys() == ref["oversub"].keys()
    for role, v in ref["oversub"].items():
        assert fab.oversubscription_by_tier[role] == pytest.approx(v, rel=1e-12), role
    for role, n in ref["switches"].items():
        assert fab.switches_by_tier[role] == n
    c_dev = compile_project(p).devices.ids
    for pu in fab.port_use:
        assert pu.used == pytest.approx(ref["used"].get((c_dev[pu.device_row], pu.group), 0.0), rel=1e-12)
    # every switch port group in use is listed
    listed = {(c_dev[pu.device_row], pu.group) for pu in fab.port_use}
    for (d, g), u in ref["used"].items():
        if u > 0 and p.catalog.get(p.devices[d].type_id).kind == "switch":
            assert (d, g) in listed, (d, g)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_hop_counts_between_all_gpu_pairs_match_the_oracle(family):
    """Hops between the NICs of every pair of GPUs (one GPU per NIC endpoint): router.hop_counts on the
    engine's graph vs the per-flow oracle on the project's own graph, with failures; -1 = no path."""
    p = _project(family, 1)
    fab = analyze_fabric(compile_project(p), p.catalog)
    net = ProjectNetwork(p)
    ours = np.array(net.gpu_endpoint)
    theirs = fab.graph.gpu_endpoint.astype(np.int64)
    np.testing.assert_array_equal(ours >= 0, theirs >= 0)
    has = np.flatnonzero(ours >= 0)
    _, first = np.unique(ours[has], return_index=True)  # one GPU per endpoint
    gpus = has[first]
    i, j = (x.ravel() for x in np.meshgrid(gpus, gpus))
    expected = np.array([net.oracle.hop_count(a, b) for a, b in zip(ours[i], ours[j], strict=True)])
    got = fab.router.hop_counts(theirs[i], theirs[j])
    np.testing.assert_array_equal(got, expected)
    assert expected.max() >= 2 or family == "single-switch" or len(gpus) < 2
