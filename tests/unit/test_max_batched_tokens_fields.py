"""max_batched_tokens (the most tokens one engine step carries, decode plus prefill: estimate --max-batched-tokens,
TensorRT-LLM max_num_tokens, vLLM --max-num-batched-tokens; 0 = the engine's default) on the goal and the workload
table: saved and reopened, old files read 0,
bad values refused naming the field and the value (project, goal file, `gpuplanner set`, `advise`), never a crash."""

from __future__ import annotations

import contextlib
import io
import sqlite3
from pathlib import Path

import pytest

from gpuplanner.advisor.evaluate import serving_setup as goal_setup
from gpuplanner.advisor.evaluate import serving_workload_row
from gpuplanner.advisor.goal import Goal, goal_from_dict, goal_from_row, goal_row, project_goal
from gpuplanner.cli import main
from gpuplanner.commands import SetFields
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.workloads import serving_setup as workload_setup
from gpuplanner.model import DesignGoal, Workload
from gpuplanner.storage import open_project, save_project


def _project(goal: Goal):
    import dataclasses

    from gpuplanner.model import Project
    from gpuplanner.topology import GenerateOptions, generate_into

    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    row = goal_row(goal)
    SetFields(p, "goal", "goal", **{f.name: getattr(row, f.name) for f in dataclasses.fields(row)}).apply(p)
    return p


def _with_workload(**kw):
    from gpuplanner.commands import AddRows

    p = _project(Goal(kind="inference", requests_per_s=20))
    w = Workload(id=p.new_id("workloads"), name="serve", kind="inference", model_id="llama3-70b", **kw)
    AddRows("workloads", [w]).apply(p)
    return p, w.id


GOAL = Goal(
    kind="inference", precision="fp8", requests_per_s=20.0, serving_stack="trtllm", max_batched_tokens=8192
)


def test_defaults_are_not_stated():
    assert (
        Goal(kind="inference", requests_per_s=1).max_batched_tokens == 0
        and DesignGoal().max_batched_tokens == 0
    )
    assert Workload(id="w", name="w").max_batched_tokens == 0
    assert (
        goal_setup(Goal(kind="inference", requests_per_s=1)).max_batched_tokens is None
    )  # estimate without --max-batched-tokens
    assert workload_setup(Workload(id="w", name="w", kind="inference")).max_batched_tokens is None
    assert goal_setup(GOAL).max_batched_tokens == 8192
    assert (
        workload_setup(
            Workload(id="w", name="w", kind="inference", max_batched_tokens=512)
        ).max_batched_tokens
        == 512
    )
    assert serving_workload_row(GOAL, "w").max_batched_tokens == 8192


def test_a_goal_saved_and_reopened_is_identical_and_old_files_read_the_default(tmp_path: Path):
    assert goal_from_row(goal_row(GOAL)) == GOAL
    p = _project(GOAL)
    file = tmp_path / "g.gpuplan"
    save_project(p, file)
    assert project_goal(open_project(file)) == GOAL
    with sqlite3.connect(file) as conn:
        assert conn.execute("SELECT max_batched_tokens FROM goal").fetchall() == [(8192,)]
        conn.execute('ALTER TABLE "goal" DROP COLUMN "max_batched_tokens"')
    assert project_goal(open_project(file)) == GOAL.with_(max_batched_tokens=0)


def test_a_workloads_max_batched_tokens_saves_and_reopens_and_old_files_read_the_default(tmp_path: Path):
    p, wid = _with_workload(max_batched_tokens=2048, serving_stack="trtllm")
    file = tmp_path / "w.gpuplan"
    save_project(p, file)
    assert open_project(file).tables["workloads"][wid].max_batched_tokens == 2048
    with sqlite3.connect(file) as conn:
        conn.execute('ALTER TABLE "workloads" DROP COLUMN "max_batched_tokens"')
    w = open_project(file).tables["workloads"][wid]
    assert w.max_batched_tokens == 0 and workload_setup(w).max_batched_tokens is None


