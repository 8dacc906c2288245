"""The design files `advise -o DIR` writes carry the goal's workload, so opening an advised design (or `gpuplanner
analyze` on it) shows the figures the advisor ranked it by. A serving goal's design carries an inference workload
built from the goal: `analyze DESIGN --json`'s entry for it gives, as the design's capacity, the requests/s the
advisor reported for that design (oracle: the analysis of the written file, through the CLI's main()). A training
goal's design still carries its training workload."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.cli import main


def _advise(out: Path, *args: str) -> dict:
    cmd = [sys.executable, "-m", "gpuplanner", "advise", *args, "--workers", "2", "--json", "-o", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _analyze(path: Path) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["analyze", str(path), "--json"])
    assert rc in (0, 1), out.getvalue()  # 1 = findings with errors; the JSON is printed either way
    return json.loads(out.getvalue())


@pytest.mark.parametrize(
    "goal",
    [
        ["--precision", "fp8", "--requests-per-s", "20"],
        # other lengths and targets than the defaults: every goal field reaches the design's workload
        ["--precision", "bf16", "--requests-per-s", "12", "--prompt-len", "1024", "--output-len", "512"]
        + ["--ttft", "0.5", "--tpot", "0.03"],
        # the goal's serving mode reaches the design's workload (best: the larger of the two, per design)
        ["--precision", "fp8", "--requests-per-s", "20", "--serving", "disaggregated"],
        ["--precision", "fp8", "--requests-per-s", "20", "--serving", "best"],
        # s10: the serving stack, the prompt dataset and users with a think time reach the design's workload
        ["--precision", "fp8", "--requests-per-s", "20", "--users", "1000", "--think-time", "3"]
        + ["--prompt-len", "222", "--prompt-dataset", "mlperf-llama2-70b", "--ttft", "0.08"]
        + ["--serving-stack", "trtllm", "--kv-fraction", "0.95"],
        # s10: the targets' percentiles reach the workload (TTFT 0.3 s at p99 binds: the capacity is lower than
        # in the mean on these designs)
        ["--precision", "fp8", "--requests-per-s", "10", "--ttft", "0.3", "--ttft-percentile", "99"]
        + ["--tpot-percentile", "99"],
        # the stack's KV-cache share where the KV cache binds (TPOT 200 ms)
        ["--precision", "fp8", "--requests-per-s", "20", "--tpot", "0.2", "--kv-fraction", "0.6"],
    ],
    ids=[
        "fp8",
        "bf16-other-lengths",
        "disaggregated",
        "best",
        "stack-dataset-users-kvf",
        "percentiles",
        "kv-fraction",
    ],  # fmt: skip
)
def test_each_advised_serving_design_analyses_to_the_advisors_rate(tmp_path: Path, goal: list[str]):
    out = tmp_path / "advice"
    summary = _advise(
        out,
        "--inference", "--model", "llama3-70b", *goal, "--facility-kw", "600", "--max-servers", "4",
        "--servers", "nvidia-dgx-h100,nvidia-dgx-b200", "--templates", "leaf-spine", "--oversubs", "1",
    )  # fmt: skip
    g = summary["goal"]
    assert summary["designs"]
    for row in summary["designs"]:
        data = _analyze(out / row["file"])
        wls = [w for w in data["workloads"] if w["kind"] == "inference"]
        assert len(wls) == 1, (row["file"], data["workloads"])
        w = wls[0]
        assert w["error"] is None, (row["file"], w["error"])
        assert w["gpus"] == row["gpus"]
        assert w["max_requests_per_s"] == pytest.approx(row["requests_per_s_max"], rel=1e-9, abs=0)
        assert w["serving"]["mode"] == row["serving"]["mode"]
        if g["serving_mode"] != "best":
            assert w["serving"]["mode"] == g["serving_mode"]
        assert w["target_requests_per_s"] == g["requests_per_s"]
        assert (w["ttft_target_s"], w["tpot_target_s"]) == (g["ttft_s_max"], g["tpot_s_max"])
        assert w["serving_stack"] == g["serving_stack"]
        assert w["prompt_dataset"] == (g["prompt_dataset"] or None)
        assert w.get("kv_fraction") == (g["kv_fraction"] or None) == row["serving"].get("kv_fraction")
        assert w["target_users"] == (g["users"] or None)
        if g["users"]:
            assert w["max_concurrent_users"] == pytest.approx(row["users_max"], rel=1e-9, abs=0)
        assert w["meets_target"] is True
        assert not [f for f in data["findings"] if f.get("rule") == "serving-target-not-met"]


def test_an_advised_training_design_still_carries_its_training_workload(tmp_path: Path):
    out = tmp_path / "advice"
    summary = _advise(
        out,
        "--model", "llama3-8b", "--tokens", "2e11", "--deadline-days", "30", "--facility-kw", "400",
        "--max-servers", "8", "--servers", "nvidia-dgx-h100", "--templates", "rail-leaf-spine", "--oversubs", "1",
    )  # fmt: skip
    assert summary["designs"]
    for row in summary["designs"]:
        data = _analyze(out / row["file"])
        kinds = [w["kind"] for w in data["workloads"]]
        assert kinds == ["training"], (row["file"], kinds)
        assert data["workloads"][0]["time_to_train_days"] == pytest.approx(
            row["time_to_train_days"], rel=1e-9
        )
