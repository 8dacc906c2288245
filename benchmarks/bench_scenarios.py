"""Times a scenario compare on a generated 16,384-GPU plan (2,048 DGX H100 servers, 3-tier fat tree, a
data-parallel Llama 3 8B job): the report's ``scenario_figures`` (every scenario analysed, then its JSON
figures), with five scenarios — as drawn, cheaper power, a 3-year TCO, a bigger batch, and H200 servers
swapped in.

    python benchmarks/bench_scenarios.py [--servers 2048] [--runs 3]

Prints the median CPU time (``time.process_time``) and wall time of the whole compare and of one plain
analysis, in milliseconds. The machine is shared: CPU time is the figure to compare.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from gpuplanner.commands import AddRows
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project
from gpuplanner.model.rows import Scenario, Workload
from gpuplanner.reports import scenario_figures
from gpuplanner.topology import GenerateOptions, generate_into

SCENARIOS = {
    "As drawn": {},
    "Cheaper power": {"site.electricity_usd_per_kwh": 0.06},
    "3-year TCO": {"site.tco_years": 3},
    "Bigger batch": {"workloads.global_batch": 8192},
    "H200": {"swap.nvidia-dgx-h100": "nvidia-dgx-h200"},
}


def build(servers: int) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="fat-tree-3tier", servers=servers))
    AddRows(
        "workloads",
        [Workload(id="w1", name="dp", model_id="llama3-8b", tp=8, pp=1, global_batch=4096, seq_len=4096)],
    ).apply(p)
    AddRows(
        "scenarios",
        [
            Scenario(id=f"s{i}", name=n, overrides_json=json.dumps(ov))
            for i, (n, ov) in enumerate(SCENARIOS.items())
        ],
    ).apply(p)
    return p


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, float, Any]:
    cpu, wall, out = [], [], None
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        out = fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return statistics.median(cpu), statistics.median(wall), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--servers", type=int, default=2048)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    p = build(args.servers)
    gpus = sum(8 for d in p.devices.values() if d.role == "compute")
    analyze_project(p)  # warm: catalog look-ups, imports
    cpu1, wall1, _ = timed(lambda: analyze_project(p), args.runs)
    cpu, wall, figs = timed(lambda: scenario_figures(p, "en"), args.runs)
    errors = [f"{name}: {fig}" for name, _, fig in figs if isinstance(fig, str)]
    print(f"{gpus:,} GPUs, {len(SCENARIOS)} scenarios, median of {args.runs}")
    print(f"one analysis            cpu {cpu1:8.0f} ms   wall {wall1:8.0f} ms")
    print(f"scenario compare        cpu {cpu:8.0f} ms   wall {wall:8.0f} ms")
    for name, _, fig in figs:
        if not isinstance(fig, str):
            print(f"  {name:14s} capex {fig['capex']:>16,.0f}  tco {fig['tco']:>16,.0f}")
    if errors:
        print("errors:", *errors, sep="\n  ")


if __name__ == "__main__":
    main()