@pytest.mark.parametrize("value", [-3, 1.5, "many", float("nan")])
def test_a_bad_value_is_refused_by_field_in_the_project(value):
    p, wid = _with_workload()
    before = p.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(p, "workloads", wid, max_batched_tokens=value).apply(p)
    assert err.value.field == "max_batched_tokens"
    assert p.snapshot() == before
    g = _project(Goal(kind="inference", requests_per_s=20))
    before = g.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(g, "goal", "goal", max_batched_tokens=value).apply(g)
    assert err.value.field == "max_batched_tokens"
    assert g.snapshot() == before


@pytest.mark.parametrize("value", [-3, 1.5, "many", True])
def test_a_bad_value_in_a_goal_file_is_refused_naming_field_and_value(value):
    with pytest.raises(ValidationError) as err:
        goal_from_dict({"kind": "inference", "requests_per_s": 20, "max_batched_tokens": value}, "goal.yaml")
    assert err.value.field == "max_batched_tokens"
    assert repr(value) in str(err.value) or str(value) in str(err.value), str(err.value)


def test_gpuplanner_set_takes_a_workloads_max_batched_tokens_and_refuses_a_bad_one(tmp_path: Path):
    file = tmp_path / "p.gpuplan"
    p, wid = _with_workload()
    save_project(p, file)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["set", str(file), "workload.serve.max_batched_tokens=512"]) == 0
    assert open_project(file).tables["workloads"][wid].max_batched_tokens == 512
    before = file.read_bytes()
    for bad in ("-3", "1.5", "many"):
        errs = io.StringIO()
        with contextlib.redirect_stderr(errs), contextlib.redirect_stdout(io.StringIO()):
            rc = main(["set", str(file), f"workload.serve.max_batched_tokens={bad}"])
        assert rc == 2 and "max_batched_tokens" in errs.getvalue() and bad in errs.getvalue(), errs.getvalue()
        assert "Traceback" not in errs.getvalue()
        assert file.read_bytes() == before


ADVISE = ["advise", "--inference", "--precision", "fp8", "--requests-per-s", "5", "--max-servers", "1", "--servers",
          "nvidia-dgx-b200", "--templates", "single-switch", "--oversubs", "1", "--workers", "1"]  # fmt: skip


def test_advise_states_the_cap_in_the_goal_line_and_refuses_a_bad_one():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*ADVISE, "--max-batched-tokens", "4096"]) == 0
    assert "at most 4,096 tokens per engine step" in out.getvalue()
    for bad in ("-3", "abc"):
        errs = io.StringIO()
        with contextlib.redirect_stderr(errs), contextlib.redirect_stdout(io.StringIO()):
            try:
                rc = main([*ADVISE, "--max-batched-tokens", bad])
            except SystemExit as e:  # argparse refuses a non-integer
                rc = e.code
        assert rc == 2 and "max" in errs.getvalue() and bad in errs.getvalue(), errs.getvalue()
        assert "Traceback" not in errs.getvalue()


def test_gpuplanner_set_takes_the_goals_max_batched_tokens_and_refuses_a_bad_one(tmp_path: Path):
    file = tmp_path / "g.gpuplan"
    save_project(_project(Goal(kind="inference", requests_per_s=20)), file)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["set", str(file), "goal.max_batched_tokens=8192"]) == 0
    assert project_goal(open_project(file)).max_batched_tokens == 8192
    before = file.read_bytes()
    for bad in ("-3", "1.5", "many", "20000000"):
        errs = io.StringIO()
        with contextlib.redirect_stderr(errs), contextlib.redirect_stdout(io.StringIO()):
            rc = main(["set", str(file), f"goal.max_batched_tokens={bad}"])
        assert rc == 2 and "max_batched_tokens" in errs.getvalue(), errs.getvalue()
        assert "Traceback" not in errs.getvalue()
        assert file.read_bytes() == before


def test_not_stated_changes_no_figure_of_the_design_workload():
    """0 (not stated) leaves the serving setup exactly as before the field existed: None, as estimate without
    --max-batched-tokens."""
    g = Goal(kind="inference", precision="fp8", requests_per_s=20.0, serving_stack="trtllm")
    assert goal_setup(g) == goal_setup(g.with_(max_batched_tokens=0))
    assert goal_setup(g).max_batched_tokens is None
