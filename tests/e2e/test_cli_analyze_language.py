"""`analyze` text: every workload of the table has its line or block (training and serving, and the
message of one that cannot be evaluated), with the numbers `analyze --json` gives; every label in the
project's language or ``--lang`` (Chinese: no English sentence left, the same numbers as the English text);
`--json` keeps its keys (tests/data/cli_json_keys.json, "analyze")."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from gpuplanner.cli import main
from tests.e2e.test_cli_language import KEYS, column_starts, english_runs, json_keys, numbers

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "cluster-256-h100.gpuplan"  # language zh

# the example's training workload stays the primary one; three serving workloads and a fine-tuning one
WORKLOADS = [
    # disaggregated, a stated load it does not meet within its latency targets
    "workload.chat.model=llama3-70b", "workload.chat.kind=inference", "workload.chat.users=20000",
    "workload.chat.ttft_target_s=1", "workload.chat.tpot_target_s=0.05",
    # aggregated, a request rate it meets
    "workload.agg.model=llama3-8b", "workload.agg.kind=inference", "workload.agg.serving_mode=aggregated",
    "workload.agg.requests_per_s=10",
    # no stated load, no targets: the capacity alone
    "workload.big.model=llama3-405b", "workload.big.kind=inference", "workload.big.precision=bf16",
    # does not fit in memory with its default layout: the refusal
    "workload.ft.model=llama3-8b", "workload.ft.kind=fine-tuning", "workload.ft.total_tokens=1e10",
]  # fmt: skip
# one server's partition, too small for one replica of a 405B model: the serving refusal
REFUSED = ["partition.small.servers=node-0001", "workload.ds.model=llama3-405b", "workload.ds.kind=inference",
           "workload.ds.precision=bf16", "workload.ds.partition=small",
           # a TTFT no layout meets: nothing served, at any size
           "workload.fast.model=llama3-70b", "workload.fast.kind=inference", "workload.fast.users=10",
           "workload.fast.ttft_target_s=0.001",
           # stated serving settings: the stack, a prompt-length dataset and a KV-cache share
           "workload.kv.model=llama3-8b", "workload.kv.kind=inference", "workload.kv.serving_stack=trtllm",
           "workload.kv.kv_fraction=0.85", "workload.kv.prompt_dataset=mlperf-llama2-70b",
           "workload.kv.prompt_len=222"]  # fmt: skip


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(list(args))
    return rc, out.getvalue()


@pytest.fixture(scope="module")
def plans(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("analyze")
    out = {}
    for name, edits in (("served", WORKLOADS), ("refused", WORKLOADS + REFUSED)):
        path = folder / f"{name}.gpuplan"
        shutil.copy(EXAMPLE, path)
        rc, _ = cli("set", str(path), *edits)
        assert rc == 0
        out[name] = path
    return out


@pytest.fixture(scope="module")
def outputs(plans) -> dict[tuple[str, str], tuple[str, dict]]:
    """(plan, lang) → the text and the JSON of `analyze` in that language."""
    out = {}
    for name, path in plans.items():
        for lang in ("en", "zh"):
            rc, txt = cli("analyze", str(path), "--lang", lang)
            rc_json, js = cli("analyze", str(path), "--lang", lang, "--json")
            assert rc == rc_json == 0
            out[name, lang] = (txt, json.loads(js))
    return out


def block(txt: str, name: str) -> str:
    """The workload's line and its continuation lines (indented deeper)."""
    lines = txt.splitlines()
    at = [i for i, line in enumerate(lines) if re.match(rf"  {re.escape(name)} ?[（(]", line)]
    assert len(at) == 1, (name, txt[:3000])
    out = [lines[at[0]]]
    for line in lines[at[0] + 1 :]:
        if not line.startswith("    "):
            break
        out.append(line)
    return "\n".join(out)


def shows(txt: str, value: float) -> bool:
    """``value`` is one of the numbers written in ``txt``, to the digits written."""
    for s in NUMBER.findall(txt):
        digits = len(s.split(".")[1]) if "." in s else 0
        if abs(float(s.replace(",", "")) - value) <= 0.5 * 10**-digits + 1e-9 * abs(value):
            return True
    return False


NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")


