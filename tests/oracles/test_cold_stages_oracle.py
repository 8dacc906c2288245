"""The stages made faster for the cold 131k-GPU analysis (issue #19), each against a slow obvious reference:
a per-device or per-link Python loop (the code as it was before it was vectorised), or np.unique, on the
generator families with random link failures, random partitions and over-drawn links.

- teams ``partition_gpus``: GPUs per partition (np.bincount over coded partitions) vs a loop over devices;
- fabric ``port_use`` as columns: the JSON's ports used/free/over-subscribed and the unused-port finding vs a
  loop over PortUse rows;
- cable plan: transceiver modules per (device, port group, module), rounded up, vs a loop over link ends
  (both the dense-table and the np.unique path); the (speed, technology, cage) groups vs a loop over links;
- the array helpers (``dense_unique``, ``few_unique``, ``first_index``) vs np.unique and a loop;
- the link id → row index built on first use vs a dict.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuplanner.engine.arrays import dense_unique, few_unique, first_index
from gpuplanner.engine.checks.electrical import UNUSED_PORTS_SHARE, unused_port_findings
from gpuplanner.engine.checks.teams import partition_gpus
from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES, Compiled, RowIndex, compile_project
from gpuplanner.engine.fabric import cabling
from gpuplanner.engine.fabric.network import analyze_fabric
from gpuplanner.model import Project
from tests.oracles.test_fabric_analysis_oracle import _project
from tests.oracles.test_routing_project_oracle import FAMILIES

PARTITIONS = ["", "", "train", "infer", "batch"]


def _randomised(family: str, seed: int) -> Project:
    """A generated project with 10 % of links removed (seed > 0), random partitions on the devices and a
    few links drawn with more parallel cables than their ports have (over-subscribed groups)."""
    p = _project(family, seed)
    rng = np.random.default_rng(100 + seed)
    devs = p.tables["devices"]
    for i, d in list(devs.items()):
        devs[i] = dataclasses.replace(d, partition=str(rng.choice(PARTITIONS)))
    links = p.tables["links"]
    for i in rng.choice(sorted(links), min(3, len(links)), replace=False).tolist():
        links[i] = dataclasses.replace(links[i], multiplicity=int(rng.integers(2, 40)))
    return p


CASES = [(f, s) for f in FAMILIES for s in (0, 1, 2)]


@pytest.fixture(params=CASES, ids=[f"{f}-{s}" for f, s in CASES])
def case(request: pytest.FixtureRequest) -> tuple[Project, Compiled]:
    p = _randomised(*request.param)
    return p, compile_project(p)


# -- teams ----------------------------------------------------------------------------------------------


def _partition_gpus_loop(project: Project, c: Compiled) -> dict[str, int]:
    """The per-device loop partition_gpus was."""
    by: dict[str, int] = defaultdict(int)
    for d, g in zip(project.devices.values(), c.devices.gpu_count.tolist(), strict=True):
        if g:
            by[d.partition or ""] += g
    out = dict(by)
    out[""] = int(c.devices.gpu_count.sum())
    return out


def test_partition_gpus_matches_a_per_device_loop(case):
    p, c = case
    got = partition_gpus(c)
    ref = _partition_gpus_loop(p, c)
    assert list(got.items()) == list(ref.items())  # same figures, same order
    assert sum(v for k, v in got.items() if k) <= got[""]


# -- port use -------------------------------------------------------------------------------------------


def _unused_ports_loop(c: Compiled, rows: list) -> tuple[int, float, list[int]] | None:
    """The per-row unused-port rule as it was: (ports, free, switches) or None below the threshold."""
    mgmt = ROLE_CODES["management"]
    sw = (c.devices.kind == KIND_CODES["switch"]) & (c.devices.role != mgmt)
    rows = [p for p in rows if sw[p.device_row]]
    ports = sum(p.ports for p in rows)
    free = sum(max(0.0, p.ports - p.used) for p in rows)
    if ports <= 0 or free / ports <= UNUSED_PORTS_SHARE:
        return None
    return ports, free, sorted({p.device_row for p in rows})


def test_port_use_figures_match_a_per_row_loop(case):
    p, c = case
    fab = analyze_fabric(c, p.catalog)
    rows = list(fab.port_use)  # PortUse objects, one per column row
    assert len(rows) == len(fab.port_use)
    assert [fab.port_use[i] for i in range(len(rows))] == rows == fab.port_use[:]
    js = fab.to_json(c)
    assert js["ports_used"] == sum(r.used for r in rows)  # the same additions in the same order: exact
    assert js["ports_free"] == sum(max(0.0, r.ports - r.used) for r in rows)
    over = [(c.devices.ids[r.device_row], r.group, r.ports, r.used) for r in rows if r.used > r.ports + 1e-9]
    assert [(o["device"], o["group"], o["ports"], o["used"]) for o in js["over_subscribed_ports"]] == over
    ref = _unused_ports_loop(c, rows)
    got = unused_port_findings(c, fab.port_use)
    if ref is None:
        assert got == []
    else:
        ports, free, devs = ref
        (f,) = got
        assert f.params == {
            "free": int(round(free)),
            "ports": ports,
            "pct": round(100.0 * free / ports),
            "switches": len(devs),
        }
        assert f.items == tuple(c.devices.ids[i] for i in devs[:50])


def test_an_over_drawn_link_is_listed_as_over_subscribed():
    """The cases above must exercise the over-used rows: a link drawn with 500 cables over-uses its groups."""
    p = _randomised("rail-leaf-spine", 0)
    lid = next(iter(p.links))
    p.tables["links"][lid] = dataclasses.replace(p.links[lid], multiplicity=500)
    c = compile_project(p)
    fab = analyze_fabric(c, p.catalog)
    row = c.links.row[lid]
    over = {c.devices.ids[o.device_row] for o in fab.port_use if o.used > o.ports}
    assert c.devices.ids[int(c.links.a[row])] in over and c.devices.ids[int(c.links.b[row])] in over


# -- cable plan -----------------------------------------------------------------------------------------


def _modules_loop(c: Compiled, plan: cabling.CablePlan) -> dict[str, int]:
    """Σ over (device, port group, module) of the links' module shares rounded up, by a loop over ends."""
    lk = c.links
    acc: dict[tuple[int, int, str], float] = defaultdict(float)
    for side, keys, tr, share in (
        (lk.a, lk.a_port_key, plan.transceiver_a, plan.transceivers_a),
        (lk.b, lk.b_port_key, plan.transceiver_b, plan.transceivers_b),
    ):
        for i in range(len(lk.ids)):
            if tr[i] and share[i] > 0:
                acc[int(side[i]), int(keys[i]), tr[i]] += float(share[i])
    out: dict[str, int] = defaultdict(int)
    for (_, _, mod), s in acc.items():
        out[mod] += math.ceil(s - 1e-9)
    return dict(sorted((k, v) for k, v in out.items() if v > 0))


