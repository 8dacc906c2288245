"""A stated KV-cache share (`estimate --inference --kv-fraction`, a serving workload's `kv_fraction`) is said in
the text where the serving settings are (the stack, the prompt-length dataset), in English and Chinese, with
the JSON's value; without one the line is as before, and the JSON has no share."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from gpuplanner.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cluster-256-h100.gpuplan"
H100 = ["--server", "nvidia-dgx-h100"]
SERVE = ["estimate", "--inference", "--model", "llama3-70b", *H100, "--gpus", "8", "--ttft", "1", "--tpot", "0.05",
         "--serving-stack", "trtllm"]  # fmt: skip
SAID = {"en": "; KV-cache share {}", "zh": "；KV 缓存显存占比 {}"}
STACK = {"en": "serving stack: ", "zh": "推理软件栈："}


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(list(args))
    return rc, out.getvalue()


def settings_lines(txt: str, lang: str) -> list[str]:
    return [line.strip() for line in txt.splitlines() if line.strip().startswith(STACK[lang])]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_estimate_says_a_stated_share_in_the_settings_line(lang):
    rc, txt = cli(*SERVE, "--kv-fraction", "0.85", "--lang", lang)
    rc_js, js = cli(*SERVE, "--kv-fraction", "0.85", "--json")
    assert rc == rc_js == 0 and json.loads(js)["kv_fraction"] == 0.85
    (line,) = settings_lines(txt, lang)
    assert line.endswith(SAID[lang].format("0.85")), line
    rc, plain = cli(*SERVE, "--lang", lang)
    (line,) = settings_lines(plain, lang)
    assert "0.85" not in line and SAID[lang].format("")[:6] not in plain  # no share stated: none said
    assert "kv_fraction" not in json.loads(cli(*SERVE, "--json")[1])


def test_the_share_check_can_fail():
    line = "serving stack: trtllm (…)"
    assert not line.endswith(SAID["en"].format("0.85"))
    assert not (line + "; KV-cache share 0.8").endswith(SAID["en"].format("0.85"))
    assert (line + "; KV-cache share 0.85").endswith(SAID["en"].format("0.85"))


@pytest.fixture(scope="module")
def plan(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("kv") / "kv.gpuplan"
    shutil.copy(EXAMPLE, path)
    rc, _ = cli("set", str(path), "workload.kv.model=llama3-8b", "workload.kv.kind=inference",
                "workload.kv.serving_stack=trtllm", "workload.kv.kv_fraction=0.85",
                "workload.kv.prompt_dataset=mlperf-llama2-70b", "workload.kv.prompt_len=222",
                "workload.plain.model=llama3-8b", "workload.plain.kind=inference")  # fmt: skip
    assert rc == 0
    return path


def block(txt: str, name: str) -> list[str]:
    lines = txt.splitlines()
    (at,) = [i for i, line in enumerate(lines) if re.match(rf"  {name} ?[（(]", line)]
    out = [lines[at]]
    for line in lines[at + 1 :]:
        if not line.startswith("    "):
            break
        out.append(line)
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_analyze_says_each_serving_workloads_settings_and_a_stated_share(plan, lang):
    rc, txt = cli("analyze", str(plan), "--lang", lang)
    rc_js, js = cli("analyze", str(plan), "--json")
    assert rc == rc_js == 0
    d = {w["name"]: w for w in json.loads(js)["workloads"]}
    assert d["kv"]["kv_fraction"] == 0.85 and "kv_fraction" not in d["plain"]  # the JSON as before
    kv, plain = block(txt, "kv"), block(txt, "plain")
    # the settings line follows the workload's head line, as estimate says it
    assert kv[1].strip().startswith(STACK[lang] + "trtllm") and kv[1].endswith(SAID[lang].format("0.85")), kv
    assert "mlperf-llama2-70b" in kv[1] and "222.3" in kv[1]
    assert plain[1].strip().startswith(STACK[lang] + "vllm") and SAID[lang].format("")[:6] not in plain[1]
    # the same words as `estimate --inference` for the same settings
    from gpuplanner.cli.serving_out import settings_line

    assert kv[1].strip() == settings_line("trtllm", "mlperf-llama2-70b", {"kv_fraction": 0.85}, lang)
