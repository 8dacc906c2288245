"""The design goal as data in the project: one `goal` row saved in the project file and reopened identical,
edited through undoable commands (undo restores exactly), refused by field name when a value is bad, and the
same goal the advisor searches (row ↔ advisor goal round trip); an older file (format 2) opens with no goal."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.advisor.goal import Goal, goal_from_row, goal_row, project_goal
from gpuplanner.commands import SetFields, UndoStack
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.runner import dirty_stages
from gpuplanner.model import DesignGoal, Project
from gpuplanner.model.goal import GOAL_COOLING, GOAL_TEMPLATES
from gpuplanner.storage import FORMAT_VERSION, open_project, save_project
from gpuplanner.topology import GenerateOptions, generate_into

ROOT = Path(__file__).resolve().parents[2]
ISSUE_GOAL = Goal(
    model_id="llama3-70b", total_tokens=15e12, deadline_days=60, facility_kw_max=3000, rack_kw_max=45
)


def _small() -> Project:
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    return p


def _set_goal(p: Project, goal: Goal) -> None:
    row = goal_row(goal)
    SetFields(p, "goal", "goal", **{f.name: getattr(row, f.name) for f in dataclasses.fields(row)}).apply(p)


def test_a_new_project_has_no_goal():
    p = Project()
    assert p.goal.kind == "" and project_goal(p) is None
    with pytest.raises(ValidationError, match="no goal"):
        goal_from_row(p.goal)


def test_the_goal_saves_and_reopens_identical(tmp_path: Path):
    p = _small()
    goal = ISSUE_GOAL.with_(vendors=("Huawei", "NVIDIA"), oversubs=(1.0, 1.5), racks_max=40, region="CN")
    _set_goal(p, goal)
    file = tmp_path / "g.gpuplan"
    save_project(p, file)
    again = open_project(file)
    assert again.goal == p.goal
    assert project_goal(again) == goal
    with sqlite3.connect(file) as conn:  # stored as a table of the file, with unit-named columns
        row = conn.execute("SELECT kind, facility_kw_max, oversubs, vendors FROM goal").fetchall()
    assert row == [("training", 3000.0, "1,1.5", "Huawei,NVIDIA")]


_names = st.from_regex(r"[A-Za-z][A-Za-z0-9 .-]{0,11}", fullmatch=True).map(str.strip)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(["training", "inference"]),
    tokens=st.floats(1e9, 1e15),
    deadline=st.floats(0.5, 3650),
    facility=st.one_of(st.none(), st.floats(1, 1e6)),
    racks=st.one_of(st.none(), st.integers(1, 10_000)),
    vendors=st.lists(_names, max_size=4).map(tuple),
    cooling=st.lists(st.sampled_from(GOAL_COOLING), max_size=3, unique=True).map(tuple),
    templates=st.lists(st.sampled_from(GOAL_TEMPLATES), min_size=1, max_size=3, unique=True).map(tuple),
    oversubs=st.lists(st.sampled_from([1.0, 1.5, 2.0, 3.0, 4.0, 8.0]), min_size=1, max_size=3).map(tuple),
    objective=st.sampled_from(["tco", "capex"]),
    precision=st.sampled_from(["bf16", "fp16", "fp8", "fp4"]),
)
def test_any_goal_round_trips_through_the_file(
    tmp_path_factory,
    kind,
    tokens,
    deadline,
    facility,
    racks,
    vendors,
    cooling,
    templates,
    oversubs,
    objective,
    precision,
):
    goal = Goal(
        kind=kind,
        precision="bf16" if precision == "fp4" and kind == "training" else precision,  # fp4: serving only
        total_tokens=tokens,
        deadline_days=deadline,
        requests_per_s=50.0 if kind == "inference" else 0.0,
        facility_kw_max=facility,
        racks_max=racks,
        vendors=vendors,
        cooling=cooling,
        templates=templates,
        oversubs=oversubs,
        objective=objective,
    )
    p = Project()
    _set_goal(p, goal)
    file = tmp_path_factory.mktemp("rt") / "g.gpuplan"
    save_project(p, file)
    assert project_goal(open_project(file)) == goal


def test_a_goal_edit_is_one_undo_step_that_restores_exactly():
    p = _small()
    stack = UndoStack(p)
    _set_goal(p, ISSUE_GOAL)
    before = p.snapshot()
    seen = []
    p.changed.connect(seen.append)
    stack.push(SetFields(p, "goal", "goal", deadline_days=30.0, vendors="Huawei", racks_max=12))
    assert p.goal.deadline_days == 30.0 and p.goal.racks_max == 12
    assert seen and set(seen[-1].tables) == {"goal"}
    assert dirty_stages(seen[-1]) == frozenset()  # no engine stage reads the goal
    assert stack.undo()
    assert p.snapshot() == before
    assert stack.redo() and p.goal.vendors == "Huawei"


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"kind": "mining"}, "kind"),
        ({"deadline_days": float("nan")}, "deadline_days"),
        ({"deadline_days": -5.0}, "deadline_days"),
        ({"facility_kw_max": -1.0}, "facility_kw_max"),
        ({"max_servers": 10**9}, "max_servers"),
        ({"oversubs": "1,0.5"}, "oversubs"),
        ({"oversubs": ""}, "oversubs"),
        ({"templates": "torus"}, "templates"),
        ({"cooling": "water"}, "cooling"),
        ({"servers": "dgx;rm -rf"}, "servers"),
        ({"region": "China"}, "region"),
        ({"precision": "int4"}, "precision"),
        ({"kind": "training", "precision": "fp4"}, "precision"),  # fp4: serving goals only
        ({"kind": "inference", "requests_per_s": 0.0}, "requests_per_s"),
        ({"kind": "training", "model_id": "acme-9000b"}, "model_id"),
        ({"total_tokens": "lots"}, "total_tokens"),
        ({"kind": "inference", "requests_per_s": 20.0, "serving_mode": "split"}, "serving_mode"),
    ],
)
def test_a_bad_goal_edit_is_refused_by_field_and_changes_nothing(fields, name):
    p = _small()
    before = p.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(p, "goal", "goal", **fields).apply(p)
    assert err.value.field == name, err.value
    assert p.snapshot() == before


def test_row_and_advisor_goal_are_the_same_goal():
    assert goal_from_row(DesignGoal(kind="training")) == Goal()  # the row's defaults are the advisor's
    for goal in (
        ISSUE_GOAL,
        Goal(kind="inference", requests_per_s=20, ttft_s_max=0.2, capex_usd_max=5e7),
        Goal(kind="inference", requests_per_s=20, serving_mode="disaggregated"),
        Goal(kind="inference", requests_per_s=20, serving_mode="best"),
    ):
        assert goal_from_row(goal_row(goal)) == goal
    assert goal_row(ISSUE_GOAL).rack_kw_max == 45.0 and goal_row(Goal()).rack_kw_max == 0.0  # 0 = no limit


def test_the_goal_vocabularies_match_the_generators_and_the_catalog_schema():
    from gpuplanner.topology.options import TEMPLATES

    assert set(GOAL_TEMPLATES) == set(TEMPLATES)
    schema = json.loads((ROOT / "catalogs" / "schema" / "cooling.json").read_text(encoding="utf-8"))

    def find(node):
        if isinstance(node, dict):
            if "method" in node.get("properties", {}):
                return node["properties"]["method"]["enum"]
            for v in node.values():
                got = find(v)
                if got:
                    return got
        return None

    assert set(GOAL_COOLING) == set(find(schema))


def test_a_format_2_file_opens_without_a_goal_and_saves_as_the_current_format(tmp_path: Path):
    old = tmp_path / "old.gpuplan"
    shutil.copyfile(ROOT / "examples" / "cluster-256-h100.gpuplan", old)
    with sqlite3.connect(old) as conn:
        conn.execute("DROP TABLE IF EXISTS goal")
        conn.execute("PRAGMA user_version=2")
    p = open_project(old)
    assert p.goal == DesignGoal()
    _set_goal(p, ISSUE_GOAL)
    save_project(p, old)
    with sqlite3.connect(old) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION == 4
    assert project_goal(open_project(old)) == ISSUE_GOAL


def test_a_file_whose_goal_lacks_the_serving_mode_opens_aggregated(tmp_path: Path):
    """The serving mode column was appended (s9): a file written before it reads the default, aggregated —
    how the advisor sized every serving goal until then."""
    p = _small()
    _set_goal(p, Goal(kind="inference", requests_per_s=20, serving_mode="disaggregated"))
    file = tmp_path / "old.gpuplan"
    save_project(p, file)
    with sqlite3.connect(file) as conn:
        conn.execute('ALTER TABLE "goal" DROP COLUMN "serving_mode"')
    goal = project_goal(open_project(file))
    assert goal == Goal(kind="inference", requests_per_s=20) and goal.serving_mode == "aggregated"
