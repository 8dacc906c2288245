"""Serving model vs NVIDIA aiconfigurator (kernel-level measured data for H100/H200/B200).

Runs `aiconfigurator cli estimate` (set AICONFIGURATOR=/path/to/aiconfigurator, or have it on PATH; it
installs with `pip install aiconfigurator` and runs offline) for the models and systems both tools know,
in aggregated mode at a fixed concurrency (its --batch-size), and prints TTFT, TPOT and tokens/s per GPU
beside GPU Planner's steady state at the same concurrency (serving.at_concurrency), and the prefill of one
prompt alone (its static_ctx mode at batch 1). aiconfigurator's aggregated TTFT multiplies the prefill by a
burst queuing factor of 2-4 (all requests arriving at once, base_backend._ttft_queuing_factor); GPU Planner
queues Poisson arrivals (M/D/1), so the one-prefill column is the like-for-like TTFT comparison.

    python benchmarks/bench_serving_aiconfigurator.py            # the whole table (~15 s per row)
    python benchmarks/bench_serving_aiconfigurator.py --quick    # three rows
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf import ClusterSpec, shape_from_entry
from gpuplanner.engine.perf.serving import ServingSetup, at_concurrency, worker

SYSTEMS = {"h100_sxm": "nvidia-h100-sxm", "h200_sxm": "nvidia-h200-sxm", "b200_sxm": "nvidia-b200"}
MODELS = {
    "meta-llama/Meta-Llama-3.1-70B": "llama3-70b",
    "meta-llama/Meta-Llama-3.1-8B": "llama3-8b",
    "meta-llama/Meta-Llama-3.1-405B": "llama3-405b",
}
QUANT = {"bf16": "bfloat16", "fp8": "fp8"}
# (hf model, system, tp, concurrency, isl, osl, precision)
ROWS = [
    ("meta-llama/Meta-Llama-3.1-70B", "h100_sxm", 8, 8, 2048, 512, "bf16"),
    ("meta-llama/Meta-Llama-3.1-70B", "h100_sxm", 8, 64, 2048, 512, "bf16"),
    ("meta-llama/Meta-Llama-3.1-70B", "h100_sxm", 8, 256, 2048, 512, "bf16"),
    ("meta-llama/Meta-Llama-3.1-70B", "h100_sxm", 4, 64, 2048, 512, "fp8"),
    ("meta-llama/Meta-Llama-3.1-70B", "h200_sxm", 8, 64, 2048, 512, "bf16"),
    ("meta-llama/Meta-Llama-3.1-70B", "h200_sxm", 2, 32, 2048, 512, "fp8"),
    ("meta-llama/Meta-Llama-3.1-70B", "b200_sxm", 8, 64, 2048, 512, "bf16"),
    ("meta-llama/Meta-Llama-3.1-70B", "b200_sxm", 4, 128, 4096, 1024, "fp8"),
    ("meta-llama/Meta-Llama-3.1-8B", "h100_sxm", 1, 32, 2048, 512, "bf16"),
    ("meta-llama/Meta-Llama-3.1-8B", "h200_sxm", 1, 128, 1024, 256, "fp8"),
    ("meta-llama/Meta-Llama-3.1-405B", "h100_sxm", 8, 32, 2048, 512, "fp8"),
    ("meta-llama/Meta-Llama-3.1-405B", "h200_sxm", 8, 64, 2048, 512, "fp8"),
]


def aic(binary: str, model, system, tp, bs, isl, osl, prec, mode="agg") -> dict[str, float]:
    cmd = [
        binary,
        "cli",
        "estimate",
        "--model-path",
        model,
        "--system",
        system,
        "--estimate-mode",
        mode,
        "--tp-size",
        str(tp),
        "--batch-size",
        str(bs),
        "--isl",
        str(isl),
        "--osl",
        str(osl),
        "--backend",
        "trtllm",
        "--gemm-quant-mode",
        QUANT[prec],
        "--kvcache-quant-mode",
        QUANT[prec],
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600).stdout

    def num(label):
        m = re.search(rf"^\s*{label}:\s*([\d,\.]+)", out, re.M)
        return float(m.group(1).replace(",", "")) if m else float("nan")

    return {"ttft_s": num("TTFT") / 1e3, "tpot_s": num("TPOT") / 1e3, "tps_gpu": num("tokens/s/gpu")}


def ours(cat, model, system, tp, bs, isl, osl, prec) -> dict[str, float]:
    g = cat.get(SYSTEMS[system])
    spec = ClusterSpec(
        gpu_name=g.name,
        peak_bf16_tflops=g.bf16_dense_tflops,
        peak_fp8_tflops=g.fp8_dense_tflops,
        mem_gb=g.mem_gb,
        mem_bw_tbyte_per_s=g.mem_bw_tbyte_per_s,
        gpus_per_node=8,
        scaleup_bw_gbyte_per_s=g.scaleup_bw_gbyte_per_s,
        nic_gbps_per_gpu=400.0,
    )
    shape = shape_from_entry(dict(cat.get(MODELS[model]).raw))
    setup = ServingSetup(prompt_len=isl, output_len=osl, precision=prec)
    w = worker(shape, spec, setup, tp)
    op = at_concurrency(w, setup, bs)
    return {
        "ttft_s": float(op.ttft_s[0]),
        "tpot_s": float(op.tpot_s[0]),
        "tps_gpu": float(op.rate_per_s[0]) * osl / tp,
        "prefill_s": float(w.step_s(0.0, float(isl))),
    }


def main() -> int:
    binary = os.environ.get("AICONFIGURATOR") or shutil.which("aiconfigurator")
    if not binary:
        print("aiconfigurator not found: pip install aiconfigurator (or set AICONFIGURATOR)")
        return 1
    cat = default_catalog()
    rows = ROWS[:3] if "--quick" in sys.argv else ROWS
    print(
        "| model | GPU | TP | conc. | ISL/OSL | prec | one prefill aic / ours (ms) | TTFT aic / ours | "
        "TPOT aic / ours (ms) | tok/s/GPU aic / ours |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        a, o = aic(binary, *r), ours(cat, *r)
        a["prefill_s"] = aic(binary, r[0], r[1], r[2], 1, r[4], r[5], r[6], mode="static_ctx")["ttft_s"]

        def pct(k, a=a, o=o):
            return (o[k] / a[k] - 1) * 100

        print(
            f"| {MODELS[r[0]]} | {r[1]} | {r[2]} | {r[3]} | {r[4]}/{r[5]} | {r[6]} "
            f"| {a['prefill_s'] * 1e3:.0f} / {o['prefill_s'] * 1e3:.0f} ({pct('prefill_s'):+.0f}%) "
            f"| {a['ttft_s'] * 1e3:.0f} / {o['ttft_s'] * 1e3:.0f} ms ({pct('ttft_s'):+.0f}%) "
            f"| {a['tpot_s'] * 1e3:.1f} / {o['tpot_s'] * 1e3:.1f} ({pct('tpot_s'):+.0f}%) "
            f"| {a['tps_gpu']:.0f} / {o['tps_gpu']:.0f} ({pct('tps_gpu'):+.0f}%) |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
