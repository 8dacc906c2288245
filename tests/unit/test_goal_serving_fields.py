"""The serving goal's fields beyond the rate and the targets (s10): the serving stack, the percentiles the TTFT and
TPOT targets hold at, the prompt dataset, concurrent users and their think time, and the serving stack's KV-cache
share as deployed (kv_fraction, `estimate --kv-fraction`). A goal stating them is saved in
the project file and reopened identical; a file written before the columns existed opens with the defaults (vllm,
in the mean, every prompt prompt_len long, no users, the stack's own KV-cache share); a bad value is refused naming the field and the value, in the
project (SetFields), the goal file, the advisor's goal and `gpuplanner advise`, and never crashes."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sqlite3
from pathlib import Path

import pytest

from gpuplanner.advisor.goal import (
    SERVING_STACKS,
    Goal,
    goal_from_dict,
    goal_from_row,
    goal_row,
    project_goal,
)
from gpuplanner.cli import main
from gpuplanner.commands import SetFields
from gpuplanner.core.errors import ValidationError
from gpuplanner.model import DesignGoal, Project
from gpuplanner.storage import open_project, save_project
from gpuplanner.topology import GenerateOptions, generate_into

NEW = (
    "serving_stack", "ttft_percentile", "tpot_percentile", "prompt_dataset", "users", "think_time_s", "kv_fraction",
)  # fmt: skip
FULL = Goal(
    kind="inference",
    precision="fp8",
    requests_per_s=20.0,
    prompt_len=222,
    prompt_dataset="mlperf-llama2-70b",
    ttft_s_max=0.08,
    ttft_percentile=99.0,
    tpot_percentile=95.5,
    serving_stack="trtllm",
    serving_mode="disaggregated",
    users=1000.0,
    think_time_s=3.0,
    kv_fraction=0.95,
)


def _project(goal: Goal) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    row = goal_row(goal)
    SetFields(p, "goal", "goal", **{f.name: getattr(row, f.name) for f in dataclasses.fields(row)}).apply(p)
    return p


def test_the_defaults_are_estimates_defaults():
    g = Goal(kind="inference", requests_per_s=1)
    assert [getattr(g, n) for n in NEW] == ["vllm", 0.0, 0.0, "", 0.0, 0.0, 0.0]
    row = DesignGoal()
    assert [getattr(row, n) for n in NEW] == ["vllm", 0.0, 0.0, "", 0.0, 0.0, 0.0]
    from gpuplanner.advisor.evaluate import serving_setup

    assert serving_setup(g).kv_fraction is None  # 0: estimate without --kv-fraction (the stack's default)


def test_the_goals_stacks_are_the_engines():
    from gpuplanner.engine.perf.serving_setup import SERVING_STACKS as ENGINE
    from gpuplanner.model.validate import _CHOICES

    assert SERVING_STACKS == ENGINE == _CHOICES[("goal", "serving_stack")]


@pytest.mark.parametrize(
    "goal",
    [
        FULL,
        FULL.with_(users=0.0, think_time_s=0.0, serving_stack="vllm", kv_fraction=1.0),
        Goal(kind="inference", users=64.0, think_time_s=10.0),  # users alone, no rate
        Goal(kind="inference", requests_per_s=5.0, tpot_percentile=99.0, kv_fraction=0.05),
        Goal(kind="inference", requests_per_s=5.0, prompt_len=9429, prompt_dataset="mlperf-llama3.1-405b"),
        Goal(kind="training", serving_stack="trtllm", prompt_dataset="mlperf-mixtral-8x7b"),  # kept, unused
    ],
    ids=["all", "dataset-percentiles", "users-only", "tpot-p99", "405b-prompts", "training"],
)
def test_a_goal_saved_and_reopened_is_identical(tmp_path: Path, goal: Goal):
    assert goal_from_row(goal_row(goal)) == goal
    p = _project(goal)
    file = tmp_path / "g.gpuplan"
    save_project(p, file)
    again = open_project(file)
    assert again.goal == p.goal
    assert project_goal(again) == goal
    save_project(again, tmp_path / "again.gpuplan")  # and once more: the second save holds the same row
    assert open_project(tmp_path / "again.gpuplan").goal == p.goal
    with sqlite3.connect(file) as conn:
        got = conn.execute(f"SELECT {', '.join(NEW)} FROM goal").fetchall()
    assert got == [tuple(getattr(goal, n) for n in NEW)]


def test_a_file_written_before_the_columns_opens_with_the_defaults(tmp_path: Path):
    p = _project(FULL)
    file = tmp_path / "old.gpuplan"
    save_project(p, file)
    with sqlite3.connect(file) as conn:
        for name in NEW:
            conn.execute(f'ALTER TABLE "goal" DROP COLUMN "{name}"')
    goal = project_goal(open_project(file))
    assert goal == FULL.with_(
        serving_stack="vllm", ttft_percentile=0.0, tpot_percentile=0.0, prompt_dataset="", users=0.0,
        think_time_s=0.0, kv_fraction=0.0,
    )  # fmt: skip
    # a users-only goal written by this version, opened by a reader of the old columns' defaults, would have no
    # rate; the other way round the old file is a rate goal and stays one
    assert goal.requests_per_s == 20.0


@pytest.mark.parametrize(
    ("fields", "name", "value"),
    [
        ({"serving_stack": "sglang"}, "serving_stack", "sglang"),
        ({"serving_stack": ""}, "serving_stack", ""),
        ({"ttft_percentile": 100.0}, "ttft_percentile", 100.0),
        ({"tpot_percentile": 250.0}, "tpot_percentile", 250.0),
        ({"ttft_percentile": -1.0}, "ttft_percentile", -1.0),
        ({"users": -3.0}, "users", -3.0),
        ({"think_time_s": -1.0}, "think_time_s", -1.0),
        ({"users": "many"}, "users", "many"),
        ({"requests_per_s": 0.0, "users": 0.0}, "requests_per_s", 0.0),
        ({"kv_fraction": 1.5}, "kv_fraction", 1.5),
        ({"kv_fraction": -0.1}, "kv_fraction", -0.1),
        ({"kv_fraction": "all"}, "kv_fraction", "all"),
    ],
)
def test_a_bad_value_in_the_project_is_refused_by_field(fields, name, value):
    p = _project(Goal(kind="inference", requests_per_s=20))
    before = p.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(p, "goal", "goal", **fields).apply(p)
    assert err.value.field == name, err.value
    assert p.snapshot() == before
    assert err.value.value == value


@pytest.mark.parametrize(
    ("fields", "name", "words"),
    [
        ({"serving_stack": "sglang"}, "serving_stack", ["'sglang'", "vllm, trtllm"]),
        ({"prompt_dataset": "sharegpt"}, "prompt_dataset", ["'sharegpt'", "mlperf-llama2-70b"]),
        ({"prompt_dataset": "mlperf-llama2-70b"}, "prompt_dataset", ["'mlperf-llama2-70b'", "222.3", "2048"]),
        ({"prompt_dataset": 42}, "prompt_dataset", ["42"]),
        ({"ttft_percentile": 100}, "ttft_percentile", ["100", "below 100"]),
        ({"tpot_percentile": "p99"}, "tpot_percentile", ["'p99'"]),
        ({"users": float("nan")}, "users", ["nan"]),
        ({"think_time_s": float("inf")}, "think_time_s", ["inf"]),
        ({"kv_fraction": 1.01}, "kv_fraction", ["1.01", "at most 1"]),
        ({"kv_fraction": -0.5}, "kv_fraction", ["-0.5"]),
        ({"kv_fraction": float("nan")}, "kv_fraction", ["nan"]),
        ({"kv_fraction": "0.9x"}, "kv_fraction", ["0.9x"]),
    ],
)
def test_a_bad_value_in_a_goal_file_is_refused_naming_field_and_value(fields, name, words):
    data = {"kind": "inference", "requests_per_s": 20, **fields}
    with pytest.raises(ValidationError) as err:
        goal_from_dict(data, "goal.yaml")
    assert err.value.field == name
    msg = str(err.value) + " " + str(err.value.hint or "")
    for w in words:
        assert w in msg, (w, msg)


def test_a_project_holding_an_unknown_dataset_opens_and_advise_says_why(tmp_path: Path):
    """The model does not know the datasets (they are the engine's catalog): a file whose goal names one that
    does not exist opens, and the advisor refuses it with the field and value instead of crashing."""
    p = _project(FULL)
    file = tmp_path / "bad.gpuplan"
    save_project(p, file)
    with sqlite3.connect(file) as conn:
        conn.execute("UPDATE goal SET prompt_dataset = 'no-such-set'")
    opened = open_project(file)
    assert opened.goal.prompt_dataset == "no-such-set"
    with pytest.raises(ValidationError) as err:
        project_goal(opened)
    assert err.value.field == "prompt_dataset" and "no-such-set" in str(err.value)
    out, errs = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(errs):
        rc = main(["advise", str(file), "--workers", "1"])
    assert rc == 2
    assert "prompt_dataset" in errs.getvalue() and "no-such-set" in errs.getvalue()
    assert "Traceback" not in errs.getvalue()


def test_advise_options_set_the_new_fields(tmp_path: Path):
    """`advise --serving-stack/--ttft-percentile/--tpot-percentile/--prompt-dataset/--users/--think-time` set the
    goal's fields; --save-goal keeps them in the project."""
    p = _project(Goal(kind="inference", requests_per_s=20))
    file = tmp_path / "p.gpuplan"
    save_project(p, file)
    argv = [
        "advise", str(file), "--save-goal", "--serving-stack", "trtllm", "--ttft-percentile", "99",
        "--tpot-percentile", "95.5", "--prompt-len", "222", "--prompt-dataset", "mlperf-llama2-70b",
        "--users", "1000", "--think-time", "3", "--precision", "fp8", "--ttft", "0.08", "--serving", "disaggregated",
        "--max-servers", "1", "--servers", "nvidia-dgx-b200", "--templates", "single-switch", "--oversubs", "1",
        "--workers", "1", "--json", "--kv-fraction", "0.95",
    ]  # fmt: skip
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(argv)
    assert rc == 0, out.getvalue()
    assert project_goal(open_project(file)) == FULL.with_(
        max_servers=1, servers=("nvidia-dgx-b200",), templates=("single-switch",), oversubs=(1.0,)
    )


@pytest.mark.parametrize(
    ("keys", "words"),
    [
        (["goal.prompt_dataset=nope"], ["prompt_dataset", "nope"]),
        (["goal.prompt_dataset=mlperf-llama2-70b"], ["prompt_dataset", "mlperf-llama2-70b", "222"]),
        (["goal.serving_stack=sglang"], ["serving_stack"]),
        (["goal.ttft_percentile=100"], ["ttft_percentile", "100"]),
        (["goal.users=-1"], ["users"]),
        (["goal.kv_fraction=1.5"], ["kv_fraction", "1.5"]),
        (["goal.kv_fraction=-1"], ["kv_fraction", "-1"]),
        (["goal.kv_fraction=most"], ["kv_fraction", "most"]),
    ],
)
def test_gpuplanner_set_refuses_a_bad_serving_field_and_writes_nothing(tmp_path: Path, keys, words):
    file = tmp_path / "p.gpuplan"
    save_project(_project(Goal(kind="inference", requests_per_s=20)), file)
    before = file.read_bytes()
    errs = io.StringIO()
    with contextlib.redirect_stderr(errs), contextlib.redirect_stdout(io.StringIO()):
        rc = main(["set", str(file), *keys])
    assert rc == 2
    for w in words:
        assert w in errs.getvalue(), (w, errs.getvalue())
    assert "Traceback" not in errs.getvalue()
    assert file.read_bytes() == before


def test_gpuplanner_set_takes_the_serving_fields_together(tmp_path: Path):
    """A dataset and the prompt length that is its mean, set in one run whichever comes first."""
    file = tmp_path / "p.gpuplan"
    save_project(_project(Goal(kind="inference", requests_per_s=20)), file)
    keys = [
        "goal.prompt_dataset=mlperf-llama2-70b", "goal.prompt_len=222", "goal.ttft_percentile=99",
        "goal.tpot_percentile=95.5", "goal.serving_stack=trtllm", "goal.users=1000", "goal.think_time_s=3",
        "goal.kv_fraction=0.95",
    ]  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["set", str(file), *keys]) == 0
    assert project_goal(open_project(file)) == Goal(
        kind="inference", requests_per_s=20, prompt_dataset="mlperf-llama2-70b", prompt_len=222,
        ttft_percentile=99.0, tpot_percentile=95.5, serving_stack="trtllm", users=1000.0, think_time_s=3.0,
        kv_fraction=0.95,
    )  # fmt: skip


