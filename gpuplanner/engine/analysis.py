"""analyze_project(project) → Results: every stage in order, on the project as a scenario and phase see it.

The scenario and the phase are filters at compile time (engine/selection.py): no model copy is made, and
every stage below receives compiled input only (``Compiled`` and the results of the stages before it).
compile → fabric (routing graph, cables, analysis) → workload (placement, flows routed over the fabric,
performance) → power (at the predicted GPU utilisation) → thermal → cost → checks. Results are their own
object, never written into the model; per-link and per-rack arrays follow the compiled row order.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.arrays import FloatArray
from gpuplanner.engine.cache import EngineCache
from gpuplanner.engine.checks.devices import unnetworked_findings
from gpuplanner.engine.checks.electrical import (
    budget_raised_findings,
    electrical_findings,
    unused_port_findings,
)
from gpuplanner.engine.checks.facility import facility_findings
from gpuplanner.engine.checks.findings import Finding, sort_findings
from gpuplanner.engine.checks.floor import floor_findings, floor_loads, hall_findings, site_with_utility_feed
from gpuplanner.engine.checks.limits import limits_and_findings
from gpuplanner.engine.checks.network import network_findings, wiring_findings, workload_findings
from gpuplanner.engine.checks.teams import island_gpus, scheduler_finding, team_findings
from gpuplanner.engine.compiled import Compiled, compile_project
from gpuplanner.engine.fabric.network import FabricResult, analyze_fabric, with_cables
from gpuplanner.engine.facility.cost import CostResult, compute_cost
from gpuplanner.engine.facility.electrical import ElectricalResult, compute_electrical
from gpuplanner.engine.facility.power import PowerResult, compute_power, move_devices
from gpuplanner.engine.facility.thermal import ThermalResult, compute_thermal
from gpuplanner.engine.incremental import replan_cables, with_placement, with_rack_fields
from gpuplanner.engine.selection import Inputs, select
from gpuplanner.engine.traffic_cache import TrafficCache
from gpuplanner.engine.workload import WorkloadResult, analyze_workload
from gpuplanner.engine.workloads import (
    TRAINING_KINDS,
    WorkloadEntry,
    evaluate_workloads,
    workload_entry_findings,
)
from gpuplanner.model import Project
from gpuplanner.model.rows import Phase, Workload
from gpuplanner.text import Msg

GIGA = 1e9


class AnalysisCancelled(Exception):
    """The caller's cancel check said stop between two stages (a newer request superseded this one)."""


@dataclass
class Results:
    compiled: Compiled
    fabric: FabricResult
    workload: WorkloadResult | None
    power: PowerResult
    thermal: ThermalResult
    cost: CostResult
    findings: list[Finding]
    link_util_ab: np.ndarray  # per compiled link: average utilisation over one training step, a→b
    link_util_ba: np.ndarray
    gpu_utilization: float  # the load power was computed at
    floor_loads: dict[str, tuple[float, float]] = field(
        default_factory=dict
    )  # floor item → (load, capacity) kW
    scenario: str = ""
    phase: str = ""  # the phase id the results are of ("" = every phase)
    workload_error: str | Msg = ""  # why the workload was not evaluated (text.shown renders it)
    stage_ms: dict[str, float] = field(default_factory=dict)
    electrical: ElectricalResult | None = None
    workloads: list[WorkloadEntry] = field(default_factory=list)  # every active workload on its partition
    limits: list[dict[str, Any]] = field(default_factory=list)  # site limits and budget against the plan
    # the findings no money field or rack move changes (ports, network, workload, teams, hall): reused by
    # reanalyze when the workload and everything upstream of it are clean
    steady_findings: list[Finding] = field(default_factory=list)
    # the findings that follow cable lengths (wiring_findings): reused until devices move or upstream changes
    wiring_findings: list[Finding] = field(default_factory=list)

    @property
    def link_util(self) -> FloatArray:
        """The busier direction of each link."""
        busier: FloatArray = np.maximum(self.link_util_ab, self.link_util_ba)
        return busier


# -- the pipeline ---------------------------------------------------------------------------------------


def active_workload(project: Project | Inputs) -> Workload | None:
    """The workload the fabric, power and cost stages follow: the first active training or fine-tuning one
    (else the first active one). Every active workload is evaluated in `Results.workloads`."""
    rows = project.workloads if isinstance(project, Inputs) else project.rows_of(Workload).values()
    wls = [w for w in rows if w.active]
    train = [w for w in wls if w.kind in TRAINING_KINDS]
    chosen = train or wls
    return chosen[0] if chosen else None


