"""The slow obvious reference for scenarios and phases: model copies, as the engine did it before the
compile-time filters (engine/selection.py). Kept here, in the tests only.

``phase_subset`` copies the rows a phase holds into a new Project (a link waits for both its devices; a
device whose rack comes later stands unracked); ``apply_scenario`` copies the project and writes each
override into the copy's rows (``dataclasses.replace`` row by row). The analysis then runs on the copy with
no scenario and no phase, so it shares nothing with the filter path but the stages themselves.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.analysis import Results, analyze_project
from gpuplanner.model import Project
from gpuplanner.model.rows import Phase

OVERRIDABLE = {"site", "project"}


def ordered_phases(project: Project) -> list[Phase]:
    return sorted(project.rows_of(Phase).values(), key=lambda p: (p.order, p.id))


def phase_subset(project: Project, phase: Phase) -> Project:
    """The project as it stands at the end of ``phase`` (rows of that phase and the ones before)."""
    phases = ordered_phases(project)
    first = phases[0].id if phases else ""
    allowed = {"", first} | {p.id for p in phases if p.order <= phase.order}
    sub = Project(project.catalog)
    kept: dict[str, list[Any]] = {}
    for table, rows in project.tables.items():
        if table in ("project", "site"):
            sub.tables[table] = dict(rows)
            continue
        kept[table] = [r for r in rows.values() if getattr(r, "phase_id", "") in allowed]
    racks = {r.id for r in kept.get("racks", [])}
    kept["devices"] = [
        d
        if d.rack_id is None or d.rack_id in racks
        else dataclasses.replace(d, rack_id=None, u_position=None)
        for d in kept.get("devices", [])
    ]
    devices = {d.id for d in kept["devices"]}
    kept["links"] = [lk for lk in kept.get("links", []) if lk.a_device in devices and lk.b_device in devices]
    for table, kept_rows in kept.items():
        sub.load_rows(table, kept_rows)
    return sub


def apply_scenario(project: Project, name: str) -> tuple[Project, str]:
    """A copy of the project as the named scenario sees it (overrides are data: table.field → value)."""
    sc = next((s for s in project.tables["scenarios"].values() if s.name == name or s.id == name), None)
    if sc is None:
        raise ValidationError(text.en("error.no_scenario", name=name, names=""), field="scenario", value=name)
    overrides = json.loads(sc.overrides_json or "{}")
    copy = Project(project.catalog)
    for t, rows in project.tables.items():
        if t in ("project", "site"):
            copy.tables[t].update(rows)
        else:
            copy.load_rows(t, list(rows.values()))
    for key, value in overrides.items():
        table, _, fname = key.partition(".")
        if table in OVERRIDABLE:
            row = copy.tables[table][table]
            copy.tables[table][table] = _replace(row, fname, value, sc.name)
        elif table in ("racks", "devices", "workloads", "links"):
            copy.tables[table] = {
                i: _replace(r, fname, value, sc.name) for i, r in copy.tables[table].items()
            }
        elif table == "swap":
            copy.tables["devices"] = {
                i: (dataclasses.replace(d, type_id=value) if d.type_id == fname else d)
                for i, d in copy.tables["devices"].items()
            }
        else:
            raise ValidationError(text.en("error.scenario_cannot_override", name=sc.name, key=key), field=key)
    return copy, sc.name


def _replace(row: Any, fname: str, value: Any, scenario: str) -> Any:
    if fname not in {f.name for f in dataclasses.fields(row)}:
        raise ValidationError(
            text.en("error.scenario_no_field", name=scenario, field=fname), field=fname, value=value
        )
    return dataclasses.replace(row, **{fname: value})


def analyze_by_copy(project: Project, scenario: str | None, phase: Phase | None) -> Results:
    """The old path: the phase's subset copied first, then the scenario's copy of that, analysed plain."""
    sub = phase_subset(project, phase) if phase is not None else project
    if scenario:
        sub, _ = apply_scenario(sub, scenario)
    return analyze_project(sub)
