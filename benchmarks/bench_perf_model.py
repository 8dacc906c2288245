"""Times of the analytical performance model: one estimate, a >=100,000-configuration sweep, traffic flows.

Run: python benchmarks/bench_perf_model.py  (prints medians over several runs)
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.sweep import candidates, sweep
from gpuplanner.engine.perf.traffic import training_flows
from gpuplanner.engine.perf.training import Options, estimate, evaluate

H100 = ClusterSpec(
    gpu_name="NVIDIA H100 SXM",
    peak_bf16_tflops=989,
    peak_fp8_tflops=1979,
    mem_gb=80,
    mem_bw_tbyte_per_s=3.35,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=900,
    nic_gbps_per_gpu=400,
)
LLAMA405 = ModelShape("dense", 126, 16384, 128, 8, 53248, 128256, 8192, gated_mlp=True)


def median_s(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    cfg = TrainConfig(tp=8, pp=7, dp=256, micro_batch=1, global_batch=2048, seq_len=8192, vpp=3)
    estimate(LLAMA405, cfg, H100)  # warm caches (assumptions file)
    t_one = median_s(lambda: estimate(LLAMA405, cfg, H100), 50)
    print(f"one estimate (Llama 3.1 405B, 14,336 GPUs): {t_one * 1e3:.2f} ms (median of 50)")

    grid = dict(
        tp_options=(1, 2, 4, 8),
        cp_options=(1, 2, 4, 8, 16),
        mb_options=(1, 2, 4, 8),
        vpp_options=(1, 2, 3, 6, 7, 9),
        pp_options=(1, 2, 3, 6, 7, 9, 14, 18, 21, 42, 63, 126),
    )
    for n_gpus in (1024, 16384, 131072):
        cols, enumerated = candidates(LLAMA405, H100, n_gpus, 4096, seq_len=8192, **grid)
        rows = len(cols["tp"])
        reps = max(1, -(-100_000 // max(rows, 1)))  # tile the valid rows up to >= 100,000 configurations
        big = {k: np.tile(v, reps) for k, v in cols.items()}
        opt = Options(global_batch=4096, seq_len=8192)
        n = len(big["tp"])
        t = median_s(lambda big=big, opt=opt: evaluate(LLAMA405, H100, big, opt), 5)
        print(
            f"{n_gpus:>6} GPUs: evaluate {n:,} configurations in {t * 1e3:.0f} ms = {n / t:,.0f} configs/s "
            f"(median of 5; {rows:,} valid of {enumerated:,} enumerated)"
        )
        t_sweep = median_s(lambda n_gpus=n_gpus: sweep(LLAMA405, H100, n_gpus, 4096, **grid), 5)
        print(
            f"{'':>6}       full sweep (enumerate, filter, evaluate, rank): {t_sweep * 1e3:.0f} ms = "
            f"{enumerated / t_sweep:,.0f} enumerated configs/s"
        )
    for n_gpus, (tp, pp) in ((1024, (8, 2)), (16384, (8, 2)), (131072, (8, 2))):
        c = TrainConfig(
            tp=tp, pp=pp, dp=n_gpus // (tp * pp), micro_batch=1, global_batch=n_gpus // 8, seq_len=8192
        )
        t = median_s(lambda c=c: training_flows(LLAMA405, c, 8), 5)
        print(f"traffic flows for {n_gpus:>6} GPUs: {t * 1e3:.1f} ms (median of 5)")


if __name__ == "__main__":
    main()
