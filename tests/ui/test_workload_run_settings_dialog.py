"""The workload dialog edits every run setting `gpuplanner estimate` takes (issue #20 item 3): one "run
settings" group, lists of the values each setting takes ("" = not stated first), labels in English and
Chinese; what is applied is what the engine's workload configuration then holds, and a bad value a file
brings is shown naming the workload, the field and the value."""

from __future__ import annotations

import dataclasses
import re

from PySide6.QtWidgets import QComboBox, QLineEdit

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.perf.settings import SETTINGS
from gpuplanner.ui import fields
from gpuplanner.ui.dialogs.workload_dialog import RUN_SETTINGS, WorkloadDialog
from tests.ui.conftest import small_project

TYPED = ("precision", "recompute", "zero_stage")  # edited in "Batch, precision, memory"
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_setting_of_estimate_is_in_the_run_settings_group(make_window):
    assert set(RUN_SETTINGS) == (set(SETTINGS) - set(TYPED)) | {"stack"}
    w = make_window(small_project())
    dlg = WorkloadDialog(w.doc, w)
    for name in RUN_SETTINGS:
        widget = dlg.editors[name].widget
        if name == "pipeline_layout":
            assert isinstance(widget, QLineEdit)
            continue
        assert isinstance(widget, QComboBox), name
        values = [v for _t, v in fields.run_setting_choices(name)]
        assert values[0] == "" and dlg.editors[name].get() == ""  # not stated
        allowed = SETTINGS.get(name)
        if name != "stack":
            want = ["on", "off"] if allowed is None else [str(v) for v in allowed]
            assert values[1:] == want, name
    dlg.deleteLater()


def test_applied_settings_are_the_engines_configuration(make_window):
    w = make_window(small_project())
    dlg = WorkloadDialog(w.doc, w)
    chosen = {
        "optimizer_state": "bf16",
        "optimizer": "unfused",
        "tp_overlap": "off",
        "zero3_nics_per_node": "2",
        "fp8_recipe": "current",
        "recompute_norm_act": "on",
    }
    for k, v in chosen.items():
        dlg.editors[k].set(v)
    assert dlg.apply(), dlg.error.text()
    row = w.doc.project.tables["workloads"][dlg.row.id]
    assert {k: getattr(row, k) for k in chosen} == chosen
    cfg = w.doc.results.workload.config
    assert (cfg.optimizer_state, cfg.optimizer, cfg.tp_overlap) == ("bf16", "unfused", False)
    assert (cfg.zero3_nics_per_node, cfg.fp8_recipe, cfg.recompute_norm_act) == (2, "current", True)
    fresh = analyze_project(w.doc.project).workload  # the window's figures are a fresh analysis's
    assert w.doc.results.workload.estimate.step_time_s == fresh.estimate.step_time_s
    w.doc.undo_stack.undo()
    assert all(getattr(w.doc.project.tables["workloads"][dlg.row.id], k) == "" for k in chosen)
    dlg.deleteLater()


def test_labels_and_a_bad_value_read_in_chinese(chinese, make_window):
    p = small_project()
    wl = next(iter(p.tables["workloads"].values()))
    p.tables["workloads"][wl.id] = dataclasses.replace(wl, moe_dispatcher="nccl")
    w = make_window(p)
    dlg = WorkloadDialog(w.doc, w)
    for name in RUN_SETTINGS:
        assert CJK.search(dlg.labels[name].text()), name
    shown = dlg.status.text()
    assert wl.name in shown and "moe_dispatcher" in shown and "nccl" in shown and CJK.search(shown), shown
    assert dlg.editors["moe_dispatcher"].get() == "nccl"  # the file's value is shown, not lost
    dlg.deleteLater()
