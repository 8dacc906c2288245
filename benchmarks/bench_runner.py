"""Times edits through the engine runner (synchronous mode, so the time is the solve) on a generated
16,384-GPU plan (2,048 DGX H100 servers, 3-tier fat tree): a price edit, a rack move and a workload edit,
against the full analysis, and checks that each incremental result equals a fresh full analysis.

    python benchmarks/bench_runner.py [--servers 2048] [--runs 5]

Targets (issue 19): rack move ≤ 20 ms, price edit ≤ 10 ms, workload edit ≤ the full analysis. Prints
median milliseconds, the stages each edit ran (medians), whether each target is met, and whether the last
incremental result equals a full analysis of the edited project (every figure results_json exposes). The
snapshot the caller takes before submitting is timed separately (the desktop takes it on the UI thread).
"""

from __future__ import annotations

import argparse
import statistics
import time

from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.runner import EngineRunner, Outcome
from gpuplanner.engine.summary import results_json
from gpuplanner.model import ChangeSet, Project
from gpuplanner.model.rows import Workload
from gpuplanner.topology import GenerateOptions, generate_into


def snapshot(p: Project) -> Project:
    copy = Project(p.catalog)
    copy.tables = {t: rows.copy() for t, rows in p.tables.items()}
    copy.set_link_index(p.links_by_device())
    return copy


def figures(p: Project, res) -> dict:
    out = results_json(p, res)
    out.pop("stage_ms", None)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--servers", type=int, default=2048)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    p = Project()
    generate_into(p, GenerateOptions(template="fat-tree-3tier", servers=args.servers))
    # a data-parallel Llama 3 8B training job on every GPU (as tests/unit/test_workload_fabric.py builds it)
    AddRows(
        "workloads",
        [Workload(id="w1", name="dp", model_id="llama3-8b", tp=8, pp=1, global_batch=4096, seq_len=4096)],
    ).apply(p)
    gpus = sum(1 for _ in p.devices)  # devices, for the header only
    undo = UndoStack(p)
    seen: list[ChangeSet] = []
    p.changed.connect(seen.append)
    got: list[Outcome] = []
    runner = EngineRunner(got.append, force_sync=True)

    t0 = time.perf_counter()
    runner.submit(snapshot(p))
    full_ms = (time.perf_counter() - t0) * 1000
    print(
        f"{args.servers} servers ({gpus} devices): full analysis through the runner {full_ms:.0f} ms (cold)"
    )

    snaps: list[float] = []

    def timed(edit) -> float:
        times = []
        cpu = []
        stages: list[dict[str, float]] = []
        for i in range(args.runs):
            undo.push(edit(i))
            t = time.perf_counter()
            snap = snapshot(p)
            snaps.append((time.perf_counter() - t) * 1000)
            t, c = time.perf_counter(), time.process_time()
            runner.submit(snap, change=seen[-1])
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            assert got[-1].error == "", got[-1].error
            stages.append(got[-1].results.stage_ms)
        print(
            f"  CPU median {statistics.median(cpu):.1f} ms (wall min {min(times):.1f} ms); stages (median ms): "
            + ", ".join(f"{k} {statistics.median(s.get(k, 0.0) for s in stages):.1f}" for k in stages[-1])
        )
        return statistics.median(times)

    price_ms = timed(lambda i: SetFields(p, "site", "site", electricity_usd_per_kwh=0.05 + 0.01 * i))
    ok = figures(p, got[-1].results) == figures(p, analyze_project(p))
    print(
        f"price edit: {price_ms:.1f} ms (target ≤ 10) {'met' if price_ms <= 10 else 'NOT met'}; equals full: {ok}"
    )

    servers = [d for d in p.devices.values() if d.rack_id is not None]
    racks = sorted(p.racks)

    def move(i):
        d = servers[i]
        return SetFields(p, "devices", d.id, rack_id=racks[(racks.index(d.rack_id) + 1) % len(racks)])

    try:
        rack_ms = timed(move)
        ok = figures(p, got[-1].results) == figures(p, analyze_project(p))
        print(
            f"rack move: {rack_ms:.1f} ms (target ≤ 20) {'met' if rack_ms <= 20 else 'NOT met'}; equals full: {ok}"
        )
    except Exception as exc:  # a refused move (a full rack) is reported, not hidden
        print(f"rack move: could not be measured ({type(exc).__name__}: {exc})")

    wl = next(iter(p.tables["workloads"].values()), None)
    if wl is None:
        print("workload edit: the generated plan has no workload (not measured)")
    else:
        field = "global_batch" if hasattr(wl, "global_batch") else None
        if field is None:
            print("workload edit: no global_batch field (not measured)")
        else:
            base = getattr(wl, field)
            wl_ms = timed(lambda i: SetFields(p, "workloads", wl.id, **{field: base + 1024 * (i + 1)}))
            met = "met" if wl_ms <= full_ms else "NOT met"
            ok = figures(p, got[-1].results) == figures(p, analyze_project(p))
            print(f"workload edit: {wl_ms:.0f} ms (target ≤ full {full_ms:.0f}) {met}; equals full: {ok}")
    print(f"snapshot before each submit (caller's thread): median {statistics.median(snaps):.1f} ms")
    runner.close()


if __name__ == "__main__":
    main()
