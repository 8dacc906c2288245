"""Phased build-out: each phase adds racks, devices and links to the phases before it. Every phase is
analysed as the cluster it makes; later phases are checked for growing without replacing equipment."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gpuplanner.engine.analysis import Results, analyze_project
from gpuplanner.engine.checks.findings import Finding, register_templates
from gpuplanner.engine.checks.teams import advised_scheduler
from gpuplanner.engine.summary import results_json

register_templates(
    {
        "phase-growth-needs-replacement": {
            "message": {
                "en": "Phase '{phase}' cannot grow from '{before}' without replacing equipment: {what}",
                "zh": "阶段“{phase}”无法在不更换设备的前提下从“{before}”扩展：{what}",
            },
            "fix": {
                "en": "Leave spare switch ports, rack power and feed capacity in the earlier phase, or plan the replacement.",
                "zh": "在前一阶段预留交换机端口、机柜功率和供电容量，或将设备更换列入计划。",
            },
        }
    }
)

_GROWTH_RULES = (
    "ports-over-subscribed",
    "rack-over-power-budget",
    "feed-redundancy-not-met",
    "rack-over-u-budget",
)


def ordered_phases(project) -> list:
    return sorted(project.tables["phases"].values(), key=lambda p: (p.order, p.id))


def phase_subset(project, phase):
    """The project as it stands at the end of ``phase`` (rows of that phase and the ones before)."""
    from gpuplanner.model import Project

    phases = ordered_phases(project)
    first = phases[0].id if phases else ""
    allowed = {"", first} | {p.id for p in phases if p.order <= phase.order}
    sub = Project(project.catalog)
    kept: dict[str, list] = {}
    for table, rows in project.tables.items():
        if table in ("project", "site"):
            sub.tables[table] = dict(rows)
            continue
        kept[table] = [r for r in rows.values() if getattr(r, "phase_id", "") in allowed]
    # A phase's subset stays whole even when single items were put in phases one by one: a link waits for
    # both its devices, and a device whose rack comes later stands unracked until then.
    racks = {r.id for r in kept.get("racks", [])}
    kept["devices"] = [
        d
        if d.rack_id is None or d.rack_id in racks
        else dataclasses.replace(d, rack_id=None, u_position=None)
        for d in kept.get("devices", [])
    ]
    devices = {d.id for d in kept["devices"]}
    kept["links"] = [lk for lk in kept.get("links", []) if lk.a_device in devices and lk.b_device in devices]
    for table, rows in kept.items():
        sub.load_rows(table, rows)
    return sub


@dataclass
class PhaseResult:
    phase: Any
    project: Any
    results: Results
    summary: dict[str, Any]


def analyze_phases(
    project, *, scenario: str | None = None, lang: str = "en"
) -> tuple[list[PhaseResult], list[Finding]]:
    phases = ordered_phases(project)
    out: list[PhaseResult] = []
    findings: list[Finding] = []
    prev_capex = 0.0
    for i, ph in enumerate(phases):
        sub = phase_subset(project, ph)
        res = analyze_project(sub, scenario=scenario)
        data = results_json(sub, res, lang)
        perf = data["performance"] or {}
        summary = {
            "id": ph.id,
            "name": ph.name,
            "order": ph.order,
            "gpus": data["gpus"],
            "servers": data["servers"],
            "switches": data["fabric"]["switches"],
            "tokens_per_s": perf.get("tokens_per_s"),
            "step_time_s": perf.get("step_time_s"),
            "mfu": perf.get("mfu"),
            "it_kw_max": data["it_kw_max"],
            "facility_kw_max": data["facility_kw_max"],
            "pue": data["pue"],
            "cooling_mix_kw": data["cooling_mix_kw"],
            "capex": data["capex"],
            "capex_added": data["capex"] - prev_capex,
            "tco": data["tco"],
            "scheduler": ph.scheduler or advised_scheduler(data["gpus"], sub),
            # room to grow into the next phase without replacing equipment
            "ports_free": data["fabric"]["ports_free"],
            "rack_kw_headroom": sum(
                max(r["kw_budget"] - r["kw_max"], 0.0) for r in data["racks"] if r["kw_budget"]
            ),
            "utility_feed_kw_needed": data["utility_feed_kw_needed"],
            "utility_kw_available": data["utility_kw_available"],
            "findings": len(res.findings),
            # each workload with the GPUs of its own partition in this phase
            "workloads": [
                {"name": w["name"], "kind": w["kind"], "gpus": w["gpus"]} for w in data["workloads"]
            ],
        }
        prev_capex = data["capex"]
        if i:
            findings.extend(_growth_findings(out[-1], ph, sub, res))
        out.append(PhaseResult(ph, sub, res, summary))
    return out, findings


def _growth_findings(before: PhaseResult, phase, sub, res: Results) -> list[Finding]:
    """Problems of this phase that sit on equipment bought in an earlier phase."""
    older = set(before.project.devices) | set(before.project.racks)
    out = []
    for f in res.findings:
        if f.rule in _GROWTH_RULES and any(i in older for i in f.items):
            out.append(
                Finding(
                    "warning",
                    "phase-growth-needs-replacement",
                    tuple(i for i in f.items if i in older),
                    {"phase": phase.name, "before": before.phase.name, "what": f.message()},
                )
            )
    return out
