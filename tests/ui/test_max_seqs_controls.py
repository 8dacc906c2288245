"""The window states what `estimate --inference --max-seqs N` takes: the advisor form, the goal dialog and the
workload dialog edit max_seqs ("the stack's default" at 0), in English and Chinese; the analysis serves it."""

from __future__ import annotations

from PySide6.QtWidgets import QSpinBox

from gpuplanner.advisor import Goal
from gpuplanner.advisor.goal import project_goal
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Workload
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog
from gpuplanner.ui.dialogs.goal_dialog import GoalDialog
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from tests.ui.conftest import keep_goal, small_project

SPACE = Goal(kind="inference", requests_per_s=20, precision="fp8", servers=("nvidia-dgx-b200",),
             templates=("leaf-spine",), oversubs=(1.0,), max_servers=2)  # fmt: skip


def test_the_advisor_form_states_the_cap(window, qtbot):
    keep_goal(window, SPACE)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    form = dlg.form
    form.kind.setCurrentIndex(form.kind.findData("inference"))
    assert form.max_seqs.value() == 0 and form.max_seqs.text() == "the stack's default"
    assert dlg.goal().max_seqs == 0 and "--max-seqs" in form.max_seqs.toolTip()
    form.max_seqs.setValue(128)
    assert dlg.goal().max_seqs == 128
    assert dlg.keep_goal()
    assert project_goal(window.doc.project).max_seqs == 128


def test_the_goal_dialog_edits_the_cap(window, qtbot):
    keep_goal(window, SPACE)
    dlg = GoalDialog(window.doc, window)
    qtbot.addWidget(dlg)
    ed = dlg.editors["max_seqs"]
    assert isinstance(ed.widget, QSpinBox) and ed.widget.text() == "the serving stack's default"
    assert dlg.labels["max_seqs"].text() == "sequences at once ≤"
    ed.set(64)
    assert dlg.apply(), dlg.error.text()
    assert project_goal(window.doc.project) == SPACE.with_(max_seqs=64)
    window.doc.undo_stack.undo()
    assert project_goal(window.doc.project) == SPACE


def _serving_project(**kw):
    p = small_project()
    p.tables["workloads"].clear()
    wl = Workload(id="w9", name="chat", kind="inference", model_id="llama3-8b", prompt_len=128, output_len=128,
                  precision="fp8", serving_mode="aggregated", serving_stack="trtllm", **kw)  # fmt: skip
    p.tables["workloads"][wl.id] = wl
    return p


def test_the_workload_dialog_edits_the_cap_and_the_analysis_serves_it(make_window):
    w = make_window(_serving_project())
    before = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert before["error"] is None and "max_seqs" not in before  # stated only, as estimate's JSON
    dlg = WorkloadDialog(w.doc, w)
    ed = dlg.editors["max_seqs"]
    assert isinstance(ed.widget, QSpinBox) and ed.widget.text() == "the serving stack's default"
    assert dlg.labels["max_seqs"].text() == "max sequences at once"
    assert "--max-seqs" in dlg.labels["max_seqs"].toolTip()
    ed.set(32)
    assert dlg.apply(), dlg.error.text()
    assert w.doc.project.tables["workloads"]["w9"].max_seqs == 32
    after = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert after["max_seqs"] == 32 and after["serving"]["decode_batch"] <= 32
    assert after["serving"]["max_requests_per_s"] < before["serving"]["max_requests_per_s"]
    assert after == next(e for e in analyze_project(w.doc.project).workloads if e.id == "w9").to_json()
    w.doc.undo_stack.undo()
    assert w.doc.project.tables["workloads"]["w9"].max_seqs == 0
    dlg.deleteLater()


def test_the_controls_read_chinese(window, make_window, qtbot, chinese):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    assert dlg.form.max_seqs.text() == "按软件栈默认值"
    assert (
        "estimate --max-seqs" in dlg.form.max_seqs.toolTip() and "最大序列数" in dlg.form.max_seqs.toolTip()
    )
    w = make_window(_serving_project())
    wd = WorkloadDialog(w.doc, w)
    assert wd.editors["max_seqs"].widget.text() == "按推理软件栈默认值"
    assert wd.labels["max_seqs"].text() == "最大并发序列数"
    wd.deleteLater()
