"""The serving engine's decode step, operator by operator, against NVIDIA's measured kernels: the rows of
aiconfigurator's TensorRT-LLM 1.3.0rc20 databases copied into tests/data/aiconfigurator/ (README there; made by
benchmarks/extract_aiconfigurator_ops.py). No aiconfigurator needed.

1. The decode-GEMM constants of catalogs/assumptions/performance.yaml (decode_gemm_hbm_efficiency_*,
   decode_gemm_fixed_us_*) are the least-squares fit t = fixed + weight bytes / (HBM · e) of the copied GEMMs at
   M ≤ 16 (FP8: static scale, the dynamic FP8 latency less compute_scale and half scale_matrix): refitted here.
2. Llama 3 70B decode steps (the peer rows of catalogs/validation/peer_aiconfigurator.yaml: B200 FP8 TP4 at
   batch 128 and context 4608, B200 BF16 TP8 at 64, H100/H200 BF16 TP8 at 64, H100 FP8 TP4 at 64, H200 FP8 TP2 at
   32): Worker.decode_terms against the measured operators of the same shapes (QKV, output, gate-up, down and the
   BF16 output head GEMMs at M = batch; generation attention at (batch, context, heads per GPU); 2 custom
   all-reduces per layer of batch × hidden elements), interpolated linearly between grid points (N, K, context;
   all-reduce in log-log).

Bars, as met on these rows (docs/notes/s11-decode.md has the table): the GEMM sum 0 to +30 % (ours +15..+27 %:
the engine adds the GEMMs' FLOPs to their weight stream, its additive roofline, while at M ≤ ~200 the measured
kernels hide the FLOPs under the stream; without the FLOPs term the rows are −6..+4 %), attention −55 % to +5 %
(ours −4..−52 %: TensorRT-LLM's decode attention kernel reaches 35-70 % of HBM at these batch × heads, the engine
assumes decode_hbm_efficiency 0.75), all-reduce −15 % to +80 % (ours −8..+75 %, TP2 worst), and the measured
operators' step total within 15 % (ours −5..+14 %). Before this session's change the B200 GEMM sums were below the
measured ones (no per-kernel fixed part; weights at 0.75 of HBM): the GEMM bar's lower end, 0, holds that.
Not compared: aiconfigurator's element-wise ops (an analytic formula, not a measurement) and its embedding
all-reduce (not in the engine).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.serving import ServingSetup, worker

DATA = Path(__file__).resolve().parents[1] / "data" / "aiconfigurator"
GPU = {"h100_sxm": "nvidia-h100-sxm", "h200_sxm": "nvidia-h200-sxm", "b200_sxm": "nvidia-b200"}
DTYPE = {"bf16": "bfloat16", "fp8": "fp8", "fp4": "nvfp4"}
BYTES = {"bfloat16": 2.0, "fp8": 1.0, "nvfp4": 0.5625}
# Llama 3 70B
H, HEADS, KV_HEADS, HEAD_DIM, FFN, VOCAB, LAYERS = 8192, 64, 8, 128, 28672, 128256, 80


def _rows(name: str) -> list[dict[str, str]]:
    with open(DATA / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@cache
def gemm_table() -> dict[tuple[str, str, int], dict[tuple[int, int], float]]:
    t: dict[tuple[str, str, int], dict[tuple[int, int], float]] = defaultdict(dict)
    for r in _rows("gemm"):
        t[(r["system"], r["gemm_dtype"], int(r["m"]))][(int(r["n"]), int(r["k"]))] = (
            float(r["latency"]) * 1e-3
        )
    return t


@cache
def quant_table() -> dict[tuple[str, str, int, int], float]:
    return {
        (r["system"], r["table"], int(r["m"]), int(r["k"])): float(r["latency"]) * 1e-3
        for r in _rows("quantize")
    }


def _interp(grid: dict[tuple[int, int], float], n: int, k: int) -> float:
    """Bilinear in (N, K) between the grid's points."""
    ns = sorted({a for a, _ in grid})
    ks = sorted({b for _, b in grid})

    def br(xs: list[int], x: int) -> tuple[int, int, float]:
        if x in xs:
            return x, x, 0.0
        lo = max(v for v in xs if v < x)
        hi = min(v for v in xs if v > x)
        return lo, hi, (x - lo) / (hi - lo)

    n0, n1, fn = br(ns, n)
    k0, k1, fk = br(ks, k)
    v0 = grid[(n0, k0)] * (1 - fn) + grid[(n1, k0)] * fn
    v1 = grid[(n0, k1)] * (1 - fn) + grid[(n1, k1)] * fn
    return v0 * (1 - fk) + v1 * fk


