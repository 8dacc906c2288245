"""A cap on the sequences one replica runs at once (ServingSetup.max_seqs: vLLM --max-num-seqs, TensorRT-LLM
max_batch_size) bounds the engine's batch wherever it is chosen (steady state, the max-rate search, TPOT tails,
disaggregated decode workers, a prefill worker's prompts per step); None keeps the stack's default (vLLM's by GPU
memory, TensorRT-LLM uncapped: today's figures, bit for bit); the validation rows that state it quote their
submitter's config."""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pytest
import yaml

from gpuplanner.core.errors import CatalogError, ValidationError
from gpuplanner.engine.perf.serving import ServingSetup, plan_serving, serving_assumptions, worker
from gpuplanner.engine.perf.serving_steady import max_rate, prefill_service, steady_state
from gpuplanner.engine.perf.serving_tails import tpot_quantile
from gpuplanner.engine.perf.serving_worker import max_seqs_of
from gpuplanner.engine.perf.validation_inference import check, load_runs, runs_path
from tests.serving_cases import model_on, setup_with

SA = serving_assumptions()


def _model(model: str = "llama3-8b", gpu: str = "nvidia-h100-sxm"):
    return model_on(model, gpu)


def _setup(**kw) -> ServingSetup:
    base = dict(prompt_len=128, output_len=128, precision="fp8", kv_precision="fp8", serving_stack="trtllm")
    return setup_with(base, **kw)


def test_the_cap_binds_where_kv_memory_would_allow_a_thousand_sequences():
    shape, cluster = _model()
    free = worker(shape, cluster, _setup(), 1)
    seq_tokens = 128 + 128 / 2.0  # the mean context a decoding sequence holds (serving_steady)
    assert free.max_seqs == math.inf and free.kv_capacity_tokens / seq_tokens > 1000
    plan_free = plan_serving(shape, cluster, _setup(), n_gpus=1, mode="aggregated", tp=1)
    assert plan_free.decode_batch > 1000  # uncapped: KV memory and compute set the batch
    capped = plan_serving(shape, cluster, _setup(max_seqs=64), n_gpus=1, mode="aggregated", tp=1)
    assert capped.decode_batch == pytest.approx(64, rel=1e-4) and capped.decode_batch <= 64
    assert capped.limited_by == "max seqs"
    assert capped.output_tokens_per_s < plan_free.output_tokens_per_s
    assert capped.tpot_s < plan_free.tpot_s  # a smaller batch steps faster


def test_oracle_throughput_is_the_cap_times_tokens_per_step_over_the_step_at_that_batch():
    """Hand count: at the cap every step carries max_seqs decode tokens (one output token each) and, by Little's
    law, max_seqs·P/O prefill tokens; the step's time is the worker's cost of those tokens, so a replica yields
    max_seqs / step(max_seqs, max_seqs·P/O) output tokens per second."""
    shape, cluster = _model()
    cap, p, o = 64, 128, 128
    setup = _setup(max_seqs=cap)
    w = worker(shape, cluster, setup, 1)
    step = (
        w.mem0_s
        + w.gemm_fixed_s  # the step's GEMM kernels' fixed part (performance.yaml decode_gemm_fixed_us_*)
        + (w.mem_b_s + w.cmp_b_s) * cap
        + w.cmp_c_s * cap * p / o
        + w.k0_s
        + w.k_tok_s * cap * (1 + p / o)
    )
    assert float(w.step_s(cap, cap * p / o)[()]) == pytest.approx(step, rel=1e-12)
    plan = plan_serving(shape, cluster, setup, n_gpus=1, mode="aggregated", tp=1)
    assert plan.output_tokens_per_s == pytest.approx(cap / step, rel=1e-4)
    assert plan.tpot_s == pytest.approx(step, rel=1e-4)
    # eight replicas: eight times one
    eight = plan_serving(shape, cluster, setup, n_gpus=8, mode="aggregated", tp=1)
    assert eight.output_tokens_per_s == pytest.approx(8 * cap / step, rel=1e-4)


def test_the_oracle_check_can_fail():
    shape, cluster = _model()
    w = worker(shape, cluster, _setup(max_seqs=64), 1)
    wrong = 64 / float(w.step_s(64, 0.0)[()])  # leaving out the prefill tokens of each step: too fast
    plan = plan_serving(shape, cluster, _setup(max_seqs=64), n_gpus=1, mode="aggregated", tp=1)
    assert plan.output_tokens_per_s != pytest.approx(wrong, rel=1e-4)


