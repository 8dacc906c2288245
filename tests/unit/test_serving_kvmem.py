"""The KV-cache sizing rule of each serving stack (serving_worker.kv_cache_gb): vLLM's --gpu-memory-utilization
is a share of the whole device (weights, workspace and KV cache inside it); TensorRT-LLM's
free_gpu_memory_fraction is a share of what is free once the weights and workspace are loaded. Closed forms,
the rows of inference_runs.yaml stating the stack that ran them, and the refusal of an unknown stack."""

from __future__ import annotations

import re

import pytest

from gpuplanner import text
from gpuplanner.catalog.loader import default_catalog
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.memory import usable_memory_gb
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.serving import SERVING_STACKS, ServingSetup, serving_assumptions, worker
from gpuplanner.engine.perf.serving_setup import GB
from gpuplanner.engine.perf.serving_worker import kv_cache_gb
from gpuplanner.engine.perf.validation_inference import load_runs, serving_plan

SA = serving_assumptions()
F_TOTAL = SA.number("kv_cache_memory_fraction")
F_FREE = SA.number("kv_cache_free_memory_fraction")
OUTSIDE = load_assumptions().number("memory_reserved_gb")


def test_both_fractions_are_the_stacks_documented_defaults():
    assert (
        F_TOTAL == 0.90 and F_FREE == 0.90
    )  # vLLM gpu_memory_utilization, TensorRT-LLM free_gpu_memory_fraction
    assert SERVING_STACKS == ("vllm", "trtllm")


@pytest.mark.parametrize(
    ("capacity", "usable", "weights", "workspace"),
    [(85.5, 79.2, 8.0, 0.27), (85.5, 79.2, 35.0, 0.5), (151.4, 141.8, 70.0, 1.0), (206.2, 193.8, 17.5, 0.1)],
)
def test_kv_cache_gb_closed_forms(capacity, usable, weights, workspace):
    engine, kv = kv_cache_gb(capacity, usable, weights, workspace, "vllm", SA, outside_gb=OUTSIDE)
    assert engine == pytest.approx(min(usable, capacity * F_TOTAL))
    assert kv == pytest.approx(min(usable, capacity * F_TOTAL) - weights - workspace)
    # TensorRT-LLM: f x (cudaMemGetInfo total - peak allocated - memory outside torch); no allocator fragmentation
    engine, kv = kv_cache_gb(capacity, usable, weights, workspace, "trtllm", SA, outside_gb=OUTSIDE)
    assert engine == pytest.approx(capacity - OUTSIDE)
    assert kv == pytest.approx(F_FREE * (capacity - OUTSIDE - weights - workspace))


def test_the_rules_differ_by_the_share_of_the_weights():
    # same fraction, different base: TensorRT-LLM's 10 % margin shrinks with the memory the weights take,
    # vLLM's stays 10 % of the device, so with heavy weights TensorRT-LLM keeps more KV cache
    light = [kv_cache_gb(100.0, 100.0, 5.0, 0.0, s, SA, outside_gb=0.0)[1] for s in SERVING_STACKS]
    heavy = [kv_cache_gb(100.0, 100.0, 80.0, 0.0, s, SA, outside_gb=0.0)[1] for s in SERVING_STACKS]
    assert light == pytest.approx([85.0, 85.5]) and heavy == pytest.approx([10.0, 18.0])


@pytest.mark.parametrize("stack", SERVING_STACKS)
def test_worker_kv_capacity_is_the_closed_form(stack):
    """Llama 3.1 8B, FP8 weights and KV, TP1 on an H100: KV bytes per token = layers · 2 · kv_heads · head_dim."""
    catalog = default_catalog()
    req = {"model": "llama3-8b", "gpu": "nvidia-h100-sxm"}
    shape, cluster = shape_of(req, catalog), cluster_of(req, catalog)
    setup = ServingSetup(2048, 512, precision="fp8", kv_precision="fp8", serving_stack=stack)
    w = worker(shape, cluster, setup, 1)
    tables = 2 * shape.vocab * shape.hidden  # embedding and output head stay in BF16 (served_weights.py)
    weights_gb = ((param_counts(shape)["total"] - tables) * 1.0 + tables * 2.0) / GB
    workspace_gb = (
        SA.number("prefill_activation_bytes_per_token_hidden")
        * SA.number("max_batched_tokens")
        * shape.hidden
        / GB
    )
    capacity, usable = usable_memory_gb(cluster.mem_gb, cluster.gpu_name, load_assumptions())
    if stack == "vllm":
        kv_gb = min(usable, capacity * F_TOTAL) - weights_gb - workspace_gb
    else:
        kv_gb = F_FREE * (capacity - OUTSIDE - weights_gb - workspace_gb)
    head_dim = shape.hidden // shape.heads
    kv_tok = shape.layers * 2 * shape.kv_heads * head_dim * 1.0  # bytes
    assert w.weights_gb == pytest.approx(weights_gb)
    assert w.kv_capacity_tokens == pytest.approx(kv_gb * GB / kv_tok, rel=1e-9)


