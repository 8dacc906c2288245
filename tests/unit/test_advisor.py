"""The design advisor: its pruned search finds the same Pareto front as an exhaustive search of the same
space; every design it writes holds every limit when its file is opened and analysed again; a Dask
LocalCluster (scheduler + worker processes) gives the same front as the local process pool; bad goals are
refused by field name."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.advisor import Goal, advise, goal_from_dict, read_goal
from gpuplanner.advisor.evaluate import limits
from gpuplanner.advisor.pareto import dominates, front
from gpuplanner.core.errors import ValidationError
from tests.analyzed import analyzed_figures

SMALL = Goal(
    model_id="llama3-8b",
    total_tokens=2e11,
    deadline_days=30,
    facility_kw_max=400,
    rack_kw_max=45,
    servers=("nvidia-dgx-h100", "nvidia-dgx-b200", "nvidia-dgx-a100"),
    templates=("rail-leaf-spine", "leaf-spine"),
    max_servers=16,
)


def _keys(res) -> list[tuple]:
    return sorted(tuple(str(v) for k, v in d["candidate"].items() if k != "extra") for d in res.front)


@pytest.fixture(scope="module")
def threads():
    with ThreadPoolExecutor(2) as ex:
        yield ex


@pytest.fixture(scope="module")
def small(threads):
    return advise(SMALL, executor=threads)


def test_pareto_front_against_a_brute_force_definition():
    rng = np.random.default_rng(7)
    pts = rng.integers(0, 6, size=(60, 3)).astype(float)
    got = set(front(pts).tolist())
    slow = {i for i in range(len(pts)) if not any(dominates(pts[j], pts[i]) for j in range(len(pts)))}
    assert got == slow and got


def test_pruned_search_finds_the_exhaustive_front(small, threads):
    full = advise(SMALL, executor=threads, prune=False)
    assert full.evaluated == full.candidates  # nothing skipped: every candidate planned and analysed
    assert small.evaluated < full.evaluated and small.pruned  # the bounds did real work
    assert sum(small.pruned.values()) + small.evaluated == small.candidates
    assert small.front and _keys(small) == _keys(full)


def test_front_designs_are_feasible_and_mutually_non_dominated(small):
    from gpuplanner.advisor.run import objectives

    objs = [objectives(SMALL, d) for d in small.front]
    assert len(small.front) >= 3
    for i, a in enumerate(objs):
        assert all(lim["within"] for lim in small.front[i]["limits"])
        assert not any(dominates(b, a) for j, b in enumerate(objs) if j != i)
    # the trade-off is real: the fastest design is not the cheapest
    assert min(objs, key=lambda o: o[0]) != min(objs, key=lambda o: o[1])


def test_written_designs_reanalysed_from_their_files_hold_every_limit(tmp_path: Path):
    out = tmp_path / "advice"
    cmd = [sys.executable, "-m", "gpuplanner", "advise", "--model", "llama3-8b", "--tokens", "2e11"]
    cmd += ["--deadline-days", "30", "--facility-kw", "400", "--rack-kw", "45", "--max-servers", "16"]
    cmd += [
        "--servers",
        "nvidia-dgx-h100,nvidia-dgx-b200",
        "--templates",
        "rail-leaf-spine",
        "--workers",
        "2",
    ]
    cmd += ["--json", "-o", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary == json.loads((out / "designs.json").read_text(encoding="utf-8")) | {
        "seconds": summary["seconds"]
    }
    assert len(summary["designs"]) >= 2
    for row in summary["designs"]:
        data, figures = analyzed_figures(out / row["file"])
        goal = Goal(**{k: tuple(v) if isinstance(v, list) else v for k, v in summary["goal"].items()})
        for lim in limits(goal, figures):
            assert lim["within"], (row["file"], lim)
        assert figures["facility_kw_max"] == pytest.approx(row["facility_kw_max"])
        assert data["gpus"] == row["gpus"]


def test_a_dask_local_cluster_gives_the_same_front_as_the_process_pool():
    distributed = pytest.importorskip("distributed")
    goal = SMALL.with_(servers=("nvidia-dgx-h100", "nvidia-dgx-b200"), templates=("rail-leaf-spine",))
    pool = advise(goal, workers=2)
    assert pool.workers == "ProcessPoolExecutor"
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as lc,
        distributed.Client(lc) as client,
    ):
        dask = advise(goal, executor=client.get_executor())
    assert dask.workers != "ProcessPoolExecutor"
    assert _keys(dask) == _keys(pool) and pool.front
    assert [d["tco_usd"] for d in dask.front] == [d["tco_usd"] for d in pool.front]


def test_an_inference_goal_returns_a_front_that_serves_the_rate(threads):
    goal = Goal(
        kind="inference",
        model_id="llama3-70b",
        requests_per_s=20,
        prompt_len=2048,
        output_len=256,
        ttft_s_max=1.0,
        tpot_s_max=0.05,
        facility_kw_max=600,
        max_servers=8,
        templates=("leaf-spine",),
        oversubs=(1.0,),
    )
    res = advise(goal, executor=threads)
    assert res.front
    for d in res.front:
        s = d["serving"]
        assert d["requests_per_s_max"] >= 20 and s["ttft_s"] <= 1.0 and s["tpot_s"] <= 0.05


def test_a_domestic_only_goal_keeps_to_its_vendor(threads):
    goal = SMALL.with_(servers=(), vendors=("Huawei",), facility_kw_max=300, deadline_days=120)
    res = advise(goal, executor=threads)
    assert res.front
    assert {d["server"] for d in res.front} == {"huawei-atlas-800t-a2"}
    assert "nvidia-dgx-h100" in res.left_out and "vendor" in res.left_out["nvidia-dgx-h100"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "mining"}, "kind"),
        ({"deadline_days": -1}, "deadline_days"),
        ({"facility_kw_max": float("nan")}, "facility_kw_max"),
        ({"racks_max": 2.5}, "racks_max"),
        ({"speed": 3}, "speed"),
        ({"kind": "inference"}, "requests_per_s"),
        ({"oversubs": [0.5]}, "oversubs"),
    ],
)
def test_bad_goals_are_refused_by_field(data, field):
    with pytest.raises(ValidationError) as err:
        goal_from_dict(data)
    assert field in str(err.value)


def test_bad_goal_file_and_options_exit_2_with_one_line(tmp_path: Path):
    bad = tmp_path / "goal.yaml"
    bad.write_text("model_id: llama3-8b\nfacility_kw_max: lots\n", encoding="utf-8")
    with pytest.raises(ValidationError):
        read_goal(bad)
    for args in (["--goal", str(bad)], ["--deadline-days", "0"], ["--workers", "0"]):
        run = subprocess.run(
            [sys.executable, "-m", "gpuplanner", "advise", *args], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 2 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, (
            run.stderr
        )


def test_a_china_goal_leaves_out_export_restricted_parts(threads):
    """The catalog's export rules (US BIS: H100/H200/B200 restricted for CN; H20 and Huawei parts sold there)."""
    goal = SMALL.with_(servers=(), region="CN", facility_kw_max=300, deadline_days=120, max_servers=8)
    res = advise(goal, executor=threads)
    assert res.front
    assert "export-restricted" in res.left_out["nvidia-dgx-h100"]
    assert "export-restricted" in res.left_out["nvidia-dgx-b200"]
    from gpuplanner.advisor.evaluate import catalog

    cat = catalog()
    for d in res.front:
        ec = cat.export_control_of(d["server"]) or {}
        assert "CN" not in ec.get("restricted_regions", ()), d["server"]


