"""`estimate --inference --max-seqs N`: the cap binds the plan's batch, the JSON echoes it, the settings line says it
(en + zh), and a bad value (0, -3, abc) is refused with a message naming the option, no traceback."""

from __future__ import annotations

import json

import pytest

from gpuplanner.cli import main
from tests.e2e.positive_int_option import assert_refused

SERVE = ["estimate", "--inference", "--model", "llama3-8b", "--gpu", "nvidia-h100-sxm", "--gpus", "1", "--tp", "1",
         "--precision", "fp8", "--prompt", "128", "--output", "128", "--serving-stack", "trtllm",
         "--serving", "aggregated"]  # fmt: skip
SAID = {"en": "; at most 64 sequences at once per replica", "zh": "；每个副本最多同时运行 64 个序列"}


def test_the_cap_binds_and_the_json_echoes_it(capsys):
    assert main([*SERVE, "--json"]) == 0
    free = json.loads(capsys.readouterr().out)
    assert "max_seqs" not in free and free["serving"]["decode_batch"] > 1000
    assert main([*SERVE, "--max-seqs", "64", "--json"]) == 0
    capped = json.loads(capsys.readouterr().out)
    assert capped["max_seqs"] == 64
    s = capped["serving"]
    assert s["decode_batch"] <= 64 and s["decode_batch"] == pytest.approx(64, rel=1e-4)
    assert s["limited_by"] == "max seqs"
    assert s["output_tokens_per_s"] < free["serving"]["output_tokens_per_s"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_settings_line_says_the_cap(capsys, lang):
    assert main([*SERVE, "--max-seqs", "64", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert SAID[lang] in out
    assert main([*SERVE, "--lang", lang]) == 0
    assert SAID[lang] not in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["0", "-3", "abc"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_cap_is_refused_without_a_traceback(bad, lang):
    assert_refused(SERVE, "--max-seqs", bad, lang)
