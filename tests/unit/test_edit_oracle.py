"""Every incremental path of the engine runner against a full cold analysis, field by field.

Oracle: ``analyze_project`` of the edited project, with no cache and no previous results. The comparison walks
the whole ``Results`` object (every dataclass field, array, list, dict and finding, recursively; only the stage
timings and the identity of kept objects are ignored), not only the figures ``results_json`` prints. Random
small projects (template, servers, rack budget, a training job's shape) and random sequences of the edits the
desktop makes most: a rack's power budget, a rack's cooling, the workload's global batch and other workload
fields, a price, a device moved between racks — sometimes two edits in one solve.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import sparse

from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import Results, analyze_project
from gpuplanner.engine.runner import EngineRunner, Outcome, dirty_stages
from gpuplanner.model import Project
from gpuplanner.model.changes import ChangeSet
from gpuplanner.model.rows import Workload
from gpuplanner.topology import GenerateOptions, generate_into

COOLING = ("", "generic-cold-plate-dlc-cdu", "generic-air-crah-open", "generic-rear-door-passive", "no-such")
SKIP = {"stage_ms"}
CACHES = {"_lock", "_map", "_blocks", "_search", "_loads"}


def differences(a: Any, b: Any, path: str = "results", seen: set[tuple[int, int]] | None = None) -> list[str]:
    """Where ``a`` and ``b`` differ (empty: equal in every field, recursively)."""
    seen = set() if seen is None else seen
    if a is b:
        return []
    key = (id(a), id(b))
    if key in seen:
        return []
    seen.add(key)
    if type(a) is not type(b):
        return [f"{path}: {type(a).__name__} != {type(b).__name__}"]
    if isinstance(a, np.ndarray):
        if a.shape != b.shape or a.dtype != b.dtype:
            return [f"{path}: shape/dtype {a.shape} {a.dtype} != {b.shape} {b.dtype}"]
        same = np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        return [] if same else [f"{path}: arrays differ"]
    if sparse.issparse(a):
        if a.shape != b.shape or (a != b).nnz:
            return [f"{path}: sparse matrices differ"]
        return []
    if isinstance(a, float):
        return [] if a == b or (math.isnan(a) and math.isnan(b)) else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, (str, int, bool, bytes, type(None))):
        return [] if a == b else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return [f"{path}: length {len(a)} != {len(b)}"]
        out: list[str] = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += differences(x, y, f"{path}[{i}]", seen)
        return out
    if isinstance(a, dict):
        if list(a) != list(b):
            return [f"{path}: keys {sorted(map(str, a))} != {sorted(map(str, b))}"]
        out = []
        for k in a:
            if k not in SKIP:
                out += differences(a[k], b[k], f"{path}[{k!r}]", seen)
        return out
    if isinstance(a, (set, frozenset)):
        return [] if a == b else [f"{path}: sets differ"]
    if dataclasses.is_dataclass(a):
        out = []
        for f in dataclasses.fields(a):
            # compare=False marks what is filled in on first use (a routing graph's lookup tables), not a result
            if f.name not in SKIP and f.compare:
                out += differences(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}", seen)
        return out
    if hasattr(a, "__dict__") or hasattr(a, "__slots__"):  # a router, a graph, a row index: its state
        state_a = _state(a)
        state_b = _state(b)
        return differences(state_a, state_b, path, seen)
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def _state(obj: Any) -> dict[str, Any]:
    out = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                out[name] = getattr(obj, name)
    # locks, and what a router or a row index fills in on first read or remembers (distance fields, the last
    # link loads, the id map), are not results
    return {k: v for k, v in sorted(out.items()) if k not in CACHES}


def _snapshot(p: Project) -> Project:
    copy = Project(p.catalog)
    copy.tables = {t: dict(rows) for t, rows in p.tables.items()}
    copy._links_by_device = {d: set(ids) for d, ids in p._links_by_device.items()}  # noqa: SLF001
    return copy


def test_the_comparison_sees_a_changed_figure_a_finding_and_nothing_in_two_cold_runs():
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=8, rack_budget_kw=20))
    a, b = analyze_project(p), analyze_project(p)
    assert differences(a, b) == []  # the oracle itself is deterministic
    b.power.rack_kw_load[0] += 1e-9
    assert differences(a, b) == ["results.power.rack_kw_load: arrays differ"]
    c = analyze_project(p)
    c.findings[0] = dataclasses.replace(c.findings[0], severity="info")
    assert any(d.startswith("results.findings[0]") for d in differences(a, c))


@st.composite
def projects(draw: st.DrawFn) -> Project:
    template = draw(st.sampled_from(["leaf-spine", "rail-leaf-spine", "fat-tree-3tier", "single-switch"]))
    sizes = {"single-switch": [2, 4, 8], "fat-tree-3tier": [8, 16]}.get(template, [2, 4, 8, 16])
    servers = draw(st.sampled_from(sizes))
    budget = draw(st.sampled_from([None, 12.0, 30.0, 42.0, 80.0]))
    p = Project()
    generate_into(p, GenerateOptions(template=template, servers=servers, rack_budget_kw=budget))
    gpus = 8 * servers
    tp = draw(st.sampled_from([1, 2, 8]))
    pp = draw(st.sampled_from([1, 2]))
    dp = max(gpus // (tp * pp), 1)
    batch = dp * draw(st.sampled_from([1, 4, 16]))
    model = draw(st.sampled_from(["llama3-8b", "llama3-70b"]))
    AddRows(
        "workloads",
        [Workload(id="w1", name="job", model_id=model, tp=tp, pp=pp, global_batch=batch, seq_len=4096)],
    ).apply(p)
    return p


EDITS = ("budget", "budget_none", "cooling", "batch", "micro", "seq", "price", "move")


def _edit(p: Project, kind: str, k: int) -> SetFields:
    racks = sorted(p.racks)
    rack = racks[k % len(racks)]
    wl = p.tables["workloads"]["w1"]
    if kind == "budget":
        return SetFields(p, "racks", rack, power_budget_kw=float(5 + k % 90))
    if kind == "budget_none":
        return SetFields(p, "racks", rack, power_budget_kw=None)
    if kind == "cooling":
        return SetFields(p, "racks", rack, cooling_id=COOLING[k % len(COOLING)])
    if kind == "batch":
        return SetFields(
            p, "workloads", "w1", global_batch=max(1, wl.global_batch * (1 + k % 4) // (1 + k % 3))
        )
    if kind == "micro":
        return SetFields(p, "workloads", "w1", micro_batch=1 + k % 4)
    if kind == "seq":
        return SetFields(p, "workloads", "w1", seq_len=1024 * (1 + k % 8))
    if kind == "price":
        return SetFields(p, "site", "site", electricity_usd_per_kwh=0.01 + k / 1e4)
    devices = sorted(d for d, row in p.devices.items() if row.rack_id is not None)
    return SetFields(p, "devices", devices[k % len(devices)], rack_id=rack, u_position=1 + k % 42)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    projects(), st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 10_000)), min_size=1, max_size=5)
)
def test_every_incremental_path_equals_a_cold_full_analysis_field_by_field(project, edits):
    p = project
    undo = UndoStack(p)
    got: list[Outcome] = []
    seen: list[ChangeSet] = []
    p.changed.connect(seen.append)
    runner = EngineRunner(got.append, force_sync=True)
    runner.submit(_snapshot(p))
    pending: list[ChangeSet] = []
    for i, (kind, k) in enumerate(edits):
        before = len(seen)
        try:
            undo.push(_edit(p, kind, k))
        except PlannerError:
            continue  # a refused edit (a full rack, a taken U slot) changes nothing
        if len(seen) == before:
            continue  # the value it had already
        pending.append(seen[-1])
        if i % 2 == 1 and k % 3 == 0:
            continue  # solve two edits together
        stages = frozenset().union(*map(dirty_stages, pending))
        runner.submit(_snapshot(p), stages=stages)
        pending.clear()
        assert got[-1].error == ""
        res = got[-1].results
        assert isinstance(res, Results)
        assert differences(res, analyze_project(p)) == [], (kind, sorted(stages))
    runner.close()


@pytest.mark.parametrize("kind", ["budget", "cooling"])
def test_a_rack_edit_keeps_routing_workload_and_device_draws(kind):
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=16, rack_budget_kw=42))
    got: list[Outcome] = []
    seen: list[ChangeSet] = []
    p.changed.connect(seen.append)
    runner = EngineRunner(got.append, force_sync=True)
    runner.submit(_snapshot(p))
    before = got[-1].results
    rack = sorted(p.racks)[0]
    cmd = (
        SetFields(p, "racks", rack, power_budget_kw=3.0)
        if kind == "budget"
        else SetFields(p, "racks", rack, cooling_id="generic-cold-plate-dlc-cdu")
    )
    UndoStack(p).push(cmd)
    runner.submit(_snapshot(p), change=seen[-1])
    after = got[-1].results
    assert "compile" not in after.stage_ms and "workload" not in after.stage_ms and "racks" in after.stage_ms
    assert after.fabric is before.fabric and after.workload is before.workload
    assert after.compiled.devices is before.compiled.devices and after.compiled.links is before.compiled.links
    assert after.power.device_load_w is before.power.device_load_w
    assert differences(after, analyze_project(p)) == []
    assert differences(after, before) != []  # the edit changed something the oracle sees