# Stage names, in pipeline order. "placement" is the compile and cable step of devices moved between racks,
# "racks" the rack budgets and cooling patched into the compiled racks (engine/incremental.py); a full
# analysis does both as part of compile and fabric.
STAGES = (
    "compile",
    "placement",
    "racks",
    "fabric",
    "workload",
    "power",
    "thermal",
    "cost",
    "electrical",
    "checks",
)


def analyze_project(
    project: Project,
    *,
    scenario: str | None = None,
    phase: str | Phase | None = None,
    cancel: Callable[[], bool] | None = None,
    cache: EngineCache | None = None,
) -> Results:
    """Every stage in order, on ``project`` as ``scenario`` (name or id) sees it at the end of ``phase``
    (id, name or row; None = every phase). ``cancel`` is asked between stages; when it returns True the
    solve stops with AnalysisCancelled (a runner passes its "a newer request is waiting" check). ``cache``:
    the caller's routers and link columns (the runner owns one); None analyses cold."""
    return reanalyze(
        project, None, frozenset(STAGES), scenario=scenario, phase=phase, cancel=cancel, cache=cache
    )


def reanalyze(
    project: Project,
    prev: Results | None,
    stages: frozenset[str],
    *,
    scenario: str | None = None,
    phase: str | Phase | None = None,
    cancel: Callable[[], bool] | None = None,
    cache: EngineCache | None = None,
) -> Results:
    """The stages named dirty run again; the others are taken from ``prev`` (results of the same project
    before the edits that dirtied ``stages``, seen through the same scenario and phase). Without ``prev``,
    or with compile or fabric dirty, everything runs. Thermal, cost, electrical and the facility checks
    always run (a millisecond or two); the checks that read only the fabric and workload run with the
    workload stage. Every stage reads compiled input only: the settings, workloads, teams and floor items
    come with the compiled arrays (``Compiled.inputs``), refreshed from ``project`` on every call."""
    sel = select(project, scenario, phase)
    inputs = sel.inputs
    ms: dict[str, float] = {}
    t = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal t
        now = time.perf_counter()
        ms[stage] = (now - t) * 1000
        t = now
        if cancel is not None and cancel():
            raise AnalysisCancelled(stage)

    catalog = inputs.catalog
    full = prev is None or bool(stages & {"compile", "fabric"})
    moved = None
    racks_edited = False
    if not full:
        assert prev is not None
        c, fabric = prev.compiled, prev.fabric
        if "placement" in stages:
            placed = with_placement(c, sel)
            if placed is None:  # the device rows are not those of prev: only a full analysis is right
                full = True
            else:
                c, moved = placed.compiled, placed.moved
                if len(placed.touched_links):
                    cables = replan_cables(c, catalog, fabric.cables, placed.touched_links)
                    fabric = with_cables(fabric, c, catalog, cables)
                lap("placement")
        if not full and "racks" in stages:
            patched = with_rack_fields(c, sel)
            if patched is None:  # the rack rows are not those of prev
                full = True
            else:
                racks_edited, c = patched is not c, patched
                lap("racks")
    if full:
        c = compile_project(project, cache.link_rows if cache is not None else None, sel)
        lap("compile")
        fabric = analyze_fabric(c, catalog, topologies=cache.topologies if cache is not None else None)
        lap("fabric")
    if c.inputs is not inputs:  # upstream arrays reused: the settings and workloads are today's
        c = dataclasses.replace(c, inputs=inputs)
    wl = active_workload(inputs)
    if full or "workload" in stages:
        traffic = cache.traffic if cache is not None else None
        wres, werr, util_ab, util_ba, gpu_util = _workload_stage(c, fabric, wl, traffic)
        lap("workload")
        power = compute_power(c, gpu_util)
    else:
        assert prev is not None
        wres, werr, gpu_util = prev.workload, prev.workload_error, prev.gpu_utilization
        util_ab, util_ba = prev.link_util_ab, prev.link_util_ba
        power = prev.power
        if moved is not None and len(moved):
            power = move_devices(power, moved, c.devices.rack[moved])
        if racks_edited:  # a budget is the only rack field power carries
            power = dataclasses.replace(power, rack_budget_kw=c.racks.budget_kw.astype(np.float64, copy=True))
    lap("power")
    thermal = compute_thermal(c, power, site_with_utility_feed(inputs), catalog)
    lap("thermal")
    bom = dict(fabric.cables.bom_cables)
    bom.update(fabric.cables.bom_transceivers)
    est = wres.estimate if wres is not None and wres.estimate.fits else None
    cost = compute_cost(
        c,
        power,
        thermal,
        inputs.site,
        inputs.info,
        catalog,
        bom=bom,
        time_to_train_s=est.time_to_train_s if est is not None else None,
        tokens_per_s=est.tokens_per_s if est is not None else None,
    )
    lap("cost")
    electrical = compute_electrical(power, thermal, inputs.site)
    lap("electrical")
    findings = facility_findings(c, power, thermal, cost, inputs.site)
    findings += electrical_findings(c, electrical, thermal)
    # unless devices moved (or upstream ran), cable lengths, the cable plan and floor positions are prev's
    reuse_wiring = prev is not None and not full and moved is None
    wiring = prev.wiring_findings if prev is not None and reuse_wiring else wiring_findings(c, fabric)
    findings += wiring
    loads = floor_loads(c, power, thermal)
    findings += floor_findings(c, loads)
    if full or "workload" in stages:
        steady, entries = _steady_findings(c, fabric, wl, wres)
    else:  # nothing these read (ports, network, workload, teams, hall) changed
        assert prev is not None
        steady, entries = prev.steady_findings, prev.workloads
    findings += steady
    findings += budget_raised_findings(c, catalog)
    limits, limit_findings = limits_and_findings(c, power, thermal, cost)
    findings += limit_findings
    lap("checks")
    return Results(
        compiled=c,
        fabric=fabric,
        workload=wres,
        power=power,
        thermal=thermal,
        cost=cost,
        findings=sort_findings(findings),
        link_util_ab=util_ab,
        link_util_ba=util_ba,
        gpu_utilization=gpu_util,
        scenario=inputs.scenario,
        phase=inputs.phase_id,
        workload_error=werr,
        stage_ms=ms,
        floor_loads=loads,
        electrical=electrical,
        workloads=entries,
        limits=limits,
        steady_findings=steady,
        wiring_findings=wiring,
    )