def test_transceiver_modules_match_a_per_end_loop(case):
    p, c = case
    plan = cabling.plan_cables(c, p.catalog)
    assert plan.bom_transceivers == _modules_loop(c, plan)


def test_module_counts_dense_and_sorted_paths_agree(case):
    """The dense (device, key, module) table and the np.unique path give the same counts: the same links
    with device rows moved far apart (the table would be too large, so np.unique runs)."""
    p, c = case
    plan = cabling.plan_cables(c, p.catalog)
    ch = cabling._Choices(len(c.links.ids))
    ch.ids = list(plan.code_ids)
    ch.tr_a, ch.tr_b = plan.tr_a_code, plan.tr_b_code
    n_ids = len(ch.ids)
    dense = cabling._modules_per_cage(c.links, ch, plan.transceivers_a, plan.transceivers_b, n_ids)
    far = dataclasses.replace(c.links, a=c.links.a * 1_000_003, b=c.links.b * 1_000_003)
    sparse = cabling._modules_per_cage(far, ch, plan.transceivers_a, plan.transceivers_b, n_ids)
    np.testing.assert_array_equal(dense, sparse)


def test_link_groups_match_a_per_link_loop(case):
    _, c = case
    lk = c.links
    code, keys = cabling._link_groups(lk)
    table: dict[tuple[float, str, str], int] = {}
    ref = [
        table.setdefault((float(s), t, cn), len(table))
        for s, t, cn in zip(lk.speed_gbps.tolist(), lk.technology, lk.connector, strict=True)
    ]
    assert keys == list(table)
    assert code.tolist() == ref


