"""The window states what `estimate --inference --no-chunked-prefill` and `--gemm-allreduce-fusion` take: the
workload dialog and the goal dialog show chunked_prefill and gemm_allreduce_fusion as check boxes, the advisor
form has both; toggling one edits the project (one undoable edit: undo restores it), the analysis serves it and
the results panel says it; English and Chinese."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QCheckBox

from gpuplanner.advisor.goal import project_goal
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog
from gpuplanner.ui.dialogs.goal_dialog import GoalDialog
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from tests.ui.conftest import keep_goal
from tests.ui.test_max_seqs_controls import SPACE, _serving_project

LABELS = {"chunked_prefill": "prefill chunked into decode steps", "gemm_allreduce_fusion": "all-reduce fused into the GEMM"}  # fmt: skip
OPTIONS = {"chunked_prefill": "--no-chunked-prefill", "gemm_allreduce_fusion": "--gemm-allreduce-fusion"}


def _entry(w):
    return next(e for e in w.doc.results.workloads if e.id == "w9").to_json()


def test_toggling_unchunked_prefill_in_the_workload_dialog_edits_the_project_and_undo_restores(make_window):
    w = make_window(_serving_project())
    before = _entry(w)
    assert before["error"] is None and "chunked_prefill" not in before  # stated only, as estimate's JSON
    dlg = WorkloadDialog(w.doc, w)
    for name, default in (("chunked_prefill", True), ("gemm_allreduce_fusion", False)):
        box = dlg.editors[name].widget
        assert isinstance(box, QCheckBox) and box.isChecked() is default
        assert dlg.labels[name].text() == LABELS[name]
        assert OPTIONS[name] in dlg.labels[name].toolTip() and OPTIONS[name] in box.toolTip()
    dlg.editors["chunked_prefill"].widget.setChecked(False)  # the user unticks it
    assert dlg.apply(), dlg.error.text()
    assert w.doc.project.tables["workloads"]["w9"].chunked_prefill is False
    after = _entry(w)
    assert after["chunked_prefill"] is False
    assert after["serving"]["max_requests_per_s"] != before["serving"]["max_requests_per_s"]
    assert after == next(e for e in analyze_project(w.doc.project).workloads if e.id == "w9").to_json()
    assert "prefill not chunked" in w.results_panel.workloads.text()
    w.doc.undo_stack.undo()
    assert w.doc.project.tables["workloads"]["w9"].chunked_prefill is True
    assert _entry(w) == before and "prefill not chunked" not in w.results_panel.workloads.text()
    w.doc.undo_stack.redo()
    assert w.doc.project.tables["workloads"]["w9"].chunked_prefill is False
    dlg.deleteLater()


def test_toggling_the_fusion_check_box_edits_the_project_and_undo_restores(make_window):
    w = make_window(_serving_project())
    dlg = WorkloadDialog(w.doc, w)
    dlg.editors["gemm_allreduce_fusion"].widget.setChecked(True)
    assert dlg.apply(), dlg.error.text()
    assert w.doc.project.tables["workloads"]["w9"].gemm_allreduce_fusion is True
    assert _entry(w)["gemm_allreduce_fusion"] is True
    assert "all-reduce fused into the GEMM" in w.results_panel.workloads.text()
    w.doc.undo_stack.undo()
    assert w.doc.project.tables["workloads"]["w9"].gemm_allreduce_fusion is False
    assert "gemm_allreduce_fusion" not in _entry(w)
    dlg.deleteLater()


@pytest.mark.parametrize("name", ["chunked_prefill", "gemm_allreduce_fusion"])
def test_the_goal_dialog_shows_a_check_box_and_undo_restores(window, qtbot, name):
    keep_goal(window, SPACE)
    dlg = GoalDialog(window.doc, window)
    qtbot.addWidget(dlg)
    ed = dlg.editors[name]
    assert isinstance(ed.widget, QCheckBox) and ed.widget.isChecked() is getattr(SPACE, name)
    assert dlg.labels[name].text() == LABELS[name]
    ed.widget.setChecked(not getattr(SPACE, name))
    assert dlg.apply(), dlg.error.text()
    assert project_goal(window.doc.project) == SPACE.with_(**{name: not getattr(SPACE, name)})
    window.doc.undo_stack.undo()
    assert project_goal(window.doc.project) == SPACE


def test_the_advisor_form_states_both(window, qtbot):
    keep_goal(window, SPACE)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    form = dlg.form
    form.kind.setCurrentIndex(form.kind.findData("inference"))
    assert form.chunked_prefill.isChecked() and not form.gemm_allreduce_fusion.isChecked()
    assert "--no-chunked-prefill" in form.chunked_prefill.toolTip()
    assert dlg.goal().chunked_prefill is True and dlg.goal().gemm_allreduce_fusion is False
    form.chunked_prefill.setChecked(False)
    form.gemm_allreduce_fusion.setChecked(True)
    assert dlg.goal().chunked_prefill is False and dlg.goal().gemm_allreduce_fusion is True
    assert dlg.keep_goal()
    goal = project_goal(window.doc.project)
    assert goal.chunked_prefill is False and goal.gemm_allreduce_fusion is True


def test_the_controls_read_chinese(window, make_window, qtbot, chinese):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    assert dlg.form.chunked_prefill.text() == "预填充分块并入解码步"
    assert dlg.form.gemm_allreduce_fusion.text() == "全归约与 GEMM 融合"
    assert "estimate --no-chunked-prefill" in dlg.form.chunked_prefill.toolTip()
    assert "勾选" in dlg.form.chunked_prefill.toolTip()
    w = make_window(_serving_project(chunked_prefill=False))
    wd = WorkloadDialog(w.doc, w)
    assert wd.labels["chunked_prefill"].text() == "分块预填充"
    assert wd.labels["gemm_allreduce_fusion"].text() == "GEMM 与全归约融合"
    assert not wd.editors["chunked_prefill"].widget.isChecked()
    assert "不分块预填充" in w.results_panel.workloads.text()
    wd.deleteLater()