# -- a serving workload's target percentiles (the design files of a percentile goal carry them) ---------------
def _with_workload(**kw):
    from gpuplanner.commands import AddRows
    from gpuplanner.model import Workload

    p = _project(Goal(kind="inference", requests_per_s=20))
    w = Workload(id=p.new_id("workloads"), name="serve", kind="inference", model_id="llama3-70b", **kw)
    AddRows("workloads", [w]).apply(p)
    return p, w.id


def test_a_workloads_percentiles_save_and_reopen_and_old_files_read_the_mean(tmp_path: Path):
    p, wid = _with_workload(ttft_percentile=99.0, tpot_percentile=95.5, ttft_target_s=0.5, tpot_target_s=0.05)
    file = tmp_path / "w.gpuplan"
    save_project(p, file)
    w = open_project(file).tables["workloads"][wid]
    assert (w.ttft_percentile, w.tpot_percentile) == (99.0, 95.5)
    with sqlite3.connect(file) as conn:
        for name in ("ttft_percentile", "tpot_percentile"):
            conn.execute(f'ALTER TABLE "workloads" DROP COLUMN "{name}"')
    w = open_project(file).tables["workloads"][wid]
    assert (w.ttft_percentile, w.tpot_percentile) == (0.0, 0.0)


@pytest.mark.parametrize(("name", "value"), [("ttft_percentile", 100.0), ("tpot_percentile", -1.0)])
def test_a_bad_workload_percentile_is_refused_by_field(name, value):
    p, wid = _with_workload()
    before = p.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(p, "workloads", wid, **{name: value}).apply(p)
    assert err.value.field == name and err.value.value == value
    assert p.snapshot() == before


