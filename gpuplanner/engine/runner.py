"""The engine runner: one worker thread, at most one pending request, cancellation between stages.

Qt-free. A caller (the desktop's Document, a test, the CLI) submits a request — an immutable snapshot of the
project plus the scenario and build-out phase to see it through (filters at compile time, no copy of the
snapshot) — and gets one callback per request that was solved to the end.
A newer request supersedes an older one: the pending slot holds one request, and a running solve is asked
between stages whether a newer request waits (then it stops with AnalysisCancelled and its result is never
delivered). ``force_sync`` solves on the caller's thread, for tests and the CLI.

``dirty_stages`` maps a ChangeSet to the stages it makes dirty, and the runner re-runs only those on its last
complete results (``analysis.reanalyze``): canvas positions dirty nothing (no solve); a site/project price or
rate dirties the money stages (thermal's energy cost, cost, electrical, checks); devices moved between racks
or U slots dirty "placement" (their rack rows and link lengths patched into the previous compiled arrays, the
cable plan of those links, the power of the racks they left and entered — engine/incremental.py) and the
facility stages after it; a workload edit dirties the workload stage onward (compile and fabric kept).
Anything else re-runs the full pipeline. The runner owns its caches (the last results, the routers and link
columns in an ``EngineCache``) and drops them on ``close()``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpuplanner import text
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import STAGES, AnalysisCancelled, Results, analyze_project, reanalyze
from gpuplanner.engine.cache import EngineCache
from gpuplanner.engine.incremental import RACK_FACILITY_FIELDS
from gpuplanner.model.changes import ChangeSet

# Fields that only place things on the canvas: changing them changes no figure.
CANVAS_ONLY = frozenset({"x", "y"})
# Fields of a device that place it in a rack: a move between racks or U slots.
PLACEMENT_FIELDS = frozenset({"rack_id", "u_position", "x", "y"})
ALL_STAGES = frozenset(STAGES)
# Money fields: a change to only these touches the cost stage (and the checks that read cost).
MONEY_TABLES = frozenset({"project", "site"})


MONEY_STAGES = frozenset({"thermal", "cost", "electrical", "checks"})
PLACEMENT_STAGES = frozenset({"placement", "power"}) | MONEY_STAGES
WORKLOAD_STAGES = frozenset({"workload", "power"}) | MONEY_STAGES
# A rack's power budget or cooling: patched into the compiled racks, then power's budgets and the facility tail
RACK_FIELDS = RACK_FACILITY_FIELDS | CANVAS_ONLY
RACK_STAGES = frozenset({"racks", "power"}) | MONEY_STAGES


def _is_money_field(name: str) -> bool:
    return "usd" in name or "_pct" in name or name.endswith("_years") or "price" in name


def dirty_stages(cs: ChangeSet | None) -> frozenset[str]:
    """The stages an edit makes dirty. None (a new project, a scenario or phase switch): all of them."""
    if cs is None:
        return ALL_STAGES
    dirty: set[str] = set()
    for table, tc in cs.tables.items():
        if tc.is_empty():
            continue
        if tc.added or tc.removed:
            return ALL_STAGES
        fields = tc.fields()
        if table in ("devices", "racks") and fields <= CANVAS_ONLY:
            continue
        if table == "goal":  # the advisor's goal: no stage reads it
            continue
        if table == "devices" and "*" not in fields and fields <= PLACEMENT_FIELDS:
            dirty |= PLACEMENT_STAGES
            continue
        if table == "racks" and "*" not in fields and fields <= RACK_FIELDS:
            dirty |= RACK_STAGES
            continue
        if table in MONEY_TABLES and "*" not in fields and all(_is_money_field(f) for f in fields):
            dirty |= MONEY_STAGES
            continue
        if table == "workloads":
            dirty |= WORKLOAD_STAGES
            continue
        return ALL_STAGES
    return frozenset(dirty)


@dataclass(frozen=True)
class Request:
    project: Any  # a snapshot the caller will not mutate
    scenario: str | None = None
    phase: str | None = None  # a phase id: the project as it stands at the end of that phase
    generation: int = 0
    stages: frozenset[str] = ALL_STAGES


@dataclass
class Outcome:
    """What one solved request produced: results, or the one-line message of why there are none."""

    generation: int
    results: Results | None = None
    error: str | text.Msg = ""  # a refusal as message data (text.shown renders it), or an engine bug's line
    elapsed_ms: float = 0.0
    stages: frozenset[str] = field(default_factory=frozenset)


Solve = Callable[..., Results]


class EngineRunner:
    def __init__(
        self,
        on_outcome: Callable[[Outcome], None],
        *,
        force_sync: bool = False,
        solve: Solve = analyze_project,
    ) -> None:
        self._on_outcome = on_outcome
        self.force_sync = force_sync
        self._solve = solve
        self._cond = threading.Condition()
        self._pending: Request | None = None
        self._busy = False
        self._closed = False
        self._generation = 0
        self._thread: threading.Thread | None = None
        self.cancelled = 0  # solves stopped between stages (for tests and benchmarks)
        self.superseded = 0  # requests replaced in the pending slot before they started
        self.partial = 0  # solves that reused the previous results' upstream stages
        # Owned by the runner, dropped with it: the last complete results and what they were solved for, the
        # routers and link columns of recent solves, and the stages dirtied by requests that were cancelled
        # (the next solve must redo them too).
        self.cache = EngineCache()
        self._last: Results | None = None
        self._last_view: tuple[str | None, str | None] = (None, None)  # scenario and phase of _last
        self._carry: frozenset[str] = frozenset()

    # -- caller side ------------------------------------------------------------------------------------
    def submit(
        self,
        project: Any,
        *,
        scenario: str | None = None,
        phase: str | None = None,
        change: ChangeSet | None = None,
        stages: frozenset[str] | None = None,
    ) -> int:
        """Queue a solve of ``project`` (a snapshot) as ``scenario`` sees it at the end of ``phase`` (an id;
        None = every phase); returns its generation. ``change`` (or ``stages``, the
        union of several changes' dirty stages) says what the edits since the last submit dirtied; neither:
        everything. Edits that dirty no stage are not solved (returns the current generation)."""
        dirty = stages if stages is not None else dirty_stages(change)
        if not dirty:
            return self._generation
        with self._cond:
            if self._closed:
                raise RuntimeError("the engine runner is closed")
            self._generation += 1
            if self._pending is not None:  # the superseded request's edits are in this snapshot too
                dirty = dirty | self._pending.stages
            req = Request(project, scenario, phase or None, self._generation, frozenset(dirty))
            if not self.force_sync:
                if self._pending is not None:
                    self.superseded += 1
                self._pending = req
                if self._thread is None:
                    self._thread = threading.Thread(target=self._loop, name="gpuplanner-engine", daemon=True)
                    self._thread.start()
                self._cond.notify_all()
                return req.generation
        self._run(req)
        return req.generation

    @property
    def generation(self) -> int:
        return self._generation

    def idle(self) -> bool:
        with self._cond:
            return self._pending is None and not self._busy

    def wait_idle(self, timeout_s: float = 30.0) -> bool:
        """Block until nothing is pending or running (tests, CLI); False on timeout."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while self._pending is not None or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self) -> None:
        """Cancel what runs, drop what waits, stop the worker (and with it every cache the runner owns)."""
        with self._cond:
            self._closed = True
            self._pending = None
            self._last = None
            self._cond.notify_all()
            thread = self._thread
        self.cache.clear()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)
        self._thread = None

    # -- worker side ------------------------------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                req = self._pending
                self._pending = None
                self._busy = True
            try:
                assert req is not None
                self._run(req)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _stale(self, generation: int) -> bool:
        return self._closed or generation != self._generation

    def _run(self, req: Request) -> None:
        t = time.perf_counter()
        stages = req.stages | self._carry
        self._carry = frozenset()
        out = Outcome(req.generation, stages=stages)
        prev = self._last
        self._last = None  # until this solve completes, nothing upstream may be reused
        cancel = lambda: self._stale(req.generation)  # noqa: E731
        try:
            upstream_clean = not stages & {"compile", "fabric"}
            view = (req.scenario, req.phase)
            if prev is not None and upstream_clean and view == self._last_view:
                out.results = reanalyze(
                    req.project,
                    prev,
                    stages,
                    scenario=req.scenario,
                    phase=req.phase,
                    cancel=cancel,
                    cache=self.cache,
                )
                self.partial += 1
            elif req.phase is not None:
                out.results = self._solve(
                    req.project, scenario=req.scenario, phase=req.phase, cancel=cancel, cache=self.cache
                )
            else:  # a solver without phases (tests pass their own) is called as before
                out.results = self._solve(req.project, scenario=req.scenario, cancel=cancel, cache=self.cache)
        except AnalysisCancelled:
            self.cancelled += 1
            self._last, self._carry = prev, stages  # prev stays valid with these stages still to redo
            return
        except PlannerError as exc:
            out.error = text.error_msg(exc)
        except Exception as exc:  # an engine bug must not take the caller down with the user's work
            out.error = f"analysis failed: {type(exc).__name__}: {exc}"
        self._last, self._last_view = out.results, (req.scenario, req.phase)
        out.elapsed_ms = (time.perf_counter() - t) * 1000
        if not self._stale(req.generation):  # a newer request supersedes this one
            self._on_outcome(out)
