"""A scenario compare without solving every scenario from scratch.

A scenario is a filter at compile time (engine/selection.py), so a scenario whose overrides change only
settings the runner treats as an edit of those settings (engine/runner.py ``dirty_stages``) shares every
upstream stage with the project as drawn: a price, rate or term re-runs thermal, cost, electrical and the
checks on the base's compiled arrays, fabric, workload and power; a workload override re-runs the workload
stage onward. Anything else (a device swap, one value for a whole rack, device or link column, a site
setting that moves racks or cables) is solved in full. The result equals ``analyze_project(project,
scenario=name)`` field by field (tests/oracles/test_scenario_filter_oracle.py).
"""

from __future__ import annotations

from gpuplanner.engine.analysis import Results, analyze_project, reanalyze
from gpuplanner.engine.runner import ALL_STAGES, dirty_stages
from gpuplanner.engine.selection import COLUMN_TABLES, find_scenario, scenario_overrides
from gpuplanner.model import Project
from gpuplanner.model.changes import ChangeSet
from gpuplanner.model.rows import Workload


def scenario_stages(project: Project, name: str) -> frozenset[str]:
    """The stages whose results differ between the project as drawn and as scenario ``name`` sees it."""
    changes = ChangeSet()
    for key in scenario_overrides(find_scenario(project, name)):
        table, _, fname = key.partition(".")
        if table in ("site", "project"):
            changes.note_updated(table, table, {fname})
        elif table == "workloads":
            for wid in project.rows_of(Workload):
                changes.note_updated("workloads", wid, {fname})
        elif table in COLUMN_TABLES or table == "swap":
            return ALL_STAGES
        else:  # not an override the format has: the full analysis gives the one clear refusal
            return ALL_STAGES
    return dirty_stages(changes)


def analyze_scenario(
    project: Project, name: str, base: Results | None = None, *, phase: str | None = None
) -> Results:
    """``project`` as scenario ``name`` sees it (at the end of ``phase``). ``base``: the results of the
    project as drawn (same phase), whose upstream stages a settings-only scenario reuses; None solves in
    full."""
    stages = scenario_stages(project, name)
    if base is None or base.scenario or base.phase != (phase or "") or stages == ALL_STAGES:
        return analyze_project(project, scenario=name, phase=phase)
    return reanalyze(project, base, stages, scenario=name, phase=phase)
