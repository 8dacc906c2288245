"""FP8 primary weights (`--fp8-params`) and the MLPerf Training v4.0 GPT-3 rows that state them.

Sources: NVIDIA Transformer Engine (an FP8 weight is its 1-byte data plus a 1-byte transpose cache, instead of a
bf16 weight plus an FP8 copy and transpose); MLCommons training_results_v4.0 NVIDIA GPT-3 submissions
(config_common.sh: FP8_PARAMS=True; result_*.txt MLLOG block times).
"""

from __future__ import annotations

import re

import pytest

from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.request import build
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.perf.validation import check_all, load_runs

MLPERF = [r for r in load_runs() if r.id.startswith("mlperf-4.0-gpt3-175b-")]


def _est(req):
    shape, cluster, cfg = build(req)
    return shape, estimate(shape, cfg, cluster)


def test_fp8_params_save_two_bytes_per_gemm_weight_and_halve_their_gather():
    req = dict(MLPERF[0].request)
    shape, with_fp8 = _est(req)
    _, bf16_master = _est({**req, "fp8_params": False})
    # GEMM weights on the GPU holding the most: the first stage's 12 layers of a 96-layer GPT-3 over TP 4
    gemm_params = 12 * (param_counts(shape)["layers_total"] / 96 - 2 * 12288) / 4
    saved_gb = bf16_master.memory["weights_gb"] - with_fp8.memory["weights_gb"]
    assert saved_gb == pytest.approx(2.0 * gemm_params / 1e9, rel=1e-4)  # norms: 2h of 12h² per layer
    assert with_fp8.breakdown["dp_comm_s"] < bf16_master.breakdown["dp_comm_s"]
    # without FP8 compute the setting changes nothing
    _, bf16 = _est({**req, "precision": "bf16"})
    _, bf16_fp8p = _est({**req, "precision": "bf16", "fp8_params": True})
    assert bf16.step_time_s == bf16_fp8p.step_time_s and bf16.memory == bf16_fp8p.memory


@pytest.mark.parametrize("run", MLPERF, ids=[r.id for r in MLPERF])
def test_mlperf_rows_are_the_median_of_the_three_logged_runs(run):
    text = " ".join(run.source.split())
    listed = text.split("evaluation excluded:")[1].split("tokens/s")[0]
    figures = [int(x.replace(",", "")) for x in re.findall(r"\d{1,3}(?:,\d{3})+", listed)]
    assert len(figures) == 3
    assert run.measured == pytest.approx(sorted(figures)[1] / run.request["gpus"], abs=0.06)
    assert run.request["fp8_params"] is True and run.request["recompute"] == "none"


def test_mlperf_rows_are_counted_and_predicted_within_ten_percent():
    """Counted since session 6: the FP8 GEMM rate comes from the MAMF ratio, the casts are counted, and the
    distributed optimizer's collectives overlap chunk by chunk in the interleaved schedule (at 10k GPUs the
    engine exposed 0.33 s of data-parallel time per 0.92 s step before)."""
    by_id = {c.run.id: c for c in check_all()}
    for r in MLPERF:
        c = by_id[r.id]
        assert not r.excluded
        assert c.error is not None and abs(c.error) <= 0.10, (r.id, c.error)
