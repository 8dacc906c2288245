"""Compare AMD's measured hipBLASLt FP8 GEMM times (the tuning override file of AMD's MLPerf Inference v5.1
Llama 2 70B submission) with the per-layer GEMM time the serving engine assumes (docs/notes/s12-amd.md).

    git clone https://github.com/mlcommons/inference_results_v5.1   # or any mirror of it
    python benchmarks/amd_gemm_tuning_table.py \
        inference_results_v5.1/closed/AMD/code/llama2-70b-99/scripts/gemm_llama2-70b/aa0bda7b/tuning_spx_1700_formatted.txt \
        [amd-mi325x]

The file is hipblaslt-bench output (one row per token count n; every n of a 16-wide bucket repeats the time measured
at the bucket's largest n): transA, transB, grouped_gemm, batch_count, m, n, k, ..., Gflops, GB/s, us, solution,
arch, CUs. It is loaded by AMD's MI325X configs (HIPBLASLT_TUNING_OVERRIDE_FILE in interactive_mi325x.yaml); its
small-n weight stream (5.3 TB/s) is above MI300X's 5.3 TB/s peak, so it is an MI325X measurement. Nothing here is
read by the engine or the tests.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np

# Llama 2 70B, TP1: fused QKV, attention output, fused gate-up, down (m = output features, k = input features)
SHAPES = ((10240, 8192), (8192, 8192), (57344, 8192), (8192, 28672))


def load(path: str) -> dict[tuple[int, int, int], float]:
    """(m, k, n measured) -> microseconds."""
    out: dict[tuple[int, int, int], float] = {}
    seen: dict[tuple[int, int, float], list[int]] = defaultdict(list)
    with open(path) as f:
        for line in f:
            p = line.strip().split(",")
            if len(p) < 30:
                continue
            m, n, k, us = int(p[4]), int(p[5]), int(p[6]), float(p[-4])
            seen[(m, k, us)].append(n)
    for (m, k, us), ns in seen.items():
        out[(m, k, max(ns))] = us
    return out


def engine_layer_us(gpu: str, tokens: int) -> tuple[float, float]:
    """(engine's per-layer FP8 GEMM microseconds at `tokens` tokens, FP8 GEMM rate in TFLOP/s) on `gpu`."""
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.assumptions import load_assumptions
    from gpuplanner.engine.perf.request import cluster_of
    from gpuplanner.engine.perf.serving_worker import decode_gemm_terms, gemm_rates

    a = load_assumptions()
    cluster = cluster_of({"gpu": gpu, "gpus": 8}, default_catalog())
    rate, _, cast = gemm_rates(cluster, "fp8", "fp8", a)
    bw, _ = decode_gemm_terms(cluster, cast, 1.0, a)
    per_gemm_fixed = a.number("decode_gemm_fixed_us_fp8", cluster.gpu_name)
    t = sum(2.0 * tokens * m * k / rate * 1e6 + m * k / bw * 1e6 + per_gemm_fixed for m, k in SHAPES)
    return t, rate / 1e12


def main(path: str, gpu: str = "amd-mi325x") -> int:
    tab = load(path)
    print(f"engine FP8 GEMM rate on {gpu}: {engine_layer_us(gpu, 1)[1]:.0f} TFLOP/s")
    print("tokens  measured layer us  engine layer us  engine/measured-1")
    for n in (16, 32, 64, 96, 128, 256, 384, 512, 768, 1024, 1280, 1536, 1792, 2048, 2560):
        if not all((m, k, n) in tab for m, k in SHAPES):
            continue
        meas = sum(tab[(m, k, n)] for m, k in SHAPES)
        eng, _ = engine_layer_us(gpu, n)
        print(f"{n:6d}  {meas:17.1f}  {eng:15.1f}  {eng / meas - 1:+17.1%}")
    for n in (16, 32):  # t = fixed + weight bytes / stream rate (one byte per FP8 weight)
        pts = [(m * k / 1e6, tab[(m, k, n)]) for m, k in SHAPES if (m, k, n) in tab]
        if len(pts) < 2:
            continue
        x = np.array([[1.0, b] for b, _ in pts])
        y = np.array([t for _, t in pts])
        (fixed, slope), *_ = np.linalg.lstsq(x, y, rcond=None)
        print(f"n={n}: fixed {fixed:.2f} us per GEMM, weights streamed at {1.0 / slope:.3f} TB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
