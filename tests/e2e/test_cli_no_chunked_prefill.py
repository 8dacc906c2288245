"""`estimate --inference --no-chunked-prefill`: the mode reaches the plan (prompts in their own steps: a shorter
first token, a longer TPOT than chunked at the same layout), the JSON says `chunked_prefill: false` only when off,
the settings line says it (en + zh), and a budget below the prompt is refused naming the field, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gpuplanner.cli import main

SERVE = ["estimate", "--inference", "--model", "llama3-8b", "--gpu", "nvidia-h100-sxm", "--gpus", "1", "--tp", "1",
         "--precision", "fp8", "--prompt", "1024", "--output", "256", "--serving", "aggregated"]  # fmt: skip
SAID = {
    "en": "; prefill not chunked (whole prompts in their own steps, the decodes wait)",
    "zh": "；不分块预填充",
}


def test_the_mode_reaches_the_plan_and_the_json_says_it(capsys):
    assert main([*SERVE, "--json"]) == 0
    on = json.loads(capsys.readouterr().out)
    assert "chunked_prefill" not in on
    assert main([*SERVE, "--no-chunked-prefill", "--json"]) == 0
    off = json.loads(capsys.readouterr().out)
    assert off["chunked_prefill"] is False
    assert off["serving"]["ttft_s"] < on["serving"]["ttft_s"]
    assert off["serving"]["output_tokens_per_s"] < on["serving"]["output_tokens_per_s"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_settings_line_says_the_mode(capsys, lang):
    assert main([*SERVE, "--no-chunked-prefill", "--lang", lang]) == 0
    assert SAID[lang] in capsys.readouterr().out
    assert main([*SERVE, "--lang", lang]) == 0
    assert SAID[lang] not in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_budget_below_the_prompt_is_refused_without_a_traceback(lang):
    cmd = [*SERVE, "--no-chunked-prefill", "--max-batched-tokens", "512", "--lang", lang]
    r = subprocess.run(
        [sys.executable, "-m", "gpuplanner", *cmd], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert "max_batched_tokens" in r.stderr and "512" in r.stderr and "1024" in r.stderr
