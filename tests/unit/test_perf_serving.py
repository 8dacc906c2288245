"""Serving model: precision-aware memory, continuous batching steady state, disaggregated workers, sizing.

Oracles: (1) the closed-form steady state against a slow fixed-point iteration of the step-time function
itself; (2) static decode steps and single-prompt prefills from NVIDIA aiconfigurator 0.12.0 (`aiconfigurator
cli estimate --backend trtllm`, its measured H100 SXM kernel database, trtllm 1.3.0rc20; modes static_gen and
static_ctx), copied here so that the test runs without it (benchmarks/bench_serving_aiconfigurator.py reruns
the comparison); (3) the weight sizes of Llama 3 405B at FP8 and BF16 (Meta's model card: 405B parameters).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.serving import (
    ServingSetup,
    at_concurrency,
    max_rate,
    plan_serving,
    steady_state,
    worker,
)
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape

H100 = ClusterSpec(
    gpu_name="NVIDIA H100 SXM",
    peak_bf16_tflops=989,
    peak_fp8_tflops=1979,
    mem_gb=80,
    mem_bw_tbyte_per_s=3.35,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=900,
    nic_gbps_per_gpu=400,
)
LLAMA8 = ModelShape("dense", 32, 4096, 32, 8, 14336, 128256, 8192, gated_mlp=True)
LLAMA70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 128256, 8192, gated_mlp=True)
LLAMA405 = ModelShape("dense", 126, 16384, 128, 8, 53248, 128256, 8192, gated_mlp=True)
MIXTRAL = ModelShape("moe", 32, 4096, 32, 8, 14336, 32000, 4096, experts=8, top_k=2, gated_mlp=True)


def test_llama3_405b_fp8_fits_on_eight_h100_and_bf16_does_not():
    fp8 = ServingSetup(prompt_len=2048, output_len=512, precision="fp8")
    w = worker(LLAMA405, H100, fp8, tp=8)
    assert w.fits, w.refusal
    assert 49 < w.weights_gb < 52  # 405e9 × 1 byte / 8
    bf16 = worker(LLAMA405, H100, ServingSetup(prompt_len=2048, output_len=512), tp=8)
    assert not bf16.fits and "GB" in bf16.refusal
    plan = plan_serving(LLAMA405, H100, fp8, n_gpus=8)
    assert plan.fits and plan.gpus == 8 and plan.tp == 8 and plan.max_requests_per_s > 0
    # BF16 needs a second node: the plan goes to pipeline parallelism across two 8-GPU nodes
    big = plan_serving(LLAMA405, H100, ServingSetup(prompt_len=2048, output_len=512), rate_per_s=1.0)
    assert big.fits and big.tp * big.pp >= 16


def test_fp8_kv_cache_holds_twice_the_tokens():
    a = worker(LLAMA70, H100, ServingSetup(2048, 512, precision="fp8", kv_precision="bf16"), tp=4)
    b = worker(LLAMA70, H100, ServingSetup(2048, 512, precision="fp8"), tp=4)
    assert b.kv_capacity_tokens == pytest.approx(2 * a.kv_capacity_tokens)


@pytest.mark.parametrize("shape", [LLAMA8, LLAMA70, MIXTRAL])
@pytest.mark.parametrize("prefill", [True, False])
def test_closed_form_steady_state_matches_fixed_point_iteration(shape, prefill):
    setup = ServingSetup(prompt_len=1024, output_len=256)
    w = worker(shape, H100, setup, tp=8 if shape is LLAMA70 else 2)
    hi, _ = max_rate(w, ServingSetup(prompt_len=1024, output_len=256, max_batched_tokens=10**9), prefill)
    for lam in np.linspace(0.05, 0.9, 6) * max(hi, 1e-3):
        op = steady_state(w, setup, [lam], prefill)
        t = 0.0
        for _ in range(20000):  # the obvious way: T ← step(λ·O·T, λ·P·T) from 0 upward
            t_next = float(w.step_s(lam * 256 * t, lam * (1024 if prefill else 0) * t))
            if abs(t_next - t) < 1e-13:
                break
            t = t_next
        assert float(op.tpot_s[0]) == pytest.approx(t, rel=1e-6)


def test_latency_grows_with_load_and_capacity_scales_with_replicas():
    setup = ServingSetup(prompt_len=2048, output_len=512, ttft_s=1.0, tpot_s=0.05)
    w = worker(LLAMA70, H100, setup, tp=4)
    lam, why = max_rate(w, setup)
    assert lam > 0 and why in ("tpot", "ttft", "kv cache", "token budget", "compute")
    op = steady_state(w, setup, np.linspace(0.01, 0.999, 50) * lam)
    assert np.all(np.diff(op.tpot_s) > 0) and np.all(np.diff(op.ttft_s) >= 0)
    assert op.feasible.all() and (op.tpot_s <= 0.05 + 1e-9).all() and (op.ttft_s <= 1.0 + 1e-9).all()
    over = steady_state(w, setup, [lam * 1.01])
    assert not (over.feasible[0] and over.tpot_s[0] <= 0.05 and over.ttft_s[0] <= 1.0)
    one = plan_serving(LLAMA70, H100, setup, n_gpus=8, mode="aggregated")
    four = plan_serving(LLAMA70, H100, setup, n_gpus=32, mode="aggregated")
    assert four.max_requests_per_s == pytest.approx(4 * one.max_requests_per_s, rel=1e-9)


@pytest.mark.parametrize("mode", ["aggregated", "disaggregated", "best"])
def test_gpus_needed_for_users_meet_the_targets(mode):
    setup = ServingSetup(prompt_len=2048, output_len=512, precision="fp8", ttft_s=1.0, tpot_s=0.05)
    plan = plan_serving(LLAMA70, H100, setup, users=2000, mode=mode)
    assert plan.fits and plan.max_concurrent_users >= 2000
    assert plan.ttft_s <= 1.0 + 1e-9 and plan.tpot_s <= 0.05 + 1e-9
    smaller = plan_serving(LLAMA70, H100, setup, users=500, mode=mode)
    assert smaller.gpus < plan.gpus
    # the capacity of the GPUs found, judged in users as the load was stated, serves the users too
    cap = plan_serving(LLAMA70, H100, setup, n_gpus=plan.gpus, mode=mode, objective="users")
    assert cap.max_concurrent_users >= 2000 * 0.97
    by_requests = plan_serving(LLAMA70, H100, setup, n_gpus=plan.gpus, mode=mode)
    assert cap.max_concurrent_users >= by_requests.max_concurrent_users
    assert by_requests.max_requests_per_s >= cap.max_requests_per_s
    by_rate = plan_serving(LLAMA70, H100, setup, rate_per_s=plan.max_requests_per_s * 0.5, mode=mode)
    assert by_rate.gpus <= plan.gpus


def test_disaggregated_workers_pay_the_kv_transfer():
    setup = ServingSetup(prompt_len=8192, output_len=256, ttft_s=2.0)
    plan = plan_serving(LLAMA70, H100, setup, n_gpus=64, mode="disaggregated")
    assert plan.mode == "disaggregated" and plan.prefill_workers >= 1 and plan.decode_workers >= 1
    # 8192 tokens × 80 layers × 2 × 8 KV heads × 128 × 2 bytes = 2.7 GB over the prefill worker's NICs
    kv = 8192 * 80 * 2 * 8 * 128 * 2
    nic = plan.prefill_tp * 400e9 / 8 * 0.8
    assert plan.kv_transfer_s == pytest.approx(kv / nic, rel=1e-9)
    assert plan.prefill_workers * plan.prefill_tp + plan.decode_workers * plan.decode_tp <= 64


# aiconfigurator 0.12.0, h100_sxm, trtllm 1.3.0rc20, Llama 3.1 70B BF16 TP8, ISL 2048 / OSL 512:
# static_gen TPOT at batch 64 = 16.5 ms; static_ctx TTFT of one 2048-token prompt = 94 ms (see the note)
def test_decode_step_and_prefill_against_aiconfigurator_h100():
    setup = ServingSetup(prompt_len=2048, output_len=512)
    w = worker(LLAMA70, H100, setup, tp=8)
    assert float(w.step_s(64, 0)) == pytest.approx(0.0165, rel=0.20)
    assert float(w.step_s(0, 2048)) == pytest.approx(0.094, rel=0.20)


def test_at_concurrency_holds_the_users_in_flight():
    setup = ServingSetup(prompt_len=2048, output_len=512)
    w = worker(LLAMA70, H100, setup, tp=8)
    op = at_concurrency(w, setup, 64)
    assert float(op.rate_per_s[0] * op.latency_s[0]) == pytest.approx(64, rel=1e-3)


def test_bad_setups_are_refused_with_the_field():
    with pytest.raises(ValidationError, match="precision"):
        ServingSetup(prompt_len=10, output_len=10, precision="int3")
    with pytest.raises(ValidationError, match="ttft_s"):
        ServingSetup(prompt_len=10, output_len=10, ttft_s=0)
    with pytest.raises(ValidationError, match="mode"):
        plan_serving(LLAMA8, H100, ServingSetup(10, 10), n_gpus=8, mode="sideways")
    assert math.isfinite(plan_serving(LLAMA8, H100, ServingSetup(10, 10), n_gpus=8).tpot_s)


@pytest.mark.parametrize("mode", ["aggregated", "disaggregated", "best"])
@pytest.mark.parametrize(
    ("prompt", "output", "think"), [(2048, 512, 0.0), (8192, 256, 0.0), (512, 1024, 5.0)]
)
def test_capacity_judged_in_users_is_the_best_of_every_layout_in_users(mode, prompt, output, think):
    """Oracle: the capacity with objective "users" is the plan of the most users among all the layouts the
    capacity search builds (checked against each single-TP plan: `tp` pins a layout), and never fewer users
    than the capacity judged in requests/s."""
    setup = ServingSetup(prompt_len=prompt, output_len=output, precision="fp8", ttft_s=2.0, tpot_s=0.05,
                         think_time_s=think)  # fmt: skip
    users = plan_serving(LLAMA70, H100, setup, n_gpus=32, mode=mode, objective="users")
    rate = plan_serving(LLAMA70, H100, setup, n_gpus=32, mode=mode)
    assert users.max_concurrent_users >= rate.max_concurrent_users
    assert rate.max_requests_per_s >= users.max_requests_per_s
    for tp in (1, 2, 4, 8):
        try:
            one = plan_serving(LLAMA70, H100, setup, n_gpus=32, mode=mode, tp=tp)
        except Exception:  # a TP the model does not fit
            continue
        if one.fits and one.max_requests_per_s > 0:
            pinned = plan_serving(LLAMA70, H100, setup, n_gpus=32, mode=mode, tp=tp, objective="users")
            assert users.max_concurrent_users >= pinned.max_concurrent_users * (1 - 1e-12)


def test_an_unknown_capacity_objective_is_refused():
    setup = ServingSetup(prompt_len=512, output_len=128)
    with pytest.raises(ValueError, match="objective"):
        plan_serving(LLAMA70, H100, setup, n_gpus=8, objective="tokens")
