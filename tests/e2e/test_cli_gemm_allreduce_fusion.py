"""`estimate --inference --gemm-allreduce-fusion`: the fused GEMM + all-reduce reaches the plan (a TTFT-bound 405B
TP8 replica serves more), the JSON echoes it only when stated, the settings line says it (en + zh), the plan equals
what `validate --inference` computes for the row that states it, and a value given to the flag is refused without a
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from gpuplanner.cli import main
from gpuplanner.engine.perf.validation_inference import check, load_runs

ROW = "mlperf-v51-nebius-h200-sxm-141gbx8-trt-llama3.1-405b-server"
SERVE = ["estimate", "--inference", "--model", "llama3-405b", "--gpu", "nvidia-h200-sxm", "--gpus", "8", "--tp", "8",
         "--precision", "fp8", "--kv-bytes", "1", "--prompt", "9429", "--prompt-dataset", "mlperf-llama3.1-405b",
         "--output", "656", "--serving", "aggregated", "--serving-stack", "trtllm", "--max-seqs", "64",
         "--max-batched-tokens", "2560", "--kv-fraction", "0.9", "--ttft", "6", "--ttft-percentile", "99",
         "--tpot", "0.175", "--tpot-percentile", "99"]  # fmt: skip
SAID = {
    "en": "; each tensor-parallel all-reduce fused into the GEMM before it",
    "zh": "；张量并行的每次全归约与其前面的 GEMM 融合执行",
}


def test_the_fusion_reaches_the_plan_and_the_json_echoes_it(capsys):
    assert main([*SERVE, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "gemm_allreduce_fusion" not in plain
    assert main([*SERVE, "--no-gemm-allreduce-fusion", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == plain
    assert main([*SERVE, "--gemm-allreduce-fusion", "--json"]) == 0
    fused = json.loads(capsys.readouterr().out)
    assert fused["gemm_allreduce_fusion"] is True
    assert fused["serving"]["output_tokens_per_s"] > plain["serving"]["output_tokens_per_s"]
    # the same figure as the validation row that states these settings
    row = check(next(r for r in load_runs() if r.id == ROW))
    assert row.predicted == pytest.approx(fused["serving"]["output_tokens_per_s"], rel=1e-12)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_settings_line_says_the_fusion(capsys, lang):
    assert main([*SERVE, "--gemm-allreduce-fusion", "--lang", lang]) == 0
    assert SAID[lang] in capsys.readouterr().out
    assert main([*SERVE, "--lang", lang]) == 0
    assert SAID[lang] not in capsys.readouterr().out


def test_a_value_given_to_the_flag_is_refused_without_a_traceback():
    run = subprocess.run(
        [sys.executable, "-m", "gpuplanner", *SERVE, "--gemm-allreduce-fusion=yes"],
        capture_output=True,
        text=True,
        env={**os.environ, "GPUPLANNER_LANG": "en"},
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and "--gemm-allreduce-fusion" in run.stderr
    assert run.stdout == ""
