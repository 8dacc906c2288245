"""A project's workload states every run setting `gpuplanner estimate` takes (engine/perf/settings.py
SETTINGS), with the same meaning: "" = not stated (the stack's value, then the default).

Oracles: the command line. For random setting combinations the project's workload — saved, opened and
analysed on its drawn cluster — gives what `gpuplanner estimate --fabric PROJECT --json` prints for the same
settings as flags (the flags are read from the command's own parser), and the workload row's configuration
equals the one `engine.perf.request.run` builds from the same request without a fabric. Old project files
without the columns open with "" values; bad values are refused naming the workload, field and value.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gpuplanner.cli import build_parser, main
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.perf.request import run as request_run
from gpuplanner.engine.perf.settings import DEFAULTS, SETTINGS, load_stacks
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.workload_settings import ROW_DEFAULTS, train_config, workload_settings
from gpuplanner.model import Project, Workload
from gpuplanner.storage import open_project, save_project
from gpuplanner.text import error_line
from gpuplanner.topology import GenerateOptions
from gpuplanner.topology.compose import add_pod

# the settings this session gave the workload row (issue #20, item 3)
NEW_FIELDS = (
    "tp_overlap",
    "balanced_pipeline",
    "zero3_regather_on_recompute",
    "zero3_nics_per_node",
    "optimizer",
    "optimizer_state",
    "moe_dispatcher",
    "expert_tp",
    "fp8_params",
    "recompute_norm_act",
    "mla_up_proj_recompute",
    "pipeline_layout",
    "fp8_recipe",
)
MODEL = "llama3-8b"  # 32 layers
GPUS = 32  # 4 DGX B200
LAYOUTS = {2: "Et*16|t*16L", 4: "Et*8|t*8|t*8|t*8L"}  # Megatron-Core layouts of its 32 layers


def test_every_setting_of_estimate_is_a_workload_field():
    names = {f.name for f in dataclasses.fields(Workload)}
    assert set(SETTINGS) <= names, set(SETTINGS) - names
    for name in NEW_FIELDS:  # not stated unless the user states it
        assert getattr(Workload(id="w", name="w"), name) == ""


def _flags() -> dict[str, tuple[str, bool]]:
    """setting → (the estimate command's option, whether it is an on/off switch), from its parser."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    est = sub.choices["estimate"]  # type: ignore[index]
    out = {}
    for a in est._actions:
        if a.dest in SETTINGS and a.option_strings:
            out[a.dest] = (a.option_strings[0], SETTINGS[a.dest] is None)
    return out


FLAGS = _flags()


def test_the_command_line_takes_every_setting():
    assert set(FLAGS) == set(SETTINGS)


def _values(key: str) -> st.SearchStrategy[Any]:
    allowed = SETTINGS[key]
    if allowed is None:
        return st.none() | st.booleans()
    return st.none() | st.sampled_from(list(allowed))


@st.composite
def runs(draw: st.DrawFn) -> dict[str, Any]:
    """A layout and a random set of stated settings (None = not stated), with or without a stack."""
    tp = draw(st.sampled_from([1, 2, 4]))
    pp = draw(st.sampled_from([1, 2, 4]))
    stated = {k: draw(_values(k)) for k in SETTINGS if k != "pipeline_layout"}
    stated["pipeline_layout"] = draw(st.sampled_from([None, LAYOUTS[pp]])) if pp > 1 else None
    stack = draw(st.sampled_from(["", *load_stacks()]))
    return {"tp": tp, "pp": pp, "stack": stack, "stated": stated}


def _row_value(key: str, v: Any) -> Any:
    if key in ROW_DEFAULTS:  # typed fields: not stated = the row's default
        return ROW_DEFAULTS[key] if v is None else v
    if v is None:
        return ""
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


def _cli_stated(run: dict[str, Any]) -> dict[str, Any]:
    """What the command line states for the row: with a stack, a typed field at its default counts as not
    stated (the row cannot tell the two apart; rows.Workload's comment)."""
    out = {}
    for k, v in run["stated"].items():
        row = _row_value(k, v)
        out[k] = (
            None
            if k in ROW_DEFAULTS and run["stack"] and row == ROW_DEFAULTS[k]
            else (row if k in ROW_DEFAULTS else v)
        )
    return out


def _workload(run: dict[str, Any], **kw: Any) -> Workload:
    fields = {k: _row_value(k, v) for k, v in run["stated"].items()}
    return Workload(
        id="w1",
        name=MODEL,
        model_id=MODEL,
        tp=run["tp"],
        pp=run["pp"],
        global_batch=256,
        total_tokens=1e11,
        stack=run["stack"],
        **fields,
        **kw,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs())
def test_the_rows_configuration_and_estimate_are_the_requests(run):
    """Without a fabric: the row's TrainConfig (train_config) equals request.run's for the same settings,
    and so does the estimate on the request's cluster."""
    req = {
        "model": MODEL,
        "gpu": "nvidia-b200",
        "gpus": GPUS,
        "gpus_per_node": 8,
        "tp": run["tp"],
        "pp": run["pp"],
        "global_batch": 256,
        "tokens": 1e11,
        "stack": run["stack"] or None,
        **_cli_stated(run),
    }
    try:
        oracle = request_run(req)
    except PlannerError:
        event("refused")
        with pytest.raises(PlannerError):
            wl = _workload(run)
            cfg = train_config(wl, GPUS)
            estimate(oracle_shape(req), cfg, oracle_cluster(req))
        return
    want_cfg, want = oracle.rows[0]
    cfg = train_config(_workload(run), GPUS)
    assert cfg == want_cfg
    got = estimate(oracle.shape, cfg, oracle.cluster)
    assert got.step_time_s == want.step_time_s and got.memory == want.memory and got.fits == want.fits


def oracle_shape(req):
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.request import shape_of

    return shape_of(req, default_catalog())


def oracle_cluster(req):
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.request import cluster_of

    return cluster_of(req, default_catalog())


@pytest.fixture(scope="module")
def cluster_file(tmp_path_factory) -> Path:
    p = Project()
    add_pod(p, GenerateOptions(template="single-switch", server="nvidia-dgx-b200", servers=4), "train")
    path = tmp_path_factory.mktemp("wl") / "cluster.gpuplan"
    save_project(p, path)
    return path


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(args)
    return rc, out.getvalue(), err.getvalue()


def _cli_args(run: dict[str, Any], path: Path) -> list[str]:
    args = [
        "estimate",
        "--fabric",
        str(path),
        "--model",
        MODEL,
        "--tp",
        str(run["tp"]),
        "--pp",
        str(run["pp"]),
    ]
    args += ["--global-batch", "256", "--tokens", "1e11", "--json"]
    if run["stack"]:
        args += ["--stack", run["stack"]]
    for k, v in _cli_stated(run).items():
        if v is None:
            continue
        flag, switch = FLAGS[k]
        if switch:
            args.append(flag if v else "--no-" + flag[2:])
        else:
            args += [flag, str(v)]
    return args


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(run=runs())
def test_a_saved_projects_workload_predicts_what_estimate_prints(run, cluster_file, tmp_path):
    """The oracle is the command line: `estimate --fabric` with the settings as flags."""
    rc, out, err = _cli(_cli_args(run, cluster_file))
    project = open_project(cluster_file)
    project.insert("workloads", _workload(run))
    path = tmp_path / f"p{abs(hash(json.dumps(run, sort_keys=True)))}.gpuplan"
    save_project(project, path)
    res = analyze_project(open_project(path))
    event("refused" if not out else "fits" if rc == 0 else "does not fit")
    if not out:  # refused (a bad layout for the settings): the project's workload is not evaluated either
        assert rc != 0 and res.workload is None and res.workload_error, (err, run)
        return
    cli = json.loads(out)  # printed also when the run does not fit (exit code 1)
    assert (rc == 0) == cli["fits"], (rc, err)
    assert res.workload is not None, (res.workload_error, run)
    cfg, est = res.workload.config, res.workload.estimate
    assert {k: getattr(cfg, k) for k in SETTINGS} == cli["settings"]
    assert est.step_time_s == pytest.approx(cli["step_time_s"], rel=1e-12)
    assert est.tokens_per_s == pytest.approx(cli["tokens_per_s"], rel=1e-12)
    assert est.memory.get("total_gb") == pytest.approx(cli["memory_per_gpu_gb"], rel=1e-12)
    assert est.fits == cli["fits"]


def test_a_stated_setting_wins_over_the_stack_and_not_stated_takes_it():
    stacks = load_stacks()
    name, st_ = next(
        (k, s)
        for k, s in stacks.items()
        if "fp8_params" in s["settings"] or "optimizer_state" in s["settings"]
    )
    key = "fp8_params" if "fp8_params" in st_["settings"] else "optimizer_state"
    wl = Workload(id="w", name="w", tp=2, pp=2, stack=name)
    assert getattr(train_config(wl, GPUS), key) == st_["settings"][key]
    other = (
        ("off" if st_["settings"][key] else "on")
        if key == "fp8_params"
        else ("fp32" if st_["settings"][key] != "fp32" else "bf16")
    )
    cfg = train_config(dataclasses.replace(wl, **{key: other}), GPUS)
    assert getattr(cfg, key) == (other == "on" if key == "fp8_params" else other)
    plain = train_config(Workload(id="w", name="w", tp=2, pp=2), GPUS)
    assert all(getattr(plain, k) == DEFAULTS[k] for k in NEW_FIELDS)


def test_every_new_field_survives_save_and_open(tmp_path):
    values = {
        "tp_overlap": "off",
        "balanced_pipeline": "on",
        "zero3_regather_on_recompute": "on",
        "zero3_nics_per_node": "4",
        "optimizer": "unfused",
        "optimizer_state": "fp32-bf16-moments",
        "moe_dispatcher": "deepep",
        "expert_tp": "off",
        "fp8_params": "on",
        "recompute_norm_act": "on",
        "mla_up_proj_recompute": "on",
        "pipeline_layout": "Et*16|t*16L",
        "fp8_recipe": "mxfp8",
    }
    assert set(values) == set(NEW_FIELDS)
    p = Project()
    p.insert("workloads", Workload(id="w1", name="job", **values))
    save_project(p, tmp_path / "a.gpuplan")
    back = open_project(tmp_path / "a.gpuplan").tables["workloads"]["w1"]
    assert {k: getattr(back, k) for k in NEW_FIELDS} == values


@pytest.mark.parametrize("n", [1, 40])  # 40: read a column at a time (projectfile.COLUMN_CHECK_MIN_ROWS)
def test_an_older_file_without_the_columns_opens_with_nothing_stated(tmp_path, n):
    p = Project()
    for i in range(1, n + 1):
        p.insert(
            "workloads", Workload(id=f"w{i}", name=f"job{i}", tp=2, optimizer="unfused", fp8_recipe="current")
        )
    path = tmp_path / "old.gpuplan"
    save_project(p, path)
    conn = sqlite3.connect(path)
    with conn:
        for name in NEW_FIELDS:
            conn.execute(f"ALTER TABLE workloads DROP COLUMN [{name}]")
    cols = {r[1] for r in conn.execute("PRAGMA table_info(workloads)")}
    conn.close()
    assert not cols & set(NEW_FIELDS) and "grad_dtype" in cols
    rows = open_project(path).tables["workloads"]
    assert len(rows) == n
    for back in rows.values():
        assert back.tp == 2 and all(getattr(back, k) == "" for k in NEW_FIELDS)


BAD = {
    "stack": "megatron-1999",
    "attention": "sdpa",
    "grad_dtype": "fp8",
    "optimizer": "adamw",
    "optimizer_state": "fp64",
    "moe_dispatcher": "allgather",
    "fp8_recipe": "tensorwise",
    "zero3_nics_per_node": "3",
    "expert_tp": "yes",
    "fp8_params": "true",
    "tp_overlap": "1",
    "balanced_pipeline": "maybe",
    "zero3_regather_on_recompute": "no",
    "recompute_norm_act": "x",
    "mla_up_proj_recompute": "enabled",
}


@pytest.mark.parametrize("field", sorted(BAD))
def test_a_bad_value_is_refused_naming_the_workload_field_and_value(field):
    wl = Workload(id="w", name="pretrain-405b", **{field: BAD[field]})
    with pytest.raises(PlannerError) as exc:
        workload_settings(wl)
    for lang in ("en", "zh"):
        line = error_line(exc.value, lang)
        assert "pretrain-405b" in line and field in line and BAD[field] in line, line


@pytest.mark.parametrize("field", ["optimizer", "expert_tp", "pipeline_layout"])
def test_a_bad_value_in_a_file_opens_and_the_analysis_names_it(tmp_path, cluster_file, field):
    """Opening keeps the project as it is (nothing rewritten); the workload is not evaluated, a finding and
    the workload's error say which field and value; the rest of the analysis runs."""
    value = {"optimizer": "adamw", "expert_tp": "yes", "pipeline_layout": "Et*9|t*3"}[field]
    project = open_project(cluster_file)
    project.insert("workloads", Workload(id="w1", name="job-a", model_id=MODEL, tp=2, pp=2))
    path = tmp_path / "bad.gpuplan"
    save_project(project, path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(f"UPDATE workloads SET [{field}] = ? WHERE id = 'w1'", (value,))
    conn.close()
    before = path.read_bytes()
    opened = open_project(path)
    assert getattr(opened.tables["workloads"]["w1"], field) == value
    res = analyze_project(opened)
    assert res.workload is None and res.power is not None
    from gpuplanner.text import shown

    why = shown(res.workload_error, "en")
    assert value in why and field in why, why
    entry = next(e for e in res.workloads if e.id == "w1")
    assert entry.error and any(f.rule == "workload-not-evaluated" for f in res.findings)
    assert path.read_bytes() == before


def test_an_edit_to_a_bad_value_is_named_and_undo_restores_the_project(cluster_file):
    from gpuplanner.commands import SetFields, UndoStack

    project = open_project(cluster_file)
    project.insert("workloads", Workload(id="w1", name="job-b", model_id=MODEL, tp=2, pp=2))
    good = analyze_project(project)
    assert good.workload is not None
    undo = UndoStack(project)
    undo.push(SetFields(project, "workloads", "w1", text="edit", moe_dispatcher="nccl"))
    from gpuplanner.text import shown

    res = analyze_project(project)
    why = shown(res.workload_error, "en")
    assert res.workload is None and "job-b" in why and "moe_dispatcher" in why and "nccl" in why
    assert undo.undo()
    assert project.tables["workloads"]["w1"].moe_dispatcher == ""
    again = analyze_project(project)
    assert (
        again.workload is not None
        and again.workload.estimate.step_time_s == good.workload.estimate.step_time_s
    )


def test_set_on_the_command_line_takes_the_settings_and_refuses_a_bad_one(cluster_file, tmp_path):
    """`gpuplanner set FILE workload.NAME.FIELD=VALUE`: a good value is saved; a bad one exits 2 naming the
    workload, field and value, and the file is left byte for byte as it was (all the edits or none)."""
    path = tmp_path / "set.gpuplan"
    path.write_bytes(cluster_file.read_bytes())
    rc, _out, err = _cli(["set", str(path), "workload.job.model=llama3-8b", "workload.job.expert_tp=off",
                          "workload.job.zero3_nics_per_node=4", "workload.job.pipeline_layout=Et*16|t*16L"])  # fmt: skip
    assert rc == 0, err
    row = next(iter(open_project(path).tables["workloads"].values()))
    assert (row.expert_tp, row.zero3_nics_per_node, row.pipeline_layout) == ("off", "4", "Et*16|t*16L")
    before = path.read_bytes()
    for bad in (
        "workload.job.optimizer_state=fp64",
        "workload.job.fp8_params=yes",
        "workload.job.stack=nemo",
    ):
        rc, _out, err = _cli(["set", str(path), "workload.job.tp=2", bad])
        field, value = bad.split(".")[2].split("=")
        assert rc == 2 and "job" in err and field in err and value in err, err
        assert path.read_bytes() == before
