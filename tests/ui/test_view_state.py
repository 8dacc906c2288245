"""The document's view state and its wiring to the engine, without a window (QObjects only)."""

from __future__ import annotations

import json

from gpuplanner.commands import AddRows
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project
from gpuplanner.model.rows import Scenario
from gpuplanner.topology import GenerateOptions, generate_into
from gpuplanner.ui.document import Document
from gpuplanner.ui.view_state import ViewState


def test_setters_say_whether_anything_changed_and_signal_only_then(qtbot):
    v = ViewState()
    phases, scenarios, selections = [], [], []
    v.phaseChanged.connect(phases.append)
    v.scenarioChanged.connect(scenarios.append)
    v.selectionChanged.connect(selections.append)
    assert v.set_phase("ph1") and not v.set_phase("ph1")
    assert v.set_phase("") and v.phase_id is None  # "" means the whole project
    assert v.set_scenario("hot") and not v.set_scenario("hot")
    v.select(["d1", "d2"])
    assert phases == ["ph1", None] and scenarios == ["hot"] and selections == [["d1", "d2"]]
    assert v.selection == ["d1", "d2"]


def _figures(p: Project, res) -> dict:
    out = results_json(p, res)
    out.pop("stage_ms", None)
    return out


def test_choosing_a_scenario_in_the_view_state_reanalyses_the_document(qtbot):
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=8, rack_budget_kw=42))
    overrides = json.dumps({"site.electricity_usd_per_kwh": 0.4})
    AddRows("scenarios", [Scenario(id="s1", name="dear power", overrides_json=overrides)]).apply(p)
    doc = Document(p, synchronous=True)
    doc.request_analysis()
    base = doc.results
    assert base is not None and doc.scenario is None
    doc.view.set_scenario("dear power")
    assert doc.scenario == "dear power" and doc.results is not base
    # oracle: a direct full analysis through the same scenario
    assert _figures(p, doc.results) == _figures(p, analyze_project(p, scenario="dear power"))
    assert _figures(p, doc.results) != _figures(p, base)
    doc.set_scenario("dear power")  # the same again still gives fresh figures (the old behaviour)
    assert doc.results is not None
