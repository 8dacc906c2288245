"""Scenarios and phases as compile-time filters (engine/selection.py) against the copy-based reference
(tests/oracles/scenario_reference.py: the phase's rows copied into a new Project, the scenario's overrides
written into a copy's rows, the copy analysed plain), field by field over the whole ``Results``: every
compiled array and its inputs, the fabric, cables, workload, power, thermal, cost, electrical, limits and
every finding.

Projects: every example in examples/ (with its own scenarios and phases, plus a set of scenarios that touch
each kind of override: settings, a device swap, one value for a whole rack/device/link column, workloads)
and random projects from tests/strategies.py, given random phases, partitions, teams, floor items and
scenarios.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.commands import AddRows, ReplaceRows
from gpuplanner.engine.analysis import Results, analyze_project
from gpuplanner.engine.runner import EngineRunner, Outcome
from gpuplanner.engine.scenarios import analyze_scenario, scenario_stages
from gpuplanner.model import Project
from gpuplanner.model.changes import ChangeSet
from gpuplanner.model.rows import FloorItem, Phase, Scenario, Team
from gpuplanner.storage import open_project
from tests.oracles.scenario_reference import analyze_by_copy, ordered_phases
from tests.strategies import projects

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.gpuplan"))
# each kind of override the scenario format has (JSON data: table.field → value)
EXTRA_SCENARIOS: dict[str, dict[str, Any]] = {
    "dear power, 3 years": {"site.electricity_usd_per_kwh": 0.31, "site.tco_years": 3},
    "yuan": {"project.currency": "CNY"},
    "h200": {"swap.nvidia-dgx-h100": "nvidia-dgx-h200", "swap.supermicro-sys-821ge-tnhr": "nvidia-dgx-h200"},
    "liquid": {"racks.cooling_id": "generic-cold-plate-dlc-cdu", "racks.power_budget_kw": 130.0},
    "list price": {"devices.price_usd": 250000.0},
    "long fixed cables": {"links.length_m": 45.0, "links.multiplicity": 2},
    "bigger batch": {"workloads.global_batch": 1024},
}
SKIP = {
    "stage_ms",
    "scenario",
    "phase",
    "phase_id",
    "router",
}  # the view's own labels; the router is a solver object


def assert_same(a: Any, b: Any, path: str = "results") -> None:
    """Field by field: dataclasses, mappings, sequences, numpy arrays (NaN equal NaN), floats exactly."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), path
        for f in dataclasses.fields(a):
            if f.name not in SKIP:
                assert_same(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.shape == b.shape, path
        if a.dtype.kind in "fc":
            assert np.array_equal(a, b, equal_nan=True), path
        else:
            assert a.tolist() == b.tolist(), path
    elif sp.issparse(a):
        assert sp.issparse(b) and a.shape == b.shape and (a != b).nnz == 0, path
    elif isinstance(a, dict) or (hasattr(a, "items") and hasattr(a, "keys")):
        assert set(a.keys()) == set(b.keys()), path
        for k in a:
            assert_same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        assert math.isnan(b), path
    elif hasattr(a, "__dict__") and not isinstance(a, type) and type(a).__module__.startswith("gpuplanner"):
        assert type(a) is type(b), path
        assert_same(vars(a), vars(b), path)
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def _both(project: Project, scenario: str | None, phase: Phase | None) -> tuple[Any, Any]:
    """(filter result, reference result), or the two one-line errors when the analysis refuses."""
    try:
        new: Any = analyze_project(project, scenario=scenario, phase=phase.id if phase else None)
    except Exception as exc:  # noqa: BLE001 - the same refusal is what the reference must give too
        new = ("error", type(exc).__name__, str(exc))
    try:
        old: Any = analyze_by_copy(project, scenario, phase)
    except Exception as exc:  # noqa: BLE001
        old = ("error", type(exc).__name__, str(exc))
    return new, old


def _compared(project: Project, name: str, base: Results | None, phase: Phase | None) -> Any:
    """A scenario compare's result (engine/scenarios.py: upstream stages of ``base`` reused when the
    overrides are settings only), or its error, as ``_both`` gives them."""
    try:
        return analyze_scenario(project, name, base, phase=phase.id if phase else None)
    except Exception as exc:  # noqa: BLE001
        return ("error", type(exc).__name__, str(exc))


def _check_every_view(project: Project) -> int:
    views = 0
    names: list[str | None] = [None, *(s.name for s in project.rows_of(Scenario).values())]
    for phase in [None, *ordered_phases(project)]:
        base = None
        for sc in names:
            new, old = _both(project, sc, phase)
            if sc is None:
                base = new if isinstance(new, Results) else None
            elif base is not None:  # the compare's shortcut gives what the full analysis gives
                compared = _compared(project, sc, base, phase)
                if isinstance(new, Results):
                    assert_same(compared, new, f"compare[{sc!r}]")
                    assert compared.scenario == new.scenario
                else:
                    assert compared == new
            if isinstance(new, Results):
                assert isinstance(old, Results), (sc, phase, old)
                assert_same(new, old, f"results[{sc!r}, {phase.id if phase else None!r}]")
                assert new.scenario == (sc or "")
                assert new.phase == (phase.id if phase else "")
                assert list(new.compiled.inputs.floor_items) == list(old.compiled.inputs.floor_items)
            else:  # the same refusal both ways (a bad override names the same key)
                assert new == old
            views += 1
    return views


def _with_extra_scenarios(project: Project) -> Project:
    rows = [
        Scenario(id=project.new_id("scenarios"), name=name, overrides_json=json.dumps(ov))
        for name, ov in EXTRA_SCENARIOS.items()
    ]
    AddRows("scenarios", rows).apply(project)
    return project


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_scenario_and_phase_equals_the_copy_based_analysis(path: Path) -> None:
    project = _with_extra_scenarios(open_project(path))
    views = _check_every_view(project)
    assert views >= len(EXTRA_SCENARIOS) + 1


def test_the_phased_example_really_filters() -> None:
    """The phased example's phases are subsets (so the oracle above compares something that differs)."""
    path = next(p for p in EXAMPLES if "phased" in p.stem)
    project = open_project(path)
    sizes = [
        len(analyze_project(project, phase=ph.id).compiled.devices.ids) for ph in ordered_phases(project)
    ]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1] == len(project.devices)