def _workload_stage(
    c: Compiled, fabric: FabricResult, wl: Workload | None, traffic: TrafficCache | None = None
) -> tuple[WorkloadResult | None, str | Msg, np.ndarray, np.ndarray, float]:
    """The active training workload placed and routed: its result (or the one-line reason there is none),
    each link's average utilisation per direction over a step, and the GPU utilisation power follows."""
    wres: WorkloadResult | None = None
    werr: str | Msg = ""
    if wl is not None and wl.kind in TRAINING_KINDS and int(c.devices.gpu_count.sum()) > 0:
        try:
            wres = analyze_workload(c, fabric.graph, fabric.router, wl, traffic=traffic)
        except PlannerError as exc:
            werr = text.error_msg(exc)
    n = len(c.links.ids)
    util_ab = np.zeros(n)
    util_ba = np.zeros(n)
    gpu_util = c.inputs.site.load_factor
    if wres is not None and wres.estimate.step_time_s > 0:
        cap = c.links.capacity_gbps * GIGA / 8 * wres.estimate.step_time_s
        util_ab = np.divide(wres.link_bytes_ab, cap, out=np.zeros(n), where=cap > 0)
        util_ba = np.divide(wres.link_bytes_ba, cap, out=np.zeros(n), where=cap > 0)
        bd = wres.estimate.breakdown
        busy = bd.get("compute_s", 0.0) + bd.get("recompute_s", 0.0)
        gpu_util = float(np.clip(busy / wres.estimate.step_time_s, 0.05, 1.0))
    return wres, werr, util_ab, util_ba, gpu_util


def _steady_findings(
    c: Compiled, fabric: FabricResult, wl: Workload | None, wres: WorkloadResult | None
) -> tuple[list[Finding], list[WorkloadEntry]]:
    """The findings no price, rate or rack move changes (ports, network, workload, teams, scheduler, hall,
    unnetworked devices, every workload's entry), and the workload entries."""
    catalog = c.inputs.catalog
    steady = unused_port_findings(c, fabric.port_use)
    steady += network_findings(c, fabric, catalog, wl)
    steady += workload_findings(c, wres, catalog)
    if c.inputs.teams:  # the island size is only read against teams' largest jobs
        steady += team_findings(c, island_gpus(c))
    phases = sorted(c.inputs.phases, key=lambda p: p.order)
    last = phases[-1].scheduler if phases and phases[-1].scheduler else None
    advice = scheduler_finding(c, last)
    if advice is not None:
        steady.append(advice)
    steady += hall_findings(c)
    steady += unnetworked_findings(c)
    entries = evaluate_workloads(c, fabric, wres) if int(c.devices.gpu_count.sum()) > 0 else []
    # the primary workload's memory refusal is the model-does-not-fit finding above; its entry repeats the reason
    unfit = frozenset({wres.workload_id}) if wres is not None and not wres.estimate.fits else frozenset()
    steady += workload_entry_findings(entries, unfit)
    return steady, entries
