"""Issue #4 figures: one estimate, a 100,000-configuration sweep (from bench_perf_model), and the full analysis
(compile → fabric → workload routed on the fabric → power → thermal → cost → checks) of a 16,384-GPU project.

    python benchmarks/bench_perf.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gpuplanner.commands import AddRows
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project, Workload
from gpuplanner.topology import GenerateOptions, generate_into

HERE = Path(__file__).resolve().parent


def project_16k() -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="fat-tree-3tier", servers=2048, rack_budget_kw=42))
    AddRows(
        "workloads",
        [
            Workload(
                id=p.new_id("workloads"),
                name="Llama 3 405B",
                model_id="llama3-405b",
                tp=8,
                pp=16,
                global_batch=2048,
                seq_len=8192,
            )
        ],
    ).apply(p)
    return p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print("== performance model (benchmarks/bench_perf_model.py) ==", flush=True)
    subprocess.run([sys.executable, str(HERE / "bench_perf_model.py")], check=True)
    print("\n== full analysis of a 16,384-GPU project ==")
    p = project_16k()
    print(f"{p.gpu_count():,} GPUs, {len(p.devices):,} devices, {len(p.links):,} links")
    analyze_project(p)  # warm caches (catalog assumptions, imports)
    times, stages = [], []
    for _ in range(args.runs):
        t = time.perf_counter()
        r = analyze_project(p)
        times.append((time.perf_counter() - t) * 1000)
        stages.append(r.stage_ms)
    print(
        f"full analysis: median {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f})"
    )
    for k in stages[0]:
        print(f"  {k:9} {statistics.median(s[k] for s in stages):7.1f} ms")
    e = r.workload.estimate
    print(f"workload: step {e.step_time_s:.2f} s, MFU {e.mfu * 100:.1f}%, bottleneck: {e.bottleneck}")


if __name__ == "__main__":
    main()
