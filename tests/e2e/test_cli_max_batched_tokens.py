"""`estimate --inference --max-batched-tokens N`: the budget reaches the plan (a long prompt's first token comes
later at a small budget), the JSON echoes it only when stated, the settings line says it (en + zh), and a bad value
(0, -3, abc) is refused with a message naming the option, no traceback."""

from __future__ import annotations

import json

import pytest

from gpuplanner.cli import main
from tests.e2e.positive_int_option import assert_refused

SERVE = ["estimate", "--inference", "--model", "llama3-8b", "--gpu", "nvidia-h100-sxm", "--gpus", "1", "--tp", "1",
         "--precision", "fp8", "--prompt", "2048", "--output", "128", "--serving-stack", "trtllm",
         "--serving", "aggregated"]  # fmt: skip
SAID = {
    "en": "; at most 256 tokens per engine step (decode plus prefill)",
    "zh": "；每个引擎步最多 256 个 token",
}


def test_the_budget_reaches_the_plan_and_the_json_echoes_it(capsys):
    assert main([*SERVE, "--json"]) == 0
    free = json.loads(capsys.readouterr().out)
    assert "max_batched_tokens" not in free
    assert main([*SERVE, "--max-batched-tokens", "256", "--json"]) == 0
    small = json.loads(capsys.readouterr().out)
    assert small["max_batched_tokens"] == 256
    assert small["serving"]["ttft_s"] > free["serving"]["ttft_s"]
    assert small["serving"] != free["serving"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_settings_line_says_the_budget(capsys, lang):
    assert main([*SERVE, "--max-batched-tokens", "256", "--lang", lang]) == 0
    assert SAID[lang] in capsys.readouterr().out
    assert main([*SERVE, "--lang", lang]) == 0
    assert SAID[lang] not in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["0", "-3", "abc"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_budget_is_refused_without_a_traceback(bad, lang):
    assert_refused(SERVE, "--max-batched-tokens", bad, lang)
