"""Diagnostic (not a test, changes nothing): the serving engine's decode step of the trtllm-bench Llama 3.1 405B
TP8 validation rows (catalogs/validation/inference_runs.yaml, family 'TensorRT-LLM trtllm-bench Llama 3.1 405B'),
split by operator (Worker.decode_terms at the plan's decode batch), against NVIDIA aiconfigurator's measured
TensorRT-LLM 1.3.0rc20 kernels at the same shapes and sizes; then each row's error if one operator took the
measured time (throughput scaled by the step ratio; prefill and batch held). docs/notes/s12-trtar.md has the tables.

    git clone https://github.com/ai-dynamo/aiconfigurator && git -C aiconfigurator checkout 095f58a5
    pip install pandas pyarrow            # not project dependencies
    python benchmarks/decompose_trtllm_405b_decode.py path/to/aiconfigurator   # or its systems/data folder

Measured side (aiconfigurator's LLAMA generation ops, as tests/unit/test_decode_oracle.py does for the 70B):
QKV, output, gate-up, down GEMMs at M = batch (FP8 as aiconfigurator's fp8_static rule: the dynamic FP8 latency
less compute_scale, less scale_matrix for an FP8 input), the BF16 output head; generation attention at (batch,
KV length = prompt + output/2, 16 query heads / 1 KV head per GPU, BF16 KV; where the table's batch does not reach
that KV length, the largest batch that does, scaled linearly in batch); 2 all-reduces per layer of
batch x 16384 BF16 elements (TensorRT-LLM AllReduce, strategy AUTO, interpolated log-log).
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped]

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.serving import ServingSetup, worker
from gpuplanner.engine.perf.validation_inference import load_runs, serving_plan

H, HEADS, KVH, HD, FFN, VOCAB, L, TP = 16384, 128, 8, 128, 53248, 128256, 126, 8
SYS = {"nvidia-h100-sxm": "h100_sxm", "nvidia-h200-sxm": "h200_sxm"}
FAMILY = "TensorRT-LLM trtllm-bench Llama 3.1 405B"
VERSION = "1.3.0rc20"
DATA = Path(".")


@cache
def table(system: str, op: str, name: str) -> Any:
    return pd.read_parquet(DATA / system / op / "trtllm" / VERSION / f"{name}_perf.parquet")


def _between(xs: list[int], x: float) -> tuple[int, int, float]:
    if x in xs:
        return int(x), int(x), 0.0
    lo = max(v for v in xs if v < x)
    hi = min(v for v in xs if v > x)
    return lo, hi, (x - lo) / (hi - lo)


def gemm(system: str, dtype: str, m: int, n: int, k: int) -> float:
    g = table(system, "gemm", "gemm")
    g = g[g.gemm_dtype == dtype]

    def at(mm: int) -> float:
        x = g[g.m == mm]
        grid = {(a, b): v for a, b, v in zip(x.n, x.k, x.latency, strict=True)}
        n0, n1, fn = _between(sorted(x.n.unique()), n)
        k0, k1, fk = _between(sorted(x.k.unique()), k)
        v0 = grid[(n0, k0)] * (1 - fn) + grid[(n1, k0)] * fn
        v1 = grid[(n0, k1)] * (1 - fn) + grid[(n1, k1)] * fn
        return float(v0 * (1 - fk) + v1 * fk)

    lo, hi, f = _between(sorted(g.m.unique()), m)
    return (at(lo) * (1 - f) + at(hi) * f) * 1e-3


def quant(system: str, name: str, m: int, k: int) -> float:
    q = table(system, "quantize", name)
    q = q[q.k == min(q.k.unique(), key=lambda v: abs(v - k))].sort_values("m")
    return float(np.interp(m, q.m, q.latency)) * 1e-3


def gemm_fp8_static(system: str, m: int, n: int, k: int, fp8_input: bool) -> float:
    t = gemm(system, "fp8", m, n, k) - quant(system, "computescale", m, k)
    return t - (quant(system, "scale_matrix", m, k) if fp8_input else 0.0)


def attention(system: str, b: float, ctx: float) -> float:
    a = table(system, "attention", "generation_attention")
    a = a[
        (a.num_heads == HEADS // TP)
        & (a.num_key_value_heads == KVH // TP)
        & (a.kv_cache_dtype == "bfloat16")
        & (a.head_dim == HD)
        & (a.window_size == 0)
        & (a.beam_width == 1)
    ]

    def at(bb: int) -> float:
        x = a[a.batch_size == bb]
        x = x.assign(s=x.isl + x.step).sort_values("s")
        return float(np.interp(ctx, x.s, x.latency))

    # the table covers shorter KV lengths at larger batches (batch 2048: up to 256): take the batches that reach
    # ctx, interpolate between two of them, else scale the largest one below the batch linearly in batch
    reach = a.assign(s=a.isl + a.step).groupby("batch_size").s.max()
    bs = sorted(int(v) for v, top in reach.items() if top >= ctx)
    if bs[0] <= b <= bs[-1]:
        lo, hi, f = _between(bs, b)
        return (at(lo) * (1 - f) + at(hi) * f) * 1e-3
    bb = max((v for v in bs if v <= b), default=bs[0])
    return at(bb) * b / bb * 1e-3


def all_reduce(system: str, elements: float) -> float:
    c = table(system, "comm", "custom_allreduce")
    c = c[(c.num_gpus == TP) & (c.allreduce_dtype == "bfloat16")].sort_values("message_size")
    return float(np.exp(np.interp(np.log(elements), np.log(c.message_size), np.log(c.latency)))) * 1e-3


def main(repo: str) -> int:
    global DATA
    DATA = Path(repo) / "aic-core/src/aiconfigurator_core/systems/data"
    if not DATA.is_dir():
        DATA = Path(repo)
    cat = default_catalog()
    print(
        "| GPU | ISL/OSL | B | GEMM ours / meas | attention ours / meas | all-reduce ours / meas | other (ours) |"
    )
    print("|---|---|---|---|---|---|---|")
    whatif = []
    for r in load_runs():
        if r.family != FAMILY:
            continue
        req = r.request
        plan = serving_plan(req, cat)
        setup = ServingSetup(
            prompt_len=req["prompt"],
            output_len=req["output"],
            precision="fp8",
            kv_precision="bf16",
            serving_stack="trtllm",
        )
        t = worker(shape_of(req, cat), cluster_of(req, cat), setup, TP).decode_terms(plan.decode_batch)
        s, b = SYS[req["gpu"]], plan.decode_batch
        m, ctx = int(round(b)), req["prompt"] + req["output"] / 2.0
        g = L * (
            gemm_fp8_static(s, m, (HEADS + 2 * KVH) * HD // TP, H, False)
            + gemm_fp8_static(s, m, H, HEADS * HD // TP, True)
            + gemm_fp8_static(s, m, 2 * FFN // TP, H, False)
            + gemm_fp8_static(s, m, H, FFN // TP, True)
        ) + gemm(s, "bfloat16", m, VOCAB // TP, H)
        meas = {"gemm": g, "attention": L * attention(s, b, ctx), "all_reduce": 2 * L * all_reduce(s, b * H)}
        print(
            f"| {s[:4].upper()} | {req['prompt']}/{req['output']} | {b:.0f} | "
            + " | ".join(f"{t[k] * 1e3:.1f} / {meas[k] * 1e3:.1f}" for k in meas)
            + f" | {t['elementwise'] * 1e3:.1f} |"
        )
        ours = sum(t.values())
        err = {"now": plan.output_tokens_per_s / r.measured - 1}
        for k in meas:
            err[k] = plan.output_tokens_per_s * ours / (ours - t[k] + meas[k]) / r.measured - 1
        new = ours - sum(t[k] for k in meas) + sum(meas.values())
        err["all three"] = plan.output_tokens_per_s * ours / new / r.measured - 1
        whatif.append((s, req["prompt"], req["output"], err))
    keys = list(whatif[0][3])
    print()
    print(
        "| GPU | ISL/OSL | error " + " | ".join(f"{k} measured" if k != "now" else "now" for k in keys) + " |"
    )
    print("|---|---|" + "---|" * len(keys))
    for s, p, o, e in whatif:
        print(f"| {s[:4].upper()} | {p}/{o} | " + " | ".join(f"{e[k]:+.1%}" for k in keys) + " |")
    for sel in ("h200_sxm", "h100_sxm", None):
        es = {k: np.array([e[k] for s, _, _, e in whatif if sel in (None, s)]) for k in keys}
        print(
            f"| {sel or 'family'} | mean signed / abs | "
            + " | ".join(f"{es[k].mean():+.1%} / {np.abs(es[k]).mean():.1%}" for k in keys)
            + " |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