def test_unknown_stack_is_refused_naming_the_field():
    with pytest.raises(ValidationError) as e:
        ServingSetup(100, 10, serving_stack="sglang")
    assert e.value.field == "serving_stack" and e.value.value == "sglang"
    for lang in ("en", "zh"):
        assert text.render("error.serving_stack.hint", lang, known="vllm, trtllm")


def test_trtllm_refusal_states_the_share_of_the_free_memory():
    catalog = default_catalog()
    req = {"model": "llama3-70b", "gpu": "nvidia-h100-sxm"}
    shape, cluster = shape_of(req, catalog), cluster_of(req, catalog)
    w = worker(shape, cluster, ServingSetup(2048, 512, precision="bf16", serving_stack="trtllm"), 1)
    assert not w.fits and "takes 90% of that" in w.refusal and w.refusal_msg is not None
    assert re.search(r"[\u4e00-\u9fff]", w.refusal_msg.render("zh"))


def _stack_of(states: str, family: str) -> str:
    if family.startswith("TensorRT-LLM"):
        return "trtllm"
    assert ("vLLM" in states) != ("TensorRT" in states), states
    return "vllm" if "vLLM" in states else "trtllm"


def test_every_row_states_the_stack_that_ran_it():
    runs = load_runs()
    stacks = {r.id: r.request.get("serving_stack") for r in runs}
    assert all(stacks.values())
    for r in runs:
        assert stacks[r.id] == _stack_of(r.states, r.family), r.id
    # AMD's and its partners' MI300X/MI325X submissions ran vLLM; NVIDIA's and its partners' ran TensorRT-LLM
    assert {stacks[r.id] for r in runs if r.request["gpu"].startswith("amd-")} == {"vllm"}
    assert {stacks[r.id] for r in runs if r.request["gpu"].startswith("nvidia-")} == {"trtllm"}


@pytest.mark.parametrize("stack", SERVING_STACKS)
def test_rows_get_their_stacks_rule(stack):
    """A row's plan is the plan of its stated stack: swapping the stack changes a KV-bound row's capacity."""
    catalog = default_catalog()
    # a KV-bound row (a row capped by its max_seqs would not move with the KV rule)
    row = next(
        r
        for r in load_runs()
        if r.request["serving_stack"] == stack
        and "offline" in r.id
        and serving_plan(r.request, catalog).limited_by == "kv cache"
    )
    other = "trtllm" if stack == "vllm" else "vllm"
    mine = serving_plan(row.request, catalog)
    swapped = serving_plan({**row.request, "serving_stack": other}, catalog)
    again = serving_plan({**row.request, "serving_stack": stack}, catalog)
    assert mine.output_tokens_per_s == again.output_tokens_per_s
    assert mine.output_tokens_per_s != swapped.output_tokens_per_s


def test_trtllm_budget_on_an_h100_is_the_sources_closed_form():
    """TensorRT-LLM KvCacheCreator (PyTorch backend): KV = fraction x (total - peak), total = cudaMemGetInfo's
    device total (81,559 MiB on an H100 SXM), peak = weights + profile-run activations (allocated bytes, after
    empty_cache) + memory outside torch. Llama 3.1 405B FP8 TP8 on H100: ~51.3 GB of weights per GPU."""
    a = load_assumptions()
    capacity, usable = usable_memory_gb(80, "nvidia-h100-sxm", a)
    assert capacity == pytest.approx(81559 * 2**20 / 1e9, rel=1e-3)
    _, kv = kv_cache_gb(capacity, usable, 51.3, 0.13, "trtllm", SA, outside_gb=OUTSIDE)
    assert kv == pytest.approx(0.9 * (capacity - OUTSIDE - 51.3 - 0.13))
    # the caching allocator's fragmentation share is not charged: more KV than 0.9 x (usable - weights)
    assert kv > 0.9 * (usable - 51.3 - 0.13)
    assert kv - 0.9 * (usable - 51.3 - 0.13) == pytest.approx(
        0.9 * capacity * a.number("allocator_fragmentation_fraction"), rel=1e-9
    )
