"""The design goal in the window: Plan ▸ Design goal… edits the project's goal as one undoable step (undo
restores the row exactly), a refused value is shown naming the field and changes nothing, and the advisor
dialog is pre-filled from the project's goal and can keep its form as the goal."""

from __future__ import annotations

from gpuplanner.advisor.goal import project_goal
from gpuplanner.model import DesignGoal
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog
from gpuplanner.ui.dialogs.goal_dialog import GoalDialog


def test_goal_dialog_sets_the_goal_in_one_undoable_step(window, qtbot):
    doc = window.doc
    assert doc.project.goal == DesignGoal()
    dlg = GoalDialog(doc, window)
    qtbot.addWidget(dlg)
    assert dlg.editors["kind"].get() == "training"  # a project without a goal is offered a training goal
    dlg.editors["facility_kw_max"].set(3000.0)
    dlg.editors["rack_kw_max"].set(45.0)
    dlg.editors["vendors"].set("Huawei")
    assert dlg.apply()
    g = doc.project.goal
    assert (g.kind, g.facility_kw_max, g.rack_kw_max, g.vendors) == ("training", 3000.0, 45.0, "Huawei")
    assert project_goal(doc.project).vendors == ("Huawei",)
    window.actions["undo"].trigger()  # Edit ▸ Undo
    assert doc.project.goal == DesignGoal()


def test_a_bad_goal_value_is_shown_by_field_and_changes_nothing(window, qtbot):
    doc = window.doc
    dlg = GoalDialog(doc, window)
    qtbot.addWidget(dlg)
    dlg.editors["oversubs"].set("1, 0.5")
    assert not dlg.apply()
    assert "oversubscription" in dlg.error.text() and "0.5" in dlg.error.text()
    assert doc.project.goal == DesignGoal()


def test_the_advisor_is_prefilled_from_the_projects_goal_and_keeps_its_form(window, qtbot):
    doc = window.doc
    dlg = GoalDialog(doc, window)
    qtbot.addWidget(dlg)
    dlg.editors["model_id"].set("llama3-8b")
    dlg.editors["deadline_days"].set(21.0)
    dlg.editors["facility_kw_max"].set(750.0)
    dlg.editors["templates"].set("leaf-spine")
    dlg.editors["region"].set("CN")
    assert dlg.apply()
    adv = AdvisorDialog(window)
    qtbot.addWidget(adv)
    assert adv.form.model.currentData() == "llama3-8b"
    assert (
        adv.form.deadline.value() == 21.0
        and adv.form.facility.value() == 750.0
        and adv.form.region.text() == "CN"
    )
    goal = adv.goal()
    assert goal.templates == ("leaf-spine",)  # a field the form does not show comes from the project's goal
    adv.form.facility.setValue(900)
    assert adv.keep_goal()
    assert doc.project.goal.facility_kw_max == 900.0 and doc.project.goal.templates == "leaf-spine"


def _precision_texts(dlg: GoalDialog) -> dict[str, str]:
    combo = dlg.editors["precision"].widget
    texts = [combo.itemText(i) for i in range(combo.count())]
    values = []
    for i in range(combo.count()):
        combo.setCurrentIndex(i)
        values.append(dlg.editors["precision"].get())
    return dict(zip(values, texts, strict=True))


def test_fp4_is_offered_for_a_serving_goal_and_refused_for_a_training_goal(window, qtbot):
    doc = window.doc
    dlg = GoalDialog(doc, window)
    qtbot.addWidget(dlg)
    assert set(_precision_texts(dlg)) == {"bf16", "fp16", "fp8", "fp4"}
    dlg.editors["kind"].set("training")
    dlg.editors["precision"].set("fp4")
    assert not dlg.apply()  # training in FP4 is not modelled: refused by field, nothing changes
    assert "precision" in dlg.error.text() and "fp4" in dlg.error.text(), dlg.error.text()
    assert doc.project.goal == DesignGoal()
    dlg.editors["kind"].set("inference")
    dlg.editors["requests_per_s"].set(20.0)
    assert dlg.apply()
    goal = project_goal(doc.project)
    assert goal is not None and (goal.kind, goal.precision, goal.requests_per_s) == ("inference", "fp4", 20.0)
    window.actions["undo"].trigger()
    assert doc.project.goal == DesignGoal()


def test_the_precision_choices_read_fp4_in_the_chinese_window(window, qtbot):
    from gpuplanner.ui import i18n

    i18n.set_language("zh")
    try:
        assert i18n.current_language() == "zh", "gpuplanner_zh.qm did not load"
        dlg = GoalDialog(window.doc, window)
        qtbot.addWidget(dlg)
        texts = _precision_texts(dlg)
        assert texts["fp4"] == "FP4" and texts["fp8"] == "FP8"
        assert "FP4" in dlg.editors["precision"].widget.toolTip()
    finally:
        i18n.set_language("en")


def test_the_serving_mode_is_chosen_in_the_goal_dialog_in_english_and_chinese(window, qtbot):
    from PySide6.QtWidgets import QComboBox

    doc = window.doc
    dlg = GoalDialog(doc, window)
    qtbot.addWidget(dlg)
    combo = dlg.editors["serving_mode"].widget
    assert isinstance(combo, QComboBox)
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "aggregated",
        "disaggregated",
        "best of the two",
    ]
    assert dlg.editors["serving_mode"].get() == "aggregated"  # the default: how the advisor sized before
    dlg.editors["kind"].set("inference")
    dlg.editors["requests_per_s"].set(20.0)
    dlg.editors["serving_mode"].set("disaggregated")
    assert dlg.apply()
    assert doc.project.goal.serving_mode == "disaggregated"
    assert project_goal(doc.project).serving_mode == "disaggregated"
    window.actions["undo"].trigger()
    assert doc.project.goal == DesignGoal()
    from gpuplanner.ui import i18n

    i18n.set_language("zh")
    try:
        assert i18n.current_language() == "zh", "gpuplanner_zh.qm did not load"
        zh = GoalDialog(window.doc, window)
        qtbot.addWidget(zh)
        box = zh.editors["serving_mode"].widget
        assert [box.itemText(i) for i in range(box.count())] == ["合并部署", "预填充/解码分离", "两者择优"]
        assert zh.labels["serving_mode"].text() == "推理部署方式"
    finally:
        i18n.set_language("en")
