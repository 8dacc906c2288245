"""The Document's threaded engine path (every other UI test is synchronous): edits made while a solve runs
are superseded, and the figures the document ends with are those of a fresh full analysis of its final state."""

from __future__ import annotations

from gpuplanner.commands import SetFields
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into
from gpuplanner.ui.document import Document


def _figures(p, res) -> dict:
    out = results_json(p, res)
    out.pop("stage_ms", None)
    return out


def test_threaded_document_ends_with_the_figures_of_its_final_state(qtbot):
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=16, rack_budget_kw=42))
    doc = Document(p, synchronous=False)
    failures: list[str] = []
    doc.analysisFailed.connect(failures.append)
    with qtbot.waitSignal(doc.resultsReady, timeout=60000):
        doc.request_analysis()
    first = doc.results
    for i in range(6):  # a burst of edits: the runner must not deliver figures of an older state last
        doc.push(SetFields(doc.project, "site", "site", electricity_usd_per_kwh=0.2 + 0.05 * i))
    qtbot.waitUntil(lambda: doc._runner.idle() and not doc._timer.isActive(), timeout=60000)  # noqa: SLF001
    qtbot.wait(50)  # let the last queued outcome reach the UI thread
    assert failures == []
    assert doc.results is not first
    final = _figures(doc.project, analyze_project(doc.project))
    assert _figures(doc.project, doc.results) == final
    doc.close_engine()