def test_a_workloads_percentiles_size_it_as_estimate_does():
    """The workload's serving setup states the percentiles as estimate --ttft-percentile/--tpot-percentile."""
    from gpuplanner.engine.workloads import serving_setup
    from gpuplanner.model import Workload

    w = Workload(id="w", name="w", kind="inference", ttft_percentile=99.0, ttft_target_s=0.5)
    s = serving_setup(w)
    assert (s.ttft_percentile, s.tpot_percentile) == (99.0, None)
    assert serving_setup(Workload(id="w", name="w", kind="inference")).ttft_percentile is None


def test_advise_prints_a_users_goal_and_the_users_each_design_serves():
    argv = [
        "advise", "--inference", "--precision", "fp8", "--users", "1000", "--think-time", "3", "--max-servers", "2",
        "--servers", "nvidia-dgx-b200", "--templates", "leaf-spine", "--oversubs", "1", "--workers", "1",
    ]  # fmt: skip
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    text = out.getvalue()
    assert (
        "Goal: serve llama3-70b for 1000 concurrent users, 3 s think time (TTFT ≤ 1 s, TPOT ≤ 50 ms" in text
    )
    header = next(line for line in text.splitlines() if line.startswith("#  servers"))
    assert header.split()[:8] == ["#", "servers", "GPUs", "fabric", "cooling", "req/s", "users", "facility"]