# -- fp4 serving goals ---------------------------------------------------------------------------------
FP4_SERVING = Goal(
    kind="inference",
    model_id="llama3-70b",
    requests_per_s=20,
    precision="fp4",
    facility_kw_max=600,
    max_servers=4,
    servers=("nvidia-dgx-h100", "nvidia-dgx-b200", "amd-instinct-mi355x-platform", "nvidia-dgx-a100"),
    templates=("leaf-spine",),
    oversubs=(1.0,),
)


@pytest.fixture(scope="module")
def fp4_res(threads):
    return advise(FP4_SERVING, executor=threads)


def test_an_fp4_serving_goal_ranks_only_gpus_with_fp4_tensor_cores_and_names_the_others(fp4_res):
    from gpuplanner.advisor.evaluate import catalog
    from gpuplanner.cli.advise_cmd import designs_json

    cat = catalog()
    assert fp4_res.front
    # not one design of a GPU without FP4 tensor cores was scored, not only none on the front
    analysed = {d["candidate"]["server"] for d in fp4_res.designs}
    assert analysed and all(cat.get(cat.get(s).gpu).fp4_dense_tflops for s in analysed), analysed
    assert {d["server"] for d in fp4_res.front} <= {"nvidia-dgx-b200", "amd-instinct-mi355x-platform"}
    for server, gpu in (("nvidia-dgx-h100", "H100"), ("nvidia-dgx-a100", "A100")):
        why = fp4_res.left_out[server]
        assert "no FP4 tensor cores" in why and gpu in why, why
    assert "nvidia-dgx-b200" not in fp4_res.left_out
    assert designs_json(fp4_res)["left_out"]["nvidia-dgx-h100"] == fp4_res.left_out["nvidia-dgx-h100"]
    for d in fp4_res.front:
        assert d["requests_per_s_max"] >= 20 and d["serving"]["tpot_s"] <= FP4_SERVING.tpot_s_max


