"""The engine runner's threaded path without Qt: superseding, cancellation between stages, and results that are
always of the latest project state (oracle: a fresh full analyze_project of the final state)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from gpuplanner.commands import SetFields, UndoStack
from gpuplanner.engine.analysis import AnalysisCancelled, analyze_project
from gpuplanner.engine.runner import ALL_STAGES, EngineRunner, Outcome, dirty_stages
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project
from gpuplanner.model.changes import ChangeSet
from gpuplanner.topology import GenerateOptions, generate_into


def _snapshot(p: Project) -> Project:
    copy = Project(p.catalog)
    copy.tables = {t: dict(rows) for t, rows in p.tables.items()}
    copy._links_by_device = {d: set(ids) for d, ids in p._links_by_device.items()}  # noqa: SLF001
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

    def slow_solve(p, *, scenario=None, cancel=None):
        started.set()
        gate.wait(10)
        return analyze_project(p, scenario=scenario, cancel=cancel)

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

    def flaky(p, *, scenario=None, cancel=None):
        calls.append(1)
        if len(calls) == 1:
            raise ZeroDivisionError("boom")
        return analyze_project(p, scenario=scenario, cancel=cancel)

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

    def blocked(p, *, scenario=None, cancel=None):
        started.set()
        release.wait(10)
        return analyze_project(p, scenario=scenario, cancel=cancel)

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
    assert dirty_stages(money) == {"cost", "checks"}
    wl = ChangeSet()
    wl.note_updated("workloads", "w1", {"global_batch"})
    assert "workload" in dirty_stages(wl) and "fabric" not in dirty_stages(wl)
    moved = ChangeSet()
    moved.note_updated("devices", "d1", {"rack_id", "x"})
    assert dirty_stages(moved) == ALL_STAGES
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
