"""The token budget of one engine step as a deployment states it (ServingSetup.max_batched_tokens: TensorRT-LLM
max_num_tokens, vLLM --max-num-batched-tokens; decode tokens plus prefill tokens per step): it reaches the worker,
None keeps the engine default (serving.yaml; main's figures, bit for bit), a bad value is refused naming the
field, and the validation rows that state it quote the submitter's config that sets it."""

from __future__ import annotations

import re

import pytest
import yaml

from gpuplanner.core.errors import CatalogError, ValidationError
from gpuplanner.engine.perf.serving import ServingSetup, serving_assumptions, worker
from gpuplanner.engine.perf.validation_inference import check, load_runs, runs_path
from tests.serving_cases import model_on, setup_with, setups_checked

SA = serving_assumptions()


def _model(model: str = "llama3-8b", gpu: str = "nvidia-h100-sxm"):
    return model_on(model, gpu)


def _setup(**kw) -> ServingSetup:
    base = dict(prompt_len=2048, output_len=128, precision="fp8", kv_precision="fp8", serving_stack="trtllm")
    return setup_with(base, **kw)


def test_the_stated_budget_reaches_the_worker_and_none_is_the_default():
    shape, cluster = _model()
    assert worker(shape, cluster, _setup(max_batched_tokens=1536), 1).budget_tokens == 1536
    default = int(SA.number("max_batched_tokens"))
    assert worker(shape, cluster, _setup(), 1).budget_tokens == default
    # stating the default is the same worker as stating none
    assert worker(shape, cluster, _setup(max_batched_tokens=default), 1) == worker(
        shape, cluster, _setup(), 1
    )


def test_a_small_budget_slows_the_first_token_of_a_long_prompt():
    """A 2048-token prompt beside the decode batch needs more steps at a 256-token budget than at 8192."""
    from gpuplanner.engine.perf.serving import plan_serving

    shape, cluster = _model()
    small = plan_serving(shape, cluster, _setup(max_batched_tokens=256), n_gpus=1, mode="aggregated")
    large = plan_serving(shape, cluster, _setup(max_batched_tokens=8192), n_gpus=1, mode="aggregated")
    assert small.fits and large.fits
    assert small.ttft_s > large.ttft_s


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "512"])
def test_a_bad_budget_is_refused_naming_the_field(bad):
    with pytest.raises(ValidationError) as e:
        _setup(max_batched_tokens=bad)
    assert e.value.field == "max_batched_tokens" and e.value.msg is not None
    assert "at least 1" in e.value.msg.render("en") and "不小于 1" in e.value.msg.render("zh")
    _setup(max_batched_tokens=1)


def test_a_row_that_states_a_budget_passes_it_to_the_setup(monkeypatch):
    seen = setups_checked(monkeypatch, "mlperf-v51-nebius-h200-sxm-141gbx8-trt-llama2-70b-interactive")
    assert seen and all(s.max_batched_tokens == 256 for s in seen)
    # a vLLM row without chunked prefill states its budget and the mode (s12-nochunk)
    seen = setups_checked(monkeypatch, "mlperf-v51-amd-8xmi300x-2xepyc-9575f-llama2-70b-offline")
    assert seen and all(s.max_batched_tokens == 40960 and not s.chunked_prefill for s in seen)
    # vLLM V1 (chunked): no budget stated
    seen = setups_checked(monkeypatch, "mlperf-v51-amd-8xmi325x-2xepyc-9575f-2-llama2-70b-interactive")
    assert seen and all(s.max_batched_tokens is None and s.chunked_prefill for s in seen)


