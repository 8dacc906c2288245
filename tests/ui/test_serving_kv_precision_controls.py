"""The window states what `estimate --inference --kv-fraction F --precision P` takes (s10 polish):

- the advisor form has a precision (bf16 / fp16 / fp8, and fp4 for a serving goal only) and a KV-cache share
  ("the stack's default" at 0); the search runs with exactly the goal the form shows, and each front design's
  rate is the serving model's for that goal;
- the goal dialog edits the goal's KV-cache share;
- the workload dialog edits the workload's KV-cache share, and shows a TTFT/TPOT percentile of 0 as "mean"
  (its Chinese in the Chinese window), not "0.00".
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from PySide6.QtWidgets import QDoubleSpinBox

from gpuplanner.advisor import Goal
from gpuplanner.advisor.evaluate import catalog, serving_capacity
from gpuplanner.advisor.goal import project_goal
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Workload
from gpuplanner.ui.dialogs import advisor_dialog
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog
from gpuplanner.ui.dialogs.goal_dialog import GoalDialog
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from tests.ui.conftest import keep_goal, small_project

SPACE = Goal(
    kind="inference",
    requests_per_s=20,
    precision="bf16",
    servers=("nvidia-dgx-b200",),
    templates=("leaf-spine",),
    oversubs=(1.0,),
    max_servers=2,
    facility_kw_max=600.0,
)
WANT = SPACE.with_(precision="fp4", kv_fraction=0.95, serving_stack="trtllm", tpot_s_max=0.2)


def _items(combo) -> list:
    return [combo.itemData(i) for i in range(combo.count())]


def _enabled(combo, value: str) -> bool:
    return combo.model().item(combo.findData(value)).isEnabled()


# -- the advisor form ---------------------------------------------------------------------------------------
def test_the_form_offers_the_goals_precisions_and_fp4_only_for_a_serving_goal(window, qtbot):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    form = dlg.form
    assert _items(form.precision) == ["bf16", "fp16", "fp8", "fp4"]
    form.kind.setCurrentIndex(form.kind.findData("training"))
    assert not _enabled(form.precision, "fp4") and _enabled(form.precision, "fp8")
    form.kind.setCurrentIndex(form.kind.findData("inference"))
    assert _enabled(form.precision, "fp4")
    form.precision.setCurrentIndex(form.precision.findData("fp4"))
    assert dlg.goal().precision == "fp4"
    # a training goal left in fp4 is refused naming the field, not searched, not crashed
    form.kind.setCurrentIndex(form.kind.findData("training"))
    dlg.search()
    assert dlg.result is None and "precision" in dlg.summary.text() and "fp4" in dlg.summary.text()


def test_the_kv_share_reads_the_stacks_default_at_zero(window, qtbot):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    form = dlg.form
    form.kind.setCurrentIndex(form.kind.findData("inference"))
    assert form.kv_fraction.value() == 0 and form.kv_fraction.text() == "the stack's default"
    assert dlg.goal().kv_fraction == 0.0
    assert (form.kv_fraction.minimum(), form.kv_fraction.maximum()) == (0.0, 1.0)
    form.kv_fraction.setValue(0.9)
    assert dlg.goal().kv_fraction == 0.9
    assert "--kv-fraction" in form.kv_fraction.toolTip()


def test_the_search_runs_with_the_forms_precision_and_kv_share(window, qtbot, monkeypatch):
    keep_goal(window, SPACE)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    form = dlg.form
    assert form.precision.currentData() == "bf16" and form.kv_fraction.value() == 0  # from the project's goal
    form.precision.setCurrentIndex(form.precision.findData("fp4"))
    form.kv_fraction.setValue(0.95)
    form.stack.setCurrentIndex(form.stack.findData("trtllm"))
    form.tpot.setValue(200)
    form.rack_kw.setValue(0)
    assert dlg.goal() == WANT.with_(rack_kw_max=None, max_servers=form.max_servers.value())
    want = dlg.goal()
    seen: list[Goal] = []
    real = advisor_dialog.advise

    def spy(goal, **kw):
        seen.append(goal)
        return real(goal, **kw)

    monkeypatch.setattr(advisor_dialog, "advise", spy)
    with ThreadPoolExecutor(2) as ex:
        dlg.search(executor=ex)
        dlg.wait()
        qtbot.waitUntil(lambda: dlg.result is not None, timeout=120_000)
    assert seen == [want]
    assert dlg.result.front
    cat = catalog()
    for d in dlg.result.front:  # fp4 weights, TensorRT-LLM's rule at 0.95: the serving model's rate
        cap = serving_capacity(cat, want, cat.get(d["server"]), d["gpus"])
        assert d["requests_per_s_max"] == cap["requests_per_s"]
        assert d["serving"]["kv_fraction"] == 0.95
    # and the same goal at the stack's default share is another rate (the control reaches the engine)
    d = dlg.result.front[0]
    other = serving_capacity(cat, want.with_(kv_fraction=0.0), cat.get(d["server"]), d["gpus"])
    assert other["requests_per_s"] != d["requests_per_s_max"]


def test_the_forms_precision_and_kv_share_are_kept_into_the_project(window, qtbot):
    keep_goal(window, WANT)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    assert dlg.form.precision.currentData() == "fp4" and dlg.form.kv_fraction.value() == 0.95
    assert dlg.goal() == WANT
    dlg.form.precision.setCurrentIndex(dlg.form.precision.findData("fp8"))
    dlg.form.kv_fraction.setValue(0)
    assert dlg.keep_goal()
    assert project_goal(window.doc.project) == WANT.with_(precision="fp8", kv_fraction=0.0)


def test_the_forms_new_controls_read_chinese(window, qtbot, chinese):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    form = dlg.form
    assert [form.precision.itemText(i) for i in range(form.precision.count())] == [
        "BF16",
        "FP16",
        "FP8",
        "FP4",
    ]
    assert form.kv_fraction.text() == "按软件栈默认值"
    assert "FP4 仅用于推理服务目标" in form.precision.toolTip()
    assert "estimate --kv-fraction" in form.kv_fraction.toolTip() and "显存占比" in form.kv_fraction.toolTip()


# -- the goal dialog ----------------------------------------------------------------------------------------
def test_the_goal_dialog_edits_the_kv_share(window, qtbot):
    keep_goal(window, SPACE)
    dlg = GoalDialog(window.doc, window)
    qtbot.addWidget(dlg)
    ed = dlg.editors["kv_fraction"]
    assert isinstance(ed.widget, QDoubleSpinBox) and ed.widget.text() == "the serving stack's default"
    assert dlg.labels["kv_fraction"].text() == "KV-cache share"
    ed.set(0.95)
    assert dlg.apply(), dlg.error.text()
    assert project_goal(window.doc.project) == SPACE.with_(kv_fraction=0.95)
    window.doc.undo_stack.undo()
    assert project_goal(window.doc.project) == SPACE


# -- the workload dialog ------------------------------------------------------------------------------------
def _serving_project(**kw):
    p = small_project()
    p.tables["workloads"].clear()
    wl = Workload(id="w9", name="chat", kind="inference", model_id="llama3-8b", prompt_len=1024, output_len=2048,
                  precision="fp8", serving_mode="aggregated", **kw)  # fmt: skip
    p.tables["workloads"][wl.id] = wl
    return p


def test_the_workload_dialog_shows_a_percentile_of_zero_as_mean(make_window):
    w = make_window(_serving_project(tpot_percentile=99.0))
    dlg = WorkloadDialog(w.doc, w)
    ttft, tpot = dlg.editors["ttft_percentile"].widget, dlg.editors["tpot_percentile"].widget
    assert ttft.text() == "mean" and tpot.text() == "99.00"
    assert ttft.maximum() < 100  # 100 itself is not a percentile the engine takes
    dlg.editors["ttft_percentile"].set(95.0)
    dlg.editors["tpot_percentile"].set(0.0)
    assert tpot.text() == "mean"
    assert dlg.apply(), dlg.error.text()
    row = w.doc.project.tables["workloads"]["w9"]
    assert (row.ttft_percentile, row.tpot_percentile) == (95.0, 0.0)
    dlg.deleteLater()


def test_the_workload_dialog_edits_the_kv_share_and_the_analysis_serves_it(make_window):
    w = make_window(_serving_project())
    before = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert before["error"] is None and "kv_fraction" not in before  # stated only, as estimate's JSON
    dlg = WorkloadDialog(w.doc, w)
    ed = dlg.editors["kv_fraction"]
    assert isinstance(ed.widget, QDoubleSpinBox) and ed.widget.text() == "the serving stack's default"
    assert dlg.labels["kv_fraction"].text() == "KV-cache memory share"
    assert "--kv-fraction" in dlg.labels["kv_fraction"].toolTip()
    ed.set(0.6)
    assert dlg.apply(), dlg.error.text()
    assert w.doc.project.tables["workloads"]["w9"].kv_fraction == 0.6
    after = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert after["kv_fraction"] == 0.6
    # offline with a 2,048-token output the KV cache binds: a smaller share serves less
    assert after["serving"]["max_requests_per_s"] < before["serving"]["max_requests_per_s"]
    fresh = next(e for e in analyze_project(w.doc.project).workloads if e.id == "w9").to_json()
    assert after == fresh
    w.doc.undo_stack.undo()
    assert w.doc.project.tables["workloads"]["w9"].kv_fraction == 0.0
    dlg.deleteLater()


def test_the_workload_dialogs_serving_fields_read_chinese(make_window, chinese):
    w = make_window(_serving_project())
    dlg = WorkloadDialog(w.doc, w)
    assert dlg.editors["ttft_percentile"].widget.text() == "平均值"
    assert dlg.editors["tpot_percentile"].widget.text() == "平均值"
    assert dlg.editors["kv_fraction"].widget.text() == "按推理软件栈默认值"
    assert dlg.labels["kv_fraction"].text() == "KV 缓存显存占比"
    dlg.deleteLater()
