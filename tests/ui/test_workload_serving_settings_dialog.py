"""The workload dialog's serving group edits the serving settings `estimate --inference` takes
(--serving-stack, --prompt-dataset): lists whose first item is "not stated", labels in English and Chinese;
what is applied is what the analysis then serves, and a bad value a file brings is named in the dialog."""

from __future__ import annotations

import dataclasses
import re

from PySide6.QtWidgets import QComboBox

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.perf.serving_prompts import dataset_names
from gpuplanner.engine.perf.serving_setup import SERVING_STACKS
from gpuplanner.model import Workload
from gpuplanner.ui import fields
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from tests.ui.conftest import small_project

CJK = re.compile(r"[\u4e00-\u9fff]")
SERVING = ("serving_stack", "prompt_dataset")


def _serving_project(**kw):
    """small_project's cluster with one inference workload only (the dialog opens it)."""
    p = small_project()
    p.tables["workloads"].clear()
    wl = Workload(id="w9", name="chat", kind="inference", model_id="llama3-8b", prompt_len=222, output_len=256,
                  ttft_target_s=2.0, tpot_target_s=0.05, **kw)  # fmt: skip
    p.tables["workloads"][wl.id] = wl
    return p


def test_the_serving_group_offers_the_stacks_and_datasets_after_not_stated(make_window):
    w = make_window(_serving_project())
    dlg = WorkloadDialog(w.doc, w)
    want = {"serving_stack": list(SERVING_STACKS), "prompt_dataset": dataset_names()}
    assert want["serving_stack"] == ["vllm", "trtllm"] and "mlperf-llama2-70b" in want["prompt_dataset"]
    for name in SERVING:
        ed = dlg.editors[name]
        assert isinstance(ed.widget, QComboBox), name
        values = [v for _t, v in fields.serving_setting_choices(name)]
        assert values == ["", *want[name]] and ed.get() == ""
        assert [ed.widget.itemText(i) for i in range(ed.widget.count())][0] == "not stated"
    assert dlg.labels["serving_stack"].text().startswith("serving stack")
    dlg.deleteLater()


def test_applied_serving_settings_are_what_the_analysis_serves(make_window):
    w = make_window(_serving_project())
    before = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert before["error"] is None and before["serving_stack"] == "vllm" and before["prompt_dataset"] is None
    dlg = WorkloadDialog(w.doc, w)
    assert dlg.row.id == "w9"
    dlg.editors["serving_stack"].set("trtllm")
    dlg.editors["prompt_dataset"].set("mlperf-llama2-70b")
    assert dlg.apply(), dlg.error.text()
    row = w.doc.project.tables["workloads"]["w9"]
    assert (row.serving_stack, row.prompt_dataset) == ("trtllm", "mlperf-llama2-70b")
    after = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert after["serving_stack"] == "trtllm" and after["prompt_dataset"] == "mlperf-llama2-70b"
    # the KV cache is sized by TensorRT-LLM's rule: another KV share, so other serving figures
    assert after["serving"]["kv_cache_gb_per_gpu"] != before["serving"]["kv_cache_gb_per_gpu"]
    fresh = next(e for e in analyze_project(w.doc.project).workloads if e.id == "w9").to_json()
    assert after == fresh  # the window's figures are a fresh analysis's
    w.doc.undo_stack.undo()
    row = w.doc.project.tables["workloads"]["w9"]
    assert (row.serving_stack, row.prompt_dataset) == ("", "")
    dlg.deleteLater()


def test_labels_and_a_bad_value_read_in_chinese(chinese, make_window):
    p = _serving_project()
    p.tables["workloads"]["w9"] = dataclasses.replace(p.tables["workloads"]["w9"], serving_stack="sglang")
    w = make_window(p)
    dlg = WorkloadDialog(w.doc, w)
    for name in SERVING:
        assert CJK.search(dlg.labels[name].text()), name
    shown = dlg.status.text()
    assert "chat" in shown and "sglang" in shown and CJK.search(shown), shown
    assert dlg.editors["serving_stack"].get() == "sglang"  # the file's value is shown, not lost
    dlg.deleteLater()
