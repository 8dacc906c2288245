"""The yes/no serving settings a deployment states on the inference workload and the design goal, as
`estimate --inference` takes them: chunked_prefill (default True; False = --no-chunked-prefill, vLLM V0 with
enable_chunked_prefill False: whole prompts in their own prefill-only steps) and gemm_allreduce_fusion (default
False; True = --gemm-allreduce-fusion, TensorRT-LLM gemm_allreduce_plugin).

Oracle: the command line. A saved and reopened workload, and the advisor's goal, serve exactly what estimate
prints with the option; not stated, exactly what it prints without it. Saved and reopened identical; older files
read the defaults; a value that is not yes/no is refused naming the field (en + zh) in the project, a goal file,
`gpuplanner set`, and a damaged file opens with a clear message and is left as it was."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from gpuplanner.advisor.evaluate import catalog, serving_capacity, serving_workload_row
from gpuplanner.advisor.evaluate import serving_setup as goal_setup
from gpuplanner.advisor.goal import Goal, goal_from_dict, goal_from_row, goal_row, project_goal
from gpuplanner.cli import main
from gpuplanner.commands import AddRows, SetFields
from gpuplanner.core.errors import ProjectFileError, ValidationError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.perf.serving import ServingSetup
from gpuplanner.engine.workloads import serving_setup as workload_setup
from gpuplanner.model import DesignGoal, Project, Workload
from gpuplanner.reports import i18n
from gpuplanner.reports.sections.serving import settings_stated
from gpuplanner.storage import open_project, save_project
from gpuplanner.text import error_line
from gpuplanner.topology import GenerateOptions, generate_into
from gpuplanner.topology.compose import add_pod

SERVER = "nvidia-dgx-h100"  # 8 GPUs


@dataclasses.dataclass(frozen=True)
class Flag:
    name: str
    default: bool
    option: str  # estimate's option stating the other value
    advise_option: str  # advise's
    json_value: bool  # what estimate's JSON names when stated
    said_en: str  # analyze's settings line
    said_zh: str
    goal_line: str  # advise's goal line


FLAGS = [
    Flag("chunked_prefill", True, "--no-chunked-prefill", "--no-chunked-prefill", False,
         "prefill not chunked (whole prompts in their own steps, the decodes wait)", "不分块预填充",
         "prefill not chunked"),
    Flag("gemm_allreduce_fusion", False, "--gemm-allreduce-fusion", "--gemm-allreduce-fusion", True,
         "each tensor-parallel all-reduce fused into the GEMM before it", "张量并行的每次全归约与其前面的 GEMM 融合执行",
         "tensor-parallel all-reduce fused into the GEMM"),
]  # fmt: skip
BY_NAME = pytest.mark.parametrize("f", FLAGS, ids=[f.name for f in FLAGS])


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(args)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def cluster_file(tmp_path_factory) -> Path:
    p = Project()
    add_pod(p, GenerateOptions(template="single-switch", server=SERVER, servers=1), "serve")
    path = tmp_path_factory.mktemp("flags") / "cluster.gpuplan"
    save_project(p, path)
    return path


def _small(goal: Goal | None = None) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    if goal is not None:
        row = goal_row(goal)
        SetFields(p, "goal", "goal", **{f.name: getattr(row, f.name) for f in dataclasses.fields(row)}).apply(
            p
        )
    return p


def _with_workload(**kw) -> tuple[Project, str]:
    p = _small(Goal(kind="inference", requests_per_s=20))
    w = Workload(id=p.new_id("workloads"), name="serve", kind="inference", model_id="llama3-70b", **kw)
    AddRows("workloads", [w]).apply(p)
    return p, w.id


@BY_NAME
def test_the_defaults_are_the_engines_and_a_stated_value_reaches_the_serving_setup(f):
    assert getattr(Workload(id="w", name="w"), f.name) is f.default
    assert getattr(DesignGoal(), f.name) is f.default and getattr(Goal(), f.name) is f.default
    plain = Goal(kind="inference", requests_per_s=1, precision="fp8", serving_stack="trtllm")
    # not stated: the very setup estimate builds without the option (every field equal)
    assert goal_setup(plain) == dataclasses.replace(
        goal_setup(plain), **{f.name: ServingSetup.__dataclass_fields__[f.name].default}
    )
    assert getattr(goal_setup(plain), f.name) is f.default
    assert getattr(workload_setup(Workload(id="w", name="w", kind="inference")), f.name) is f.default
    stated = plain.with_(**{f.name: not f.default})
    assert getattr(goal_setup(stated), f.name) is (not f.default)
    assert getattr(serving_workload_row(stated, "w"), f.name) is (not f.default)
    row = Workload(id="w", name="w", kind="inference", **{f.name: not f.default})
    assert getattr(workload_setup(row), f.name) is (not f.default)


def _argv(precision="fp8", stack="trtllm", users=0) -> list[str]:
    argv = ["estimate", "--inference", "--model", "llama3-70b", "--server", SERVER, "--gpus", "8", "--precision",
            precision, "--prompt", "1024", "--output", "256", "--ttft", "2.0", "--tpot", "0.05", "--serving",
            "aggregated", "--serving-stack", stack, "--capacity-in", "users", "--json"]  # fmt: skip
    if users:  # the GPUs the load needs
        i = argv.index("--gpus")
        argv[i : i + 2] = ["--users", str(users)]
    return argv


@BY_NAME
def test_the_workload_serves_what_estimate_prints_with_the_option(f, cluster_file, tmp_path):
    """analyze = estimate: with the option (stated on the workload), without it (not stated: the figures of
    today, bit for bit); the entry names the field only when stated and the settings line says it en + zh."""
    from gpuplanner.cli.analyze_out import _serving as serving_lines

    project = open_project(cluster_file)
    common = dict(kind="inference", model_id="llama3-70b", prompt_len=1024, output_len=256, ttft_target_s=2.0,
                  tpot_target_s=0.05, precision="fp8", serving_mode="aggregated", users=300,
                  serving_stack="trtllm")  # fmt: skip
    project.insert("workloads", Workload(id="w1", name="stated", **{f.name: not f.default}, **common))
    project.insert("workloads", Workload(id="w2", name="default", **common))
    path = tmp_path / "flags.gpuplan"
    save_project(project, path)
    entries = {e.id: e.to_json() for e in analyze_project(open_project(path)).workloads}
    d, base = entries["w1"], entries["w2"]
    assert d[f.name] is f.json_value and f.name not in base
    for n_users, got, other in ((0, d["serving"], base["serving"]), (300, d["needed"], base["needed"])):
        rc, out, err = _cli([*_argv(users=n_users), f.option])
        cli = json.loads(out)
        assert cli[f.name] is f.json_value
        assert got == cli["serving"], (n_users, got, cli["serving"])
        rc, out, err = _cli(_argv(users=n_users))
        assert other == json.loads(out)["serving"]  # not stated: exactly estimate without the option
    rate = d["serving"]["max_requests_per_s"]
    assert abs(rate - base["serving"]["max_requests_per_s"]) > 1e-3 * rate  # it matters in this case
    for lang, said in (("en", f.said_en), ("zh", f.said_zh)):
        assert any(said in line for line in serving_lines(d, None, lang)), serving_lines(d, None, lang)
        assert not any(said in line for line in serving_lines(base, None, lang))


@BY_NAME
def test_the_advisors_goal_serves_what_estimate_prints_and_advise_says_it(f):
    cat = catalog()
    goal = Goal(kind="inference", model_id="llama3-70b", precision="fp8", requests_per_s=10, prompt_len=1024,
                output_len=256, ttft_s_max=2.0, tpot_s_max=0.05, serving_stack="trtllm")  # fmt: skip
    stated = goal.with_(**{f.name: not f.default})
    cap = serving_capacity(cat, stated, cat.get(SERVER), 8)
    base = serving_capacity(cat, goal, cat.get(SERVER), 8)
    argv = [a for a in _argv() if a not in ("--capacity-in", "users")]
    cli = json.loads(_cli([*argv, f.option])[1])
    assert cap["requests_per_s"] == cli["serving"]["max_requests_per_s"] and cap[f.name] is f.json_value
    assert base["requests_per_s"] == json.loads(_cli(argv)[1])["serving"]["max_requests_per_s"]
    assert f.name not in base
    advise = ["advise", "--inference", "--precision", "fp8", "--requests-per-s", "5", "--max-servers", "1",
              "--servers", "nvidia-dgx-b200", "--templates", "single-switch", "--oversubs", "1", "--workers", "1"]  # fmt: skip
    rc, out, err = _cli([*advise, f.advise_option])
    assert rc == 0 and f.goal_line in out, (out, err)
    rc, out, err = _cli([*advise, f.advise_option, "--lang", "zh"])
    assert rc == 0


@BY_NAME
def test_a_goal_and_a_workload_save_and_reopen_identical_and_old_files_read_the_default(f, tmp_path):
    goal = Goal(kind="inference", requests_per_s=20, **{f.name: not f.default})
    assert goal_from_row(goal_row(goal)) == goal
    p = _small(goal)
    w = Workload(id=p.new_id("workloads"), name="serve", kind="inference", **{f.name: not f.default})
    AddRows("workloads", [w]).apply(p)
    file = tmp_path / "p.gpuplan"
    save_project(p, file)
    q = open_project(file)
    assert project_goal(q) == goal and q.tables["workloads"][w.id] == w
    with sqlite3.connect(file) as conn:
        assert conn.execute(f"SELECT {f.name} FROM goal").fetchall() == [(int(not f.default),)]
        conn.execute(f'ALTER TABLE "goal" DROP COLUMN "{f.name}"')
        conn.execute(f'ALTER TABLE "workloads" DROP COLUMN "{f.name}"')
    q = open_project(file)
    assert project_goal(q) == goal.with_(**{f.name: f.default})
    assert getattr(q.tables["workloads"][w.id], f.name) is f.default


BAD = [1, 0, 2, "yes", "false", None, 1.5, float("nan")]


@BY_NAME
@pytest.mark.parametrize("value", BAD, ids=repr)
def test_a_value_that_is_not_yes_or_no_is_refused_by_field_in_the_project(f, value):
    p, wid = _with_workload()
    before = p.snapshot()
    for table, rid in (("workloads", wid), ("goal", "goal")):
        with pytest.raises(ValidationError) as err:
            SetFields(p, table, rid, **{f.name: value}).apply(p)
        assert err.value.field == f.name
        assert f.name in error_line(err.value, "en") and "yes or no" in error_line(err.value, "en")
        assert f.name in error_line(err.value, "zh") and "“是”或“否”" in error_line(err.value, "zh")
        assert p.snapshot() == before


@BY_NAME
@pytest.mark.parametrize("value", [1, "yes", "false", None, 2.0], ids=repr)
def test_a_bad_value_in_a_goal_file_is_refused_naming_field_and_value(f, value):
    with pytest.raises(ValidationError) as err:
        goal_from_dict({"kind": "inference", "requests_per_s": 20, f.name: value}, "goal.yaml")
    assert err.value.field == f.name
    for lang in ("en", "zh"):
        line = error_line(err.value, lang)
        assert f.name in line and (repr(value) in line or str(value) in line), line
    assert "true" in error_line(err.value, "en") and "必须为 true 或 false" in error_line(err.value, "zh")


@BY_NAME
@pytest.mark.parametrize("value", [2, "'maybe'", -1])
def test_a_damaged_file_with_a_bad_value_opens_with_a_clear_message_and_loses_nothing(f, value, tmp_path):
    p, wid = _with_workload()
    file = tmp_path / "p.gpuplan"
    save_project(p, file)
    for table in ("workloads", "goal"):
        copy = tmp_path / f"{table}.gpuplan"
        copy.write_bytes(file.read_bytes())
        with sqlite3.connect(copy) as conn:
            conn.execute(f"UPDATE {table} SET {f.name} = {value}")
        before = copy.read_bytes()
        with pytest.raises(ProjectFileError) as err:
            open_project(copy)
        assert table in str(err.value) and f.name in str(err.value), str(err.value)
        assert "yes or no" in str(err.value)
        assert f.name in error_line(err.value, "zh") and "“是”或“否”" in error_line(err.value, "zh")
        assert copy.read_bytes() == before  # nothing written: the file keeps every row


@BY_NAME
def test_gpuplanner_set_takes_yes_or_no_and_refuses_anything_else(f, tmp_path):
    file = tmp_path / "p.gpuplan"
    p, wid = _with_workload()
    save_project(p, file)
    other = "true" if not f.default else "false"
    for key in (f"workload.serve.{f.name}", f"goal.{f.name}"):
        assert _cli(["set", str(file), f"{key}={other}"])[0] == 0
        before = file.read_bytes()
        for bad in ("maybe", "2"):
            rc, out, err = _cli(["set", str(file), f"{key}={bad}"])
            assert rc == 2 and f.name in err and bad in err and "Traceback" not in err, err
            assert file.read_bytes() == before
    q = open_project(file)
    assert getattr(q.tables["workloads"][wid], f.name) is (not f.default)
    assert getattr(project_goal(q), f.name) is (not f.default)


def _ctx(lang: str):
    return SimpleNamespace(lang=lang, t=lambda key, **kw: i18n.tr(key, lang, **kw))


def test_the_reports_serving_section_says_the_settings_a_workload_states():
    entry = {"kind": "inference", "max_seqs": 64, "max_batched_tokens": 2048, "chunked_prefill": False,
             "gemm_allreduce_fusion": True}  # fmt: skip
    assert settings_stated(_ctx("en"), entry) == [
        "at most 64 sequences at once per replica",
        "at most 2,048 tokens per engine step",
        "prefill not chunked (whole prompts in their own steps, the decodes wait)",
        "each tensor-parallel all-reduce fused into the GEMM before it",
    ]
    zh = settings_stated(_ctx("zh"), entry)
    assert (
        "不分块预填充（整段提示词单独成步，解码等待）" in zh
        and "张量并行的每次全归约与其前面的 GEMM 融合执行" in zh
    )
    assert settings_stated(_ctx("en"), {"kind": "inference", "serving_stack": "vllm"}) == []
