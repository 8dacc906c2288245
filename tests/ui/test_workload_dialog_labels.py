"""The workload dialog labels every field in words, with its unit, in English and Chinese (no label is the
field's name with its underscores turned into spaces, as "ttft target s" was); the serving numbers whose 0
means "not stated" (users, request rate, TTFT/TPOT targets, think time) say so at 0, as the percentile and
KV-share boxes do; a value its box shows rounded is kept by an Apply that does not edit it."""

from __future__ import annotations

import dataclasses
import re

import pytest
from PySide6.QtWidgets import QAbstractSpinBox

from gpuplanner.model import Workload
from gpuplanner.ui import field_labels, fields, i18n
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from tests.ui.conftest import small_project

CJK = re.compile(r"[\u4e00-\u9fff]")
# English words in a row, as tests/e2e/test_cli_language.py counts them: a Chinese label has none
ENGLISH_WORDS = re.compile(r"(?<![\w./\-])[A-Za-z]{2,}(?:[ ]+[A-Za-z]{2,})+(?![\w./\-])")

# the unit each field's label says, in each language
UNITS = {
    "en": {
        "seq_len": "(tokens)",
        "prompt_len": "(tokens)",
        "output_len": "(tokens)",
        "micro_batch": "(sequences)",
        "global_batch": "(sequences)",
        "requests_per_s": "(requests/s)",
        "ttft_target_s": "(s)",
        "tpot_target_s": "(s)",
        "think_time_s": "(s)",
    },
    "zh": {
        "seq_len": "（token）",
        "prompt_len": "（token）",
        "output_len": "（token）",
        "micro_batch": "（序列）",
        "global_batch": "（序列）",
        "requests_per_s": "（次/秒）",
        "ttft_target_s": "（秒）",
        "tpot_target_s": "（秒）",
        "think_time_s": "（秒）",
    },
}
# what the box shows at 0
AT_ZERO = {
    "en": {
        "users": "not stated",
        "requests_per_s": "not stated",
        "ttft_target_s": "no target",
        "tpot_target_s": "no target",
        "think_time_s": "no think time",
        "ttft_percentile": "mean",
        "tpot_percentile": "mean",
        "kv_fraction": "the serving stack's default",
        "max_batched_tokens": "the engine's default",
    },
    "zh": {
        "users": "未填写",
        "requests_per_s": "未填写",
        "ttft_target_s": "不设目标",
        "tpot_target_s": "不设目标",
        "think_time_s": "无思考时间",
        "ttft_percentile": "平均值",
        "tpot_percentile": "平均值",
        "kv_fraction": "按推理软件栈默认值",
        "max_batched_tokens": "按引擎默认值",
    },
}


def raw_labels(labels: dict[str, str], lang: str) -> dict[str, str]:
    """The labels that are a field's name rather than words: the name with "_" → " " (for a name of more than
    one word), an underscore, a trailing " s" (seconds spelt as the name's suffix) or, in Chinese, English
    words in a row."""
    bad = {}
    for name, label in labels.items():
        raw = name.replace("_", " ")
        if (
            ("_" in name and label.strip() == raw)
            or "_" in label
            or label.endswith(" s")
            or (lang == "zh" and (not CJK.search(label) and ENGLISH_WORDS.search(label)))
        ):
            bad[name] = label
    return bad


def test_the_raw_label_check_can_fail():
    """The labels the dialog showed before (s10-polish.md) are caught; words with a unit are not."""
    old = {"ttft_target_s": "ttft target s", "requests_per_s": "requests per s", "think_time_s": "think time s",
           "serving_mode": "serving mode", "users": "users", "tpot_percentile": "tpot percentile"}  # fmt: skip
    assert set(raw_labels(old, "en")) == {
        "ttft_target_s",
        "requests_per_s",
        "think_time_s",
        "serving_mode",
        "tpot_percentile",
    }
    assert raw_labels({"optimizer_state": "optimizer state"}, "zh") == {"optimizer_state": "optimizer state"}
    assert not raw_labels(
        {"ttft_target_s": "time to first token target (s)", "users": "concurrent users"}, "en"
    )
    assert not raw_labels({"ttft_target_s": "首字时延目标（秒）", "top_k": "Top-k"}, "zh")


def _serving_project(**kw):
    p = small_project()
    p.tables["workloads"].clear()
    wl = Workload(id="w9", name="chat", kind="inference", model_id="llama3-8b", **kw)
    p.tables["workloads"][wl.id] = wl
    return p


@pytest.fixture(params=["en", "zh"])
def lang(request, qapp):
    i18n.set_language(request.param)
    assert i18n.current_language() == request.param, "the .qm did not load"
    yield request.param
    i18n.set_language("en")


