"""Save/open times of the 16k-GPU project (2,048 8-GPU servers in racks, ~40,000 links) and, with
``--sizes 16k,131k``, of the 131k-GPU one (16,384 servers in two planes, ~390,000 links).

Targets: open of the 16k project ≤ 300 ms (issue 19); the 131k project is the desktop's "open → drawn canvas
≤ 3 s" (issue 16), of which opening the file is the first part. Both CPU time (``time.process_time``: what
the code costs, steadier on a shared machine) and wall time are printed, each the median of ``--runs``
repeats, plus the peak memory of one open and a check that the reopened project equals the saved one.

    python benchmarks/bench_storage.py [--sizes 16k[,131k]] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpuplanner.model import Project
from gpuplanner.storage import open_project, save_project
from gpuplanner.topology import GenerateOptions, generate_into

SIZES = {  # name → generator options
    "16k": {"servers": 2048},
    "131k": {"servers": 16384, "planes": 2},
}
OPEN_TARGET_MS = {"16k": 300.0}


def build(servers: int = 2048, planes: int = 1) -> Project:
    p = Project()
    generate_into(
        p,
        GenerateOptions(
            template="fat-tree-3tier",
            servers=servers,
            planes=planes,
            su_size=32,
            rack_budget_kw=42,
            management_fabric=True,
        ),
    )
    return p


def timed(fn: Callable[[], Any], runs: int) -> tuple[list[float], list[float], Any]:
    """(CPU seconds, wall seconds, last result) of ``runs`` calls of ``fn``."""
    cpu, wall, out = [], [], None
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        out = fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return cpu, wall, out


def line(what: str, cpu: list[float], wall: list[float]) -> str:
    return (
        f"{what}: CPU median {statistics.median(cpu) * 1000:.0f} ms (min {min(cpu) * 1000:.0f}), "
        f"wall median {statistics.median(wall) * 1000:.0f} ms (min {min(wall) * 1000:.0f}), {len(cpu)} runs"
    )


def bench(name: str, runs: int) -> None:
    t0 = time.perf_counter()
    p = build(**SIZES[name])
    gen_s = time.perf_counter() - t0
    print(
        f"{name}: {p.gpu_count():,} GPUs, {len(p.devices):,} devices, {len(p.links):,} links, "
        f"{len(p.racks):,} racks (generated in {gen_s:.1f} s)"
    )
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.gpuplan"
        save_cpu, save_wall, _ = timed(lambda: save_project(p, path), runs)
        open_cpu, open_wall, q = timed(lambda: open_project(path), runs)
        assert isinstance(q, Project) and q.snapshot() == p.snapshot()
        tracemalloc.start()
        open_project(path)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        size = path.stat().st_size
    print("  " + line("save", save_cpu, save_wall))
    print("  " + line("open", open_cpu, open_wall) + f", peak {peak / 2**20:.0f} MiB")
    target = OPEN_TARGET_MS.get(name)
    if target is not None:
        got = statistics.median(open_cpu) * 1000
        print(
            f"  open target ≤ {target:.0f} ms: CPU median {got:.0f} ms — {'met' if got <= target else 'NOT met'}"
        )
    print(f"  file size: {size / 2**20:.1f} MiB; round-trip exact: yes")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="16k", help="comma-separated: " + ", ".join(SIZES))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    for name in args.sizes.split(","):
        bench(name.strip(), max(1, args.runs))


if __name__ == "__main__":
    main()
