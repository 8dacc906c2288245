"""The advisor sizes a serving goal with the serving model of `gpuplanner estimate --inference`: for a candidate's
server type and GPU count, the advisor's requests/s (bound stage, full stage, and the design it reports) is the
`serving.max_requests_per_s` that `estimate --inference --server S --gpus N --model M --precision P --prompt L
--output O --ttft T --tpot P --serving aggregated --json` prints (oracle: the CLI's own JSON, through its main())."""

from __future__ import annotations

import contextlib
import io
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from gpuplanner.advisor import Goal, advise
from gpuplanner.advisor.evaluate import catalog, serving_capacity
from gpuplanner.cli import main


def _estimate(goal: Goal, server: str, gpus: int) -> dict:
    argv = [
        "estimate", "--inference", "--model", goal.model_id, "--server", server, "--gpus", str(gpus),
        "--precision", goal.precision, "--prompt", str(goal.prompt_len), "--output", str(goal.output_len),
        "--ttft", repr(goal.ttft_s_max), "--tpot", repr(goal.tpot_s_max), "--serving", goal.serving_mode, "--json",
    ]  # fmt: skip
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(argv)
    assert rc == 0, out.getvalue()
    return json.loads(out.getvalue())["serving"]


def _goal(model: str, precision: str, **kw) -> Goal:
    return Goal(kind="inference", model_id=model, requests_per_s=10, precision=precision, **kw)


CASES = [
    # dense 70B in each precision on H100 and B200 servers, several server counts
    (_goal("llama3-70b", "bf16"), "nvidia-dgx-h100", 8),
    (_goal("llama3-70b", "bf16"), "nvidia-dgx-h100", 32),
    (_goal("llama3-70b", "bf16"), "nvidia-dgx-b200", 16),
    (_goal("llama3-70b", "fp8"), "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "fp8"), "nvidia-dgx-b200", 8),
    (_goal("llama3-70b", "fp4"), "nvidia-dgx-b200", 8),
    (_goal("llama3-70b", "fp4"), "nvidia-dgx-b200", 64),
    # other lengths and targets than the defaults: every goal field reaches the serving model
    (
        _goal("llama3-70b", "fp8", prompt_len=1024, output_len=512, ttft_s_max=0.5, tpot_s_max=0.03),
        "nvidia-dgx-h100",
        16,
    ),
    # the goal's serving mode: disaggregated, or the better of the two (estimate --serving MODE)
    (_goal("llama3-70b", "fp8", serving_mode="disaggregated"), "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "bf16", serving_mode="best"), "nvidia-dgx-b200", 32),
    # MoE
    (_goal("mixtral-8x7b", "fp8"), "nvidia-dgx-h100", 8),
    (_goal("qwen3-30b-a3b", "bf16"), "nvidia-dgx-b200", 16),
]


@pytest.mark.parametrize(("goal", "server", "gpus"), CASES, ids=lambda x: getattr(x, "model_id", str(x)))
def test_the_advisors_rate_is_what_estimate_inference_prints(goal: Goal, server: str, gpus: int):
    cat = catalog()
    cap = serving_capacity(cat, goal, cat.get(server), gpus)
    cli = _estimate(goal, server, gpus)
    assert cap["requests_per_s"] > 0
    assert cap["requests_per_s"] == pytest.approx(cli["max_requests_per_s"], rel=1e-9, abs=0)
    # and the figures it reports are the same plan's
    assert (cap["tp"], cap["pp"], cap["replicas"], cap["mode"]) == (
        cli["tp"],
        cli["pp"],
        cli["replicas"],
        cli["mode"],
    )
    assert cap["mode"] == goal.serving_mode or (goal.serving_mode == "best" and cap["mode"] != "best")
    for mine, theirs in (
        ("ttft_s", "ttft_s"),
        ("tpot_s", "tpot_s"),
        ("batch", "decode_batch"),
        ("weights_gb", "weights_gb_per_gpu"),
    ):
        assert cap[mine] == pytest.approx(cli[theirs], rel=1e-9, abs=0), mine
    assert cap["ttft_s"] <= goal.ttft_s_max and cap["tpot_s"] <= goal.tpot_s_max
    # the KV cache defaults as estimate's (1 byte with fp8/fp4, else 2), targets in the mean
    assert cap["kv_precision"] == ("fp8" if goal.precision in ("fp8", "fp4") else "bf16")
    assert cap["targets_at"] == "mean"


def test_a_user_catalog_gives_the_same_rate_as_the_cached_default():
    """Another catalog object (as `advise(catalog=…)` passes) is planned directly, not from the cache."""
    from gpuplanner.catalog.loader import load_catalog

    goal, server, gpus = CASES[3]
    other = load_catalog()
    assert other is not catalog()
    a = serving_capacity(catalog(), goal, catalog().get(server), gpus)
    b = serving_capacity(other, goal, other.get(server), gpus)
    assert a == b
    a["requests_per_s"] = -1.0  # a caller changing its copy does not change the cache
    assert serving_capacity(catalog(), goal, catalog().get(server), gpus) == b


def test_fp4_on_a_gpu_without_fp4_tensor_cores_serves_nothing_with_the_engines_reason():
    cat = catalog()
    cap = serving_capacity(cat, _goal("llama3-70b", "fp4"), cat.get("nvidia-dgx-h100"), 8)
    assert cap["requests_per_s"] == 0 and not cap["fits"] and "FP4" in cap["refusal"]


def test_too_few_gpus_for_one_replica_serve_nothing():
    cat = catalog()
    cap = serving_capacity(cat, _goal("deepseek-v3-671b", "bf16"), cat.get("nvidia-dgx-h100"), 8)
    assert cap["requests_per_s"] == 0 and not cap["fits"] and cap["refusal"]


def test_every_design_of_an_advised_front_serves_what_estimate_prints():
    """End to end: the rate each design on the front reports (the full stage, in a worker) is estimate's for
    its server type and GPU count, and every design serves the goal's rate within its targets."""
    goal = Goal(
        kind="inference",
        model_id="llama3-70b",
        requests_per_s=20,
        precision="fp8",
        facility_kw_max=600,
        max_servers=4,
        servers=("nvidia-dgx-h100", "nvidia-dgx-b200"),
        templates=("leaf-spine",),
        oversubs=(1.0,),
    )
    with ThreadPoolExecutor(2) as ex:
        res = advise(goal, executor=ex)
    assert res.front
    for d in res.front:
        cli = _estimate(goal, d["server"], d["gpus"])
        assert d["requests_per_s_max"] == pytest.approx(cli["max_requests_per_s"], rel=1e-9, abs=0)
        assert d["requests_per_s_max"] >= goal.requests_per_s
        assert d["serving"]["tpot_s"] <= goal.tpot_s_max and d["serving"]["ttft_s"] <= goal.ttft_s_max