# -- a serving workload's KV-cache share (kv_fraction: estimate --kv-fraction; 0 = the stack's default) ---------
def test_a_workloads_kv_fraction_saves_and_reopens_and_old_files_read_the_stacks_default(tmp_path: Path):
    p, wid = _with_workload(kv_fraction=0.95, serving_stack="trtllm")
    file = tmp_path / "w.gpuplan"
    save_project(p, file)
    assert open_project(file).tables["workloads"][wid].kv_fraction == 0.95
    save_project(open_project(file), tmp_path / "again.gpuplan")
    assert open_project(tmp_path / "again.gpuplan").tables["workloads"][wid] == p.tables["workloads"][wid]
    with sqlite3.connect(file) as conn:
        conn.execute('ALTER TABLE "workloads" DROP COLUMN "kv_fraction"')
    w = open_project(file).tables["workloads"][wid]
    assert w.kv_fraction == 0.0 and w.serving_stack == "trtllm"
    from gpuplanner.engine.workloads import serving_setup

    assert serving_setup(w).kv_fraction is None  # sized by the stack's own rule, as before the column


@pytest.mark.parametrize("value", [1.5, -0.1, float("nan"), float("inf"), "most"])
def test_a_bad_workload_kv_fraction_is_refused_by_field(value):
    p, wid = _with_workload()
    before = p.snapshot()
    with pytest.raises(ValidationError) as err:
        SetFields(p, "workloads", wid, kv_fraction=value).apply(p)
    assert err.value.field == "kv_fraction"
    assert err.value.value == value or (value != value and err.value.value != err.value.value)
    assert p.snapshot() == before


