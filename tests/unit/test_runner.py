"""The engine runner's threaded path without Qt: superseding, cancellation between stages, and results that are
always of the latest project state (oracle: a fresh full analyze_project of the final state)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.commands import SetFields, UndoStack
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import AnalysisCancelled, analyze_project
from gpuplanner.engine.runner import ALL_STAGES, EngineRunner, Outcome, dirty_stages
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project
from gpuplanner.model.changes import ChangeSet
from gpuplanner.topology import GenerateOptions, generate_into


def _snapshot(p: Project) -> Project:
    copy = Project(p.catalog)
    copy.tables = {t: rows.copy() for t, rows in p.tables.items()}
    copy.set_link_index(p.links_by_device())
    return copy


@pytest.fixture()
def project() -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=16, rack_budget_kw=42))
    return p


def _figures(p: Project, res) -> dict:
    out = results_json(p, res)
    out.pop("stage_ms", None)
    return out


def test_cancel_check_stops_between_stages(project):
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) >= 2

    with pytest.raises(AnalysisCancelled) as err:
        analyze_project(project, cancel=cancel)
    assert str(err.value) == "fabric"  # asked after compile (no), after fabric (yes)


def test_sync_mode_delivers_the_same_figures_as_a_direct_analysis(project):
    got: list[Outcome] = []
    runner = EngineRunner(got.append, force_sync=True)
    gen = runner.submit(_snapshot(project))
    assert [o.generation for o in got] == [gen] and got[0].error == ""
    assert _figures(project, got[0].results) == _figures(project, analyze_project(project))


def test_newer_requests_supersede_and_the_last_result_is_of_the_final_state(project):
    gate = threading.Event()
    started = threading.Event()

    def slow_solve(p, *, scenario=None, cancel=None, cache=None):
        started.set()
        gate.wait(10)
        return analyze_project(p, scenario=scenario, cancel=cancel, cache=cache)

    got: list[Outcome] = []
    runner = EngineRunner(got.append, solve=slow_solve)
    undo = UndoStack(project)
    price_field = "electricity_usd_per_kwh"
    first = _snapshot(project)
    runner.submit(first)
    assert started.wait(10)
    for i in range(5):  # edits while the first solve is blocked: each replaces the pending one
        undo.push(SetFields(project, "site", "site", **{price_field: 0.05 + 0.01 * i}))
        last = runner.submit(_snapshot(project))
    gate.set()
    assert runner.wait_idle(60)
    runner.close()
    assert runner.superseded == 4
    assert runner.cancelled == 1  # the blocked first solve saw newer work at its first stage boundary
    assert [o.generation for o in got] == [last]
    final = _figures(project, analyze_project(project))
    assert _figures(project, got[-1].results) == final
    assert _figures(first, analyze_project(first)) != final  # the edits changed figures: staleness would show


def test_a_solve_that_raises_reports_one_line_and_the_worker_keeps_going(project):
    calls = []

    def flaky(p, *, scenario=None, cancel=None, cache=None):
        calls.append(1)
        if len(calls) == 1:
            raise ZeroDivisionError("boom")
        return analyze_project(p, scenario=scenario, cancel=cancel, cache=cache)

    got: list[Outcome] = []
    runner = EngineRunner(got.append, solve=flaky)
    runner.submit(_snapshot(project))
    assert runner.wait_idle(60)
    runner.submit(_snapshot(project))
    assert runner.wait_idle(60)
    runner.close()
    assert got[0].error == "analysis failed: ZeroDivisionError: boom" and got[0].results is None
    assert got[1].error == "" and got[1].results is not None


def test_close_cancels_the_running_solve_and_refuses_new_work(project):
    started = threading.Event()
    release = threading.Event()

    def blocked(p, *, scenario=None, cancel=None, cache=None):
        started.set()
        release.wait(10)
        return analyze_project(p, scenario=scenario, cancel=cancel, cache=cache)

    got: list[Outcome] = []
    runner = EngineRunner(got.append, solve=blocked)
    runner.submit(_snapshot(project))
    assert started.wait(10)
    threading.Timer(0.05, release.set).start()
    runner.close()
    assert got == [] and runner.cancelled == 1
    with pytest.raises(RuntimeError):
        runner.submit(_snapshot(project))


def test_dirty_stages_by_change_kind():
    canvas = ChangeSet()
    canvas.note_updated("devices", "d1", {"x", "y"})
    assert dirty_stages(canvas) == frozenset()
    money = ChangeSet()
    money.note_updated("site", "site", {"electricity_usd_per_kwh"})
    assert dirty_stages(money) == {"thermal", "cost", "electrical", "checks"}
    wl = ChangeSet()
    wl.note_updated("workloads", "w1", {"global_batch"})
    assert "workload" in dirty_stages(wl) and "fabric" not in dirty_stages(wl)
    moved = ChangeSet()
    moved.note_updated("devices", "d1", {"rack_id", "u_position", "x"})
    assert dirty_stages(moved) == {"placement", "power", "thermal", "cost", "electrical", "checks"}
    budget = ChangeSet()
    budget.note_updated("racks", "r1", {"power_budget_kw", "cooling_id"})
    assert dirty_stages(budget) == {"racks", "power", "thermal", "cost", "electrical", "checks"}
    rerowed = ChangeSet()
    rerowed.note_updated("racks", "r1", {"power_budget_kw", "row"})  # the floor position moves cables
    assert dirty_stages(rerowed) == ALL_STAGES
    retyped = ChangeSet()
    retyped.note_updated("devices", "d1", {"rack_id", "type_id"})
    assert dirty_stages(retyped) == ALL_STAGES
    added = ChangeSet()
    added.note_added("links", "l1")
    assert dirty_stages(added) == ALL_STAGES
    assert dirty_stages(None) == ALL_STAGES


def test_a_canvas_only_edit_is_not_solved(project):
    got: list[Outcome] = []
    runner = EngineRunner(got.append, force_sync=True)
    cs = ChangeSet()
    cs.note_updated("devices", next(iter(project.devices)), {"x"})
    runner.submit(_snapshot(project), change=cs)
    assert got == []
    np.testing.assert_equal(runner.generation, 0)


def test_a_money_edit_reuses_upstream_stages_and_matches_a_full_analysis(project):
    got: list[Outcome] = []
    runner = EngineRunner(got.append, force_sync=True)
    undo = UndoStack(project)
    cs_seen: list[ChangeSet] = []
    project.changed.connect(cs_seen.append)
    runner.submit(_snapshot(project))
    undo.push(SetFields(project, "site", "site", electricity_usd_per_kwh=0.31, discount_rate_pct=5.0))
    runner.submit(_snapshot(project), change=cs_seen[-1])
    assert runner.partial == 1 and got[-1].stages == {"thermal", "cost", "electrical", "checks"}
    # upstream reused, not recomputed: the same arrays, with today's settings as the compiled inputs
    new, old = got[-1].results.compiled, got[0].results.compiled
    assert new.devices is old.devices and new.links is old.links and new.racks is old.racks
    assert new.inputs.site.electricity_usd_per_kwh == 0.31 != old.inputs.site.electricity_usd_per_kwh
    assert _figures(project, got[-1].results) == _figures(project, analyze_project(project))


_EDITS = ("money", "money2", "canvas", "rack", "workload_none")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(_EDITS), st.integers(0, 10_000)), min_size=1, max_size=5))
def test_incremental_results_equal_a_full_recompute_after_random_edits(project, edits):
    got: list[Outcome] = []
    runner = EngineRunner(got.append, force_sync=True)
    p = _snapshot(project)
    undo = UndoStack(p)
    seen: list[ChangeSet] = []
    p.changed.connect(seen.append)
    runner.submit(_snapshot(p))
    devices = sorted(p.devices)
    racks = sorted(p.racks)
    for kind, k in edits:
        if kind == "money":
            cmd = SetFields(p, "site", "site", electricity_usd_per_kwh=0.01 + k / 1e4)
        elif kind == "money2":
            cmd = SetFields(p, "site", "site", tco_years=1 + k % 9, staff_usd_per_year=float(k * 10))
        elif kind == "canvas":
            cmd = SetFields(p, "devices", devices[k % len(devices)], x=float(k), y=float(k % 97))
        elif kind == "rack":
            d = p.devices[devices[k % len(devices)]]
            if d.rack_id is None:
                continue
            cmd = SetFields(p, "devices", d.id, rack_id=racks[k % len(racks)])
        else:
            cmd = SetFields(p, "site", "site", target_pue=1.1 + (k % 50) / 100)
        before = len(seen)
        try:
            undo.push(cmd)
        except PlannerError:
            continue  # a refused edit (e.g. a rack that is full) changes nothing
        if len(seen) == before:
            continue  # the value it had already (a move to the same rack): no change, nothing to solve
        runner.submit(_snapshot(p), change=seen[-1])
        assert got[-1].error == ""
        assert _figures(p, got[-1].results) == _figures(p, analyze_project(p))


# -- the incremental paths (engine/incremental.py, analysis.reanalyze) against a full analysis -------------


@pytest.fixture()
def trained() -> Project:
    """The leaf-spine plan with a data-parallel training job on its GPUs (power follows the workload)."""
    from gpuplanner.commands import AddRows
    from gpuplanner.model.rows import Workload

    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=16, rack_budget_kw=42))
    AddRows(
        "workloads",
        [Workload(id="w1", name="dp", model_id="llama3-8b", tp=8, pp=1, global_batch=512, seq_len=4096)],
    ).apply(p)
    return p


def _sync_runner(p: Project) -> tuple[EngineRunner, list[Outcome], list[ChangeSet]]:
    got: list[Outcome] = []
    seen: list[ChangeSet] = []
    p.changed.connect(seen.append)
    runner = EngineRunner(got.append, force_sync=True)
    runner.submit(_snapshot(p))
    return runner, got, seen


def test_a_rack_move_patches_placement_and_power_and_equals_a_full_analysis(trained):
    p = trained
    runner, got, seen = _sync_runner(p)
    before = got[-1].results
    d = next(d for d in p.devices.values() if d.rack_id == "r1")
    UndoStack(p).push(SetFields(p, "devices", d.id, rack_id="r2", u_position=40))
    runner.submit(_snapshot(p), change=seen[-1])
    after = got[-1].results
    assert got[-1].stages == {"placement", "power", "thermal", "cost", "electrical", "checks"}
    assert "compile" not in after.stage_ms and "placement" in after.stage_ms
    # kept, not recomputed: routing, workload, device draws; moved: the device's rack and its racks' kW
    assert after.fabric.router is before.fabric.router and after.workload is before.workload
    assert after.power.device_max_w is before.power.device_max_w
    row = after.compiled.devices.row[d.id]
    r1, r2 = after.compiled.racks.row["r1"], after.compiled.racks.row["r2"]
    assert after.compiled.devices.rack[row] == r2
    assert after.power.rack_kw_max[r1] < before.power.rack_kw_max[r1]
    assert after.power.rack_kw_max[r2] > before.power.rack_kw_max[r2]
    assert _figures(p, after) == _figures(p, analyze_project(p))


def test_a_move_that_changes_a_cable_choice_replans_and_equals_a_full_analysis(trained):
    p = trained
    runner, got, seen = _sync_runner(p)
    before = got[-1].results.fabric.cables
    d = next(d for d in p.devices.values() if d.rack_id == "r1")
    UndoStack(p).push(SetFields(p, "devices", d.id, rack_id="r5", u_position=30))  # next to its leaf
    runner.submit(_snapshot(p), change=seen[-1])
    after = got[-1].results.fabric.cables
    assert after.medium.count("dac") > before.medium.count("dac")  # the short run took copper
    assert _figures(p, got[-1].results) == _figures(p, analyze_project(p))


def test_a_workload_edit_keeps_compile_and_fabric_and_equals_a_full_analysis(trained):
    p = trained
    runner, got, seen = _sync_runner(p)
    before = got[-1].results
    UndoStack(p).push(SetFields(p, "workloads", "w1", global_batch=2048))
    runner.submit(_snapshot(p), change=seen[-1])
    after = got[-1].results
    assert after.compiled.devices is before.compiled.devices and after.compiled.links is before.compiled.links
    assert after.fabric is before.fabric
    assert after.workload is not before.workload
    assert after.workload.estimate.step_time_s != before.workload.estimate.step_time_s
    assert _figures(p, after) == _figures(p, analyze_project(p))


def test_the_runner_owns_its_caches_and_drops_them_on_close(trained):
    runner, got, seen = _sync_runner(trained)
    router = got[-1].results.fabric.router
    runner.submit(_snapshot(trained))  # everything again: the router comes from the runner's cache
    assert got[-1].results.fabric.router is router
    assert analyze_project(trained).fabric.router is not router  # no hidden cache outside the runner
    runner.close()
    assert runner.cache.topologies._entries == {}  # noqa: SLF001
    assert runner.cache.link_rows._last is None  # noqa: SLF001


_TRAINED_EDITS = ("money", "rack", "uslot", "workload", "canvas", "budget")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(_TRAINED_EDITS), st.integers(0, 10_000)), min_size=1, max_size=6))
def test_moves_price_and_workload_edits_equal_a_full_recompute(trained, edits):
    """Oracle: analyze_project of the edited project, compared through every figure results_json exposes.
    Edits are pushed two at a time sometimes, so one solve sees several kinds of change at once."""
    p = _snapshot(trained)
    undo = UndoStack(p)
    runner, got, seen = _sync_runner(p)
    devices = sorted(p.devices)
    racks = sorted(p.racks)
    pending: list[ChangeSet] = []
    for i, (kind, k) in enumerate(edits):
        dev = p.devices[devices[k % len(devices)]]
        if kind == "money":
            cmd = SetFields(p, "site", "site", electricity_usd_per_kwh=0.01 + k / 1e4)
        elif kind == "rack":
            cmd = SetFields(p, "devices", dev.id, rack_id=racks[k % len(racks)], u_position=1 + k % 42)
        elif kind == "uslot":
            cmd = SetFields(p, "devices", dev.id, u_position=1 + k % 42)
        elif kind == "workload":
            cmd = SetFields(p, "workloads", "w1", global_batch=64 * (1 + k % 32))
        elif kind == "canvas":
            cmd = SetFields(p, "devices", dev.id, x=float(k), y=float(k % 97))
        else:
            cmd = SetFields(p, "racks", racks[k % len(racks)], power_budget_kw=float(5 + k % 60))
        before = len(seen)
        try:
            undo.push(cmd)
        except PlannerError:
            continue  # a refused edit (e.g. a U slot that is taken) changes nothing
        if len(seen) == before:
            continue  # the value it had already: no change
        pending.append(seen[-1])
        if i % 2 == 1 and k % 3 == 0:
            continue  # solve two edits together
        runner.submit(_snapshot(p), stages=frozenset().union(*map(dirty_stages, pending)) or None)
        pending.clear()
        assert got[-1].error == ""
        assert _figures(p, got[-1].results) == _figures(p, analyze_project(p))
