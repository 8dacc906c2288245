"""The results panel shows the estimate's expected range from the published runs (engine/perf/bands.py, the
same figures as `estimate --json` and the report) and, for launch-bound fine-grained MoE, why the speed is
an upper bound — in English and in Chinese."""

from __future__ import annotations

import os

import pytest

from gpuplanner.engine.perf.bands import ranges
from gpuplanner.model import Project
from tests.moe_project import qwen3_moe_project


def _qwen(micro_batch: int) -> Project:
    return qwen3_moe_project(micro_batch, "full")


def _expected(w) -> dict:
    res = w.doc.results
    return ranges(res.workload.estimate, res.workload.shape, res.workload.cluster)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_panel_shows_the_range_of_the_published_runs(make_window, lang):
    from gpuplanner.ui import i18n

    i18n.set_language(lang)  # before the window, as the app does at start; reset below
    try:
        w = make_window(_qwen(1))
        w.results_panel.show_results(w.doc.results)
        r = _expected(w)
        note = w.results_panel.note.text()
        lo, hi = r["tokens_per_s_range"]
        assert f"{lo:,.0f}" in note and f"{hi:,.0f}" in note
        assert str(r["band"]["runs"]) in note
        us = f"{r['host_paced']['expert_gemm_us']:,.0f}"
        assert us in note and ("upper bound" in note if lang == "en" else "上限" in note)
        if os.environ.get("GPUPLANNER_SHOTS"):  # for looking at it: GPUPLANNER_SHOTS=/tmp pytest …
            from PySide6.QtWidgets import QApplication

            w.resize(1500, 950)
            for _ in range(3):
                QApplication.processEvents()
            w.grab().save(os.path.join(os.environ["GPUPLANNER_SHOTS"], f"results-band-{lang}.png"))
    finally:
        i18n.set_language("en")  # the session runs in English (conftest)


def test_a_dense_estimate_has_its_range_and_no_host_note(window):
    r = _expected(window)
    note = window.results_panel.note.text()
    assert r["host_paced"] is None and "µs" not in note
    assert f"{r['tokens_per_s_range'][0]:,.0f}" in note
