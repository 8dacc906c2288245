"""The window states what `estimate --inference --max-batched-tokens N` takes: the advisor form, the goal dialog and
the workload dialog edit max_batched_tokens ("the engine's default" at 0), in English and Chinese; the analysis
serves it."""

from __future__ import annotations

from PySide6.QtWidgets import QSpinBox

from gpuplanner.advisor.goal import project_goal
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog
from gpuplanner.ui.dialogs.goal_dialog import GoalDialog
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from tests.ui.conftest import keep_goal
from tests.ui.test_max_seqs_controls import SPACE, _serving_project


def test_the_advisor_form_states_the_budget(window, qtbot):
    keep_goal(window, SPACE)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    form = dlg.form
    form.kind.setCurrentIndex(form.kind.findData("inference"))
    box = form.max_batched_tokens
    assert box.value() == 0 and box.text() == "the engine's default"
    assert dlg.goal().max_batched_tokens == 0 and "--max-batched-tokens" in box.toolTip()
    box.setValue(4096)
    assert dlg.goal().max_batched_tokens == 4096
    assert dlg.keep_goal()
    assert project_goal(window.doc.project).max_batched_tokens == 4096


def test_the_goal_dialog_edits_the_budget(window, qtbot):
    keep_goal(window, SPACE)
    dlg = GoalDialog(window.doc, window)
    qtbot.addWidget(dlg)
    ed = dlg.editors["max_batched_tokens"]
    assert isinstance(ed.widget, QSpinBox) and ed.widget.text() == "the engine's default"
    assert dlg.labels["max_batched_tokens"].text() == "tokens per engine step ≤"
    ed.set(2048)
    assert dlg.apply(), dlg.error.text()
    assert project_goal(window.doc.project) == SPACE.with_(max_batched_tokens=2048)
    window.doc.undo_stack.undo()
    assert project_goal(window.doc.project) == SPACE


def test_the_workload_dialog_edits_the_budget_and_the_analysis_serves_it(make_window):
    w = make_window(_serving_project())
    before = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert before["error"] is None and "max_batched_tokens" not in before  # stated only, as estimate's JSON
    dlg = WorkloadDialog(w.doc, w)
    ed = dlg.editors["max_batched_tokens"]
    assert isinstance(ed.widget, QSpinBox) and ed.widget.text() == "the engine's default"
    assert dlg.labels["max_batched_tokens"].text() == "max tokens per engine step"
    assert "--max-batched-tokens" in dlg.labels["max_batched_tokens"].toolTip()
    ed.set(256)
    assert dlg.apply(), dlg.error.text()
    assert w.doc.project.tables["workloads"]["w9"].max_batched_tokens == 256
    after = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert after["max_batched_tokens"] == 256
    assert after["serving"]["max_requests_per_s"] < before["serving"]["max_requests_per_s"]
    assert after == next(e for e in analyze_project(w.doc.project).workloads if e.id == "w9").to_json()
    w.doc.undo_stack.undo()
    assert w.doc.project.tables["workloads"]["w9"].max_batched_tokens == 0
    dlg.deleteLater()


def test_the_controls_read_chinese(window, make_window, qtbot, chinese):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    box = dlg.form.max_batched_tokens
    assert box.text() == "按引擎默认值"
    assert "estimate --max-batched-tokens" in box.toolTip() and "最大 token 数" in box.toolTip()
    w = make_window(_serving_project())
    wd = WorkloadDialog(w.doc, w)
    assert wd.editors["max_batched_tokens"].widget.text() == "按引擎默认值"
    assert wd.labels["max_batched_tokens"].text() == "每步最大 token 数"
    wd.deleteLater()
