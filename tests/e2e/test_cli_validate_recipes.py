"""The validation rows that state recipe settings (optimizer state, FP8 primary weights, expert-TP 1, DeepEP) print
an `estimate` command that reproduces their prediction: the new options round-trip through the command line."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

IDS = (
    "nemo-24.07-nemotron-340b",  # --optimizer-state bf16
    "mbridge-26.02-h100-qwen3-235b-a22b",  # --no-expert-tp --ep-overlap --no-tp-comm-overlap, head_dim model
    "mlperf-4.0-gpt3-175b-512",  # --fp8-params
    "mbridge-25.09-h100-deepseek-v3",  # --moe-dispatcher deepep, node-limited routing from the catalog
)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def rows() -> dict[str, dict]:
    r = _run("validate", "--json")
    assert r.returncode == 0, r.stderr
    return {x["id"]: x for x in json.loads(r.stdout)["runs"]}


@pytest.mark.parametrize("run_id", IDS)
def test_the_printed_command_gives_the_validated_prediction(rows, run_id):
    row = rows[run_id]
    assert row["predicted"] is not None
    again = _run(*shlex.split(row["command"])[1:], "--json")
    assert again.returncode == 0, again.stderr
    d = json.loads(again.stdout)
    per_gpu = row["metric"] == "tokens_per_s_per_gpu"
    value = d["tokens_per_s"] / d["gpus"] if per_gpu else d[row["metric"]]
    assert value == pytest.approx(row["predicted"], rel=1e-9)
