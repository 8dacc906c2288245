"""What one scenario and one build-out phase see of a project: filters and overrides, never a model copy.

``select(project, scenario, phase)`` reads the base project once and returns a ``Selection``:
- the rack, device and floor-item rows the phase holds (the model's own row objects) and its links as the
  model's link columns, in table order:
  rows of that phase and the ones before; a link waits for both its devices; a device whose rack comes in a
  later phase stands unracked until then — compile turns that into rack row -1, U 0);
- the scenario's overrides (``Scenario.overrides_json``, data ``table.field → value``) as column overrides
  that compile applies to the arrays it builds (``racks``/``devices``/``links`` fields: one value for every
  row; ``swap.<type id>``: a device type replaced everywhere);
- ``Inputs``: the few rows a stage reads besides the arrays — site and project settings and the workloads
  with the scenario's overrides applied to those single frozen rows, the teams, phases, aisle rows and
  floor items of the phase, and the catalog. ``compile_project`` carries them in ``Compiled.inputs`` so that
  the stages receive compiled input only.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from gpuplanner import text
from gpuplanner.catalog import Catalog
from gpuplanner.core.errors import ValidationError
from gpuplanner.model import Project
from gpuplanner.model.link_table import LinkColumns
from gpuplanner.model.rows import (
    ROW_TYPES,
    AisleRow,
    Device,
    FloorItem,
    Link,
    Phase,
    ProjectInfo,
    Rack,
    Scenario,
    Site,
    Team,
    Workload,
)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

RowT = TypeVar("RowT", bound="DataclassInstance")

SETTINGS_TABLES = ("site", "project")  # one row each: the override replaces a field of that row
COLUMN_TABLES = ("racks", "devices", "links")  # many rows: the override is one value for the whole column
NOT_OVERRIDABLE = frozenset({"id"})  # the key rows are found by
# The tables a scenario may override, each a table of the model (its row class from ``ROW_TYPES``).
OVERRIDABLE_TABLES: dict[str, type] = {
    t: ROW_TYPES[t] for t in (*SETTINGS_TABLES, *COLUMN_TABLES, "workloads")
}


@dataclass(frozen=True)
class Inputs:
    """The rows a stage reads besides the per-item arrays, as the selected scenario and phase see them."""

    catalog: Catalog
    site: Site
    info: ProjectInfo
    workloads: tuple[Workload, ...]  # every workload, in table order, with the scenario's overrides
    teams: tuple[Team, ...]
    phases: tuple[Phase, ...]  # every phase (the filter keeps them all), in table order
    aisle_rows: Mapping[str, AisleRow]
    floor_items: Mapping[str, FloorItem]  # the phase's floor items, in table order
    scenario: str = ""  # the scenario's name ("" = the project as drawn)
    phase_id: str = ""  # "" = every phase


@dataclass(frozen=True)
class Selection:
    """The base rows a phase holds, the scenario's column overrides, and the stages' other inputs."""

    racks: list[Rack]
    devices: list[Device]
    link_columns: LinkColumns  # the links the phase holds, a column at a time (model/link_table.py)
    inputs: Inputs
    # table ("racks" | "devices" | "links") → field → the value every row of that table takes
    overrides: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    swap: Mapping[str, str] = dataclasses.field(default_factory=dict)  # device type id → type id
    phased: bool = False  # a phase is selected: devices whose rack is not in it stand unracked

    @property
    def links(self) -> list[Link]:
        """The selected links as row objects (compile reads ``link_columns``)."""
        return self.link_columns.rows()


def find_scenario(project: Project, name: str) -> Scenario:
    sc = next((s for s in project.rows_of(Scenario).values() if s.name == name or s.id == name), None)
    if sc is None:
        names = [
            s.name for s in project.rows_of(Scenario).values()
        ]  # none: the message says so in its language
        raise ValidationError(
            text.Msg("error.no_scenario", {"name": name, "names": names}), field="scenario", value=name
        )
    return sc


def scenario_overrides(sc: Scenario) -> dict[str, Any]:
    try:
        overrides = json.loads(sc.overrides_json or "{}")
    except json.JSONDecodeError as exc:
        raise ValidationError(text.Msg("error.scenario_json", {"name": sc.name, "reason": str(exc)})) from exc
    if not isinstance(overrides, dict):
        raise ValidationError(
            text.Msg("error.scenario_json", {"name": sc.name, "reason": type(overrides).__name__})
        )
    return overrides


def phase_allowed(project: Project, phase: Phase) -> set[str]:
    """The phase ids whose rows stand at the end of ``phase`` ("" = the first phase)."""
    phases = sorted(project.rows_of(Phase).values(), key=lambda p: (p.order, p.id))
    first = phases[0].id if phases else ""
    return {"", first} | {p.id for p in phases if p.order <= phase.order}


def find_phase(project: Project, phase: str | Phase) -> Phase:
    if isinstance(phase, Phase):
        return phase
    row = project.rows_of(Phase).get(phase) or next(
        (p for p in project.rows_of(Phase).values() if p.name == phase), None
    )
    if row is None:
        names = [p.name for p in project.rows_of(Phase).values()]  # none: the message says so in its language
        raise ValidationError(
            text.Msg("error.no_phase", {"name": phase, "names": names}), field="phase", value=phase
        )
    return row


def select(project: Project, scenario: str | None = None, phase: str | Phase | None = None) -> Selection:
    """The project as ``scenario`` (name or id) sees it at the end of ``phase`` (id, name or row)."""
    racks = list(project.racks.values())
    devices = list(project.devices.values())
    links = project.link_columns()
    floor_items = project.rows_of(FloorItem)
    phase_id = ""
    if phase is not None and phase != "":
        ph = find_phase(project, phase)
        phase_id = ph.id
        allowed = phase_allowed(project, ph)
        racks = [r for r in racks if r.phase_id in allowed]
        devices = [d for d in devices if d.phase_id in allowed]
        present = {d.id for d in devices}
        n = len(links)
        keep = np.fromiter(map(allowed.__contains__, links.phase_id), bool, n)
        keep &= np.fromiter(map(present.__contains__, links.a_device), bool, n)
        keep &= np.fromiter(map(present.__contains__, links.b_device), bool, n)
        links = links.take(np.flatnonzero(keep))
        floor_items = {i: it for i, it in floor_items.items() if it.phase_id in allowed}
    site, info = project.site, project.info
    workloads = tuple(project.rows_of(Workload).values())
    columns: dict[str, dict[str, Any]] = {}
    swap: dict[str, str] = {}
    name = ""
    if scenario:
        sc = find_scenario(project, scenario)
        name = sc.name
        for key, value in scenario_overrides(sc).items():
            table, _, fname = key.partition(".")
            if table == "swap":  # {"swap.<old type id>": "<new type id>"}: replace a model everywhere
                dev = columns.get("devices", {})
                if "type_id" in dev:  # the whole column already took one type: the swap applies to it
                    if dev["type_id"] == fname:
                        dev["type_id"] = value
                else:
                    swap = {k: (value if v == fname else v) for k, v in swap.items()}
                    swap.setdefault(fname, value)
                continue
            if table not in OVERRIDABLE_TABLES:
                raise ValidationError(
                    text.Msg("error.scenario_cannot_override", {"name": sc.name, "key": key}), field=key
                )
            _check_field(OVERRIDABLE_TABLES[table], fname, value, sc.name)
            if fname in NOT_OVERRIDABLE:
                raise ValidationError(
                    text.Msg("error.scenario_cannot_override", {"name": sc.name, "key": key}), field=key
                )
            if table == "site":
                site = dataclasses.replace(site, **{fname: value})
            elif table == "project":
                info = dataclasses.replace(info, **{fname: value})
            elif table == "workloads":
                workloads = tuple(dataclasses.replace(w, **{fname: value}) for w in workloads)
            else:
                columns.setdefault(table, {})[fname] = value
                if table == "devices" and fname == "type_id":
                    swap = {}  # every device takes this type: earlier swaps no longer apply
    inputs = Inputs(
        catalog=project.catalog,
        site=site,
        info=info,
        workloads=workloads,
        teams=tuple(project.rows_of(Team).values()),
        phases=tuple(project.rows_of(Phase).values()),
        aisle_rows=dict(project.rows_of(AisleRow)),  # copies of the small tables: results outlive edits
        floor_items=dict(floor_items),
        scenario=name,
        phase_id=phase_id,
    )
    return Selection(racks, devices, links, inputs, columns, swap, phased=bool(phase_id))


def _check_field(cls: type, fname: str, value: Any, scenario: str) -> None:
    if fname not in {f.name for f in dataclasses.fields(cls)}:
        raise ValidationError(
            text.Msg("error.scenario_no_field", {"name": scenario, "field": fname}), field=fname, value=value
        )
