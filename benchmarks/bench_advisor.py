"""The design advisor on the issue's goal — Llama 3 70B on 15T tokens in 60 days, ≤ 3 MW facility, ≤ 45 kW racks —
on a local process pool and on a Dask LocalCluster with 2 worker processes: candidates bounded per second
(pruned by closed-form bounds) and plans analysed per second, and the front each finds. Then the README's serving
goal (Llama 3 70B at 20 requests/s, TTFT ≤ 1 s, TPOT ≤ 50 ms, ≤ 600 kW, ≤ 16 servers) on the process pool: its
capacity is `estimate --inference`'s serving model (engine/perf/serving.py plan_serving).

    python benchmarks/bench_advisor.py
"""

from __future__ import annotations

import time

from gpuplanner.advisor import Goal, advise

GOAL = Goal(model_id="llama3-70b", total_tokens=15e12, deadline_days=60, facility_kw_max=3000, rack_kw_max=45)
SERVING = Goal(
    kind="inference", model_id="llama3-70b", requests_per_s=20, facility_kw_max=600, max_servers=16
)  # fmt: skip


def report(name: str, res) -> None:
    pruned = sum(res.pruned.values())
    full = res.seconds - res.bounds_seconds
    print(
        f"{name:24} {res.seconds:6.1f} s  candidates {res.candidates:,}  pruned {pruned:,} "
        f"({res.candidates / max(res.bounds_seconds, 1e-9):,.0f}/s bounded)  analysed {res.evaluated} "
        f"({res.evaluated / max(full, 1e-9):.1f}/s)  front {len(res.front)}"
    )
    for d in res.front:
        perf = (
            f"{d['time_to_train_days']:.1f} d"
            if res.goal.kind == "training"
            else f"{d['requests_per_s_max']:.1f} req/s (TP{d['serving']['tp']})"
        )
        print(
            f"    {d['servers']} × {d['server']} {d['fabric']} {d['oversub']:g}:1 {','.join(d['cooling'])}: "
            f"{perf}, {d['facility_kw_max']:,.0f} kW, TCO {d['tco_usd'] / 1e6:,.1f} M$"
        )


def main() -> None:
    t = time.perf_counter()
    report("process pool (2)", advise(GOAL, workers=2))
    report("serving, process pool (2)", advise(SERVING, workers=2))
    try:
        import distributed
    except ImportError:
        print("distributed not installed: pip install -e '.[cluster]'")
        return
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as lc,
        distributed.Client(lc) as client,
    ):
        report("Dask LocalCluster (2)", advise(GOAL, executor=client.get_executor()))
    print(f"total {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
