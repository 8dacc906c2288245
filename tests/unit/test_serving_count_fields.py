"""The serving counts a deployment states on the goal and the workload table — max_seqs (the most sequences one
replica runs at once: estimate --max-seqs, vLLM --max-num-seqs, TensorRT-LLM max_batch_size; 0 = the stack's default)
and max_batched_tokens (the most tokens one engine step carries: estimate --max-batched-tokens, TensorRT-LLM
max_num_tokens, vLLM --max-num-batched-tokens; 0 = the engine's default): saved and reopened, old files read 0, bad
values refused naming the field and the value (project, goal file, `gpuplanner set`, `advise`), never a crash."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sqlite3
from pathlib import Path

import pytest

from gpuplanner.advisor.evaluate import serving_setup as goal_setup
from gpuplanner.advisor.evaluate import serving_workload_row
from gpuplanner.advisor.goal import Goal, goal_from_dict, goal_from_row, goal_row, project_goal
from gpuplanner.cli import main
from gpuplanner.commands import AddRows, SetFields
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.workloads import serving_setup as workload_setup
from gpuplanner.model import DesignGoal, Project, Workload
from gpuplanner.storage import open_project, save_project
from gpuplanner.topology import GenerateOptions, generate_into


@dataclasses.dataclass(frozen=True)
class Field:
    name: str  # the goal's and the workload's column, ServingSetup's field
    goal: int  # a value the goal states
    workload: int  # a value a workload states
    option: str  # advise's option
    advised: str  # the value advise is given
    said: str  # what advise's goal line says for it


FIELDS = [
    Field("max_seqs", 256, 96, "--max-seqs", "128", "at most 128 sequences at once per replica"),
    Field(
        "max_batched_tokens",
        8192,
        2048,
        "--max-batched-tokens",
        "4096",
        "at most 4,096 tokens per engine step",
    ),
]
BY_NAME = pytest.mark.parametrize("f", FIELDS, ids=[f.name for f in FIELDS])


def _project(goal: Goal) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    row = goal_row(goal)
    SetFields(p, "goal", "goal", **{f.name: getattr(row, f.name) for f in dataclasses.fields(row)}).apply(p)
    return p


def _with_workload(**kw):
    p = _project(Goal(kind="inference", requests_per_s=20))
    w = Workload(id=p.new_id("workloads"), name="serve", kind="inference", model_id="llama3-70b", **kw)
    AddRows("workloads", [w]).apply(p)
    return p, w.id


def _goal(f: Field) -> Goal:
    return Goal(
        kind="inference", precision="fp8", requests_per_s=20.0, serving_stack="trtllm", **{f.name: f.goal}
    )


@BY_NAME
def test_defaults_are_not_stated(f):
    unstated = Goal(kind="inference", requests_per_s=1)
    assert getattr(unstated, f.name) == 0 and getattr(DesignGoal(), f.name) == 0
    assert getattr(Workload(id="w", name="w"), f.name) == 0
    assert getattr(goal_setup(unstated), f.name) is None  # estimate without the option
    assert getattr(workload_setup(Workload(id="w", name="w", kind="inference")), f.name) is None
    assert getattr(goal_setup(_goal(f)), f.name) == f.goal
    stated = Workload(id="w", name="w", kind="inference", **{f.name: f.workload})
    assert getattr(workload_setup(stated), f.name) == f.workload
    assert getattr(serving_workload_row(_goal(f), "w"), f.name) == f.goal


@BY_NAME
def test_not_stated_changes_no_figure_of_the_serving_setup(f):
    """0 (not stated) leaves the serving setup exactly as before the field existed: None, as estimate without
    the option."""
    g = Goal(kind="inference", precision="fp8", requests_per_s=20.0, serving_stack="trtllm")
    assert goal_setup(g) == goal_setup(g.with_(**{f.name: 0}))


@BY_NAME
def test_a_goal_saved_and_reopened_is_identical_and_old_files_read_the_default(f, tmp_path: Path):
    goal = _goal(f)
    assert goal_from_row(goal_row(goal)) == goal
    file = tmp_path / "g.gpuplan"
    save_project(_project(goal), file)
    assert project_goal(open_project(file)) == goal
    with sqlite3.connect(file) as conn:
        assert conn.execute(f"SELECT {f.name} FROM goal").fetchall() == [(f.goal,)]
        conn.execute(f'ALTER TABLE "goal" DROP COLUMN "{f.name}"')
    assert project_goal(open_project(file)) == goal.with_(**{f.name: 0})


@BY_NAME
def test_a_workloads_value_saves_and_reopens_and_old_files_read_the_default(f, tmp_path: Path):
    p, wid = _with_workload(serving_stack="trtllm", **{f.name: f.workload})
    file = tmp_path / "w.gpuplan"
    save_project(p, file)
    assert getattr(open_project(file).tables["workloads"][wid], f.name) == f.workload
    with sqlite3.connect(file) as conn:
        conn.execute(f'ALTER TABLE "workloads" DROP COLUMN "{f.name}"')
    w = open_project(file).tables["workloads"][wid]
    assert getattr(w, f.name) == 0 and getattr(workload_setup(w), f.name) is None


@BY_NAME
@pytest.mark.parametrize("value", [-3, 1.5, "many", float("nan")])
def test_a_bad_value_is_refused_by_field_in_the_project(f, value):
    p, wid = _with_workload()
    before = p.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(p, "workloads", wid, **{f.name: value}).apply(p)
    assert err.value.field == f.name
    assert p.snapshot() == before
    g = _project(Goal(kind="inference", requests_per_s=20))
    before = g.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(g, "goal", "goal", **{f.name: value}).apply(g)
    assert err.value.field == f.name
    assert g.snapshot() == before


@BY_NAME
@pytest.mark.parametrize("value", [-3, 1.5, "many", True])
def test_a_bad_value_in_a_goal_file_is_refused_naming_field_and_value(f, value):
    with pytest.raises(ValidationError) as err:
        goal_from_dict({"kind": "inference", "requests_per_s": 20, f.name: value}, "goal.yaml")
    assert err.value.field == f.name
    assert repr(value) in str(err.value) or str(value) in str(err.value), str(err.value)


def _set_refuses(
    file: Path, key: str, bads: tuple[str, ...], name: str, value_in_message: bool = True
) -> None:
    before = file.read_bytes()
    for bad in bads:
        errs = io.StringIO()
        with contextlib.redirect_stderr(errs), contextlib.redirect_stdout(io.StringIO()):
            rc = main(["set", str(file), f"{key}={bad}"])
        assert rc == 2 and name in errs.getvalue(), errs.getvalue()
        assert not value_in_message or bad in errs.getvalue(), errs.getvalue()
        assert "Traceback" not in errs.getvalue()
        assert file.read_bytes() == before


@BY_NAME
def test_gpuplanner_set_takes_a_workloads_value_and_refuses_a_bad_one(f, tmp_path: Path):
    file = tmp_path / "p.gpuplan"
    p, wid = _with_workload()
    save_project(p, file)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["set", str(file), f"workload.serve.{f.name}={f.workload}"]) == 0
    assert getattr(open_project(file).tables["workloads"][wid], f.name) == f.workload
    _set_refuses(file, f"workload.serve.{f.name}", ("-3", "1.5", "many"), f.name)


def test_gpuplanner_set_takes_the_goals_max_batched_tokens_and_refuses_a_bad_one(tmp_path: Path):
    file = tmp_path / "g.gpuplan"
    save_project(_project(Goal(kind="inference", requests_per_s=20)), file)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["set", str(file), "goal.max_batched_tokens=8192"]) == 0
    assert project_goal(open_project(file)).max_batched_tokens == 8192
    _set_refuses(
        file, "goal.max_batched_tokens", ("-3", "1.5", "many", "20000000"), "max_batched_tokens", False
    )


ADVISE = ["advise", "--inference", "--precision", "fp8", "--requests-per-s", "5", "--max-servers", "1", "--servers",
          "nvidia-dgx-b200", "--templates", "single-switch", "--oversubs", "1", "--workers", "1"]  # fmt: skip


@BY_NAME
def test_advise_states_the_value_in_the_goal_line_and_refuses_a_bad_one(f):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*ADVISE, f.option, f.advised]) == 0
    assert f.said in out.getvalue()
    for bad in ("-3", "abc"):
        errs = io.StringIO()
        with contextlib.redirect_stderr(errs), contextlib.redirect_stdout(io.StringIO()):
            try:
                rc = main([*ADVISE, f.option, bad])
            except SystemExit as e:  # argparse refuses a non-integer
                rc = e.code
        assert rc == 2 and "max" in errs.getvalue() and bad in errs.getvalue(), errs.getvalue()
        assert "Traceback" not in errs.getvalue()
