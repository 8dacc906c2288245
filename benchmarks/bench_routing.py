"""Routing benchmark: link loads of two collective patterns on 1,024 / 4,096 / 16,384 / 131,072-GPU fabrics,
with their link-by-link agreement with an independent reference.

    python benchmarks/bench_routing.py [--runs 5] [--nx-cap-s 60] [--sizes 1024,4096,16384,131072]
                                       [--ref-max-gpus 16384]

Fabrics (gpuplanner.engine.fabric.fattree_arrays, 400 Gb/s ports, radix 64, 8 NICs per server):
  1,024    rail-optimised 2-tier leaf-spine (4 SUs of 32 servers)
  4,096    1:1 3-tier fat tree, rail-optimised leaves (4 pods)
  16,384   1:1 3-tier fat tree, rail-optimised leaves (16 pods)
  131,072  two planes (rails 0-3 / 4-7), each a full 1:1 3-tier radix-64 fat tree (65,536 NICs)
Patterns:
  ring  ring all-reduce step among same-rail GPUs: GPU r of server s → GPU r of server s+1 (mod S)
  a2a   expert-parallel all-to-all: groups of 8 same-rail GPUs on servers s + j·S/8 (j = 0..7, so every
        group spans the cluster); each GPU sends to the 7 others of its group
Allocator: build_router keeps freed memory in the process (glibc mallopt, engine/fabric/routing_alloc.py) so
that the route's large temporaries do not page-fault again on every call; the first line says whether it is on
(GPUPLANNER_KEEP_FREED_MEMORY=0 turns it off, to compare). `faults` = minor page faults of one cold run.
Times are medians over --runs (more for fast cases, to fill 0.5 s): `cold` = build_router + first link_loads (after a topology edit),
`warm` = link_loads with the distance fields cached (after a demand edit); `cold cpu` = the CPU time
(time.process_time, median) of the cold runs, which a loaded machine does not inflate. Memory = tracemalloc peak of
one cold run. The NetworkX per-destination baseline runs in full when its estimate (from 16 destinations)
is under --nx-cap-s (median of 3 when they fit), else the estimate is printed with a '~'.

Agreement (`ref`, `max rel err`, `arcs`): every link in both directions (`arcs` = 2 × links) against
  1k        the per-flow NetworkX oracle of the test suite (tests/oracles/ecmp_oracle.py)
  4k, 16k   the plain numpy per-destination-group ECMP (tests/oracles/numpy_ecmp.py), itself checked
            against the NetworkX oracle in tests/oracles/test_numpy_reference.py
max rel err = max over arcs of |router − reference| / max(|reference|, 1e-12 × largest reference load);
sizes above --ref-max-gpus print '-' (the numpy reference needs minutes at 131k).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.networkx_ecmp import ecmp_link_loads, to_networkx  # noqa: E402
from gpuplanner.engine.fabric.fattree_arrays import (  # noqa: E402
    FabricArrays,
    fat_tree_3tier,
    fat_tree_two_plane,
    rail_leaf_spine,
)
from gpuplanner.engine.fabric.routing import build_router  # noqa: E402
from gpuplanner.engine.fabric.routing_alloc import keep_freed_memory  # noqa: E402
from tests.oracles.ecmp_oracle import ecmp_per_flow  # noqa: E402
from tests.oracles.numpy_ecmp import ecmp_numpy  # noqa: E402

FABRICS = {
    1024: ("2-tier leaf-spine", lambda: rail_leaf_spine(128)),
    4096: ("3-tier fat tree", lambda: fat_tree_3tier(512)),
    16384: ("3-tier fat tree", lambda: fat_tree_3tier(2048)),
    131072: ("3-tier x 2 planes", lambda: fat_tree_two_plane(16384)),
}
BYTES_PER_FLOW = 64e6


def ring(fa: FabricArrays) -> tuple[np.ndarray, np.ndarray]:
    gpu = fa.gpu_node
    return gpu.ravel(), np.roll(gpu, -1, axis=0).ravel()


def all_to_all(fa: FabricArrays, group: int = 8) -> tuple[np.ndarray, np.ndarray]:
    gpu = fa.gpu_node
    n_servers = gpu.shape[0]
    stride = n_servers // group
    s = np.arange(n_servers)
    member = s // stride
    peers = (s % stride)[:, None] + ((member[:, None] + np.arange(1, group)) % group) * stride
    src = np.repeat(gpu, group - 1, axis=0)  # [server * 7 + k, rail]
    dst = gpu[peers.ravel()]
    return src.ravel(), dst.ravel()


PATTERNS = {"ring": ring, "a2a": all_to_all}


def _median_s(fn, runs: int, min_total_s: float = 0.5) -> float:
    """Median of at least `runs` timed calls, and of enough calls to fill min_total_s (steadier ms)."""
    return _median_wall_cpu_s(fn, runs, min_total_s)[0]


def _median_wall_cpu_s(fn, runs: int, min_total_s: float = 0.5) -> tuple[float, float]:
    """Medians of wall-clock and CPU time (time.process_time: this process's CPU, all its threads) of the
    same calls. On a machine shared with other jobs the wall time includes waiting for a core; the CPU time
    does not, so the two together tell a slow algorithm from a busy machine."""
    wall: list[float] = []
    cpu: list[float] = []
    while len(wall) < runs or sum(wall) < min_total_s:
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu)


def _peak_mb(fn) -> float:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _networkx_s(fa: FabricArrays, src, dst, vol, cap_s: float) -> tuple[float, bool, object]:
    """(seconds, estimated?, result or None)."""
    g = to_networkx(fa.n_nodes, fa.link_a, fa.link_b, fa.transit)
    dests = np.unique(dst)
    sample = np.isin(dst, dests[:: max(1, dests.size // 16)][:16])
    t0 = time.perf_counter()
    ecmp_link_loads(g, fa.link_a.size, src[sample], dst[sample], vol[sample])
    est = (time.perf_counter() - t0) * dests.size / min(16, dests.size)
    if est > cap_s:
        return est, True, None
    res = ecmp_link_loads(g, fa.link_a.size, src, dst, vol)
    runs = 3 if 3 * est < cap_s else 1
    return _median_s(lambda: ecmp_link_loads(g, fa.link_a.size, src, dst, vol), runs, 0.0), False, res


def _agreement(fa: FabricArrays, src, dst, vol, loads, max_gpus: int) -> tuple[str, float, float, int]:
    """(reference name, its seconds, max relative error, arcs compared); ('-', nan, nan, 0) if skipped."""
    n_gpus = fa.n_endpoints
    if n_gpus > max_gpus:
        return "-", float("nan"), float("nan"), 0
    t0 = time.perf_counter()
    if n_gpus <= 1024:
        name = "nx-flow"
        ref = ecmp_per_flow(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, src, dst, vol)
        ref_ab, ref_ba = ref.load_ab_bytes, ref.load_ba_bytes
    else:
        name = "numpy"
        ref_ab, ref_ba, _ = ecmp_numpy(fa.n_nodes, fa.link_a, fa.link_b, fa.transit, src, dst, vol)
    ref_s = time.perf_counter() - t0
    ref = np.concatenate([ref_ab, ref_ba])
    got = np.concatenate([loads.load_ab_bytes, loads.load_ba_bytes])
    floor = max(1e-12 * float(np.abs(ref).max(initial=0.0)), np.finfo(float).tiny)
    err = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), floor))) if ref.size else 0.0
    return name, ref_s, err, int(ref.size)


def _faults(fn) -> int:
    """Minor page faults (pages the kernel had to map and zero) during one call."""
    try:
        import resource  # Unix only
    except ImportError:
        fn()
        return -1
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    fn()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def _measure(fa: FabricArrays, src, dst, vol, runs: int):
    """(build s, cold s, cold cpu s, warm s, peak MB, faults, loads) for one fabric and demand."""

    def build():
        return build_router(fa.n_nodes, fa.link_a, fa.link_b, fa.transit)

    router = build()
    loads = router.link_loads(src, dst, vol)
    assert not loads.unroutable.any()
    build_s = _median_s(build, runs)
    cold_s, cold_cpu_s = _median_wall_cpu_s(lambda: build().link_loads(src, dst, vol), runs)
    warm_s = _median_s(lambda: router.link_loads(src, dst, vol), runs)
    faults = _faults(lambda: build().link_loads(src, dst, vol))
    peak = _peak_mb(lambda: build().link_loads(src, dst, vol))
    return build_s, cold_s, cold_cpu_s, warm_s, peak, faults, loads


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--nx-cap-s", type=float, default=60.0)
    ap.add_argument("--sizes", default="1024,4096,16384,131072")
    ap.add_argument("--ref-max-gpus", type=int, default=16384)
    args = ap.parse_args(argv)

    kept = keep_freed_memory()
    print(
        f"allocator: {'freed memory kept (glibc mallopt)' if kept else 'C library defaults'}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"{'GPUs':>7} {'fabric':<18} {'pattern':<5} {'flows':>7} {'gen ms':>7} {'build ms':>8} "
        f"{'cold ms':>8} {'cold cpu':>8} {'warm ms':>8} {'peak MB':>8} {'faults':>7} {'networkx s':>11} {'speed-up':>9} "
        f"{'ref':>7} {'ref s':>7} {'max rel err':>11} {'arcs':>7}"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        name, make = FABRICS[size]
        gen_s = _median_s(make, args.runs)
        fa = make()
        for pattern, demand in PATTERNS.items():
            src, dst = demand(fa)
            vol = np.full(src.size, BYTES_PER_FLOW)
            build_s, cold_s, cold_cpu_s, warm_s, peak, faults, loads = _measure(fa, src, dst, vol, args.runs)
            nx_s, estimated, ref = _networkx_s(fa, src, dst, vol, args.nx_cap_s)
            if ref is not None:  # the baseline finished: the two must agree
                err = max(
                    np.abs(ref[0] - loads.load_ab_bytes).max(), np.abs(ref[1] - loads.load_ba_bytes).max()
                )
                assert err <= 1e-9 * BYTES_PER_FLOW, f"router and NetworkX differ by {err} bytes"
            nx_txt = f"{'~' if estimated else ''}{nx_s:.2f}"
            ref, ref_s, err, arcs = _agreement(fa, src, dst, vol, loads, args.ref_max_gpus)
            print(
                f"{size:>7} {name:<18} {pattern:<5} {src.size:>7} {gen_s * 1e3:>7.1f} {build_s * 1e3:>8.1f} "
                f"{cold_s * 1e3:>8.1f} {cold_cpu_s * 1e3:>8.1f} {warm_s * 1e3:>8.1f} {peak:>8.0f} {faults:>7} {nx_txt:>11} "
                f"{nx_s / cold_s:>8.0f}x {ref:>7} {ref_s:>7.2f} {err:>11.1e} {arcs:>7}",
                flush=True,
            )
            if arcs:
                assert err <= 1e-9, f"{size} {pattern}: router and {ref} reference differ by {err:.2e}"


if __name__ == "__main__":
    main()