def test_cable_plan_names_follow_their_codes(case):
    p, c = case
    plan = cabling.plan_cables(c, p.catalog)
    assert plan.medium == [cabling.MEDIUM_NAMES[k] for k in plan.medium_code.tolist()]
    assert plan.cable_id == [plan.code_ids[k] for k in plan.cable_code.tolist()]
    assert plan.transceiver_a == [plan.code_ids[k] for k in plan.tr_a_code.tolist()]
    assert "none" not in plan.medium[: len(plan.medium)] or bool(plan.too_long.any())


# -- array helpers --------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=300), st.integers(0, 20))
def test_dense_unique_equals_np_unique(values, extra):
    key = np.array(values, dtype=np.int64)
    size = (max(values) + 1 if values else 0) + extra
    present, inv = dense_unique(key, size)
    ref, ref_inv = np.unique(key, return_inverse=True)
    np.testing.assert_array_equal(present, ref)
    np.testing.assert_array_equal(inv, ref_inv.ravel())
    first = first_index(key, size)
    for k in range(size):
        assert first[k] == (values.index(k) if k in values else len(values))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 1.0, 10.0, 25.0, 100.0, 200.0, 400.0, 800.0, 1e-3]), max_size=3000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 3000),
)
def test_few_unique_equals_np_unique(values, odd, at):
    """Including a value the sample can miss (one odd value at a random place) and NaN."""
    x = np.array(values, dtype=np.float64)
    if len(x):
        x[at % len(x)] = odd
    uniq, inv = few_unique(x)
    ref, ref_inv = np.unique(x, return_inverse=True)
    np.testing.assert_array_equal(uniq, ref)
    np.testing.assert_array_equal(inv, ref_inv.ravel())


def test_row_index_is_the_id_to_row_dict():
    ids = [f"l{i}" for i in range(0, 2000, 3)]
    idx = RowIndex(ids)
    ref = {lid: i for i, lid in enumerate(ids)}
    assert idx == ref and dict(idx) == ref and len(idx) == len(ref)
    assert idx["l3"] == 1 and idx.get("l4") is None and "l6" in idx and "l7" not in idx
    with pytest.raises(KeyError):
        idx["nope"]


# -- checks grouped per rack ----------------------------------------------------------------------------


def _r(x: float) -> float:
    return round(float(x), 1)


def _circuit_groups_loop(c: Compiled, e, pdus_per_side: np.ndarray) -> list[tuple[tuple, list[int]]]:
    """The per-rack loop the circuit finding grouped its racks with."""
    bad = np.flatnonzero((e.rack_circuits_per_side > 1) & (e.rack_circuits_per_side > pdus_per_side))
    groups: dict[tuple[float, int, int], list[int]] = {}
    for i in bad.tolist():
        key = (_r(e.rack_side_current_a[i]), int(e.rack_circuits_per_side[i]), int(pdus_per_side[i]))
        groups.setdefault(key, []).append(int(i))
    return list(groups.items())