OVERRIDES = st.sampled_from(
    [
        {},
        {"site.electricity_usd_per_kwh": 0.02},
        {"site.rack_pitch_m": 1.2, "site.cable_slack_m": 3.0},
        {"site.hall_width_m": 3.0, "site.hall_depth_m": 3.0},
        {"project.currency": "EUR"},
        {"project.usd_exchange_rate": 7.1, "site.discount_rate_pct": 3.0},
        {"site.tco_years": 2, "site.staff_usd_per_year": 1e6, "site.cloud_usd_per_gpu_hour": 9.0},
        {"swap.nvidia-dgx-h100": "nvidia-dgx-b200"},
        {"swap.nvidia-dgx-a100": "nvidia-dgx-h100", "swap.nvidia-dgx-h100": "nvidia-dgx-h200"},
        {"devices.type_id": "nvidia-dgx-h100"},
        {"devices.price_usd": 1000.0},
        {"devices.partition": "p1"},
        {"racks.row": "Z"},
        {"racks.power_budget_kw": 5.0},
        {"links.speed_gbps": 100.0},
        {"links.length_m": None},
        {"workloads.tp": 2},
        {"site.no_such_field": 1},
        {"nowhere.x": 1},
    ]
)


@st.composite
def phased_projects(draw: st.DrawFn) -> Project:
    """A random project (tests/strategies.py) given up to three phases over its rows, partitions, teams,
    floor items and up to three scenarios."""
    p: Project = draw(projects())
    n_phases = draw(st.integers(0, 3))
    phases = [Phase(id=f"ph{i}", name=f"phase {i}", order=draw(st.integers(1, 3))) for i in range(n_phases)]
    AddRows("phases", phases).apply(p)
    choice = st.sampled_from(["", *(ph.id for ph in phases)])
    for table in ("racks", "devices", "links"):
        rows = list(p.tables[table].values())
        new = [
            dataclasses.replace(
                r,
                phase_id=draw(choice),
                **({"partition": draw(st.sampled_from(["", "p1", "p2"]))} if table == "devices" else {}),
            )
            for r in rows
        ]
        if new:
            ReplaceRows(table, new).apply(p)
    teams = [
        Team(
            id=f"t{i}",
            name=f"team {i}",
            partition=draw(st.sampled_from(["", "p1", "p2"])),
            gpu_guaranteed=draw(st.integers(0, 64)),
            largest_job_gpus=draw(st.integers(0, 64)),
        )
        for i in range(draw(st.integers(0, 2)))
    ]
    AddRows("teams", teams).apply(p)
    items = [
        FloorItem(
            id=f"fi{i}",
            name=f"unit {i}",
            kind=draw(st.sampled_from(["crah", "cdu", "pdu", "utility-feed"])),
            capacity_kw=draw(st.floats(0, 500)),
            row=draw(st.sampled_from(["", "A", "B"])),
            phase_id=draw(choice),
        )
        for i in range(draw(st.integers(0, 3)))
    ]
    AddRows("floor_items", items).apply(p)
    scenarios = [
        Scenario(id=f"s{i}", name=f"scenario {i}", overrides_json=json.dumps(draw(OVERRIDES)))
        for i in range(draw(st.integers(0, 3)))
    ]
    AddRows("scenarios", scenarios).apply(p)
    return p


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(phased_projects())
def test_random_projects_every_scenario_and_phase_equal_the_copy_based_analysis(p: Project) -> None:
    _check_every_view(p)


