"""analyze_project(project) → Results: every stage in order, on the project as a scenario sees it.

compile → fabric (routing graph, cables, analysis) → workload (placement, flows routed over the fabric,
performance) → power (at the predicted GPU utilisation) → thermal → cost → checks. Results are their own
object, never written into the model; per-link and per-rack arrays follow the compiled row order.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import PlannerError, ValidationError
from gpuplanner.engine.arrays import FloatArray
from gpuplanner.engine.checks_devices import unnetworked_findings
from gpuplanner.engine.checks_electrical import (
    budget_raised_findings,
    electrical_findings,
    unused_port_findings,
)
from gpuplanner.engine.checks_facility import facility_findings
from gpuplanner.engine.checks_floor import floor_findings, floor_loads, hall_findings, site_with_utility_feed
from gpuplanner.engine.checks_limits import limits_and_findings
from gpuplanner.engine.checks_network import network_findings, workload_findings
from gpuplanner.engine.checks_teams import island_gpus, scheduler_finding, team_findings
from gpuplanner.engine.compiled import Compiled, compile_project
from gpuplanner.engine.cost import CostResult, compute_cost
from gpuplanner.engine.electrical import ElectricalResult, compute_electrical
from gpuplanner.engine.findings import Finding, sort_findings
from gpuplanner.engine.network import FabricResult, analyze_fabric
from gpuplanner.engine.power import PowerResult, compute_power
from gpuplanner.engine.thermal import ThermalResult, compute_thermal
from gpuplanner.engine.workload import WorkloadResult, analyze_workload
from gpuplanner.engine.workloads import (
    TRAINING_KINDS,
    WorkloadEntry,
    evaluate_workloads,
    workload_entry_findings,
)
from gpuplanner.model import Project
from gpuplanner.model.rows import Workload

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

GIGA = 1e9
RowT = TypeVar("RowT", bound="DataclassInstance")  # a row of any project table (a frozen dataclass)


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
    workload_error: str = ""
    stage_ms: dict[str, float] = field(default_factory=dict)
    electrical: ElectricalResult | None = None
    workloads: list[WorkloadEntry] = field(default_factory=list)  # every active workload on its partition
    limits: list[dict[str, Any]] = field(default_factory=list)  # site limits and budget against the plan
    # the findings no money field changes (ports, network, workload, teams, floor, hall): reused by
    # reanalyze_money
    steady_findings: list[Finding] = field(default_factory=list)

    @property
    def link_util(self) -> FloatArray:
        """The busier direction of each link."""
        busier: FloatArray = np.maximum(self.link_util_ab, self.link_util_ba)
        return busier


# -- scenarios ------------------------------------------------------------------------------------------

OVERRIDABLE = {"site", "project"}


def apply_scenario(project: Project, name: str) -> tuple[Project, str]:
    """A copy of the project as the named scenario sees it (overrides are data: table.field → value)."""

    sc = next((s for s in project.tables["scenarios"].values() if s.name == name or s.id == name), None)
    if sc is None:
        names = ", ".join(s.name for s in project.tables["scenarios"].values()) or "none"
        raise ValidationError(
            text.en("error.no_scenario", name=name, names=names), field="scenario", value=name
        )
    try:
        overrides = json.loads(sc.overrides_json or "{}")
    except json.JSONDecodeError as exc:
        raise ValidationError(text.en("error.scenario_json", name=sc.name, reason=exc)) from exc
    copy = Project(project.catalog)
    for t, rows in project.tables.items():
        copy.load_rows(t, list(rows.values())) if t not in ("project", "site") else copy.tables[t].update(
            rows
        )
    for key, value in overrides.items():
        table, _, fname = key.partition(".")
        if table in OVERRIDABLE:
            row = copy.tables[table][table]
            copy.tables[table][table] = _replace(row, fname, value, sc.name)
        elif table in ("racks", "devices", "workloads", "links"):
            copy.tables[table] = {
                i: _replace(r, fname, value, sc.name) for i, r in copy.tables[table].items()
            }
        elif table == "swap":  # {"swap.<old type id>": "<new type id>"}: replace a model everywhere
            copy.tables["devices"] = {
                i: (dataclasses.replace(d, type_id=value) if d.type_id == fname else d)
                for i, d in copy.tables["devices"].items()
            }
        else:
            raise ValidationError(text.en("error.scenario_cannot_override", name=sc.name, key=key), field=key)
    return copy, sc.name


def _replace(row: RowT, fname: str, value: Any, scenario: str) -> RowT:
    if fname not in {f.name for f in dataclasses.fields(row)}:
        raise ValidationError(
            text.en("error.scenario_no_field", name=scenario, field=fname), field=fname, value=value
        )
    return dataclasses.replace(row, **{fname: value})


# -- the pipeline ---------------------------------------------------------------------------------------


def active_workload(project: Project) -> Workload | None:
    """The workload the fabric, power and cost stages follow: the first active training or fine-tuning one
    (else the first active one). Every active workload is evaluated in `Results.workloads`."""
    wls = [w for w in project.rows_of(Workload).values() if w.active]
    train = [w for w in wls if w.kind in TRAINING_KINDS]
    chosen = train or wls
    return chosen[0] if chosen else None


def analyze_project(
    project: Project, *, scenario: str | None = None, cancel: Callable[[], bool] | None = None
) -> Results:
    """Every stage in order. ``cancel`` is asked between stages; when it returns True the solve stops with
    AnalysisCancelled (a runner passes its "a newer request is waiting" check)."""
    name = ""
    if scenario:
        project, name = apply_scenario(project, scenario)
    ms: dict[str, float] = {}
    t = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal t
        now = time.perf_counter()
        ms[stage] = (now - t) * 1000
        t = now
        if cancel is not None and cancel():
            raise AnalysisCancelled(stage)

    c = compile_project(project)
    lap("compile")
    fabric = analyze_fabric(c, project.catalog)
    lap("fabric")
    wl = active_workload(project)
    wres: WorkloadResult | None = None
    werr = ""
    if wl is not None and wl.kind in TRAINING_KINDS and int(c.devices.gpu_count.sum()) > 0:
        try:
            wres = analyze_workload(project, c, fabric.graph, fabric.router, wl)
        except PlannerError as exc:
            werr = exc.one_line()
    lap("workload")
    L = len(c.links.ids)
    util_ab = np.zeros(L)
    util_ba = np.zeros(L)
    gpu_util = project.site.load_factor
    if wres is not None and wres.estimate.step_time_s > 0:
        cap = c.links.capacity_gbps * GIGA / 8 * wres.estimate.step_time_s
        util_ab = np.divide(wres.link_bytes_ab, cap, out=np.zeros(L), where=cap > 0)
        util_ba = np.divide(wres.link_bytes_ba, cap, out=np.zeros(L), where=cap > 0)
        bd = wres.estimate.breakdown
        busy = bd.get("compute_s", 0.0) + bd.get("recompute_s", 0.0)
        gpu_util = float(np.clip(busy / wres.estimate.step_time_s, 0.05, 1.0))
    power = compute_power(c, gpu_util)
    lap("power")
    return _from_thermal(project, c, fabric, wl, wres, werr, util_ab, util_ba, gpu_util, power, name, ms, lap)


def reanalyze_money(
    project: Project, prev: Results, *, scenario: str | None = None, cancel: Callable[[], bool] | None = None
) -> Results:
    """Thermal, cost, electrical and checks again on ``prev``'s compiled arrays, fabric, workload and power:
    for edits that change only site/project money fields (the electricity price feeds the thermal stage's
    energy cost, so it is redone too; it is cheap). ``prev`` must be of the same project otherwise."""
    name = ""
    if scenario:
        project, name = apply_scenario(project, scenario)
    ms: dict[str, float] = {}
    t = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal t
        now = time.perf_counter()
        ms[stage] = (now - t) * 1000
        t = now
        if cancel is not None and cancel():
            raise AnalysisCancelled(stage)

    return _from_thermal(
        project,
        prev.compiled,
        prev.fabric,
        active_workload(project),
        prev.workload,
        prev.workload_error,
        prev.link_util_ab,
        prev.link_util_ba,
        prev.gpu_utilization,
        prev.power,
        name,
        ms,
        lap,
        reuse=prev,
    )


def _from_thermal(
    project: Project,
    c: Compiled,
    fabric: FabricResult,
    wl: Workload | None,
    wres: WorkloadResult | None,
    werr: str,
    util_ab: FloatArray,
    util_ba: FloatArray,
    gpu_util: float,
    power: PowerResult,
    name: str,
    ms: dict[str, float],
    lap: Callable[[str], None],
    reuse: Results | None = None,
) -> Results:
    thermal = compute_thermal(c, power, site_with_utility_feed(project), project.catalog)
    lap("thermal")
    bom = dict(fabric.cables.bom_cables)
    bom.update(fabric.cables.bom_transceivers)
    ttt = wres.estimate.time_to_train_s if wres is not None and wres.estimate.fits else None
    tps = wres.estimate.tokens_per_s if wres is not None and wres.estimate.fits else None
    cost = compute_cost(
        c,
        power,
        thermal,
        project.site,
        project.info,
        project.catalog,
        bom=bom,
        time_to_train_s=ttt,
        tokens_per_s=tps,
    )
    lap("cost")
    electrical = compute_electrical(power, thermal, project.site)
    lap("electrical")
    findings = facility_findings(c, power, thermal, cost, project.site)
    findings += electrical_findings(c, electrical, thermal)
    if reuse is not None:  # a money edit: the other checks read nothing a price or rate changes
        steady, loads, entries = reuse.steady_findings, reuse.floor_loads, reuse.workloads
    else:
        steady = unused_port_findings(c, fabric.port_use)
        steady += budget_raised_findings(c, project.catalog)
        steady += network_findings(c, fabric, project.catalog, wl)
        steady += workload_findings(c, wres, project.catalog)
        steady += team_findings(project, c, island_gpus(c))
        phases = sorted(project.tables["phases"].values(), key=lambda p: p.order)
        last = phases[-1].scheduler if phases and phases[-1].scheduler else None
        advice = scheduler_finding(project, c, last)
        if advice is not None:
            steady.append(advice)
        loads = floor_loads(project, c, power, thermal)
        steady += floor_findings(project, loads)
        steady += hall_findings(project, c)
        steady += unnetworked_findings(c)
        entries = evaluate_workloads(project, c, fabric, wres) if int(c.devices.gpu_count.sum()) > 0 else []
        steady += workload_entry_findings(entries)
    findings += steady
    limits, limit_findings = limits_and_findings(project, c, power, thermal, cost)
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
        scenario=name,
        workload_error=werr,
        stage_ms=ms,
        floor_loads=loads,
        electrical=electrical,
        workloads=entries,
        limits=limits,
        steady_findings=steady,
    )
