"""Scenario and phase as compile-time filters (engine/selection.py): no model copy, clear refusals, and the
JSON summary shows the settings the figures were solved with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.commands import AddRows
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.selection import select
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project
from gpuplanner.model.rows import Scenario
from gpuplanner.storage import open_project

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _with(project: Project, **scenarios: object) -> Project:
    rows = [
        Scenario(id=f"s{i}", name=name, overrides_json=ov if isinstance(ov, str) else json.dumps(ov))
        for i, (name, ov) in enumerate(scenarios.items())
    ]
    AddRows("scenarios", rows).apply(project)
    return project


def test_a_phase_and_a_scenario_select_the_models_own_rows_and_leave_the_model_alone() -> None:
    p = _with(
        open_project(EXAMPLES / "phased-pilot-to-su.gpuplan"), cheap={"site.electricity_usd_per_kwh": 0.01}
    )
    tables_before = {t: dict(rows) for t, rows in p.tables.items()}
    sel = select(p, "cheap", "ph1")
    assert 0 < len(sel.devices) < len(p.devices)
    assert all(d is p.devices[d.id] for d in sel.devices)  # the same row objects, not copies
    assert sel.inputs.site.electricity_usd_per_kwh == 0.01 != p.site.electricity_usd_per_kwh
    res = analyze_project(p, scenario="cheap", phase="ph1")
    assert res.scenario == "cheap" and res.phase == "ph1"
    assert {t: dict(rows) for t, rows in p.tables.items()} == tables_before  # nothing written back
    by_name = select(p, "cheap", p.tables["phases"]["ph1"].name)  # a phase by its name too
    assert [d.id for d in by_name.devices] == [d.id for d in sel.devices]


def test_the_summary_shows_the_scenarios_climate_the_figures_use() -> None:
    """A scenario that makes the site hot: the JSON's climate block says hot, as the PUE it prints does."""
    p = _with(open_project(EXAMPLES / "cluster-256-h100.gpuplan"), hot={"site.climate": "hot"})
    base = results_json(p, analyze_project(p))
    hot = results_json(p, analyze_project(p, scenario="hot"))
    assert base["climate"]["climate"] == p.site.climate != "hot"
    assert hot["climate"]["climate"] == "hot"
    assert hot["climate"]["cooling_overhead_factor"] > base["climate"]["cooling_overhead_factor"]
    assert hot["pue"] > base["pue"]


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not valid JSON"),
        ({"nowhere.x": 1}, "cannot override 'nowhere.x'"),
        ({"devices.id": "d1"}, "cannot override 'devices.id'"),
        ({"site.no_such": 1}, "no field 'no_such'"),
        ({"links.no_such": 1}, "no field 'no_such'"),
        ({"goal.kind": "training"}, "cannot override 'goal.kind'"),  # a model table, not an overridable one
        ({"teams.name": "x"}, "cannot override 'teams.name'"),
        ({"workloads.no_such": 1}, "no field 'no_such'"),
    ],
)
def test_a_bad_scenario_is_one_clear_refusal(overrides: object, words: str) -> None:
    p = _with(open_project(EXAMPLES / "cluster-256-h100.gpuplan"), bad=overrides)
    with pytest.raises(ValidationError) as err:
        analyze_project(p, scenario="bad")
    assert words in err.value.one_line() and "'bad'" in err.value.one_line()


def test_an_unknown_scenario_or_phase_names_the_ones_there_are() -> None:
    p = open_project(EXAMPLES / "phased-pilot-to-su.gpuplan")
    with pytest.raises(ValidationError, match="no phase 'ph9'"):
        analyze_project(p, phase="ph9")
    names = [ph.name for ph in p.tables["phases"].values()]
    with pytest.raises(ValidationError) as err:
        select(p, phase="ph9")
    assert all(n in err.value.one_line() for n in names)
    with pytest.raises(ValidationError, match="no scenario 'x'"):
        select(p, scenario="x")


def test_the_overridable_tables_are_the_models_own_row_classes() -> None:
    from gpuplanner.engine.selection import OVERRIDABLE_TABLES
    from gpuplanner.model.rows import ROW_TYPES

    assert set(OVERRIDABLE_TABLES) == {"site", "project", "racks", "devices", "links", "workloads"}
    assert all(OVERRIDABLE_TABLES[t] is ROW_TYPES[t] for t in OVERRIDABLE_TABLES)