# predicted output tokens/s of rows that state no budget, from main @ 98bf6f9 (before the option existed). The
# 405B TP8 row is the 128-token one: s12-serve405 gives the prefill all-reduces of longer prompts at TP8 NCCL's
# NVLink SHARP rate (test_serving_allreduce.py), which moves the 1000-token row (3647.85 before). The two AMD
# rows this held (v4.1 Server, v5.1 Offline) state their budget and chunked_prefill false since s12-nochunk.
# The three trtllm rows re-pinned when their KV budget became TensorRT-LLM's (s12-kvh100; the budget plays no
# part): before it 4012.176112491491, 5401.887004976557, 16369.73604627088
MAIN_98BF6F9 = {
    "mlperf-v51-amd-8xmi325x-2xepyc-9575f-2-llama2-70b-interactive": 24732.18538379071,
    "trtllm-v1.0-llama3-70b-h200-tp1-128-128": 4027.950044799772,
    "trtllm-v1.0-llama3-405b-h200-tp8-128-2048": 5443.2311980753475,
    "trtllm-v1.0-llama3-8b-h200-tp1-1000-2000": 16412.917221234755,
}


@pytest.mark.parametrize("rid", sorted(MAIN_98BF6F9))
def test_rows_without_a_budget_keep_mains_figures_bit_for_bit(rid):
    run = next(r for r in load_runs() if r.id == rid)
    assert "max_batched_tokens" not in run.request
    assert check(run).predicted == MAIN_98BF6F9[rid]


def test_rows_that_state_a_budget_quote_the_config_that_sets_it():
    doc = yaml.safe_load(runs_path().read_text(encoding="utf-8"))
    stated = [r for r in doc["runs"] if "max_batched_tokens" in r["request"]]
    # every NVIDIA-harness (TensorRT-LLM) MLPerf row and every vLLM row without chunked prefill, and only those
    want = [
        r["id"]
        for r in doc["runs"]
        if r["id"].startswith("mlperf-")
        and (r["request"]["serving_stack"] == "trtllm" or r["request"].get("chunked_prefill") is False)
    ]
    assert [r["id"] for r in stated] == want and len(want) == 60 + 14
    for r in stated:
        if r["request"]["serving_stack"] == "vllm":  # the harness's max_num_batched_tokens, quoted
            n = r["request"]["max_batched_tokens"]
            assert re.search(rf"max[_-]num[_-]batched[_-]tokens {n}\b", r["max_batched_tokens_source"]), r[
                "id"
            ]
            continue
        src, n = r["max_batched_tokens_source"], r["request"]["max_batched_tokens"]
        assert src.split(":")[0] in r["source"], r[
            "id"
        ]  # the results repository and commit of the measurement
        if "v5.1" in src:
            assert f"trtllm_runtime_flags 'max_num_tokens': {n} (line " in src, r["id"]
        else:
            assert re.search(rf"line \d+, class \w+: 'max_num_tokens = {n}'", src), r["id"]
    # vLLM rows state a budget only with chunked prefill off (the mixed-step engine would misread it otherwise)
    assert all(
        r["request"].get("chunked_prefill") is False
        for r in stated
        if r["request"].get("serving_stack") == "vllm"
    )


def _write(tmp_path, row):
    p = tmp_path / "rows.yaml"
    p.write_text(yaml.safe_dump({"runs": [row]}), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("value", "source", "field"),
    [
        (0, "x", "max_batched_tokens"),
        ("many", "x", "max_batched_tokens"),
        (512, "", "max_batched_tokens_source"),
    ],
)
def test_the_loader_refuses_a_bad_or_unsourced_budget(tmp_path, value, source, field):
    base = yaml.safe_load(runs_path().read_text(encoding="utf-8"))["runs"][0]
    row = {
        **base,
        "request": {**base["request"], "max_batched_tokens": value},
        "max_batched_tokens_source": source,
    }
    with pytest.raises(CatalogError) as e:
        load_runs(_write(tmp_path, row))
    assert e.value.field == field


@pytest.mark.parametrize(
    ("value", "source", "field"),
    [
        ("no", "x", "chunked_prefill"),
        (0, "x", "chunked_prefill"),
        (False, "", "chunked_prefill_source"),
    ],
)
def test_the_loader_refuses_a_bad_or_unsourced_chunked_prefill(tmp_path, value, source, field):
    base = yaml.safe_load(runs_path().read_text(encoding="utf-8"))["runs"][0]
    row = {**base, "request": {**base["request"], "chunked_prefill": value}, "chunked_prefill_source": source}
    with pytest.raises(CatalogError) as e:
        load_runs(_write(tmp_path, row))
    assert e.value.field == field