def test_a_workloads_kv_fraction_sizes_it_as_estimate_does():
    from gpuplanner.engine.workloads import serving_setup
    from gpuplanner.model import Workload

    assert serving_setup(Workload(id="w", name="w", kind="inference", kv_fraction=0.7)).kv_fraction == 0.7
    assert serving_setup(Workload(id="w", name="w", kind="inference")).kv_fraction is None


def test_the_design_workload_of_a_goal_carries_its_kv_fraction():
    from gpuplanner.advisor.evaluate import serving_workload_row

    assert serving_workload_row(FULL, "w").kv_fraction == 0.95
    assert serving_workload_row(FULL.with_(kv_fraction=0.0), "w").kv_fraction == 0.0


def test_gpuplanner_set_takes_a_workloads_kv_fraction_and_refuses_a_bad_one(tmp_path: Path):
    file = tmp_path / "p.gpuplan"
    p, wid = _with_workload()
    save_project(p, file)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["set", str(file), "workload.serve.kv_fraction=0.9"]) == 0
    assert open_project(file).tables["workloads"][wid].kv_fraction == 0.9
    before = file.read_bytes()
    for bad in ("1.2", "-0.5", "half"):
        errs = io.StringIO()
        with contextlib.redirect_stderr(errs), contextlib.redirect_stdout(io.StringIO()):
            rc = main(["set", str(file), f"workload.serve.kv_fraction={bad}"])
        assert rc == 2 and "kv_fraction" in errs.getvalue() and bad in errs.getvalue(), errs.getvalue()
        assert "Traceback" not in errs.getvalue()
        assert file.read_bytes() == before


def test_advise_prints_a_stated_kv_fraction_in_the_goal_line():
    argv = [
        "advise", "--inference", "--precision", "fp8", "--requests-per-s", "5", "--kv-fraction", "0.8",
        "--max-servers", "1", "--servers", "nvidia-dgx-b200", "--templates", "single-switch", "--oversubs", "1",
        "--workers", "1",
    ]  # fmt: skip
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    assert "aggregated serving, KV-cache share 0.8)" in out.getvalue()
