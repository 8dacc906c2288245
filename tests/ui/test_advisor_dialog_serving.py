"""The advisor dialog's own form states a serving goal as `estimate --inference` does (s10): request rate,
concurrent users and think time, prompt and output lengths, the prompt dataset (the prompt length follows its
mean), the TTFT/TPOT targets and their percentiles, the serving mode and the serving stack. The search runs with
exactly the goal the form shows; the form is filled from the project's goal and kept back into it; its labels
read Chinese in the Chinese window."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from gpuplanner.advisor import Goal
from gpuplanner.advisor.evaluate import catalog, serving_capacity
from gpuplanner.advisor.goal import project_goal
from gpuplanner.ui.dialogs import advisor_dialog
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog
from tests.ui.conftest import keep_goal

# what the form does not show comes from the project's goal: a small search space
SPACE = Goal(
    kind="inference",
    requests_per_s=20,
    precision="fp8",
    servers=("nvidia-dgx-b200",),
    templates=("leaf-spine",),
    oversubs=(1.0,),
)
WANT = SPACE.with_(
    requests_per_s=20.0,
    users=1000.0,
    think_time_s=3.0,
    prompt_len=222,
    output_len=300,
    prompt_dataset="mlperf-llama2-70b",
    ttft_s_max=0.08,
    ttft_percentile=99.0,
    tpot_s_max=0.04,
    tpot_percentile=95.5,
    serving_mode="disaggregated",
    serving_stack="trtllm",
    facility_kw_max=600.0,
    max_servers=2,
)


def _fill(dlg: AdvisorDialog) -> None:
    dlg.form.kind.setCurrentIndex(dlg.form.kind.findData("inference"))
    dlg.form.rate.setValue(20)
    dlg.form.users.setValue(1000)
    dlg.form.think.setValue(3)
    dlg.form.output_len.setValue(300)
    dlg.form.dataset.setCurrentIndex(dlg.form.dataset.findData("mlperf-llama2-70b"))
    dlg.form.ttft.setValue(0.08)
    dlg.form.ttft_pct.setValue(99)
    dlg.form.tpot.setValue(40)
    dlg.form.tpot_pct.setValue(95.5)
    dlg.form.mode.setCurrentIndex(dlg.form.mode.findData("disaggregated"))
    dlg.form.stack.setCurrentIndex(dlg.form.stack.findData("trtllm"))
    dlg.form.facility.setValue(600)
    dlg.form.rack_kw.setValue(0)
    dlg.form.max_servers.setValue(2)


def test_the_search_runs_with_the_goal_the_form_states(window, qtbot, monkeypatch):
    keep_goal(window, SPACE)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    assert dlg.form.serving_box.isVisibleTo(dlg) and not dlg.form.training_box.isVisibleTo(dlg)
    _fill(dlg)
    # the dataset's prompts are 222.3 tokens long on average: the prompt length follows, and is not edited apart
    assert dlg.form.prompt_len.value() == 222 and not dlg.form.prompt_len.isEnabled()
    assert dlg.goal() == WANT
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
    assert seen == [WANT]
    res = dlg.result
    assert res.goal == WANT and res.front
    cat = catalog()
    for d in res.front:  # each design's rate and users are the serving model's with every field of the form
        cap = serving_capacity(cat, WANT, cat.get(d["server"]), d["gpus"])
        assert d["requests_per_s_max"] == cap["requests_per_s"] and d["users_max"] == cap["users"]
        assert d["serving"]["serving_stack"] == "trtllm"
        assert d["serving"]["prompt_dataset"] == "mlperf-llama2-70b"
        assert d["serving"]["targets_at"] == "ttft p99, tpot p95.5"
        assert d["users_max"] >= 1000 and d["requests_per_s_max"] >= 20
    headers = [dlg.table.horizontalHeaderItem(c).text() for c in range(dlg.table.columnCount())]
    assert "Users" in headers


def test_the_dataset_back_to_none_frees_the_prompt_length(window, qtbot):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    dlg.form.kind.setCurrentIndex(dlg.form.kind.findData("inference"))
    dlg.form.dataset.setCurrentIndex(dlg.form.dataset.findData("mlperf-mixtral-8x7b"))
    assert dlg.form.prompt_len.value() == 427 and not dlg.form.prompt_len.isEnabled()
    dlg.form.dataset.setCurrentIndex(0)
    assert dlg.form.prompt_len.isEnabled() and dlg.goal().prompt_dataset == ""
    dlg.form.prompt_len.setValue(1000)
    assert dlg.goal().prompt_len == 1000


def test_the_form_is_filled_from_the_projects_goal_and_kept_back(window, qtbot):
    keep_goal(window, WANT)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    assert dlg.form.users.value() == 1000 and dlg.form.think.value() == 3
    assert dlg.form.dataset.currentData() == "mlperf-llama2-70b" and dlg.form.prompt_len.value() == 222
    assert (dlg.form.ttft_pct.value(), dlg.form.tpot_pct.value()) == (99.0, 95.5)
    assert dlg.form.mode.currentData() == "disaggregated" and dlg.form.stack.currentData() == "trtllm"
    assert dlg.goal() == WANT
    dlg.form.stack.setCurrentIndex(dlg.form.stack.findData("vllm"))
    dlg.form.ttft_pct.setValue(0)  # the lowest value: in the mean
    assert dlg.form.ttft_pct.text() == "mean"
    assert dlg.keep_goal()
    assert project_goal(window.doc.project) == WANT.with_(serving_stack="vllm", ttft_percentile=0.0)


def test_a_users_only_goal_and_a_bad_goal_are_told_not_crashed(window, qtbot):
    keep_goal(window, SPACE)
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    dlg.form.rate.setValue(0)
    assert dlg.form.rate.text() == "not stated"
    dlg.form.users.setValue(0)
    dlg.search()  # neither a rate nor users: refused by field before any search
    assert "request rate" in dlg.summary.text() and "users" in dlg.summary.text() and dlg.result is None
    dlg.form.users.setValue(64)
    goal = dlg.goal()
    assert goal.requests_per_s == 0 and goal.users == 64


@pytest.mark.parametrize("lang", ["zh"])
def test_the_serving_controls_read_chinese(window, qtbot, lang):
    from gpuplanner.ui import i18n

    i18n.set_language(lang)
    try:
        assert i18n.current_language() == "zh", "gpuplanner_zh.qm did not load"
        dlg = AdvisorDialog(window)
        qtbot.addWidget(dlg)
        assert dlg.form.serving_box.title() == "推理服务"
        assert [dlg.form.stack.itemText(i) for i in range(dlg.form.stack.count())] == [
            "vLLM 规则",
            "TensorRT-LLM 规则",
        ]
        assert [dlg.form.mode.itemText(i) for i in range(dlg.form.mode.count())] == [
            "合并部署",
            "预填充/解码分离",
            "两者择优",
        ]
        assert dlg.form.ttft_pct.text() == "平均值" and dlg.form.users.text() == "未填写"
        assert dlg.form.dataset.itemText(0) == "全部等于提示词长度"
    finally:
        i18n.set_language("en")


def test_the_goal_dialog_states_the_same_fields(window, qtbot):
    """Plan ▸ Design goal… (the advisor's "Whole goal…") edits the new fields too; a dataset whose mean is not the
    prompt length is refused naming the field and the value, and changes nothing."""
    from gpuplanner.ui.dialogs.goal_dialog import GoalDialog

    keep_goal(window, SPACE)
    dlg = GoalDialog(window.doc, window)
    qtbot.addWidget(dlg)
    before = window.doc.project.goal
    dlg.editors["prompt_dataset"].set("mlperf-llama2-70b")
    assert not dlg.apply()
    assert "prompt lengths as" in dlg.error.text()  # the field, by the name the window gives it
    assert "mlperf-llama2-70b" in dlg.error.text() and "222" in dlg.error.text()
    assert window.doc.project.goal == before
    for name, value in {
        "prompt_len": 222, "output_len": 300, "users": 1000.0, "think_time_s": 3.0, "ttft_s_max": 0.08,
        "ttft_percentile": 99.0, "tpot_s_max": 0.04, "tpot_percentile": 95.5, "serving_mode": "disaggregated",
        "serving_stack": "trtllm", "facility_kw_max": 600.0, "max_servers": 2,
    }.items():  # fmt: skip
        dlg.editors[name].set(value)
    assert dlg.apply(), dlg.error.text()
    assert project_goal(window.doc.project) == WANT
    adv = AdvisorDialog(window)  # and the advisor's form follows
    qtbot.addWidget(adv)
    assert adv.goal() == WANT


def test_points_on_top_of_each_other_share_one_label():
    from gpuplanner.ui.dialogs.advisor_dialog import point_labels

    xs = [2.39, 2.41, 3.23, 3.24, 4.91, 4.93]
    ys = [2.68, 2.68, 5.36, 5.36, 8.81, 8.81]
    assert [t for t, _ in point_labels(xs, ys)] == ["1, 2", "3, 4", "5, 6"]
    assert [t for t, _ in point_labels([1.0, 2.0], [1.0, 2.0])] == ["1", "2"]
    assert point_labels([], []) == [] and [t for t, _ in point_labels([1.0], [float("inf")])] == []
