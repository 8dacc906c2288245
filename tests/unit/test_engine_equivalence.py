"""The vectorised engine equals straightforward per-row references (the loops it replaced), on every
topology template plus user overrides: compiled link facts, cable groups, fabric graph, port use, tier and
medium counts, capex, bisection and oversubscription. Results must not move when the engine gets faster."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from gpuplanner.catalog.types import GpuType, ServerType, StorageType, SwitchType
from gpuplanner.commands import SetFields, UndoStack
from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES, compile_project, connector_of
from gpuplanner.engine.fabric import network
from gpuplanner.engine.fabric.cabling import plan_cables
from gpuplanner.engine.fabric.fabric_graph import NOT_ROUTED, build_fabric_graph
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into

CASES = {
    "rail-leaf-spine+storage+mgmt": dict(
        template="rail-leaf-spine", servers=48, storage_fabric=True, management_fabric=True
    ),
    "leaf-spine-2to1": dict(template="leaf-spine", servers=40, oversub=2.0),
    "fat-tree-3tier": dict(template="fat-tree-3tier", servers=64, rails=False),
    "dragonfly": dict(template="dragonfly", servers=32),
    "single-switch": dict(template="single-switch", servers=4),
}


def _project(case: str) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(rack_budget_kw=42, **CASES[case]))
    # user overrides on a few rows: a given length, a chosen medium, a chosen cable, a price override
    links = list(p.links.values())
    undo = UndoStack(p)
    undo.push(SetFields(p, "links", links[0].id, length_m=120.0))
    undo.push(SetFields(p, "links", links[-1].id, medium="aoc"))
    cable = next(e.id for e in p.catalog.entries.values() if type(e).__name__ == "CableType")
    undo.push(SetFields(p, "links", links[len(links) // 2].id, cable_id=cable))
    dev = next(iter(p.devices.values()))
    undo.push(SetFields(p, "devices", dev.id, price_usd=1234.5))
    return p


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    p = _project(request.param)
    return p, compile_project(p)


def _pg(p, device_id, group):
    e = p.catalog.entries.get(p.devices[device_id].type_id)
    return e.port_group(group) if e is not None and hasattr(e, "port_group") else None


def test_device_arrays_match_per_device_reference(case):
    p, c = case
    for i, d in enumerate(p.devices.values()):
        t = p.catalog.entries.get(d.type_id)
        kind = (
            "server"
            if isinstance(t, ServerType)
            else "switch"
            if isinstance(t, SwitchType)
            else "storage"
            if isinstance(t, StorageType)
            else "other"
        )
        assert c.devices.kind[i] == KIND_CODES[kind]
        assert c.devices.role[i] == ROLE_CODES.get(d.role, ROLE_CODES["other"])
        assert c.devices.rack[i] == (c.racks.row.get(d.rack_id, -1) if d.rack_id else -1)
        assert c.devices.power_max_w[i] == float(getattr(t, "power_max_w", 0.0) or 0.0)
        assert c.devices.gpu_count[i] == int(getattr(t, "gpu_count", 0) or 0)
        g = p.catalog.entries.get(t.gpu) if isinstance(t, ServerType) and t.gpu and t.gpu_count else None
        assert c.devices.gpu_tdp_w[i] == (g.tdp_w if isinstance(g, GpuType) else 0.0)
        n_psu = t.psu_n_m()[0] if hasattr(t, "psu_n_m") and getattr(t, "psu_count", 0) else 0
        assert c.devices.psu_needed[i] == n_psu
        expect = np.nan if d.price_usd is None else d.price_usd
        assert np.array_equal(c.devices.price_override_usd[i], expect, equal_nan=True)


def test_link_arrays_match_per_link_reference(case):
    p, c = case
    lk = c.links
    for i, row in enumerate(p.links.values()):
        pa, pb = _pg(p, row.a_device, row.a_group), _pg(p, row.b_device, row.b_group)
        assert (lk.a[i], lk.b[i]) == (c.devices.row[row.a_device], c.devices.row[row.b_device])
        assert (lk.a_role[i], lk.b_role[i]) == (pa.role if pa else "", pb.role if pb else "")
        sa, sb = (pa.speed_gbps if pa else 0.0), (pb.speed_gbps if pb else 0.0)
        speed = row.speed_gbps if row.speed_gbps > 0 else min(sa, sb)
        assert lk.speed_gbps[i] == speed
        ib = bool(pa and pa.type.startswith("infiniband")) and bool(pb and pb.type.startswith("infiniband"))
        assert lk.technology[i] == ("infiniband" if ib else "ethernet") and lk.infiniband[i] == ib
        end = pb if sa > speed and sb == speed else pa
        assert lk.connector[i] == (connector_of(end.type) if end else "")
        if row.length_m is not None:
            assert lk.length_m[i] == row.length_m and lk.length_given[i]
        assert lk.port_keys[lk.a_port_key[i]] == (p.devices[row.a_device].type_id, row.a_group)
        assert lk.port_key_role[lk.a_port_key[i]] == lk.a_role[i]
    assert lk.row == {lid: i for i, lid in enumerate(p.links)}
    assert lk.medium == [r.medium for r in p.links.values()]
    assert lk.cable_ids == [r.cable_id for r in p.links.values()]


def test_fabric_graph_keeps_the_links_the_role_lists_keep(case):
    _, c = case
    g = build_fabric_graph(c)
    keep = [
        a not in NOT_ROUTED and b not in NOT_ROUTED
        for a, b in zip(c.links.a_role, c.links.b_role, strict=True)
    ]
    assert g.link_rows.tolist() == [i for i, k in enumerate(keep) if k]
    # each GPU's endpoint is a compute port of its own server
    has = g.gpu_endpoint >= 0
    ep_link = g.endpoint_link[g.gpu_endpoint[has]]
    ends = np.where(c.links.a[ep_link] == g.gpu_server[has], 0, 1)
    roles = np.where(
        ends == 0, np.array(c.links.a_role, object)[ep_link], np.array(c.links.b_role, object)[ep_link]
    )
    assert (roles == "compute").all()


def _port_use_reference(c, catalog):
    lk = c.links
    used: dict[tuple[int, str], float] = {}
    for ends, keys in ((lk.a, lk.a_port_key), (lk.b, lk.b_port_key)):
        for i in range(len(lk.ids)):
            k = int(keys[i])
            pg_speed = lk.port_key_speed_gbps[k]
            w = lk.multiplicity[i] * lk.speed_gbps[i] / (pg_speed if pg_speed > 0 else 1.0)
            key = (int(ends[i]), lk.port_keys[k][1])
            used[key] = used.get(key, 0.0) + w
    out = []
    for d in range(len(c.devices.ids)):
        if c.devices.kind[d] == KIND_CODES["switch"]:
            for pg in catalog.entries[c.devices.type_ids[d]].port_groups:
                u = used.get((d, pg.name), 0.0)
                if pg.role != "management" or u:
                    out.append((d, pg.name, pg.count, u))
    return out, used


def test_port_use_matches_reference(case):
    p, c = case
    ref, used = _port_use_reference(c, p.catalog)
    got = network.port_use(c, p.catalog)
    switch_rows = [(u.device_row, u.group, u.ports, u.used) for u in got[: len(ref)]]
    assert len(switch_rows) == len(ref)
    for (d, g, n, u), (rd, rg, rn, ru) in zip(switch_rows, ref, strict=True):
        assert (d, g, n) == (rd, rg, rn) and u == pytest.approx(ru, rel=1e-12)
    for u in got[len(ref) :]:  # the over-used non-switch groups
        assert c.devices.kind[u.device_row] != KIND_CODES["switch"]
        assert u.used == pytest.approx(used[(u.device_row, u.group)], rel=1e-12) and u.used > u.ports


def test_fabric_counts_capex_and_oversubscription_match_reference(case):
    p, c = case
    res = network.analyze_fabric(c, p.catalog)
    tiers = network.link_tiers(c)
    by_tier: Counter = Counter()
    by_medium: Counter = Counter()
    for t, m, mult in zip(tiers, res.cables.medium, c.links.multiplicity.tolist(), strict=True):
        by_tier[t] += mult
        by_medium[m] += mult
    assert res.cables_by_tier == dict(sorted(by_tier.items()))
    assert res.cables_by_medium == dict(sorted(by_medium.items()))
    net = gpu = 0.0
    for i, tid in enumerate(c.devices.type_ids):
        price = c.devices.price_override_usd[i]
        price = float(p.catalog.price_usd(tid) or 0.0) if np.isnan(price) else float(price)
        if c.devices.kind[i] == KIND_CODES["switch"]:
            net += price
        elif c.devices.gpu_count[i] > 0:
            gpu += price
    for k, v in res.cables.bom_cables.items():
        pr = p.catalog.prices.get(k)
        per_m = pr is not None and pr.unit == "per_m"
        net += float(p.catalog.price_usd(k) or 0.0) * (res.cables.bom_cable_m.get(k, 0.0) if per_m else v)
    net += sum(float(p.catalog.price_usd(k) or 0.0) * v for k, v in res.cables.bom_transceivers.items())
    assert (res.network_capex_usd, res.gpu_capex_usd) == (net, gpu)
    # oversubscription: worst switch of the tier, capacity down / up, summed per link end
    tier_arr = np.array(tiers, dtype=object)
    for role, down_t, up_t in (("leaf", "node-leaf", "leaf-spine"), ("spine", "leaf-spine", "spine-core")):
        down, up = np.zeros(len(c.devices.ids)), np.zeros(len(c.devices.ids))
        for t, arr in ((down_t, down), (up_t, up)):
            m = tier_arr == t
            for ends in (c.links.a[m], c.links.b[m]):
                sel = c.devices.role[ends] == ROLE_CODES[role]
                np.add.at(arr, ends[sel], c.links.capacity_gbps[m][sel])
        has = (c.devices.role == ROLE_CODES[role]) & (up > 0)
        if (tier_arr == up_t).any() and has.any():
            assert res.oversubscription_by_tier[role] == float(np.max(down[has] / up[has]))
        else:
            assert role not in res.oversubscription_by_tier


def test_cable_groups_match_per_link_tuples(case):
    p, c = case
    from gpuplanner.engine.fabric.cabling import _link_groups

    codes, keys = _link_groups(c.links)
    tuples = list(zip(c.links.speed_gbps.tolist(), c.links.technology, c.links.connector, strict=True))
    assert keys == list(dict.fromkeys(tuples))
    assert [keys[k] for k in codes.tolist()] == tuples
    plan = plan_cables(c, p.catalog)
    from gpuplanner.engine.fabric.cabling import MEDIUM_NAMES

    assert [MEDIUM_NAMES[k] for k in plan.medium_code.tolist()] == plan.medium


def test_reanalysis_reuses_the_router_only_while_the_topology_is_unchanged():
    from gpuplanner.commands import RemoveRows
    from gpuplanner.engine.fabric.network import TopologyCache, analyze_fabric

    p = _project("leaf-spine-2to1")
    cache = TopologyCache()
    first = analyze_fabric(compile_project(p), p.catalog, topologies=cache)
    link = next(iter(p.links))
    UndoStack(p).push(SetFields(p, "links", link, length_m=3.0))  # same topology, other cable
    again = analyze_fabric(compile_project(p), p.catalog, topologies=cache)
    assert again.router is first.router
    cold = analyze_fabric(compile_project(p), p.catalog)  # no cache: built afresh
    assert cold.router is not first.router
    assert (cold.hop_histogram, cold.max_hops) == (again.hop_histogram, again.max_hops)
    assert cold.cables.medium == again.cables.medium
    UndoStack(p).push(RemoveRows("links", [link]))
    assert analyze_fabric(compile_project(p), p.catalog, topologies=cache).router is not first.router


def test_recompile_reuses_link_columns_only_while_the_link_rows_are_unchanged():
    from gpuplanner.engine.compiled import LinkRowCache

    p = _project("leaf-spine-2to1")
    cache = LinkRowCache()
    first = compile_project(p, cache)
    first.links.a[:] = 0  # the caller owns what it got: the cache keeps its own copy
    first.links.a_group.clear()
    link = list(p.links)[3]
    UndoStack(p).push(SetFields(p, "links", link, multiplicity=3, speed_gbps=100.0))
    edited = compile_project(p, cache)
    cold = compile_project(p)
    for name in ("ids", "a", "b", "a_group", "multiplicity", "speed_gbps", "length_m", "a_port_key"):
        assert np.array_equal(np.asarray(getattr(edited.links, name)), np.asarray(getattr(cold.links, name)))
    row = cold.links.row[link]
    assert (edited.links.multiplicity[row], edited.links.speed_gbps[row]) == (3, 100.0)
    # a device edit leaves the link rows alone: same columns as a cold compile
    dev = next(d for d in p.devices.values() if d.role == "compute")
    UndoStack(p).push(SetFields(p, "devices", dev.id, name="renamed"))
    warm = compile_project(p, cache)
    assert warm.links.row == cold.links.row and np.array_equal(warm.links.b, cold.links.b)