def _budget_groups_loop(c: Compiled, catalog) -> list[tuple[tuple, list[int]]]:
    groups: dict[tuple[str, float, float], list[int]] = {}
    for i, t in enumerate(c.racks.type_ids):
        rated = getattr(catalog.entries.get(t), "power_budget_kw", None)
        b = float(c.racks.budget_kw[i])
        if rated and b == b and b > float(rated) + 1e-9:
            groups.setdefault((t, b, float(rated)), []).append(i)
    return list(groups.items())


@pytest.mark.parametrize("seed", range(6))
def test_rack_findings_group_like_the_per_rack_loop(seed):
    """Random currents (a few distinct values, some equal after rounding), circuits and budgets on the racks
    of a 3-tier plan: the circuit and budget findings name the same racks in the same groups and order."""
    from gpuplanner.engine.analysis import analyze_project
    from gpuplanner.engine.assumptions import load_assumptions
    from gpuplanner.engine.checks.electrical import budget_raised_findings, electrical_findings

    p = _project("fat-tree-3tier", 0)
    res = analyze_project(p)
    c, e = res.compiled, res.electrical
    rng = np.random.default_rng(seed)
    n = len(c.racks.ids)
    currents = np.array([12.04, 12.06, 31.0, 31.0001, 55.55])
    e = dataclasses.replace(
        e,
        rack_side_current_a=rng.choice(currents, n),
        rack_circuits_per_side=rng.integers(0, 4, n),
    )
    rated = float(p.catalog.entries[c.racks.type_ids[0]].power_budget_kw)
    budgets = rng.choice([np.nan, rated - 5, rated, rated + 3, rated + 10.25], n)
    racks = dataclasses.replace(c.racks, budget_kw=budgets, pdu_count=rng.integers(1, 7, n).astype(np.int16))
    c = dataclasses.replace(c, racks=racks)
    per_side = c.racks.pdu_count.astype(np.int64) // int(
        load_assumptions("facility").number("feeds_per_rack")
    )
    ref = _circuit_groups_loop(c, e, per_side)
    got = [f for f in electrical_findings(c, e, res.thermal) if f.rule == "rack-needs-several-circuits"]
    assert len(ref) > 1
    assert [f.items for f in got] == [tuple(c.racks.ids[i] for i in rows) for _, rows in ref]
    assert [(f.params["current_a"], f.params["circuits"], f.params["pdus_per_side"]) for f in got] == [
        k for k, _ in ref
    ]
    ref_b = _budget_groups_loop(c, p.catalog)
    got_b = budget_raised_findings(c, p.catalog)
    assert len(ref_b) >= 1
    assert [f.items for f in got_b] == [tuple(c.racks.ids[i] for i in rows) for _, rows in ref_b]
    assert [(f.params["budget_kw"], f.params["rated_kw"]) for f in got_b] == [
        (_r(b), _r(r)) for (_, b, r), _ in ref_b
    ]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-3, 12), max_size=200))
def test_group_rows_equals_a_dict_of_lists(values):
    from gpuplanner.engine.arrays import group_rows

    ref: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        ref.setdefault(v, []).append(i)
    got = group_rows(np.array(values, dtype=np.int64))
    assert [g.tolist() for g in got] == list(ref.values())