def test_the_number_check_can_fail():
    assert shows("TTFT 1.000 s, 6,595 users", 6594.55) and shows("TTFT 1.000 s", 0.99951)
    assert not shows("6,595 users", 6594.4) and not shows("TP8 PP2", 8)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_serving_workload_has_its_block_with_the_numbers_of_the_json(outputs, lang):
    txt, d = outputs["served", lang]
    serving = [w for w in d["workloads"] if w["kind"] == "inference"]
    assert [w["name"] for w in serving] == ["chat", "agg", "big"]
    for w in serving:
        b, s = block(txt, w["name"]), w["serving"]
        figures = {
            "gpus": w["gpus"],
            "ttft_s": w["ttft_s"],
            "tpot_ms": w["tpot_s"] * 1e3,
            "max_requests_per_s": w["max_requests_per_s"],
            "max_concurrent_users": w["max_concurrent_users"],
            "per_user_tokens_per_s": w["per_user_tokens_per_s"],
            "output_tokens_per_s": w["output_tokens_per_s"],
            "decode_batch": s["decode_batch"],
        }
        if s["mode"] == "aggregated":
            figures["replicas"] = s["replicas"]
            assert f"TP{s['tp']}" in b
        else:
            figures |= {k: s[k] for k in ("prefill_workers", "decode_workers")}
            figures["kv_transfer_ms"] = s["kv_transfer_s"] * 1e3
            assert f"TP{s['prefill_tp']}" in b and f"TP{s['decode_tp']}" in b
        if w["gpus_needed"] is not None:
            figures["gpus_needed"] = w["gpus_needed"]
        if w["target_users"]:
            figures["target_users"] = w["target_users"]
        if w["target_requests_per_s"]:
            figures["target_requests_per_s"] = w["target_requests_per_s"]
        missing = [k for k, v in figures.items() if not shows(b, v)]
        assert not missing, (w["name"], missing, b)
    # the mode, what limits it and the target, in the language
    chat = next(w for w in serving if w["name"] == "chat")
    assert chat["meets_target"] is False and chat["gpus_needed"] > 0  # the sentences below say so
    need = f"{chat['gpus_needed']:,}"
    limit = chat["serving"]["limited_by"]  # ttft or tpot: the binding target moves with the engine's figures
    assert limit in ("ttft", "tpot")
    said = {
        "en": ["disaggregated", f"limited by {limit}", f"NOT met; {need} GPUs needed", "aggregated", "— met;",
               "limited by kv cache", "TTFT ≤ 1 s, TPOT ≤ 50 ms"],
        "zh": ["预填充/解码分离式", f"受限于 {limit.upper()} 目标", f"未满足；需要 {need} 块 GPU", "聚合式", "已满足",
               "受限于 KV 缓存容量", "在 TTFT ≤ 1 秒、TPOT ≤ 50 毫秒 下服务 20,000 个并发用户"],
    }[lang]  # fmt: skip
    missing = [s for s in said if s not in txt]
    assert not missing, (missing, txt[:3000])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_training_workloads_keep_their_line_and_the_primary_its_bottleneck(outputs, lang):
    txt, d = outputs["served", lang]
    perf = d["performance"]
    b = block(txt, perf["workload"])
    for v in (perf["step_time_s"], perf["tokens_per_s"], perf["mfu"] * 100, perf["memory_per_gpu_gb"],
              perf["time_to_train_days"], *perf["time_to_train_days_range"]):  # fmt: skip
        assert shows(b, v), (v, b)
    lines = txt.splitlines()
    at = lines.index(b.splitlines()[0])
    assert lines[at + 1] == "  " + ("bottleneck: " if lang == "en" else "瓶颈：") + perf["bottleneck"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_workload_that_cannot_be_evaluated_shows_its_message(outputs, lang):
    txt, d = outputs["refused", lang]
    en_txt, en_d = outputs["refused", "en"]
    by_name = {w["name"]: w for w in d["workloads"]}
    ft, ds = by_name["ft"], by_name["ds"]
    assert ft["error"] and ds["error"] and not ds["serving"]["fits"]
    assert ft["error"] in block(txt, "ft")  # the JSON's message, in the JSON's language
    assert "TP1 PP1 DP256" in block(txt, "ft")
    refusal = block(txt, "ds")
    assert ds["error"] in refusal  # the JSON's message, in the JSON's language
    if lang == "en":
        assert "does not fit" in refusal
    else:  # the serving refusal in Chinese, in the JSON too, with the same numbers
        assert "放不下一个副本" in refusal and not english_runs(refusal), refusal
        assert "放不下一个副本" in ds["error"] and not english_runs(ds["error"]), ds["error"]
        assert numbers(refusal) == numbers(block(en_txt, "ds"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_target_no_layout_meets_is_said_so_without_a_gpu_count(outputs, lang):
    txt, d = outputs["refused", lang]
    fast = next(w for w in d["workloads"] if w["name"] == "fast")
    assert fast["meets_target"] is False and fast["needed"]["max_requests_per_s"] == 0
    b = block(txt, "fast")
    said = {
        "en": ["no request can be served", "NOT met; no layout serves a request", "TTFT ≤ 0.001 s"],
        "zh": ["在目标以内无法服务任何请求", "未满足；没有任何布局能在目标以内服务请求", "TTFT ≤ 0.001 秒"],
    }[lang]
    assert all(s in b for s in said), b
    assert fast["gpus_needed"] is None  # the smallest layout serves nothing: no GPU count would do
    rules = [f["rule"] for f in d["findings"] if "fast" in f["message"]]
    assert "serving-target-unreachable" in rules and "serving-target-not-met" not in rules, rules


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_target_finding_rounds_the_capacity_as_the_text_does(outputs, lang):
    txt, d = outputs["served", lang]
    chat = next(w for w in d["workloads"] if w["name"] == "chat")
    found = [
        f["message"]
        for f in d["findings"]
        if f["rule"] == "serving-target-not-met" and "chat" in f["message"]
    ]
    assert len(found) == 1, found
    users = f"{chat['max_concurrent_users']:,.0f}"
    assert users in found[0] and users in block(txt, "chat"), (users, found[0])


def names(d: dict) -> list[str]:
    """What the text quotes from the project rather than says: its names and the words of findings' values
    (a rack type's catalog name)."""
    found = [d["project"], d["customer"] or ""]
    found += [w["name"] for w in d["workloads"]]
    found += [v for f in d["findings"] for v in f["params"].values() if isinstance(v, str)]
    return sorted({n for n in found if n and not n.isalpha()}, key=len, reverse=True)


def before_findings(txt: str) -> str:
    return txt[: txt.rindex("\n\n")]


@pytest.mark.parametrize("plan", ["served", "refused"])
def test_chinese_text_has_no_english_sentence_and_the_numbers_of_the_english(outputs, plan):
    en, _ = outputs[plan, "en"]
    zh, d = outputs[plan, "zh"]
    found = zh
    for n in names(d):
        found = found.replace(n, "§")
    assert english_runs(en) and not english_runs(found), english_runs(found)
    for word in ("GPU 256 块", "对分带宽", "训练步时间", "瓶颈：", "IT 功率最高", "资本支出", "总拥有成本",
                 "机柜", "散热方式", "背板换热", "条检查结果：", "[警告]"):  # fmt: skip
        assert word in zh, word
    # the same figures above the findings (whose sentences each language words its own way)
    extra_zh = numbers(before_findings(zh)) - numbers(before_findings(en))
    extra_en = numbers(before_findings(en)) - numbers(before_findings(zh))
    assert not extra_zh and not extra_en, (extra_zh, extra_en)
    assert len(d["findings"]) == len(re.findall(r"^  \[", zh, flags=re.MULTILINE))


def test_the_project_language_speaks_unless_lang_says_otherwise(plans, outputs):
    """The example's language is Chinese: without --lang its text is the Chinese one."""
    assert cli("analyze", str(plans["served"]))[1] == outputs["served", "zh"][0]


def test_phase_table_and_racks_in_chinese_line_up():
    """The phase table's and the rack table's headers in Chinese: every cell starts at its column, counted
    in terminal columns; and the '… more racks' line."""
    from gpuplanner.cli.common import width

    rc, zh = cli(
        "analyze", str(ROOT / "examples" / "phased-pilot-to-su.gpuplan"), "--lang", "zh", "--racks", "3"
    )
    assert rc == 0 and "阶段" in zh and "新增资本支出" in zh and "另有 11 个机柜未列出" in zh
    lines = zh.splitlines()
    tables = 0
    for i, line in enumerate(lines):
        if not re.fullmatch(r"-+(  -+)+", line):
            continue
        tables += 1
        starts = column_starts(line)
        for row in [lines[i - 1], *lines[i + 1 : i + 4]]:
            cells = [m.start() for m in re.finditer(r"(?:(?<=  )|^)\S", row)]
            assert {width(row[:k]) for k in cells} <= set(starts), (row, starts)
    assert tables == 2


def test_json_keeps_its_keys_and_the_text_changes_none_of_it(plans, outputs):
    """The keys of `analyze --json` (an API) as committed; the JSON is the same whichever text is asked."""
    _, d = outputs["served", "en"]
    expected = json.loads(KEYS.read_text(encoding="utf-8"))["analyze"]
    got = sorted(k for k in json_keys(d) if not k.startswith(DATA_KEYED))
    assert got == expected
    a = json.loads(cli("analyze", str(plans["served"]), "--json", "--lang", "en")[1])
    for x in (a, d):
        x.pop("stage_ms")
    assert a == d


# dicts keyed by data (cooling methods, catalog ids, tiers, hop counts, a finding's values, step parts, the
# stages timed): what is under them depends on the plan, not on the API
DATA_KEYED = tuple(
    f"{k}."
    for k in ("cooling_mix_kw", "fabric.cables", "fabric.cables_by_medium", "fabric.cables_by_tier",
              "fabric.hop_histogram", "fabric.oversubscription_by_tier", "fabric.switches_by_tier",
              "fabric.transceivers", "findings[].params", "stage_ms", "performance.breakdown",
              "performance.memory")
)  # fmt: skip
