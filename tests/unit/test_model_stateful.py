"""No sequence of edits can lose work: a hypothesis state machine drives random sequences of the model's real
commands (add, move, delete, change model, link, unlink, phase, team, edit fields — with values in and out
of range — undo, redo) on small versions of the template presets, and after every step checks that

- the project validates (``validate_project``, the same checks the file loader makes);
- a refused command changed nothing;
- saving with the real storage to a file and opening it again gives identical tables;

and at the end that undoing everything returns the starting project exactly.

The oracle for "validates" is independent of the commands: it is the file loader itself (``open_project``),
which re-checks every row and reference from the file.

CI runs ≥ 500 steps (``STEPS_PER_RUN`` below, asserted). A longer run:
``GPUPLANNER_STATEFUL_EXAMPLES=2000 pytest tests/unit/test_model_stateful.py -q -p no:cacheprovider``.
"""

from __future__ import annotations

import dataclasses
import math
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from gpuplanner.commands import (
    AddRows,
    MoveDevices,
    RemoveRows,
    SetFields,
    UndoStack,
)
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.perf.settings import SETTINGS
from gpuplanner.engine.workload_settings import SERVING_SETTINGS, workload_serving_settings, workload_settings
from gpuplanner.model import Device, Link, Phase, Project, Rack, Team, Workload
from gpuplanner.model.bounds import bounds
from gpuplanner.model.validate import kinds_for_role, validate_project
from gpuplanner.storage import open_project, save_project
from gpuplanner.text import error_line
from gpuplanner.topology.presets import PRESETS

EXAMPLES = int(
    os.environ.get("GPUPLANNER_STATEFUL_EXAMPLES", "40")
)  # ~18 steps per example on average: 40 keeps a run above 500 steps (30 gave 423 once)
STEP_COUNT = 25
STEPS_PER_RUN = 500  # the least number of steps a default run must make


def _small(preset_id: str, **shrink) -> Project:
    preset = next(p for p in PRESETS if p.id == preset_id)
    preset = dataclasses.replace(preset, options=preset.options.with_(**shrink))
    return preset.build()


_BASES: dict[str, Project] = {}


def _base(name: str) -> Project:
    """The small presets, built once (the generators are the ones users run)."""
    if not _BASES:
        _BASES["pilot"] = _small("pilot-1-node")
        _BASES["roce"] = _small("roce-4-node")
        _BASES["ib"] = _small("ib-su-32-node", servers=4, su_size=4)
    return _BASES[name]


def _clone(p: Project) -> Project:
    q = Project(p.catalog)
    for table, rows in p.tables.items():
        if table in ("project", "site"):
            q.tables[table] = dict(rows)
        else:
            q.load_rows(table, list(rows.values()))
    return q


ROLES = ("compute", "leaf", "spine", "storage", "storage-switch", "management")
# (table, field) pairs edited with random numbers, in and out of their ranges.
NUMBER_FIELDS = (
    ("devices", "u_position"),
    ("devices", "price_usd"),
    ("devices", "x"),
    ("links", "multiplicity"),
    ("links", "length_m"),
    ("racks", "power_budget_kw"),
    ("racks", "floor_x_m"),
    ("site", "tco_years"),
    ("site", "electricity_usd_per_kwh"),
    ("site", "load_factor"),
    ("teams", "gpu_guaranteed"),
    ("workloads", "kv_fraction"),  # 0 = the serving stack's default, else (0, 1]: a range of its own
    ("workloads", "max_batched_tokens"),  # 0 = the engine's default, else a whole number of tokens ≥ 1
)
WILD = st.sampled_from([0, 1, 2, 7, 42, 43, 48, 60, 100, 101, 32767, 40000, 10**9, -1, -5.5, 0.5, 1e308])
NUMBERS = st.one_of(WILD, st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**12), 10**12))

# the workload's run settings held as text ("" = not stated), with values they take and values they refuse
RUN_SETTING_TEXT = tuple(
    k for k in SETTINGS if k not in ("precision", "recompute", "zero_stage")
)  # stated on the row as text
SETTING_VALUES = st.one_of(
    st.sampled_from(["", "on", "off", "fused", "bf16", "4", "deepep", "mxfp8", "Et*16|t*16L"]),
    st.sampled_from(["yes", "ON ", "adamw", "3", "开", "'; DROP TABLE workloads; --"]),
    st.text(max_size=12),
)
SERVING_VALUES = st.one_of(
    st.sampled_from(
        ["", "vllm", "trtllm", "mlperf-llama2-70b", "mlperf-mixtral-8x7b", "mlperf-llama3.1-405b"]
    ),
    st.sampled_from(["sglang", "TRTLLM", " vllm ", "sharegpt", "'; DROP TABLE workloads; --"]),
    st.text(max_size=12),
)

steps_taken = 0


class ProjectMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="gpuplanner-stateful-"))
        self.p: Project
        self.stack: UndoStack
        self.start: dict
        self.refused = 0

    @initialize(base=st.sampled_from(["pilot", "roce", "ib"]))
    def load(self, base: str) -> None:
        self.p = _clone(_base(base))
        validate_project(self.p)
        self.stack = UndoStack(self.p)
        self.start = self.p.snapshot()

    # -- helpers --------------------------------------------------------------------------------------------
    def push(self, make) -> None:
        """Build and push a command; a refusal must be a PlannerError and must change nothing."""
        global steps_taken
        steps_taken += 1
        before = self.p.snapshot()
        depth = len(self.stack.done)
        try:
            self.stack.push(make())
        except PlannerError:
            self.refused += 1
            assert self.p.snapshot() == before
            assert len(self.stack.done) == depth

    def pick(self, data, table: str):
        ids = sorted(self.p.tables[table])
        return data.draw(st.sampled_from(ids)) if ids else None

    # -- rules ----------------------------------------------------------------------------------------------
    @rule(data=st.data(), role=st.sampled_from(ROLES), in_rack=st.booleans())
    def add_device(self, data, role: str, in_rack: bool) -> None:
        kinds = kinds_for_role(role)
        entries = sorted(e.id for k in kinds for e in self.p.catalog.of_kind(k))
        type_id = data.draw(st.sampled_from(entries))
        rack = self.pick(data, "racks") if in_rack else None
        u = data.draw(st.integers(1, 48)) if rack else None
        dev = Device(
            id=self.p.new_id("devices"), name="n", type_id=type_id, role=role, rack_id=rack, u_position=u
        )
        self.push(lambda: AddRows("devices", [dev]))

    @rule(data=st.data())
    def add_rack(self, data) -> None:
        types = sorted(e.id for e in self.p.catalog.of_kind("rack"))
        rack = Rack(id=self.p.new_id("racks"), name="R", type_id=data.draw(st.sampled_from(types)))
        self.push(lambda: AddRows("racks", [rack]))

    @rule(data=st.data(), x=st.floats(-1e4, 1e4), y=st.floats(-1e4, 1e4))
    def move(self, data, x: float, y: float) -> None:
        d = self.pick(data, "devices")
        if d:
            self.push(lambda: MoveDevices(self.p, {d: (x, y)}))

    @rule(data=st.data())
    def delete_devices(self, data) -> None:
        ids = sorted(self.p.devices)
        if ids:
            chosen = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
            self.push(lambda: RemoveRows("devices", chosen))

    @rule(data=st.data())
    def delete_rack(self, data) -> None:
        r = self.pick(data, "racks")
        if r:
            self.push(lambda: RemoveRows("racks", [r]))

    @rule(data=st.data(), any_kind=st.booleans())
    def change_model(self, data, any_kind: bool) -> None:
        """The inspector's model list (the role's kinds) — and sometimes any kind, which must be refused."""
        d = self.pick(data, "devices")
        if not d:
            return
        role = self.p.devices[d].role
        kinds = ("server", "switch", "storage") if any_kind else kinds_for_role(role)
        entries = sorted(e.id for k in kinds for e in self.p.catalog.of_kind(k))
        type_id = data.draw(st.sampled_from(entries))
        self.push(lambda: SetFields(self.p, "devices", d, type_id=type_id))

    @rule(data=st.data())
    def change_rack_model(self, data) -> None:
        r = self.pick(data, "racks")
        if r:
            types = sorted(e.id for e in self.p.catalog.of_kind("rack"))
            t = data.draw(st.sampled_from(types))
            self.push(lambda: SetFields(self.p, "racks", r, type_id=t))

    @rule(data=st.data(), mult=st.integers(1, 4))
    def link(self, data, mult: int) -> None:
        ids = sorted(self.p.devices)
        if len(ids) < 2:
            return
        a, b = data.draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2))
        groups = []
        for d in (a, b):
            entry = self.p.catalog.entries[self.p.devices[d].type_id]
            names = [pg.name for pg in getattr(entry, "port_groups", ())]
            if not names:
                return
            groups.append(data.draw(st.sampled_from(names)))
        lk = Link(id=self.p.new_id("links"), a_device=a, a_group=groups[0], b_device=b, b_group=groups[1])
        lk = dataclasses.replace(lk, multiplicity=mult)
        self.push(lambda: AddRows("links", [lk]))

    @rule(data=st.data())
    def unlink(self, data) -> None:
        lk = self.pick(data, "links")
        if lk:
            self.push(lambda: RemoveRows("links", [lk]))

    @rule(data=st.data(), order=st.integers(1, 5))
    def add_phase(self, data, order: int) -> None:
        ph = Phase(id=self.p.new_id("phases"), name=f"phase {order}", order=order)
        self.push(lambda: AddRows("phases", [ph]))

    @rule(data=st.data(), table=st.sampled_from(["devices", "racks", "links"]))
    def set_phase(self, data, table: str) -> None:
        rid = self.pick(data, table)
        phases = [""] + sorted(self.p.tables["phases"]) + ["ph-missing"]
        if rid:
            ph = data.draw(st.sampled_from(phases))
            self.push(lambda: SetFields(self.p, table, rid, phase_id=ph))

    @rule(data=st.data())
    def delete_phase(self, data) -> None:
        ph = self.pick(data, "phases")
        if ph:
            self.push(lambda: RemoveRows("phases", [ph]))

    @rule(guaranteed=st.integers(0, 64), burst=st.integers(0, 64))
    def add_team(self, guaranteed: int, burst: int) -> None:
        t = Team(id=self.p.new_id("teams"), name="team", gpu_guaranteed=guaranteed, gpu_burst=burst)
        self.push(lambda: AddRows("teams", [t]))

    @rule(tp=st.sampled_from([1, 2, 8]))
    def add_workload(self, tp: int) -> None:
        w = Workload(id=self.p.new_id("workloads"), name="job", tp=tp)
        self.push(lambda: AddRows("workloads", [w]))

    @rule(data=st.data(), name=st.sampled_from(RUN_SETTING_TEXT), value=SETTING_VALUES)
    def edit_run_setting(self, data, name: str, value: str) -> None:
        """Any text is kept as the user typed it (the file round-trips it); the run settings either read or
        are refused naming the workload, the field and the value — never another exception."""
        rid = self.pick(data, "workloads")
        if not rid:
            return
        self.push(lambda: SetFields(self.p, "workloads", rid, **{name: value}))
        row = self.p.tables["workloads"][rid]
        try:
            workload_settings(row)
        except PlannerError as exc:
            line = error_line(exc, "en")
            assert row.name in line and exc.field in line and str(exc.value) in line, line

    @rule(data=st.data(), name=st.sampled_from(SERVING_SETTINGS), value=SERVING_VALUES)
    def edit_serving_setting(self, data, name: str, value: str) -> None:
        """serving_stack / prompt_dataset: any text is kept; the serving settings either read or are refused
        naming the workload, the field and the value (a dataset whose mean is not prompt_len: the dataset)."""
        rid = self.pick(data, "workloads")
        if not rid:
            return
        self.push(lambda: SetFields(self.p, "workloads", rid, **{name: value}))
        row = self.p.tables["workloads"][rid]
        assert getattr(row, name) == value
        try:
            workload_serving_settings(row)
        except PlannerError as exc:
            line = error_line(exc, "en")
            assert row.name in line and exc.field in line and str(exc.value) in line, line

    @rule(
        data=st.data(),
        name=st.sampled_from(["chunked_prefill", "gemm_allreduce_fusion"]),
        value=st.one_of(st.booleans(), WILD, st.none(), st.sampled_from(["yes", "true", "0", ""])),
    )
    def edit_serving_flag(self, data, name: str, value) -> None:
        """The yes/no serving settings hold a bool: anything else (1, "yes", None) is refused naming the field."""
        rid = self.pick(data, "workloads")
        if not rid:
            return
        self.push(lambda: SetFields(self.p, "workloads", rid, **{name: value}))
        assert type(getattr(self.p.tables["workloads"][rid], name)) is bool

    @rule(data=st.data(), which=st.sampled_from(NUMBER_FIELDS), value=NUMBERS)
    def edit_number(self, data, which: tuple[str, str], value) -> None:
        table, name = which
        rid = self.pick(data, table)
        if not rid:
            return
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e15 and name != "x":
            value = int(value) if data.draw(st.booleans()) else value
        self.push(lambda: SetFields(self.p, table, rid, **{name: value}))
        # what the model holds is within the field's range
        row = self.p.tables[table][rid]
        held = getattr(row, name)
        if held is not None:
            lo, hi = bounds(table, name, type(held))
            assert lo <= held <= hi and math.isfinite(held)

    @rule(data=st.data(), u=st.integers(1, 60))
    def place(self, data, u: int) -> None:
        d, r = self.pick(data, "devices"), self.pick(data, "racks")
        if d and r:
            self.push(lambda: SetFields(self.p, "devices", d, rack_id=r, u_position=u))

    @precondition(lambda self: bool(self.stack.done))
    @rule()
    def undo(self) -> None:
        global steps_taken
        steps_taken += 1
        self.stack.undo()  # must not raise: every state on the stack validates

    @precondition(lambda self: bool(self.stack.undone))
    @rule()
    def redo(self) -> None:
        global steps_taken
        steps_taken += 1
        self.stack.redo()

    # -- invariants ---------------------------------------------------------------------------------------
    @invariant()
    def validates_and_round_trips(self) -> None:
        if not hasattr(self, "p"):
            return
        validate_project(self.p)
        path = self.tmp / "p.gpuplan"
        save_project(self.p, path)
        again = open_project(path)  # the file loader's own checks: the independent oracle
        assert again.snapshot() == self.p.snapshot()

    def teardown(self) -> None:
        if hasattr(self, "p"):
            while self.stack.undo():
                pass
            assert self.p.snapshot() == self.start
        for f in self.tmp.iterdir():
            f.unlink()
        self.tmp.rmdir()


ProjectMachine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEP_COUNT,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestProjectMachine = ProjectMachine.TestCase


@pytest.mark.skipif(EXAMPLES < 40, reason="a shortened run by choice")
def test_the_run_made_at_least_500_steps():
    """Runs after the machine (same module, file order): the default run is long enough to mean something."""
    print(f"stateful run: {steps_taken} steps")
    assert steps_taken >= STEPS_PER_RUN, steps_taken
