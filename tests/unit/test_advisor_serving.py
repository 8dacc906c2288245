"""The advisor sizes a serving goal with the serving model of `gpuplanner estimate --inference`: for a candidate's
server type and GPU count, the advisor's requests/s (bound stage, full stage, and the design it reports) is the
`serving.max_requests_per_s` that `estimate --inference --server S --gpus N --model M --precision P --prompt L
--output O --ttft T --tpot P --serving MODE --serving-stack S [--ttft-percentile Q] [--tpot-percentile Q]
[--prompt-dataset D] [--kv-fraction F] --think-time T --json` prints (oracle: the CLI's own JSON, through its main()), and its users
the `serving.max_concurrent_users`."""

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
    return _estimate_json(goal, server, gpus)["serving"]


def _estimate_json(goal: Goal, server: str, gpus: int) -> dict:
    argv = [
        "estimate", "--inference", "--model", goal.model_id, "--server", server, "--gpus", str(gpus),
        "--precision", goal.precision, "--prompt", str(goal.prompt_len), "--output", str(goal.output_len),
        "--ttft", repr(goal.ttft_s_max), "--tpot", repr(goal.tpot_s_max), "--serving", goal.serving_mode, "--json",
        "--serving-stack", goal.serving_stack, "--think-time", repr(goal.think_time_s),
    ]  # fmt: skip
    # the goal's other serving fields as the options estimate takes (0 / "" = the option not given)
    if goal.ttft_percentile:
        argv += ["--ttft-percentile", repr(goal.ttft_percentile)]
    if goal.tpot_percentile:
        argv += ["--tpot-percentile", repr(goal.tpot_percentile)]
    if goal.prompt_dataset:
        argv += ["--prompt-dataset", goal.prompt_dataset]
    if goal.kv_fraction:
        argv += ["--kv-fraction", repr(goal.kv_fraction)]
    if goal.max_seqs:
        argv += ["--max-seqs", str(goal.max_seqs)]
    if goal.max_batched_tokens:
        argv += ["--max-batched-tokens", str(goal.max_batched_tokens)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(argv)
    assert rc == 0, out.getvalue()
    return json.loads(out.getvalue())


def _goal(model: str, precision: str, **kw) -> Goal:
    return Goal(kind="inference", model_id=model, requests_per_s=10, precision=precision, **kw)


# one new goal field each, where it binds: (goal with the field, the same goal without it, server, GPUs)
_P = {"prompt_len": 222, "ttft_s_max": 0.08}  # llama2-70b MLPerf prompts (mean 222), TTFT 80 ms
NEW_FIELD_CASES_WITHOUT = [
    # trtllm: the KV cache from the memory left after weights (TPOT 200 ms: the KV cache binds)
    (_goal("llama3-70b", "fp8", tpot_s_max=0.2, serving_stack="trtllm"), {"serving_stack": "vllm"}, "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "bf16", tpot_s_max=0.2, serving_stack="trtllm"), {"serving_stack": "vllm"}, "nvidia-dgx-b200", 8),
    # TTFT at p99 (the TTFT target binds at 0.5 s), TPOT at p99, both
    (_goal("llama3-70b", "fp8", ttft_s_max=0.5, ttft_percentile=99.0), {"ttft_percentile": 0.0}, "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "fp8", tpot_percentile=99.0), {"tpot_percentile": 0.0}, "nvidia-dgx-b200", 16),
    (_goal("llama3-70b", "fp8", ttft_s_max=0.3, ttft_percentile=90.0, tpot_percentile=95.0),
     {"ttft_percentile": 0.0, "tpot_percentile": 0.0}, "nvidia-dgx-h100", 8),
    # the MLPerf llama2-70b prompt lengths (mean 222): in the mean and at p99
    (_goal("llama3-70b", "fp8", **_P, prompt_dataset="mlperf-llama2-70b", ttft_percentile=99.0),
     {"prompt_dataset": ""}, "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "fp8", prompt_len=222, ttft_s_max=0.05, prompt_dataset="mlperf-llama2-70b"),
     {"prompt_dataset": ""}, "nvidia-dgx-h100", 16),
    # users with a think time: the users served at the capacity (the rate does not move)
    (_goal("llama3-70b", "fp8", users=200.0, think_time_s=5.0), {"think_time_s": 0.0}, "nvidia-dgx-h100", 16),
    # the stack's KV-cache share as deployed (--kv-fraction), where the KV cache binds (TPOT 200 ms): vLLM at
    # 0.7 of the device, TensorRT-LLM at 0.95 of what the weights leave (MLPerf B200 rows), and 0.5
    (_goal("llama3-70b", "fp8", tpot_s_max=0.2, kv_fraction=0.7), {"kv_fraction": 0.0}, "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "fp8", tpot_s_max=0.2, serving_stack="trtllm", kv_fraction=0.95), {"kv_fraction": 0.0},
     "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "bf16", tpot_s_max=0.2, serving_stack="trtllm", kv_fraction=0.5), {"kv_fraction": 0.0},
     "nvidia-dgx-b200", 8),
    # the deployment's cap on sequences at once (--max-seqs), where it binds below the KV cache and the targets
    (_goal("llama3-70b", "fp8", tpot_s_max=0.2, max_seqs=64), {"max_seqs": 0}, "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "fp8", serving_stack="trtllm", max_seqs=32, serving_mode="disaggregated"), {"max_seqs": 0},
     "nvidia-dgx-b200", 16),
    # the deployment's token budget per engine step (--max-batched-tokens), where it binds: a small budget leaves
    # less decode and prefill room per step (TPOT 200 ms; disaggregated trtllm), and chunks the 2048-token prompts (TTFT 0.3 s)
    (_goal("llama3-70b", "fp8", tpot_s_max=0.2, max_batched_tokens=512), {"max_batched_tokens": 0},
     "nvidia-dgx-h100", 16),
    (_goal("llama3-70b", "fp8", serving_stack="trtllm", max_batched_tokens=512, serving_mode="disaggregated"),
     {"max_batched_tokens": 0}, "nvidia-dgx-b200", 16),
    (_goal("llama3-70b", "fp8", ttft_s_max=0.3, max_batched_tokens=2048), {"max_batched_tokens": 0},
     "nvidia-dgx-h100", 16),
]  # fmt: skip
NEW_FIELD_CASES = [(g, srv, n) for g, _without, srv, n in NEW_FIELD_CASES_WITHOUT]

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
    # the serving stack, the targets' percentiles, the prompt dataset, users and think time (s10), each where it
    # binds (test_each_new_goal_field_moves_the_capacity), then all together, as estimate --serving-stack /
    # --ttft-percentile / --tpot-percentile / --prompt-dataset / --think-time
    *NEW_FIELD_CASES,
    (
        _goal(
            "llama3-70b",
            "fp8",
            prompt_len=222,
            prompt_dataset="mlperf-llama2-70b",
            ttft_percentile=99.0,
            tpot_percentile=99.0,
            serving_stack="trtllm",
            serving_mode="disaggregated",
            users=500.0,
            think_time_s=2.0,
            ttft_s_max=0.08,
            tpot_s_max=0.2,
            kv_fraction=0.95,
        ),
        "nvidia-dgx-b200",
        32,
    ),  # fmt: skip
    (
        _goal(
            "mixtral-8x7b",
            "fp8",
            prompt_len=427,
            prompt_dataset="mlperf-mixtral-8x7b",
            ttft_percentile=99.0,
            ttft_s_max=0.1,
            serving_stack="trtllm",
            serving_mode="best",
        ),
        "nvidia-dgx-h100",
        8,
    ),  # fmt: skip
    # MoE
    (_goal("mixtral-8x7b", "fp8"), "nvidia-dgx-h100", 8),
    (_goal("qwen3-30b-a3b", "bf16"), "nvidia-dgx-b200", 16),
]


@pytest.mark.parametrize(("goal", "server", "gpus"), CASES, ids=lambda x: getattr(x, "model_id", str(x)))
def test_the_advisors_rate_is_what_estimate_inference_prints(goal: Goal, server: str, gpus: int):
    cat = catalog()
    cap = serving_capacity(cat, goal, cat.get(server), gpus)
    whole = _estimate_json(goal, server, gpus)
    cli = whole["serving"]
    assert cap["requests_per_s"] > 0
    assert cap["requests_per_s"] == pytest.approx(cli["max_requests_per_s"], rel=1e-9, abs=0)
    assert cap["users"] == pytest.approx(cli["max_concurrent_users"], rel=1e-9, abs=0)  # with the think time
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
    # a plan whose prefill pool binds at the TTFT target sits on it: the closed-form utilisation's round trip
    # (serving._disaggregated: rho = 2x/(1+2x), then one + rho·D/(2(1-rho)) + transfer) may land one ulp above
    assert cap["ttft_s"] <= goal.ttft_s_max or cap["ttft_s"] == pytest.approx(
        goal.ttft_s_max, rel=1e-12, abs=0
    )
    assert cap["tpot_s"] <= goal.tpot_s_max
    # the KV cache defaults as estimate's (1 byte with fp8/fp4, else 2); the stack, dataset and percentiles
    assert cap["kv_precision"] == ("fp8" if goal.precision in ("fp8", "fp4") else "bf16")
    assert cap["serving_stack"] == goal.serving_stack
    assert cap["prompt_dataset"] == (goal.prompt_dataset or None)
    assert cap.get("kv_fraction") == whole.get("kv_fraction") == (goal.kv_fraction or None)  # stated only
    assert cap.get("max_seqs") == whole.get("max_seqs") == (goal.max_seqs or None)  # stated only
    if goal.max_seqs:
        assert 0 < cap["batch"] <= goal.max_seqs
    assert (
        cap.get("max_batched_tokens") == whole.get("max_batched_tokens") == (goal.max_batched_tokens or None)
    )
    assert cap["kv_cache_gb"] == pytest.approx(cli["kv_cache_gb_per_gpu"], rel=1e-9, abs=0)
    if not (goal.ttft_percentile or goal.tpot_percentile):
        assert cap["targets_at"] == "mean"
    else:
        assert cap["targets_at"] != "mean"


@pytest.mark.parametrize(("goal", "without", "server", "gpus"), NEW_FIELD_CASES_WITHOUT, ids=str)
def test_each_new_goal_field_moves_the_capacity(goal: Goal, without: dict, server: str, gpus: int):
    """The oracle above compares cases where the field matters: without it the capacity (or, for the think
    time, the users) is another number."""
    cat = catalog()
    cap = serving_capacity(cat, goal, cat.get(server), gpus)
    base = serving_capacity(cat, goal.with_(**without), cat.get(server), gpus)
    key = "users" if "think_time_s" in without else "requests_per_s"
    assert cap[key] > 0 and base[key] > 0
    assert abs(cap[key] - base[key]) > 1e-3 * base[key], (cap[key], base[key])


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


FRONT_GOAL = Goal(
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


@pytest.mark.parametrize(
    "goal",
    [
        FRONT_GOAL,
        # s10: the new fields together (users as well as the rate: both must be served)
        FRONT_GOAL.with_(
            prompt_len=222,
            prompt_dataset="mlperf-llama2-70b",
            ttft_s_max=0.08,
            ttft_percentile=99.0,
            tpot_percentile=99.0,
            serving_stack="trtllm",
            users=1000.0,
            think_time_s=3.0,
        ),
    ],
    ids=["defaults", "stack-percentiles-dataset-users"],
)
def test_every_design_of_an_advised_front_serves_what_estimate_prints(goal: Goal):
    """End to end: the rate each design on the front reports (the full stage, in a worker) is estimate's for
    its server type and GPU count, and every design serves the goal's rate (and users) within its targets."""
    with ThreadPoolExecutor(2) as ex:
        res = advise(goal, executor=ex)
    assert res.front
    for d in res.front:
        cli = _estimate(goal, d["server"], d["gpus"])
        assert d["requests_per_s_max"] == pytest.approx(cli["max_requests_per_s"], rel=1e-9, abs=0)
        assert d["users_max"] == pytest.approx(cli["max_concurrent_users"], rel=1e-9, abs=0)
        assert d["requests_per_s_max"] >= goal.requests_per_s
        assert d["users_max"] >= goal.users
        assert d["serving"]["tpot_s"] <= goal.tpot_s_max and d["serving"]["ttft_s"] <= goal.ttft_s_max
        names = {lim["name"] for lim in d["limits"]}
        assert "requests_per_s" in names and ("users" in names) == (goal.users > 0)
