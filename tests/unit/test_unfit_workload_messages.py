"""A training workload whose stated layout does not fit in GPU memory is said once, as the memory refusal
with its figures, and the proposal's speed summary says that the speed shown is not a plan."""

import datetime as dt

import pytest

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project
from tests.moe_project import qwen3_moe_project


def _project(micro_batch: int, recompute: str) -> Project:
    return qwen3_moe_project(micro_batch, recompute)


def test_a_layout_that_does_not_fit_is_one_error_naming_its_memory():
    res = analyze_project(_project(1, "none"))
    est = res.workload.estimate
    assert not est.fits  # 16 GPUs, no recomputation: activations push it past 80 GB
    errors = [f for f in res.findings if f.severity == "error" and "w1" in f.items]
    assert [f.rule for f in errors] == ["model-does-not-fit"]
    assert errors[0].params["need"] == pytest.approx(est.memory["total_gb"])


def test_a_layout_that_fits_has_no_memory_error():
    res = analyze_project(_project(1, "full"))
    assert res.workload.estimate.fits
    assert not [f for f in res.findings if f.rule in ("model-does-not-fit", "workload-not-evaluated")]


@pytest.mark.parametrize(("lang", "word"), [("en", "does not fit"), ("zh", "放不进")])
def test_the_speed_summary_says_the_layout_does_not_fit(lang, word):
    from gpuplanner.reports import new_context
    from gpuplanner.reports.sections import exec_summary

    ctx = new_context(_project(1, "none"), lang, today=dt.date(2026, 12, 6), warn=lambda m: None)
    perf = ctx.data["performance"]
    _, note = exec_summary.fast_rows(ctx)
    assert word in note and f"{perf['memory_per_gpu_gb']:,.1f}" in note
    fits = new_context(_project(1, "full"), lang, today=dt.date(2026, 12, 6), warn=lambda m: None)
    assert word not in exec_summary.fast_rows(fits)[1]