def _snapshot(p: Project) -> Project:
    copy = Project(p.catalog)
    copy.tables = {t: dict(rows) for t, rows in p.tables.items()}
    return copy


def test_runner_reanalysis_of_a_phase_and_scenario_matches_the_copy_based_analysis() -> None:
    """The runner's dirty-stage path on a phase and a scenario: a money edit (the cost stages only) and a
    workload edit after a full solve give what the copy-based analysis of the edited project gives; a
    switch to another phase is solved in full, not patched."""
    path = next(p for p in EXAMPLES if "phased" in p.stem)
    project = _with_extra_scenarios(open_project(path))
    seen: list[ChangeSet] = []
    project.changed.connect(seen.append)
    got: list[Outcome] = []
    runner = EngineRunner(got.append, force_sync=True)
    view = {"scenario": "liquid", "phase": ordered_phases(project)[1].id}
    try:
        runner.submit(_snapshot(project), **view)
        first = got[-1].results
        assert first is not None and runner.partial == 0
        ReplaceRows("site", [dataclasses.replace(project.site, electricity_usd_per_kwh=0.5)]).apply(project)
        runner.submit(_snapshot(project), **view, change=seen[-1])
        assert runner.partial == 1 and got[-1].results is not None
        assert got[-1].results.compiled.racks is first.compiled.racks  # upstream reused
        assert got[-1].results.thermal.energy_usd_per_year > first.thermal.energy_usd_per_year
        phase = project.tables["phases"][view["phase"]]
        assert_same(got[-1].results, analyze_by_copy(project, "liquid", phase))
        wl = next(iter(project.tables["workloads"].values()))
        ReplaceRows("workloads", [dataclasses.replace(wl, global_batch=wl.global_batch * 2)]).apply(project)
        runner.submit(_snapshot(project), **view, change=seen[-1])
        assert runner.partial == 2
        assert_same(got[-1].results, analyze_by_copy(project, "liquid", phase))
        last = ordered_phases(project)[-1]
        ReplaceRows("site", [dataclasses.replace(project.site, electricity_usd_per_kwh=0.2)]).apply(project)
        runner.submit(_snapshot(project), scenario="liquid", phase=last.id, change=seen[-1])
        assert runner.partial == 2  # another phase: solved in full
        assert_same(got[-1].results, analyze_by_copy(project, "liquid", last))
    finally:
        runner.close()


def test_a_settings_only_scenario_reuses_the_base_arrays_and_a_swap_does_not() -> None:
    path = next(p for p in EXAMPLES if "superpod" in p.stem)
    project = _with_extra_scenarios(open_project(path))
    base = analyze_project(project)
    assert scenario_stages(project, "dear power, 3 years") == {"thermal", "cost", "electrical", "checks"}
    assert "workload" in scenario_stages(project, "bigger batch")
    assert "compile" in scenario_stages(project, "h200") and "compile" in scenario_stages(project, "liquid")
    cheap = analyze_scenario(project, "dear power, 3 years", base)
    assert cheap.compiled.devices is base.compiled.devices and cheap.fabric is base.fabric
    assert cheap.cost.tco_years == 3 != base.cost.tco_years
    swapped = analyze_scenario(project, "h200", base)
    assert swapped.compiled.devices is not base.compiled.devices
    assert "nvidia-dgx-h200" in swapped.compiled.devices.type_ids
