"""Phased build-out: each phase adds racks, devices and links to the phases before it. Every phase is
analysed as the cluster it makes — a filter at compile time (engine/selection.py), no project copy; later
phases are checked for growing without replacing equipment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpuplanner import text
from gpuplanner.engine.analysis import Results, analyze_project
from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.checks.teams import advised_scheduler
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project
from gpuplanner.model.rows import Phase

_GROWTH_RULES = (
    "ports-over-subscribed",
    "rack-over-power-budget",
    "feed-redundancy-not-met",
    "rack-over-u-budget",
)


def ordered_phases(project: Project) -> list[Phase]:
    return sorted(project.rows_of(Phase).values(), key=lambda p: (p.order, p.id))


@dataclass
class PhaseResult:
    phase: Phase
    results: Results  # the project as it stands at the end of the phase (its compiled rows)
    summary: dict[str, Any]


def analyze_phases(
    project: Project, *, scenario: str | None = None, lang: str = "en"
) -> tuple[list[PhaseResult], list[Finding]]:
    phases = ordered_phases(project)
    out: list[PhaseResult] = []
    findings: list[Finding] = []
    prev_capex = 0.0
    for i, ph in enumerate(phases):
        res = analyze_project(project, scenario=scenario, phase=ph)
        data = results_json(project, res, lang)
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
            "scheduler": ph.scheduler or advised_scheduler(data["gpus"], res.compiled.inputs.workloads),
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
            findings.extend(_growth_findings(out[-1], ph, res))
        out.append(PhaseResult(ph, res, summary))
    return out, findings


def _growth_findings(before: PhaseResult, phase: Phase, res: Results) -> list[Finding]:
    """Problems of this phase that sit on equipment bought in an earlier phase."""
    older = set(before.results.compiled.devices.ids) | set(before.results.compiled.racks.ids)
    out = []
    for f in res.findings:
        if f.rule in _GROWTH_RULES and any(i in older for i in f.items):
            out.append(
                Finding(
                    "warning",
                    "phase-growth-needs-replacement",
                    tuple(i for i in f.items if i in older),
                    {
                        "phase": phase.name,
                        "before": before.phase.name,
                        "what": text.finding_msg(f.rule, f.params),
                    },
                )
            )
    return out
