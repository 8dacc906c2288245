"""Issue #3 figures on projects built by the user-facing generators (not array builders): generation time,
then full link loads with the generic router for a ring all-reduce among same-rail GPUs and an expert-parallel
all-to-all among 8 GPUs on 8 different servers, at 1,024 / 16,384 / 131,072 GPUs; the NetworkX per-destination
ECMP baseline where it finishes (benchmarks/networkx_ecmp.py); memory peak.

    python benchmarks/bench_fabric.py [--sizes 1024,16384,131072] [--runs 5] [--nx-cap 120]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from networkx_ecmp import ecmp_link_loads, to_networkx  # noqa: E402

from gpuplanner.engine.compiled import compile_project  # noqa: E402
from gpuplanner.engine.fabric.fabric_graph import build_fabric_graph  # noqa: E402
from gpuplanner.engine.fabric.routing import build_router  # noqa: E402
from gpuplanner.model import Project  # noqa: E402
from gpuplanner.topology import GenerateOptions, generate  # noqa: E402

SIZES = {
    1024: GenerateOptions(template="rail-leaf-spine", servers=128, rack_budget_kw=42),
    16384: GenerateOptions(template="fat-tree-3tier", servers=2048, rack_budget_kw=42),
    131072: GenerateOptions(template="fat-tree-3tier", servers=16384, planes=2, rack_budget_kw=42),
}


def patterns(fg) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    gpu = fg.gpu_endpoint.reshape(-1, 8)  # [server, local GPU] → endpoint node
    ring = (gpu.ravel(), np.roll(gpu, -1, axis=0).ravel())
    n = gpu.shape[0]
    stride = n // 8
    s = np.arange(n)
    peers = (s % stride)[:, None] + (((s // stride)[:, None] + np.arange(1, 8)) % 8) * stride
    a2a = (np.repeat(gpu, 7, axis=0).ravel(), gpu[peers.ravel()].ravel())
    return {"ring": ring, "all-to-all": a2a}


def median_ms(fn, runs: int) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1024,16384,131072")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument(
        "--nx-cap", type=float, default=120.0, help="skip NetworkX when its estimate exceeds this (s)"
    )
    args = ap.parse_args()
    print(
        f"{'GPUs':>7} {'links':>8} {'generate':>9} {'compile':>8} {'pattern':>11} {'ours':>9} {'peak':>8} "
        f"{'networkx':>10} {'speed-up':>9}"
    )
    for size in (int(x) for x in args.sizes.split(",")):
        p = Project()
        t = time.perf_counter()
        plan = generate(p, SIZES[size])
        plan.to_command("gen").apply(p)
        gen_s = time.perf_counter() - t
        t = time.perf_counter()
        c = compile_project(p)
        fg = build_fabric_graph(c)
        comp_ms = (time.perf_counter() - t) * 1000
        for name, (src, dst) in patterns(fg).items():
            vol = np.full(src.size, 64e6)

            def run(src=src, dst=dst, vol=vol, fg=fg):
                # the generic algorithm from scratch: a fresh router (no cached distance fields) every run
                build_router(fg.n_nodes, fg.link_a, fg.link_b, fg.transit).link_loads(src, dst, vol)

            ours = median_ms(run, args.runs)
            tracemalloc.start()
            run()
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            nx_text, speed = "skipped", ""
            g = to_networkx(fg.n_nodes, fg.link_a, fg.link_b, fg.transit)
            dests = np.unique(dst)
            sample = np.isin(dst, dests[: min(16, dests.size)])
            t = time.perf_counter()
            ecmp_link_loads(g, fg.link_a.size, src[sample], dst[sample], vol[sample])
            est = (time.perf_counter() - t) * dests.size / min(16, dests.size)
            if est <= args.nx_cap:
                t = time.perf_counter()
                ecmp_link_loads(g, fg.link_a.size, src, dst, vol)
                nx_s = time.perf_counter() - t
                nx_text, speed = f"{nx_s:9.2f}s", f"{nx_s * 1000 / ours:8.0f}×"
            else:
                nx_text, speed = f"~{est:8.0f}s", f"~{est * 1000 / ours:7.0f}×"
            print(
                f"{size:>7,} {len(c.links.ids):>8,} {gen_s:>8.2f}s {comp_ms:>6.0f}ms {name:>11} {ours:>7.1f}ms "
                f"{peak:>6.0f}MB {nx_text:>10} {speed:>9}",
                flush=True,
            )


if __name__ == "__main__":
    main()