def test_the_cap_bounds_every_place_a_batch_is_chosen():
    shape, cluster = _model()
    setup = _setup(max_seqs=48, ttft_s=1.0, tpot_s=0.05, ttft_percentile=99, tpot_percentile=99)
    w = worker(shape, cluster, setup, 1)
    # steady state: a rate whose batch exceeds the cap is infeasible, named
    lam, why = max_rate(w, setup)
    assert why == "max seqs"
    op = steady_state(w, setup, [lam, 1.5 * lam])
    assert op.decode_batch[0] <= 48 and op.feasible[0]
    assert op.decode_batch[1] > 48 and not op.feasible[1] and op.limit[1] == "max seqs"
    # disaggregated decode workers
    dis = plan_serving(shape, cluster, setup, n_gpus=8, mode="disaggregated", tp=1)
    assert 0 < dis.decode_batch <= 48
    # the TPOT tail: no request decodes beside more than the cap
    b = np.array([47.9])
    t = w.step_s(b, b)
    assert (
        float(tpot_quantile(w, t, b, 0.99)[0])
        <= float(t[0]) + (w.mem_b_s + w.cmp_b_s + w.k_tok_s) * 0.1 + 1e-15
    )
    # a prefill-only worker runs at most max_seqs prompts per step
    tiny = _setup(max_seqs=2, prompt_len=128)
    pw = worker(shape, cluster, tiny, 1)
    _, mu, _ = prefill_service(pw, tiny)
    assert mu == pytest.approx(2 / float(pw.step_s(0.0, 2 * 128)[()]), rel=1e-12)


def test_max_rate_is_kept_per_cap():
    shape, cluster = _model()
    a, b = _setup(max_seqs=32), _setup(max_seqs=64)
    wa, wb = worker(shape, cluster, a, 1), worker(shape, cluster, b, 1)
    ra, rb = max_rate(wa, a)[0], max_rate(wb, b)[0]
    assert rb > ra > 0 and max_rate(wa, a)[0] == ra  # the cache keys differ by the cap


def test_none_keeps_todays_figures_bit_identical():
    """Figures of the engine before the cap existed (main @ 09acc06, the same calls), for setups without one:
    TensorRT-LLM's default is uncapped, so they must not move at all. Re-pinned once when the engine's physics
    changed (s11-decode: the decode GEMMs' measured weight-stream share and fixed part, performance.yaml
    decode_gemm_*; the cap plays no part in that change). Values at 09acc06: agg (70143.23338901595,
    422.4133794552075, 0.09879681713960262, 0.04817723495721886), dis (61771.68699324615, 195.1622907494166),
    the runs 4009.0034011067573, 4535.530035056164, 3089.367365106238, 366.31889704482876, 3881.5346558091132.
    Re-pinned again for the two TP8 405B runs when the prefill all-reduces above the custom kernel's 8 MB took NCCL's
    NVLink SHARP rate (s12-serve405; the cap plays no part): before it 3075.1485045193954 and 365.92151477431855.
    Re-pinned for the trtllm runs when their KV budget became TensorRT-LLM's (s12-kvh100: fraction x (device total -
    memory outside torch - weights - workspace), no allocator fragmentation; the cap plays no part): before it
    4012.176112491491, 4514.562010958639, 3170.749224952339, 388.280531416685, 3861.004303411605."""
    shape, cluster = _model()
    setup = _setup(
        prompt_len=1024, output_len=256, ttft_s=1.0, tpot_s=0.05, ttft_percentile=99, tpot_percentile=99
    )
    agg = plan_serving(shape, cluster, setup, n_gpus=8, mode="aggregated")
    assert (agg.output_tokens_per_s, agg.decode_batch, agg.ttft_s, agg.tpot_s) == (
        69630.4742714798,
        419.38231391156125,
        0.09862812101829779,
        0.048183766467130046,
    )
    dis = plan_serving(shape, cluster, setup, n_gpus=8, mode="disaggregated")
    assert (dis.output_tokens_per_s, dis.decode_batch) == (61771.68699324615, 195.1622907494166)
    before = {
        "trtllm-v1.0-llama3-70b-h200-tp1-128-128": 4027.950044799772,
        "trtllm-v1.0-llama3-70b-h100-tp2-128-4096": 4649.855219647627,
        "trtllm-v1.0-llama3-405b-h200-tp8-1000-1000": 3189.279458001217,
        "trtllm-v1.0-llama3-405b-h100-tp8-2048-128": 391.09257768139776,
        "trtllm-v1.0-llama3-8b-h200-tp1-5000-500": 3867.2878750596847,
    }
    runs = {r.id: r for r in load_runs()}
    for rid, value in before.items():
        assert "max_seqs" not in runs[rid].request
        assert check(runs[rid]).predicted == value, rid