def measured_gemm(system: str, dtype: str, m: int, n: int, k: int, fp8_input: bool = False) -> float:
    """Seconds of one measured GEMM; FP8 as static scale (aiconfigurator's fp8_static rule): the dynamic FP8
    latency less compute_scale(m, k), and less scale_matrix(m, k) when the input arrives in FP8."""
    t = _interp(gemm_table()[(system, dtype, m)], n, k)
    if dtype == "fp8":
        q = quant_table()
        ks = sorted({kk for (s, _, mm, kk) in q if s == system and mm == m})
        k_ = min(ks, key=lambda v: abs(v - k))  # the quantize kernels depend little on K near the grid point
        t -= q[(system, "computescale", m, k_)] + (q[(system, "scale_matrix", m, k_)] if fp8_input else 0.0)
    return t


def measured_attention(system: str, kv_dtype: str, b: int, s: float, heads: int, kv_heads: int) -> float:
    pts = sorted(
        (float(r["s"]), float(r["latency"]) * 1e-3)
        for r in _rows("generation_attention")
        if r["system"] == system
        and r["kv_cache_dtype"] == kv_dtype
        and int(r["batch_size"]) == b
        and int(r["num_heads"]) == heads
        and int(r["num_key_value_heads"]) == kv_heads
    )
    return float(np.interp(s, [p[0] for p in pts], [p[1] for p in pts]))


def measured_allreduce(system: str, gpus: int, elements: float) -> float:
    pts = sorted(
        (float(r["message_size"]), float(r["latency"]) * 1e-3)
        for r in _rows("allreduce")
        if r["system"] == system and int(r["num_gpus"]) == gpus
    )
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    return float(np.exp(np.interp(np.log(elements), x, y)))