def test_cable_lengths_equal_the_masked_formula():
    """cable_lengths_m over whole arrays equals the formula applied to each case's rows (as it was written),
    with unplaced devices, same-rack and cross-rack links."""
    from gpuplanner.engine.compiled import RACK_TOP_M, U_HEIGHT_M, cable_lengths_m

    p = _project("with-storage-and-management", 0)
    c = compile_project(p)
    rng = np.random.default_rng(3)
    rack = c.devices.rack.copy()
    rack[rng.random(len(rack)) < 0.2] = -1
    devs = dataclasses.replace(c.devices, rack=rack)
    a, b, site = c.links.a, c.links.b, p.site
    ra, rb = rack[a], rack[b]
    placed = (ra >= 0) & (rb >= 0)
    same = placed & (ra == rb)
    ua = devs.u_position[a].astype(np.float64) * U_HEIGHT_M
    ub = devs.u_position[b].astype(np.float64) * U_HEIGHT_M
    ref = np.full(a.shape, 5.0 + site.cable_slack_m)
    ref[same] = np.abs(ua[same] - ub[same]) + 0.5 + site.cable_slack_m * 0.5
    diff = placed & ~same
    xa, ya = c.racks.floor_x_m[ra[diff]], c.racks.floor_y_m[ra[diff]]
    xb, yb = c.racks.floor_x_m[rb[diff]], c.racks.floor_y_m[rb[diff]]
    top = RACK_TOP_M + site.tray_height_m
    vertical = (top - ua[diff]) + (top - ub[diff])
    ref[diff] = np.abs(xa - xb) + np.abs(ya - yb) + np.maximum(vertical, 0) + site.cable_slack_m
    assert same.any() and diff.any() and (~placed).any()
    np.testing.assert_array_equal(cable_lengths_m(a, b, devs, c.racks, site), np.round(ref, 1))


@pytest.mark.parametrize("seed", range(8))
def test_most_common_type_equals_np_unique(seed):
    """The workload's server type: the most common id among the masked devices, ties to the first sorted."""
    from gpuplanner.engine.workload import most_common_type

    p = _project("with-storage-and-management", 0)
    c = compile_project(p)
    rng = np.random.default_rng(seed)
    ids = rng.choice(["srv-b", "srv-a", "srv-c"], len(c.devices.ids), p=[0.4, 0.4, 0.2]).tolist()
    c = dataclasses.replace(c, devices=dataclasses.replace(c.devices, type_ids=ids))
    mask = rng.random(len(ids)) < 0.5
    types, counts = np.unique(np.array(ids, dtype=object)[mask], return_counts=True)
    assert most_common_type(c, mask) == str(types[np.argmax(counts)])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(-50, 10**12), max_size=60), max_size=6), st.booleans())
def test_unique_inverse_equals_np_unique(parts, sort_parts):
    """Keys as the flows build them: several parts, each often a sorted run, with repeats across parts."""
    from gpuplanner.engine.arrays import unique_inverse

    chunks = [sorted(p) if sort_parts else p for p in parts]
    key = np.array([k for p in chunks for k in p] + [k for p in chunks[:1] for k in p[:5]], dtype=np.int64)
    uniq, inv = unique_inverse(key)
    ref, ref_inv = np.unique(key, return_inverse=True)
    np.testing.assert_array_equal(uniq, ref)
    np.testing.assert_array_equal(inv, ref_inv.ravel())


def test_each_gpu_takes_its_rail_endpoint_like_a_per_server_loop(case):
    """GPU g of a server uses compute endpoint g × n_endpoints // gpus of that server, endpoints in link order
    (the fabric graph's sort of endpoints by device, then link)."""
    from gpuplanner.engine.fabric.fabric_graph import build_fabric_graph

    _, c = case
    g = build_fabric_graph(c)
    is_switch = c.devices.kind == KIND_CODES["switch"]
    compute = [r == "compute" for r in c.links.port_key_role]
    eps: dict[int, list[int]] = defaultdict(list)
    for j, row in enumerate(g.link_rows.tolist()):
        for dev, key, node in (
            (int(c.links.a[row]), int(c.links.a_port_key[row]), int(g.link_a[j])),
            (int(c.links.b[row]), int(c.links.b_port_key[row]), int(g.link_b[j])),
        ):
            if not is_switch[dev] and compute[key]:
                eps[dev].append(node)
    ref = []
    for dev, n in enumerate(c.devices.gpu_count.tolist()):
        for local in range(n):
            mine = eps.get(dev, [])
            ref.append(mine[local * len(mine) // n] if mine else -1)
    assert g.gpu_endpoint.tolist() == ref
