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
    got = partition_gpus(p, c)
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