def test_the_advisor_window_names_the_servers_left_out_in_its_language(fp4_res):
    """The window's summary lists each reason once with its servers, in English or Chinese; the English line
    is the reason designs.json and `advise` print (one message, rendered twice)."""
    from gpuplanner.ui.dialogs.advisor_dialog import left_out_lines

    en, zh = left_out_lines(fp4_res, "en"), left_out_lines(fp4_res, "zh")
    assert len(en) == len(zh) >= 1
    fp4_en = next(line for line in en if "nvidia-dgx-h100" in line)
    fp4_zh = next(line for line in zh if "nvidia-dgx-h100" in line)
    assert "no FP4 tensor cores" in fp4_en and "没有 FP4 张量核心" in fp4_zh and fp4_zh.startswith("未纳入")
    assert fp4_res.left_out["nvidia-dgx-h100"] in fp4_en
    assert not any("server list" in line for line in en)  # what the goal itself chose is not a line
    assert {k: m.render("en") for k, m in fp4_res.left_out_msgs.items()} == fp4_res.left_out


def test_the_same_goal_in_bf16_ranks_the_gpus_without_fp4_too(threads):
    res = advise(FP4_SERVING.with_(precision="bf16", max_servers=2), executor=threads, prune=False)
    assert "nvidia-dgx-h100" not in res.left_out
    assert "nvidia-dgx-h100" in {d["candidate"]["server"] for d in res.designs}


def _cli_estimate(gpu: str, tp: int, precision: str) -> dict:
    run = subprocess.run(
        [
            sys.executable, "-m", "gpuplanner", "estimate", "--inference", "--model", "llama3-70b",
            "--gpu", gpu, "--tp", str(tp), "--precision", precision, "--json",
        ],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize(
    ("server", "gpu", "scale_bytes"),
    [("nvidia-dgx-b200", "nvidia-b200", 1 / 16), ("amd-instinct-mi355x-platform", "amd-mi355x", 1 / 32)],
)
def test_fp4_weights_per_gpu_are_the_engines_as_estimate_prints_them(server, gpu, scale_bytes):
    """Oracle: `gpuplanner estimate --inference --precision fp4 --json` for the same model, GPU and TP
    (NVFP4 0.5 + 1/16 B per weight on B200, MXFP4 0.5 + 1/32 on MI355X: not the 0.5 of a private table)."""
    from gpuplanner.advisor.evaluate import catalog, serving_capacity
    from gpuplanner.advisor.space import model_shape
    from gpuplanner.engine.perf.flops import param_counts

    cat = catalog()
    shape = model_shape(cat, "llama3-70b")
    cap = serving_capacity(cat, FP4_SERVING, cat.get(server), 8, shape)
    assert cap["requests_per_s"] > 0 and cap["tp"] >= 1
    cli = _cli_estimate(gpu, cap["tp"], "fp4")
    assert cap["weights_gb"] == pytest.approx(cli["memory"]["weights_gb"], rel=1e-12)
    # the linear layers at 0.5 + scale bytes, the embedding table and the output head in BF16 (served_weights.py)
    tables = 2 * shape.vocab * shape.hidden
    expect = (param_counts(shape)["total"] - tables) * (0.5 + scale_bytes) + tables * 2.0
    assert cap["weights_gb"] * 1e9 * cap["tp"] == pytest.approx(expect, rel=1e-12)


def test_an_fp4_goal_serves_more_than_fp8_on_the_same_b200s():
    """FP4 halves the weights read per decode step and runs the GEMMs on the FP4 tensor cores: the same
    servers hold a higher request rate (both rates from estimate --inference's serving model: the oracle is
    tests/unit/test_advisor_serving.py)."""
    from gpuplanner.advisor.evaluate import catalog, serving_capacity
    from gpuplanner.advisor.space import model_shape

    cat = catalog()
    shape = model_shape(cat, "llama3-70b")
    srv = cat.get("nvidia-dgx-b200")
    fp4 = serving_capacity(cat, FP4_SERVING, srv, 8, shape)
    fp8 = serving_capacity(cat, FP4_SERVING.with_(precision="fp8"), srv, 8, shape)
    assert fp4["requests_per_s"] > fp8["requests_per_s"] > 0
    cli = _cli_estimate("nvidia-b200", fp8["tp"], "fp8")
    assert fp8["weights_gb"] == pytest.approx(cli["memory"]["weights_gb"], rel=1e-12)


def test_a_training_goal_in_fp4_is_refused_naming_the_precision(tmp_path: Path):
    with pytest.raises(ValidationError) as err:
        Goal(precision="fp4")
    assert err.value.field == "precision" and "serving goals only" in str(err.value)
    with pytest.raises(ValidationError, match="precision"):
        goal_from_dict({"kind": "training", "precision": "fp4"})
    Goal(kind="inference", requests_per_s=5, precision="fp4")  # a serving goal may be in fp4
    goal = tmp_path / "goal.yaml"
    goal.write_text("kind: training\nmodel_id: llama3-8b\nprecision: fp4\n", encoding="utf-8")
    for args in (["--precision", "fp4"], ["--goal", str(goal)]):
        run = subprocess.run(
            [sys.executable, "-m", "gpuplanner", "advise", *args], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
        assert "precision" in run.stderr and "fp4" in run.stderr and "serving" in run.stderr, run.stderr
