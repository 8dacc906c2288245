"""`estimate` and `validate` speak Chinese: `--lang zh` or `GPUPLANNER_LANG=zh` renders every line of their text
output from the text package (Chinese headers and labels, no English sentence left, the same numbers as the
English output), while `--json` stays the same bytes in every language and keeps its keys (an API)."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from gpuplanner.cli import main

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "tests" / "data" / "cli_json_keys.json"
H100 = ["--gpu", "nvidia-h100-sxm"]

COMMANDS = {
    "training": ["estimate", "--model", "llama3-70b", *H100, "--gpus", "512", "--tp", "8", "--pp", "4",
                 "--tokens", "1e12"],
    "search": ["estimate", "--model", "llama3-8b", *H100, "--gpus", "64"],
    # MoE with a stack, too big for its GPUs: the stack line, the MoE band (17 MoE runs since the 26.04 GPT-OSS
    # rows: the group moe/hopper+ has its own band, no longer the dense one with its note), the memory refusal
    "moe": ["estimate", "--model", "deepseek-v3-671b", "--server", "nvidia-dgx-h100", "--gpus", "1024", "--tp",
            "2", "--pp", "8", "--ep", "64", "--vpp", "4", "--stack", "nemo-2025", "--tokens", "1e12"],
    # fine-grained MoE whose expert GEMMs are launch-bound: the host-paced line
    "host_paced": ["estimate", "--model", "qwen3-30b-a3b", "--gpu", "nvidia-b200", "--gpus", "8", "--tp", "1",
                   "--pp", "1", "--ep", "8", "--micro-batch", "4", "--global-batch", "512", "--seq", "4096",
                   "--precision", "fp8", "--no-expert-tp"],
    "refusal": ["estimate", "--model", "gpt3-175b", *H100, "--gpus", "8", "--tp", "1", "--pp", "1"],
    "inference": ["estimate", "--inference", "--model", "llama3-70b", *H100, "--gpus", "8", "--tp", "8",
                  "--ttft", "1", "--tpot", "0.05"],
    # the serving stack's KV-cache rule and a prompt-length distribution, stated in the settings line
    "inference_stack": ["estimate", "--inference", "--model", "llama3-70b", *H100, "--gpus", "8", "--ttft", "1",
                        "--tpot", "0.05", "--prompt", "222", "--serving-stack", "trtllm", "--prompt-dataset",
                        "mlperf-llama2-70b"],
    # a stated KV-cache share, said after the stack in the settings line
    "inference_kv": ["estimate", "--inference", "--model", "llama3-70b", *H100, "--gpus", "8", "--ttft", "1",
                     "--tpot", "0.05", "--serving-stack", "trtllm", "--kv-fraction", "0.85"],
    # a static batch that does not fit (1024 sequences: no TP up to 8 holds their KV cache), served disaggregated
    "inference_refusal": ["estimate", "--inference", "--model", "llama3-70b", *H100, "--rate", "50", "--ttft",
                          "1", "--serving", "disaggregated", "--batch", "1024"],
    "validate": ["validate"],
    "validate_inference": ["validate", "--inference"],
}  # fmt: skip
# the `--json` commands whose keys tests/data/cli_json_keys.json holds (as they were before --lang)
JSON_COMMANDS = {k: COMMANDS[k] for k in ("training", "search", "moe", "inference", "validate",
                                          "validate_inference")}  # fmt: skip

# Chinese that each text must show: headers, labels and the consultants' terms
CHINESE = {
    "training": ["训练步时间", "吞吐", "模型FLOPs利用率（MFU）", "误差区间", "显存", "训练时长", "瓶颈：",
                 "训练步环节", "流水线气泡", "张量并行", "微批次", "选择性重计算"],
    "search": ["已搜索", "其余较优的并行布局：", "并行布局", "不重计算"],
    "moe": ["软件栈 nemo-2025 设定了", "专家并行 all-to-all", "依据“moe/hopper+”组", "放不下", "每块 GPU 需要"],
    "host_paced": ["受主机节奏限制", "上限"],
    "refusal": ["放不下", "每块 GPU 需要", "优化器状态"],
    "inference": ["静态批次", "首token延迟（TTFT）", "每输出token时间（TPOT）", "推理服务（聚合式）", "受限于",
                  "输出 tokens/s 区间", "实测/预测", "推理软件栈：vllm（", "vLLM 的 gpu_memory_utilization"],
    "inference_stack": ["推理软件栈：trtllm（", "TensorRT-LLM 的 free_gpu_memory_fraction",
                        "提示词长度分布同 mlperf-llama2-70b（均值 222.3 个 token）", "推理服务（聚合式）"],
    "inference_kv": ["推理软件栈：trtllm（", "；KV 缓存显存占比 0.85", "推理服务"],
    "inference_refusal": ["放不下的原因", "预填充/解码分离式", "需要", "预填充实例", "解码实例"],
    "validate": ["编号", "来源", "并行布局", "实测", "预测", "误差", "系列", "全部训练运行", "节点间的小消息集合通信",
                 "受主机节奏限制的细粒度 MoE", "上限成立", "留一法覆盖率"],
    "validate_inference": ["系统", "模型 / 场景", "实测 tok/s", "全部推理结果", "误差带分组", "同类工具", "输入",
                           "输出"],
}  # fmt: skip

# A word: two or more Latin letters standing alone (not part of an id, a path, a unit like tokens/s or a
# compound like all-reduce); an English sentence is three such words in a row.
WORD = r"(?<![\w./\-`'])[A-Za-z]{2,}(?![\w./\-`'])"
ENGLISH_RUN = re.compile(rf"{WORD}(?:[ ,;:()]+{WORD}){{2,}}")
# A number as written standing alone (not the 8 of TP8 or H100, the 2 of "2x1", the 99 of "p99")
NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")


def english_runs(text: str) -> list[str]:
    return [m.group(0) for m in ENGLISH_RUN.finditer(text)]


def numbers(text: str) -> Counter[str]:
    return Counter(NUMBER.findall(text))


@functools.cache
def cli(args: tuple[str, ...], env_lang: str | None = None) -> tuple[int, str]:
    """The command in this process (a subprocess per call would import the engine 30 times): exit code and
    stdout, with GPUPLANNER_LANG set to ``env_lang`` or unset; the locale does not matter to the output."""
    old = os.environ.pop("GPUPLANNER_LANG", None)
    if env_lang is not None:
        os.environ["GPUPLANNER_LANG"] = env_lang
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            rc = main(list(args))
    finally:
        os.environ.pop("GPUPLANNER_LANG", None)
        if old is not None:
            os.environ["GPUPLANNER_LANG"] = old
    return rc, out.getvalue()


def names(name: str) -> list[str]:
    """What the output quotes from the data rather than says: GPU, model and run names, citations, families,
    layouts, band groups and the settings a stack sets (their --json gives each)."""
    args = COMMANDS[name]
    rc, out = cli((*args, "--json"))
    d = json.loads(out)
    found: list[str] = []
    if args[0] == "estimate":
        found += [d.get("gpu", "")]
        found += [f"{k} {v}" for k, v in (d.get("stack_set") or {}).items()]
        found += [d.get("band", {}).get("group", "")]
    for r in d.get("runs", []):
        found += [r["id"], r["cite"], r["family"], r["family"].replace("MLPerf Inference ", ""), r["layout"]]
        found += [r["gpu"], r["gpu"].replace("NVIDIA ", "").replace("AMD ", "")]
    found += [f["family"] for f in d.get("families", [])]
    found += list((d.get("bands") or {}).get("groups", {}))
    for p in d.get("peer", []):
        found += [p["model"], p["gpu"]]
    for k in d.get("collectives", []):
        found += [k["id"]]
    # longest first: a name inside a longer one ("GB200" in "GB200 — one Blackwell GPU …") goes with it
    # a bare word ("all", "dense", "moe": band groups) is not taken out: it could hide a word of a sentence
    return sorted({n for n in found if n and not n.isalpha()}, key=len, reverse=True)


def without_names(text: str, name: str) -> str:
    for n in names(name):
        text = text.replace(n, "§")
    return text


def test_the_english_check_can_fail():
    """The checks below see English sentences: the English output has them, a planted one is found, and the
    ids, units and tool names the Chinese output keeps are not taken for one."""
    rc, en = cli(tuple(COMMANDS["training"]))
    assert rc == 0 and len(english_runs(without_names(en, "training"))) >= 5
    assert english_runs("训练步时间 17.9 秒，the step is slow") == ["the step is slow"]
    assert english_runs("误差 (error of the run)") == ["error of the run"]
    kept = "经 NVLink 的张量并行 all-reduce，tokens/s，`gpuplanner validate` 可列出，launch_sensitive_kernel_s，每 GPU 显存"
    assert english_runs(kept) == []
    assert numbers(
        "TP8 H100 × 512：17.903 秒（15.872–20.516 秒），468,565 tokens/s，p99 2x1 +2.4%"
    ) == Counter(["512", "17.903", "15.872", "20.516", "468,565", "2.4"])


@pytest.mark.parametrize("name", list(COMMANDS))
def test_chinese_text_output(name):
    args = tuple(COMMANDS[name])
    rc_en, en = cli(args)
    rc_zh, zh = cli((*args, "--lang", "zh"))
    assert rc_zh == rc_en and zh.strip()
    # GPUPLANNER_LANG=zh gives the same text; --lang wins over it
    assert cli(args, "zh") == (rc_zh, zh)
    assert cli(args, "zh_CN.UTF-8") == (rc_zh, zh)
    assert cli((*args, "--lang", "en"), "zh") == (rc_en, en)
    missing = [w for w in CHINESE[name] if w not in zh]
    assert not missing, (missing, zh[:3000])
    left = english_runs(without_names(zh, name))
    assert not left, left
    # the same figures: every number of the English text, as often, and no other
    extra_zh, extra_en = numbers(zh) - numbers(en), numbers(en) - numbers(zh)
    if name == "validate_inference":  # the footer's "99th percentile" is "第 99 百分位"
        assert extra_zh == Counter({"99": 1})
        extra_zh = Counter()
    assert not extra_zh and not extra_en, (extra_zh, extra_en)


@pytest.mark.parametrize("name", list(JSON_COMMANDS))
def test_json_is_the_same_in_every_language_and_keeps_its_keys(name):
    args = (*JSON_COMMANDS[name], "--json")
    rc, out = cli(args)
    assert cli((*args, "--lang", "zh")) == (rc, out)
    assert cli(args, "zh") == (rc, out)
    assert not re.search(r"[\u4e00-\u9fff]", out)  # the JSON's sentences stay English
    expected = json.loads(KEYS.read_text(encoding="utf-8"))[name]
    assert sorted(json_keys(json.loads(out))) == expected


def json_keys(x: object, pre: str = "") -> set[str]:
    """The key paths of a JSON document ("band.explanation", "runs[].id"), without the keys that are data
    (band groups, the run settings, what a stack set, the fabric factors), which the bundled data decides."""
    out: set[str] = set()
    if isinstance(x, dict):
        for k, v in x.items():
            p = f"{pre}.{k}" if pre else k
            out.add(p)
            if p.split(".")[-1] not in ("groups", "settings", "stack_set", "net_factor"):
                out |= json_keys(v, p)
    elif isinstance(x, list):
        for v in x:
            out |= json_keys(v, pre + "[]")
    return out


def test_the_json_sentences_are_the_messages_in_english():
    """The sentences `estimate --json` writes (band, host-paced note, goodput, refusal) are the messages the
    text renders in Chinese, rendered in English: the engine names a message, the JSON keeps its English."""
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.cli import build_parser
    from gpuplanner.cli.estimate_cmd import _request
    from gpuplanner.engine.perf.bands import explanations
    from gpuplanner.engine.perf.goodput import goodput_msg
    from gpuplanner.engine.perf.request import run
    from gpuplanner.engine.perf.sentences import refusal_msg

    for name in ("training", "moe", "host_paced", "refusal"):
        d = json.loads(cli((*COMMANDS[name], "--json"))[1])
        res = run(_request(build_parser().parse_args(COMMANDS[name])), default_catalog())
        _cfg, est = res.rows[0]
        why = explanations(est, res.shape, res.cluster)
        assert d["band"]["explanation"] == why["band"].render("en") != why["band"].render("zh")
        if d["host_paced"]:
            assert d["host_paced"]["explanation"] == why["host_paced"].render("en")
        else:
            assert why["host_paced"] is None
        if not d["fits"]:
            assert d["refusal"] == refusal_msg(est.memory).render("en")
        if est.time_to_train_s:
            assert est.extra["goodput_text"] == goodput_msg(est.extra).render("en")


def test_refusals_on_stderr_speak_the_language_too():
    """A refused command line of `estimate --inference` (TP that does not split the heads) is one line on
    stderr in the language asked for, in a real subprocess."""

    def run(*args: str, lang: str | None) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
        env.pop("GPUPLANNER_LANG", None)
        if lang:
            env["GPUPLANNER_LANG"] = lang
        return subprocess.run(
            [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, cwd=ROOT, env=env,
            timeout=300,
        )  # fmt: skip

    bad = ["estimate", "--inference", "--model", "llama3-70b", *H100, "--tp", "3"]
    en = run(*bad, lang=None)
    zh = run(*bad, lang="zh")
    assert en.returncode == zh.returncode == 2
    assert "does not split 64 attention heads" in en.stderr and "--tp" in en.stderr
    assert "无法均分 64 个注意力头" in zh.stderr and len(zh.stderr.strip().splitlines()) == 1
    ok = run(*COMMANDS["training"], lang="zh")
    assert (
        ok.returncode == 0
        and "训练步时间" in ok.stdout
        and ok.stdout == cli(tuple(COMMANDS["training"]), "zh")[1]
    )


def column_starts(separator: str) -> list[int]:
    return [m.start() for m in re.finditer(r"-+", separator)]


@pytest.mark.parametrize("name", ["training", "search", "validate", "validate_inference"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_table_columns_line_up_in_a_terminal(name, lang):
    """Every cell of every table starts at its column, counted in terminal columns (a Chinese character
    takes two): the header, the dashes and the rows line up in both languages."""
    from gpuplanner.cli.common import width

    lines = cli((*COMMANDS[name], "--lang", lang))[1].splitlines()
    tables = 0
    for i, line in enumerate(lines):
        if not re.fullmatch(r"-+(  -+)+", line):
            continue
        tables += 1
        starts = column_starts(line)
        rows = [lines[i - 1]]
        for row in lines[i + 1 :]:
            if not row.strip():
                break
            rows.append(row)
        for row in rows:
            if not re.search(r"\S  +\S", row):  # a heading after the table, not a row
                break
            cells = [m.start() for m in re.finditer(r"(?:(?<=  )|^)\S", row)]
            at = [width(row[:k]) for k in cells]
            assert set(at) <= set(starts), (row, at, starts)
    assert tables >= 1
