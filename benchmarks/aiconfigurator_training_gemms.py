"""Training-step GEMM shapes against NVIDIA aiconfigurator's measured BF16 GEMM latencies (docs/notes/s12-gemmshape.md).

For GPT-OSS 120B (hidden 2880) and, for comparison, Llama 3 8B / 70B, every GEMM of one layer's forward and
backward (forward M×N×K, data gradient M×K×N, weight gradient K×N×M) is looked up in aiconfigurator's measured
TensorRT-LLM `Linear` table (trilinear interpolation of the latency between grid points: the grid has no 2880 or
5760, so those sit between 2560/3072 and 5120/6144) and set against the engine's rate for the same GEMM
(gemm_efficiency × peak with the operand-traffic term, layer_time.gemm_s, plus the tile/wave quantisation of the
grouped expert GEMMs, gemm_shape.grouped_extra_s). Prints the markdown tables of the note.

    git clone https://github.com/ai-dynamo/aiconfigurator && git -C aiconfigurator checkout 095f58a5
    pip install pandas pyarrow          # into a venv that also has this repository's dependencies
    PYTHONPATH=. python benchmarks/aiconfigurator_training_gemms.py path/to/aiconfigurator

Source: aic-core/src/aiconfigurator_core/systems/data/<system>/gemm/trtllm/1.3.0rc20/gemm_perf.parquet
(Apache-2.0; kernel_source torch_flow, gemm_dtype bfloat16, latency in ms). Not a test: nothing in the engine
reads it.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]

from gpuplanner.catalog.loader import load_catalog
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.gemm_shape import grouped_extra_s
from gpuplanner.engine.perf.layer_time import gemm_s, hardware_for
from gpuplanner.engine.perf.request import cluster_of

VERSION = "1.3.0rc20"
# aiconfigurator system -> (server, gpu) of the catalog
SYSTEMS = {
    "h100_sxm": ("nvidia-dgx-h100", "nvidia-h100-sxm"),
    "h200_sxm": (None, "nvidia-h200-sxm"),
    "b200_sxm": ("nvidia-dgx-b200", "nvidia-b200"),
    "b300_sxm": ("nvidia-dgx-b300", "nvidia-b300"),
    "gb200": ("nvidia-gb200-nvl72", "nvidia-gb200"),
    "gb300": (None, "nvidia-gb300"),
}
# name, (M, N, K), experts in one grouped launch, the forward (M, N, K) (the engine times both backward GEMMs
# as the forward one, layer_time.gemm_s, with the forward's tile/wave quantisation)
Shape = tuple[str, tuple[int, int, int], int, tuple[int, int, int]]


def three(name: str, m: int, n: int, k: int, groups: int = 1) -> list[Shape]:
    """Forward, data-gradient and weight-gradient GEMMs of one linear layer (same FLOPs, dims permuted)."""
    return [
        (f"{name} fwd", (m, n, k), groups, (m, n, k)),
        (f"{name} dgrad", (m, k, n), groups, (m, n, k)),
        (f"{name} wgrad", (k, n, m), groups, (m, n, k)),
    ]


def gpt_oss(tokens: int, rows: int, groups: int) -> list[Shape]:
    """GPT-OSS 120B at TP 1: hidden 2880, 64 query heads and 8 KV heads of 64, experts of width 2880 (gated)."""
    return (
        three("qkv", tokens, (64 + 2 * 8) * 64, 2880)
        + three("proj", tokens, 2880, 64 * 64)
        + three("expert fc1", rows, 2 * 2880, 2880, groups)
        + three("expert fc2", rows, 2880, 2880, groups)
    )


def dense(tokens: int, h: int, qkv: int, q: int, ffn: int) -> list[Shape]:
    return (
        three("qkv", tokens, qkv, h)
        + three("proj", tokens, h, q)
        + three("fc1", tokens, 2 * ffn, h)
        + three("fc2", tokens, h, ffn)
    )


# GPT-OSS rows of catalogs/validation/training_runs.yaml: H100 mb1 (4096 tokens) EP 8 -> 16 local experts of
# 4096·8·4/128 = 1024 rows; B200/B300 mb4 EP 8 -> 16 experts of 4096 rows; GB200/GB300 mb4 EP 64 -> 2 of 32768.
CASES: dict[str, list[tuple[str, list[Shape]]]] = {
    "h100_sxm": [("GPT-OSS 120B, mb1, EP 8", gpt_oss(4096, 1024, 16))],
    "b200_sxm": [("GPT-OSS 120B, mb4, EP 8", gpt_oss(16384, 4096, 16))],
    "b300_sxm": [("GPT-OSS 120B, mb4, EP 8", gpt_oss(16384, 4096, 16))],
    "gb200": [("GPT-OSS 120B, mb4, EP 64", gpt_oss(16384, 32768, 2))],
    "gb300": [("GPT-OSS 120B, mb4, EP 64", gpt_oss(16384, 32768, 2))],
}
for _s in CASES:
    CASES[_s].append(("Llama 3 8B, TP 1, 16384 tokens", dense(16384, 4096, 6144, 4096, 14336)))
    CASES[_s].append(("Llama 3 70B, TP 2, 4096 tokens", dense(4096, 8192, 10240 // 2, 8192 // 2, 28672 // 2)))


def _bracket(grid: list[int], x: int) -> tuple[int, int]:
    if x in grid:
        return x, x
    return max(v for v in grid if v < x), min(v for v in grid if v > x)


def measured(table: dict[tuple[int, int, int], float], m: int, n: int, k: int) -> tuple[float, float, float]:
    """TFLOP/s of an M×N×K BF16 GEMM: interpolated, and the lowest/highest of the grid corners used."""
    ms = sorted({a for a, _, _ in table if a % 16 == 0})  # the grid, not its M+1 rows
    ns = sorted({b for _, b, _ in table})
    ks = sorted({c for _, _, c in table})
    brackets = (_bracket(ms, m), _bracket(ns, n), _bracket(ks, k))

    def weights(lo: int, hi: int, x: int) -> tuple[float, float]:
        return (1.0, 0.0) if lo == hi else ((hi - x) / (hi - lo), (x - lo) / (hi - lo))

    w = [weights(*b, x) for b, x in zip(brackets, (m, n, k), strict=True)]
    latency, rates = 0.0, []
    for i in range(2):
        for j in range(2):
            for l_ in range(2):
                c = (brackets[0][i], brackets[1][j], brackets[2][l_])
                t = table[c]
                latency += w[0][i] * w[1][j] * w[2][l_] * t
                rates.append(2.0 * c[0] * c[1] * c[2] / (t * 1e-3) / 1e12)
    return 2.0 * m * n * k / (latency * 1e-3) / 1e12, min(rates), max(rates)


def main(repo: str) -> int:
    data = Path(repo) / "aic-core/src/aiconfigurator_core/systems/data"
    if not data.is_dir():
        data = Path(repo)
    catalog, a = load_catalog(), load_assumptions()
    for system, cases in CASES.items():
        server, gpu = SYSTEMS[system]
        hw = hardware_for(cluster_of({"server": server, "gpu": gpu}, catalog), "bf16", a)
        g = pd.read_parquet(data / system / "gemm/trtllm" / VERSION / "gemm_perf.parquet")
        g = g[(g.gemm_dtype == "bfloat16") & (g.kernel_source == "torch_flow")]
        table = {(int(r.m), int(r.n), int(r.k)): float(r.latency) for r in g.itertuples()}
        print(
            f"\n### {system} ({g.device.iloc[0]}; engine ceiling {hw.gemm_flop_per_s / 1e12:.0f} TFLOP/s)\n"
        )
        print(
            "| GEMM | M×N×K | experts | measured TFLOP/s (grid corners) | engine TFLOP/s | measured/engine |"
        )
        print("|---|---|---|---|---|---|")
        for label, shapes in cases:
            t_meas = t_eng = 0.0
            for name, (m, n, k), groups, (fm, fn, fk) in shapes:
                rate, lo, hi = measured(table, m, n, k)
                flops = 2.0 * m * n * k * groups
                eng_s = groups * float(gemm_s(fm, fn, fk, hw))
                if groups > 1:
                    eng_s += float(
                        grouped_extra_s(
                            groups, fm, fn, fk, hw.gemm_flop_per_s, hw.sm_count, hw.tile_rows, hw.tile_cols
                        )
                    )
                eng = flops / eng_s / 1e12
                t_meas += flops / (rate * 1e12)
                t_eng += eng_s
                print(
                    f"| {name} | {m}×{n}×{k} | {groups} | {rate:.0f} ({lo:.0f}–{hi:.0f}) | {eng:.0f} | {rate / eng:.2f} |"
                )
            ratio = t_eng / t_meas
            print(f"| **{label}: the layer's GEMMs, time-weighted** | | | | | **{ratio:.2f}** |")
            if math.isnan(ratio):
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
