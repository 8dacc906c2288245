"""`estimate --inference` end to end: the precision is respected (Llama 3 405B in FP8 on one 8 × H100 node,
the standard deployment), the serving plan is printed, sizing for N users meets the targets, and a TP that
does not split the heads is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", "estimate", "--inference", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ),
        timeout=300,
    )


def test_405b_fp8_fits_one_h100_node_and_bf16_does_not():
    base = ("--model", "llama3-405b", "--server", "nvidia-dgx-h100", "--gpus", "8", "--tp", "8", "--json")
    fp8 = run(*base, "--precision", "fp8", "--ttft", "1", "--tpot", "0.05")
    assert fp8.returncode == 0, fp8.stderr
    d = json.loads(fp8.stdout)
    assert d["fits"] and d["precision"] == "fp8" and 49 < d["memory"]["weights_gb"] < 52
    s = d["serving"]
    assert s["fits"] and s["gpus"] == 8 and s["max_requests_per_s"] > 0
    assert s["ttft_s"] <= 1.0 and s["tpot_s"] <= 0.05 + 1e-9
    bf16 = json.loads(run(*base).stdout)
    assert not bf16["fits"] and bf16["memory"]["weights_gb"] > 100


def test_users_sizing_and_text_output():
    r = run(
        "--model",
        "llama3-70b",
        "--gpu",
        "nvidia-h200-sxm",
        "--precision",
        "fp8",
        "--users",
        "2000",
        "--ttft",
        "1",
        "--tpot",
        "0.05",
        "--json",
    )
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)["serving"]
    assert (
        s["max_concurrent_users"] >= 2000
        and s["ttft_s"] <= 1 + 1e-9  # the plan sits on the TTFT target, to the last bits of a float
        and s["tpot_s"] <= 0.05 + 1e-9
        and s["gpus"] > 0
    )
    t = run(
        "--model",
        "llama3-70b",
        "--gpu",
        "nvidia-h200-sxm",
        "--precision",
        "fp8",
        "--users",
        "2000",
        "--ttft",
        "1",
        "--serving",
        "disaggregated",
    )
    assert t.returncode == 0 and "GPUs needed" in t.stdout and "prefill worker" in t.stdout


def test_tp_that_does_not_split_the_heads_is_refused():
    r = run("--model", "llama3-70b", "--gpu", "nvidia-h100-sxm", "--tp", "3")
    assert r.returncode == 2 and "--tp" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_fewer_gpus_than_one_replica_is_refused_with_the_smallest_layout_named():
    """Capacity of 1 H100 for Llama 3 405B in bf16: no replica fits in one GPU, so the serving plan must say
    that one replica needs 16 GPUs (TP8 PP2), not report a plan of 0 replicas with latency figures."""
    r = run("--model", "llama3-405b", "--gpu", "nvidia-h100-sxm", "--gpus", "1", "--json")
    assert r.returncode == 2, r.stderr
    s = json.loads(r.stdout)["serving"]
    assert not s["fits"] and s["max_requests_per_s"] == 0 and s["gpus"] == 1
    assert "needs 16 GPUs" in s["refusal"] and "TP8 PP2" in s["refusal"]
    zh = run("--model", "llama3-405b", "--gpu", "nvidia-h100-sxm", "--gpus", "1", "--lang", "zh")
    assert zh.returncode == 2
    assert "能放下模型的最小布局需要 16 块 GPU" in zh.stdout
    ok = run("--model", "llama3-405b", "--gpu", "nvidia-h100-sxm", "--gpus", "16", "--json")
    s16 = json.loads(ok.stdout)["serving"]
    assert s16["fits"] and s16["replicas"] == 1 and s16["max_requests_per_s"] > 0


def test_serving_stack_option_sets_the_kv_cache_rule():
    """--serving-stack trtllm: the KV cache takes 90 % of the memory left after the weights (TensorRT-LLM's
    free_gpu_memory_fraction) instead of vLLM's 90 % of the device; KV-bound Offline serving follows it."""
    base = ("--model", "llama3-8b", "--gpu", "nvidia-h100-sxm", "--gpus", "1", "--tp", "1", "--precision", "fp8",
            "--prompt", "5000", "--output", "500", "--serving", "aggregated", "--json")  # fmt: skip
    default, vllm, trt = (
        run(*base),
        run(*base, "--serving-stack", "vllm"),
        run(*base, "--serving-stack", "trtllm"),
    )
    assert default.returncode == vllm.returncode == trt.returncode == 0, trt.stderr
    d, v, t = json.loads(default.stdout), json.loads(vllm.stdout), json.loads(trt.stdout)
    assert d["serving_stack"] == v["serving_stack"] == "vllm" and t["serving_stack"] == "trtllm"
    assert d["serving"] == v["serving"]
    assert d["serving"]["limited_by"] == t["serving"]["limited_by"] == "kv cache"
    # H100 (85.5 GB device): vLLM min(usable 79.2, 0.9 × 85.5 = 77.0) − weights 8.0 − workspace 0.3 = 68.7 GB of
    # KV; TensorRT-LLM 0.9 × (85.5 − 2.0 outside torch − 8.0 − 0.3) = 67.7 GB (s12-kvh100: no fragmentation share)
    ratio = t["serving"]["kv_cache_gb_per_gpu"] / v["serving"]["kv_cache_gb_per_gpu"]
    assert 0.98 < ratio < 0.995
    assert t["serving"]["output_tokens_per_s"] < v["serving"]["output_tokens_per_s"]
    bad = run(*base, "--serving-stack", "sglang")
    assert bad.returncode == 2 and "--serving-stack" in bad.stderr
