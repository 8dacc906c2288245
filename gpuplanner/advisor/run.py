"""The search: candidates → closed-form bounds (prune) → full plans on an executor, in waves ordered by their
cost bound, pruning what a found design already dominates → the Pareto front.

The executor is any ``concurrent.futures.Executor``: a local process pool by default, or a Dask cluster's
``Client.get_executor()`` (``--dask tcp://host:8786``) — the same code path both ways.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.advisor import evaluate as ev
from gpuplanner.advisor.goal import Candidate, Goal
from gpuplanner.advisor.pareto import dominated_by, front
from gpuplanner.advisor.space import Bounds, bounds, candidates, limit_broken, model_shape

Progress = Callable[[int, int, str], None]  # (done, total, what) — total is the candidates still to analyse


@dataclass
class AdviceResult:
    goal: Goal
    designs: list[dict[str, Any]]  # every fully analysed design
    front: list[dict[str, Any]]  # the feasible, non-dominated ones, cheapest first
    candidates: int
    pruned: dict[str, int]  # reason → count
    left_out: dict[str, str]  # server id → why it was not considered (English: designs.json, `advise`)
    seconds: float
    cancelled: bool = False
    workers: str = ""
    bounds_seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    left_out_msgs: dict[str, text.Msg] = field(default_factory=dict)  # the same reasons, in either language

    @property
    def evaluated(self) -> int:
        return len(self.designs)


def objectives(goal: Goal, d: dict[str, Any]) -> tuple[float, float, float]:
    """What the front trades off, all minimised: cost (TCO or capex), time to train (training) or minus the
    serving headroom (inference), and facility kW at maximum."""
    cost = d["tco_usd"] if goal.objective == "tco" else d["capex_usd"]
    second = d["time_to_train_days"] if goal.kind == "training" else -d["headroom"]
    return (float(cost), float(second), float(d["facility_kw_max"]))


def lower_bounds(goal: Goal, b: Bounds, extra: dict[str, Any]) -> tuple[float, float, float]:
    second = b.time_days if goal.kind == "training" else -extra.get("headroom", math.inf)
    cost = b.tco_usd if goal.objective == "tco" else b.capex_usd
    return (cost, second, b.facility_kw)


def _bound_all(cat, goal: Goal, cands: list[Candidate], prune: bool, pruned: Counter) -> list[tuple]:
    """Each candidate with its bounds; the pruned ones counted by reason (only when ``prune``)."""
    shape = model_shape(cat, goal.model_id)
    ideal: dict[tuple[str, int], tuple[float, Any]] = {}
    serving: dict[tuple[str, int], dict[str, Any]] = {}
    alive = []
    for cand in cands:
        b = bounds(cat, goal, cand)  # cheap bounds first: price, power, racks
        why = limit_broken(goal, b) if prune else None
        if why:
            pruned[why] += 1
            continue
        extra: dict[str, Any] = {}
        key = (cand.server, cand.gpus)
        srv = cat.get(cand.server)
        if goal.kind == "training":
            if key not in ideal:
                ideal[key] = ev.ideal_training(cat, goal, srv, cand.gpus, shape)
            days, layout = ideal[key]
            b = Bounds(b.capex_usd, b.tco_usd, b.facility_kw, b.racks, days, layout)
        else:
            if key not in serving:
                serving[key] = ev.serving_capacity(cat, goal, srv, cand.gpus, shape)
            cap = serving[key]
            extra = {"headroom": ev.headroom(goal, cap)}
        why = limit_broken(goal, b) if prune else None
        if prune and goal.kind == "inference" and extra["headroom"] < 1.0:
            why = (
                "request rate within the latency targets"
                if goal.users <= 0
                else "load within the latency targets"
            )
        if why:
            pruned[why] += 1
            continue
        alive.append((cand, b, extra))
    return alive


def local_executor(workers: int | None = None) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1)


def left_out_by_reason(res: AdviceResult, lang: str = "en") -> list[tuple[str, list[str]]]:
    """The servers the advisor left out, grouped by reason in `lang` (reason, servers), for `advise` and the
    advisor window; the servers the goal itself did not list are not worth a line."""
    by_reason: dict[str, list[str]] = {}
    for server, msg in sorted(res.left_out_msgs.items()):
        if msg.id != "advisor.left_out.not_listed":
            by_reason.setdefault(msg.render(lang), []).append(server)
    return list(by_reason.items())


def advise(
    goal: Goal,
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    prune: bool = True,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    catalog=None,
) -> AdviceResult:
    t0 = time.perf_counter()
    cat = catalog or ev.catalog()
    cands, left_out = candidates(cat, goal)
    pruned: Counter[str] = Counter()
    alive = _bound_all(cat, goal, cands, prune, pruned)
    t_bounds = time.perf_counter() - t0
    alive.sort(key=lambda x: (lower_bounds(goal, x[1], x[2]), x[0].key()))
    lbs = np.array([lower_bounds(goal, b, extra) for _, b, extra in alive]).reshape(-1, 3)
    own = executor is None
    ex = executor or local_executor(workers)
    n_workers = workers or getattr(ex, "_max_workers", None) or os.cpu_count() or 1
    designs: list[dict[str, Any]] = []
    found: list[tuple[float, ...]] = []  # objectives of feasible designs so far (pruned to their front)
    total = len(alive)
    cancelled = False
    try:
        while alive:
            if cancel is not None and cancel.is_set():
                cancelled = True
                break
            wave, alive = alive[: 2 * n_workers], alive[2 * n_workers :]
            lbs = lbs[len(wave) :]
            futures = [ex.submit(ev.evaluate, goal, cand, b.layout) for cand, b, _ in wave]
            for fut in as_completed(futures):
                d = fut.result()
                designs.append(d)
                if d.get("feasible"):
                    found.append(objectives(goal, d))
                if progress:
                    progress(len(designs), total, d["candidate"]["server"])
            if prune and found and alive:
                # only the found designs' own front can dominate anything the others dominate (transitive):
                # keep that, and test every waiting candidate's bounds against it at once
                pts = np.array(found)
                found = [tuple(x) for x in pts[front(pts)].tolist()]
                gone = dominated_by(np.array(found), lbs)
                n_gone = int(gone.sum())
                if n_gone:
                    pruned["dominated by a design already found"] += n_gone
                    total -= n_gone
                    alive = [item for item, g in zip(alive, gone.tolist(), strict=True) if not g]
                    lbs = lbs[~gone]
    finally:
        if own:
            ex.shutdown(wait=not cancelled, cancel_futures=cancelled)
    feasible = [d for d in designs if d.get("feasible")]
    pts = np.array([objectives(goal, d) for d in feasible]) if feasible else np.zeros((0, 3))
    best = [feasible[i] for i in front(pts)]
    best.sort(key=lambda d: (objectives(goal, d), tuple(map(str, Candidate(**d["candidate"]).key()))))
    # designs with the same figures (e.g. a density step that changes nothing) are shown once: the first
    best = [d for i, d in enumerate(best) if i == 0 or objectives(goal, d) != objectives(goal, best[i - 1])]
    return AdviceResult(
        goal=goal,
        designs=designs,
        front=best,
        candidates=len(cands),
        pruned=dict(pruned),
        left_out={k: m.render("en") for k, m in left_out.items()},
        left_out_msgs=left_out,
        seconds=time.perf_counter() - t0,
        cancelled=cancelled,
        workers=type(ex).__name__,
        bounds_seconds=t_bounds,
    )
