"""Save/open times of a project with 2,048 8-GPU servers in racks and ~20,000 links (issue #2 target: < 1 s each).

python benchmarks/bench_storage.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from gpuplanner.model import Project
from gpuplanner.storage import open_project, save_project
from gpuplanner.topology import GenerateOptions, generate_into


def build() -> Project:
    p = Project()
    generate_into(
        p,
        GenerateOptions(
            template="fat-tree-3tier", servers=2048, su_size=32, rack_budget_kw=42, management_fabric=True
        ),
    )
    return p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    t0 = time.perf_counter()
    p = build()
    gen_s = time.perf_counter() - t0
    print(
        f"project: {p.gpu_count():,} GPUs, {len(p.devices):,} devices, {len(p.links):,} links, "
        f"{len(p.racks):,} racks (generated in {gen_s:.2f} s)"
    )
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "big.gpuplan"
        saves, opens = [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            save_project(p, path)
            saves.append(time.perf_counter() - t)
            t = time.perf_counter()
            q = open_project(path)
            opens.append(time.perf_counter() - t)
        assert q.snapshot() == p.snapshot()
        tracemalloc.start()
        open_project(path)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        size = path.stat().st_size
    print(f"save: median {statistics.median(saves) * 1000:.0f} ms (max {max(saves) * 1000:.0f} ms)")
    print(
        f"open: median {statistics.median(opens) * 1000:.0f} ms (max {max(opens) * 1000:.0f} ms), "
        f"peak {peak / 2**20:.0f} MiB"
    )
    print(f"file size: {size / 2**20:.1f} MiB; round-trip exact: yes")


if __name__ == "__main__":
    main()