def measured_step(system: str, prec: str, tp: int, b: int, ctx: float) -> dict[str, float]:
    """aiconfigurator's measured operators of a Llama 3 70B decode step (its LLAMA model's generation ops)."""
    dt = DTYPE[prec]
    kv_gpu = max(KV_HEADS // tp, 1)
    qkv = measured_gemm(system, dt, b, HEADS * HEAD_DIM // tp + 2 * HEAD_DIM * kv_gpu, H)
    proj = measured_gemm(system, dt, b, H, HEADS * HEAD_DIM // tp, fp8_input=True)
    gate_up = measured_gemm(system, dt, b, 2 * FFN // tp, H)
    down = measured_gemm(system, dt, b, H, FFN // tp, fp8_input=True)
    head = measured_gemm(system, "bfloat16", b, VOCAB // tp, H)
    kv = "fp8" if prec == "fp8" else "bfloat16"
    return {
        "gemm": LAYERS * (qkv + proj + gate_up + down) + head,
        "attention": LAYERS * measured_attention(system, kv, b, ctx, HEADS // tp, kv_gpu),
        "all_reduce": 2 * LAYERS * measured_allreduce(system, tp, b * H),
    }


# (system, precision, tp, batch, prompt, output): the peer rows' decode steps
ROWS = [
    ("b200_sxm", "fp8", 4, 128, 4096, 1024),
    ("b200_sxm", "bf16", 8, 64, 2048, 512),
    ("h100_sxm", "bf16", 8, 64, 2048, 512),
    ("h100_sxm", "fp8", 4, 64, 2048, 512),
    ("h200_sxm", "bf16", 8, 64, 2048, 512),
    ("h200_sxm", "fp8", 2, 32, 2048, 512),
]


def ours_step(system: str, prec: str, tp: int, b: int, prompt: int, output: int) -> dict[str, float]:
    cat = default_catalog()
    req = {"model": "llama3-70b", "gpu": GPU[system], "gpus_per_node": 8, "nic_gbps": 400}
    setup = ServingSetup(prompt_len=prompt, output_len=output, precision=prec, serving_stack="trtllm")
    w = worker(shape_of(req, cat), cluster_of(req, cat), setup, tp)
    terms = w.decode_terms(b)
    assert sum(terms.values()) == pytest.approx(float(w.step_s(b, 0.0)), rel=1e-12)
    return terms


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r[0]}-{r[1]}-tp{r[2]}-b{r[3]}")
def test_decode_step_operators_match_the_measured_kernels(row):
    system, prec, tp, b, prompt, output = row
    ours = ours_step(*row)
    aic = measured_step(system, prec, tp, b, prompt + output / 2.0)
    assert 0.0 <= ours["gemm"] / aic["gemm"] - 1 <= 0.30
    assert -0.55 <= ours["attention"] / aic["attention"] - 1 <= 0.05
    assert -0.15 <= ours["all_reduce"] / aic["all_reduce"] - 1 <= 0.80
    total = ours["gemm"] + ours["attention"] + ours["all_reduce"]
    assert total / sum(aic.values()) - 1 == pytest.approx(0.0, abs=0.15)


def _fit(system: str, dtype: str) -> tuple[float, float]:
    """(fixed seconds, HBM share) of t = fixed + bytes / (HBM · e) over the copied GEMMs at M ≤ 16."""
    grid = [1024, 1536, 2048, 2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192, 10240, 12288, 16384]
    q = quant_table()
    xs, ys = [], []
    for m in (1, 8, 16):
        for (n, k), t in gemm_table()[(system, dtype, m)].items():
            if n not in grid or k not in grid:
                continue
            if dtype == "fp8":
                t -= q[(system, "computescale", m, k)] + q[(system, "scale_matrix", m, k)] / 2.0
            xs.append(n * k * BYTES[dtype])
            ys.append(t)
    slope, fixed = np.polyfit(np.asarray(xs), np.asarray(ys), 1)
    bw = default_catalog().get(GPU[system]).mem_bw_tbyte_per_s * 1e12
    return float(fixed), float(1.0 / slope / bw)


@pytest.mark.parametrize(
    ("system", "prec"),
    [(s, p) for s in GPU for p in ("bf16", "fp8", "fp4") if not (p == "fp4" and s != "b200_sxm")],
)
def test_decode_gemm_constants_are_the_fit_of_the_measured_gemms(system, prec):
    a = load_assumptions()
    name = default_catalog().get(GPU[system]).name
    fixed, eff = _fit(system, DTYPE[prec])
    assert a.number(f"decode_gemm_fixed_us_{prec}", name) == pytest.approx(fixed * 1e6, abs=0.051)
    assert a.number(f"decode_gemm_hbm_efficiency_{prec}", name) == pytest.approx(eff, abs=0.0006)


# Llama 3.1 405B TP8 (hidden 16384), the trtllm-bench 405B rows' layout: the decode step's 2 x 126 all-reduces of
# B x 16384 BF16 elements against the same measured TensorRT-LLM all-reduce (AUTO strategy) rows. Bars as met
# (docs/notes/s12-trtar.md): at B 32-1024 (1-34 MB messages) the engine's ring rule is 0.78-1.02x the measured
# kernel, i.e. never slower by more than a few per cent, so the decode all-reduce cannot explain those rows'
# pessimism; at B 2048-4096 (> 8 MB, NCCL with NVLink SHARP in the measurement, the ring in the engine) it is
# 1.17-1.31x slower, the one known gap (the two 128/128 rows).
H405, LAYERS405 = 16384, 126


def _ar405(system: str, gpu: str, b: int) -> float:
    cat = default_catalog()
    req = {"model": "llama3-405b", "gpu": gpu, "gpus_per_node": 8, "nic_gbps": 400}
    setup = ServingSetup(
        prompt_len=1000, output_len=1000, precision="fp8", kv_precision="bf16", serving_stack="trtllm"
    )
    w = worker(shape_of(req, cat), cluster_of(req, cat), setup, 8)
    return w.decode_terms(b)["all_reduce"] / (2 * LAYERS405 * measured_allreduce(system, 8, b * H405))


@pytest.mark.parametrize("system", ["h100_sxm", "h200_sxm"])
@pytest.mark.parametrize("b", [32, 64, 128, 256, 512, 1024])
def test_405b_decode_all_reduce_is_not_slower_than_the_measured_kernel(system, b):
    assert 0.75 <= _ar405(system, GPU[system], b) <= 1.05


@pytest.mark.parametrize("system", ["h100_sxm", "h200_sxm"])
@pytest.mark.parametrize("b", [2048, 4096])
def test_405b_decode_all_reduce_above_the_custom_limit_is_the_known_gap(system, b):
    assert 1.10 <= _ar405(system, GPU[system], b) <= 1.35
