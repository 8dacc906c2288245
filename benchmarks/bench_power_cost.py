"""Times the power, thermal and cost stages and the facility checks on generated clusters of 1k, 16k and
131k GPUs (DGX H100, rail-optimised fabrics built by the topology generators, compiled once), and the
incremental update after moving one server between racks.

    python benchmarks/bench_power_cost.py [--sizes 1k,16k,131k] [--runs 21]

Prints median milliseconds per run. Targets: full power+thermal+cost+checks ≤ 20 ms at 16k GPUs; moving one
server (update_rack_of) ≤ 2 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import numpy as np

from gpuplanner.engine.checks.facility import facility_findings
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.facility.cost import compute_cost
from gpuplanner.engine.facility.power import compute_power, update_rack_of
from gpuplanner.engine.facility.thermal import compute_thermal, cooling_table
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into

SIZES = {
    "1k": GenerateOptions(template="rail-leaf-spine", servers=128),
    "16k": GenerateOptions(template="fat-tree-3tier", servers=2048),
    "131k": GenerateOptions(template="fat-tree-3tier", servers=16384, planes=2),
}


def median_ms(fn, runs: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times)


def bench(label: str, opts: GenerateOptions, runs: int) -> None:
    t0 = time.perf_counter()
    p = Project()
    generate_into(p, opts)
    c = compile_project(p)
    build_s = time.perf_counter() - t0
    site, info, cat = p.site, p.info, p.catalog
    # The fabric analysis will supply the real bill of materials; one optic-free cable per link here.
    bom = dict(Counter({"nvidia-mfp7e10-nxxx": int(c.links.multiplicity.sum())}))
    table = cooling_table(cat, site)

    def full():
        power = compute_power(c, site.load_factor)
        th = compute_thermal(c, power, site, cat, table=table)
        cost = compute_cost(c, power, th, site, info, cat, bom=bom)
        return facility_findings(c, power, th, cost, site)

    power = compute_power(c, site.load_factor)
    th = compute_thermal(c, power, site, cat, table=table)
    cost = compute_cost(c, power, th, site, info, cat, bom=bom)
    servers = np.flatnonzero((c.devices.kind == 0) & (c.devices.rack >= 0))
    rng = np.random.default_rng(0)
    n_racks = len(c.racks.ids)
    state = {"p": power}

    def move():
        dev = int(servers[rng.integers(len(servers))])
        state["p"] = update_rack_of(state["p"], dev, int(rng.integers(n_racks)))

    def move_and_thermal():
        move()
        compute_thermal(c, state["p"], site, cat, table=table)

    gpus = int(c.devices.gpu_count.sum())
    print(
        f"{label:>5}: {gpus:,} GPUs, {len(c.devices.ids):,} devices, {n_racks:,} racks, {len(c.links.ids):,} links "
        f"(generate+compile {build_s:.1f} s); {len(full())} findings"
    )
    print(f"       power {median_ms(lambda: compute_power(c, site.load_factor), runs):7.2f} ms")
    print(
        f"       thermal {median_ms(lambda: compute_thermal(c, power, site, cat, table=table), runs):5.2f} ms"
    )
    print(
        f"       cost {median_ms(lambda: compute_cost(c, power, th, site, info, cat, bom=bom), runs):8.2f} ms"
    )
    print(f"       checks {median_ms(lambda: facility_findings(c, power, th, cost, site), runs):6.2f} ms")
    print(f"       FULL power+thermal+cost+checks {median_ms(full, runs):7.2f} ms")
    print(f"       move one server (update_rack_of) {median_ms(move, runs * 5):.3f} ms")
    print(f"       move one server + thermal {median_ms(move_and_thermal, runs):.3f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1k,16k,131k")
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    for label in args.sizes.split(","):
        bench(label, SIZES[label], args.runs)


if __name__ == "__main__":
    main()