def test_the_stacks_defaults():
    shape, h100 = _model()
    assert max_seqs_of(_setup(serving_stack="vllm"), h100, SA) == 1024  # >= 70 GiB, not an A100
    assert max_seqs_of(_setup(serving_stack="trtllm"), h100, SA) == math.inf
    assert max_seqs_of(_setup(serving_stack="vllm", max_seqs=7), h100, SA) == 7
    # below 70 GiB, or an A100 of any size: 256 (vLLM's other branch)
    for other in (
        dataclasses.replace(h100, mem_gb=48.0),
        dataclasses.replace(h100, gpu_name="nvidia-a100-80gb"),
    ):
        assert max_seqs_of(_setup(serving_stack="vllm"), other, SA) == 256
    assert max_seqs_of(_setup(serving_stack="vllm"), dataclasses.replace(h100, mem_gb=75.2), SA) == 1024


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "64"])
def test_a_bad_cap_is_refused_naming_the_field(bad):
    with pytest.raises(ValidationError) as e:
        _setup(max_seqs=bad)
    assert e.value.field == "max_seqs" and e.value.msg is not None
    assert "at least 1" in e.value.msg.render("en") and "不小于 1" in e.value.msg.render("zh")
    _setup(max_seqs=1)


def test_rows_that_state_a_cap_quote_the_config_that_sets_it():
    doc = yaml.safe_load(runs_path().read_text(encoding="utf-8"))
    mlperf = [r for r in doc["runs"] if r["id"].startswith("mlperf-")]
    assert mlperf and all("max_seqs" in r["request"] for r in mlperf)
    for r in mlperf:
        src, n = r["max_seqs_source"], r["request"]["max_seqs"]
        assert src.split(":")[0] in r["source"], r[
            "id"
        ]  # the results repository and commit of the measurement
        if r["request"]["serving_stack"] == "vllm":
            assert (
                f"max_num_seqs {n}" in src or f"--max-num-seqs {n}" in src or f"max_num_seqs {n} " in src
            ), r["id"]
        else:
            said = re.findall(r"gpu_batch_size \{'[\w.-]+': (\d+)\}|'max_batch_size': (\d+)", src)
            values = [int(a or b) for a, b in said]
            assert n == (values[-1] if "'max_batch_size'" in src else values[0]), r["id"]
        if "tp" in r["request"]:
            tp = r["request"]["tp"]
            assert re.search(rf"tensor_parallel(?:ism|_size)? {tp}\b|TP={tp}\b", src), r["id"]
    # the AMD/Dell Interactive rows ran one GPU per engine
    inter = [r for r in mlperf if "interactive" in r["id"] and r["request"]["serving_stack"] == "vllm"]
    assert len(inter) == 3 and all(r["request"]["tp"] == 1 for r in inter)
    assert all("max_seqs" not in r["request"] for r in doc["runs"] if r["id"].startswith("trtllm-"))


def _write(tmp_path, row):
    p = tmp_path / "rows.yaml"
    p.write_text(yaml.safe_dump({"runs": [row]}), encoding="utf-8")
    return p


@pytest.mark.parametrize(("value", "source", "field"), [(0, "x", "max_seqs"), (64, "", "max_seqs_source")])
def test_the_loader_refuses_a_bad_or_unsourced_cap(tmp_path, value, source, field):
    base = yaml.safe_load(runs_path().read_text(encoding="utf-8"))["runs"][0]
    row = {**base, "request": {**base["request"], "max_seqs": value}, "max_seqs_source": source}
    with pytest.raises(CatalogError) as e:
        load_runs(_write(tmp_path, row))
    assert e.value.field == field