def _shown(dlg: WorkloadDialog, name: str) -> str:
    w = dlg.editors[name].widget
    assert isinstance(w, QAbstractSpinBox), name
    return w.text()


@pytest.mark.parametrize("kind", ["training", "inference"])
def test_every_field_has_a_label_in_words_with_its_unit(make_window, lang, kind):
    p = _serving_project() if kind == "inference" else small_project()
    w = make_window(p)
    dlg = WorkloadDialog(w.doc, w)
    assert dlg.row.kind == kind
    labels = {name: lab.text() for name, lab in dlg.labels.items()}
    assert set(labels) == set(dlg.editors) and {
        "ttft_target_s",
        "think_time_s",
        "seq_len",
        "fp8_params",
    } <= set(labels)
    assert not raw_labels(labels, lang), raw_labels(labels, lang)
    missing = {n: labels[n] for n, unit in UNITS[lang].items() if unit not in labels[n]}
    assert not missing, missing
    # the inspector labels a field as the dialog does
    assert all(field_labels.label_of(n) == text for n, text in labels.items())
    dlg.deleteLater()


def test_the_not_stated_serving_numbers_say_so_at_zero(make_window, lang):
    w = make_window(_serving_project())
    dlg = WorkloadDialog(w.doc, w)
    shown = {name: _shown(dlg, name) for name in AT_ZERO[lang]}
    assert shown == AT_ZERO[lang]
    assert all(dlg.editors[n].get() == 0 for n in AT_ZERO[lang])
    assert not dlg.changes()  # nothing edited: Apply changes nothing
    dlg.deleteLater()


def test_stated_serving_numbers_show_their_value_and_unit(make_window):
    p = _serving_project(
        users=2500, requests_per_s=12.5, ttft_target_s=2.0, tpot_target_s=0.035, think_time_s=3
    )
    w = make_window(p)
    dlg = WorkloadDialog(w.doc, w)
    shown = {
        n: _shown(dlg, n)
        for n in ("users", "requests_per_s", "ttft_target_s", "tpot_target_s", "think_time_s")
    }
    assert shown == {"users": "2,500", "requests_per_s": "12.50", "ttft_target_s": "2.000 s",
                     "tpot_target_s": "0.035 s", "think_time_s": "3.00 s"}  # fmt: skip
    # the same boxes, from the editor the inspector uses too
    row = p.tables["workloads"]["w9"]
    ed = fields.make_editor(p, "workloads", row, "tpot_target_s")
    ed.set(0.0)
    assert ed.widget.text() == "no target" and ed.get() == 0.0
    # edited in the dialog to 0 and applied: the target is gone from the table and the analysis
    dlg.editors["tpot_target_s"].set(0.0)
    assert dlg.apply(), dlg.error.text()
    assert w.doc.project.tables["workloads"]["w9"].tpot_target_s == 0.0
    entry = next(e for e in w.doc.results.workloads if e.id == "w9").to_json()
    assert entry["tpot_target_s"] is None and entry["ttft_target_s"] == 2.0
    dlg.deleteLater()


def test_an_apply_that_does_not_edit_a_rounded_value_keeps_it(make_window):
    """0.0333 s shows as 0.033 s (three decimals): applying another edit keeps 0.0333; editing it sets it."""
    w = make_window(_serving_project(tpot_target_s=0.0333, think_time_s=1.234))
    dlg = WorkloadDialog(w.doc, w)
    assert _shown(dlg, "tpot_target_s") == "0.033 s" and _shown(dlg, "think_time_s") == "1.23 s"
    assert not dlg.changes()
    dlg.editors["users"].set(100.0)
    assert dlg.changes() == {"users": 100.0}
    assert dlg.apply(), dlg.error.text()
    row = w.doc.project.tables["workloads"]["w9"]
    assert (row.users, row.tpot_target_s, row.think_time_s) == (100.0, 0.0333, 1.234)
    dlg.editors["tpot_target_s"].set(0.04)
    assert dlg.changes() == {"tpot_target_s": 0.04}
    assert dlg.apply(), dlg.error.text()
    assert w.doc.project.tables["workloads"]["w9"].tpot_target_s == 0.04
    dlg.deleteLater()


def test_a_new_serving_workload_states_nothing(make_window, lang):
    w = make_window(small_project())
    dlg = WorkloadDialog(w.doc, w, kind="inference")
    assert dlg.is_new and {n: _shown(dlg, n) for n in AT_ZERO[lang]} == AT_ZERO[lang]
    assert dataclasses.asdict(dlg.row)["users"] == 0.0
    dlg.deleteLater()
