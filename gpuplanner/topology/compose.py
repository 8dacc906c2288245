"""Composition: a pod (its servers, fabrics and racks) added to an existing project beside what is there,
with its own server type and fabric kind — `generate … --into FILE` and the window's "Add from template…".

The pod's devices are named with a prefix (the partition name, else pod2, pod3 …), its racks continue the
row numbering, its canvas items sit to the right of the existing ones, and its GPU servers belong to the
partition given, so that a workload bound to that partition runs on them.
"""

from __future__ import annotations

import dataclasses
import re

from gpuplanner.commands import Compound
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Project
from gpuplanner.text import Msg
from gpuplanner.topology.generators import apply_plan, generate
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.topology.plan import Plan

_ROW = re.compile(r"^R(\d+)")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")


def next_row(project: Project) -> int:
    """The first free rack row index (rows are labelled R01, R02 … and R01N for network rows)."""
    rows = [int(m.group(1)) for r in project.racks.values() if (m := _ROW.match(r.row or ""))]
    return max(rows, default=0)


def pod_prefix(project: Project, partition: str) -> str:
    if partition:
        return partition
    used = {d.name.split("-", 1)[0] for d in project.devices.values()}
    n = 2
    while f"pod{n}" in used:
        n += 1
    return f"pod{n}"


def free_positions_kw(project: Project) -> tuple[float, ...]:
    """kW of the site's floor positions not yet taken, most capable first. The racks already drawn take the
    least capable positions that hold their devices' maximum draw."""
    from gpuplanner.model.site_limits import parse_positions

    slots = sorted(
        (g["kw"] for g in parse_positions(project.site.positions_json) for _ in range(g["count"])),
        reverse=True,
    )
    drawn: dict[str, float] = {}
    for d in project.devices.values():
        e = project.catalog.entries.get(d.type_id)
        if d.rack_id and e is not None:
            drawn[d.rack_id] = drawn.get(d.rack_id, 0.0) + float(getattr(e, "power_max_w", 0.0)) / 1000.0
    for kw in sorted(drawn.values(), reverse=True):
        fit = [i for i, s in enumerate(slots) if s >= kw - 1e-9]
        if fit:
            slots.pop(fit[-1])  # the smallest position that holds it
    return tuple(slots)


def plan_pod(
    project: Project, opts: GenerateOptions, partition: str = "", fill_positions: bool = False
) -> Plan:
    """The plan of a pod added to `project` (the project itself is not changed). With `fill_positions`
    its server racks take the site's free floor positions, each filled up to that position's kW."""
    if fill_positions:
        free = free_positions_kw(project)
        if not free:
            raise GenerationError(
                Msg("error.gen.no_free_positions"),
                field="positions",
                hint=Msg("error.gen.no_free_positions.hint"),
            )
        opts = opts.with_(rack_budgets_kw=free)
    if partition and not _NAME.match(partition):
        raise GenerationError(Msg("error.gen.partition_name"), field="partition", value=partition)
    prefix = opts.prefix or pod_prefix(project, partition)
    taken = {d.name for d in project.devices.values()}
    opts = opts.with_(prefix=prefix, first_row=max(opts.first_row, next_row(project)))
    plan = generate(project, opts)
    clash = sorted({d.name for d in plan.devices} & taken)
    if clash:
        raise GenerationError(
            Msg("error.gen.pod_names_taken", {"name": clash[0]}),
            field="partition",
            value=partition,
            hint=Msg("error.gen.pod_names_taken.hint"),
        )
    dx = max((d.x for d in project.devices.values()), default=-400.0) + 400.0
    plan.devices = [
        dataclasses.replace(
            d, x=d.x + dx, partition=partition if d.role == "compute" and partition else d.partition
        )
        for d in plan.devices
    ]
    plan.racks = [dataclasses.replace(r, x=r.x + dx) for r in plan.racks]
    return plan  # fabric names carry the prefix already ("train compute")


def add_pod(
    project: Project, opts: GenerateOptions, partition: str = "", fill_positions: bool = False
) -> Compound:
    """Adds the pod to the project as one undoable command (returned, already applied)."""
    return apply_plan(project, plan_pod(project, opts, partition, fill_positions), f"Add {opts.template} pod")
