"""Terms of the serving step against closed forms and independent counts.

Oracles: (1) the expected number of distinct experts a batch routes to, E·(1 − (1 − k/E)^n), against a
Monte-Carlo of top-k routing with a fixed seed; (2) the KV tokens held and the keys attended with sliding-window
layers against a per-layer, per-position loop; (3) attention FLOPs per token against PaLM's count (Chowdhery et
al. 2022, Appendix B: 6N + 12·L·H·Q·T training FLOPs per token, i.e. 4·L·H·Q per key in the forward pass);
(4) the activation bytes of a Llama 2 70B layer counted by hand from the kernels.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gpuplanner.engine.perf.kv_cache import experts_read_share, held_tokens, prefill_attended
from gpuplanner.engine.perf.serving import ServingSetup, worker
from gpuplanner.engine.perf.serving_activations import activation_bytes_per_token
from gpuplanner.engine.perf.serving_setup import serving_assumptions
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
LLAMA2_70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 32000, 4096, gated_mlp=True)
MIXTRAL = ModelShape("moe", 32, 4096, 32, 8, 14336, 32000, 4096, experts=8, top_k=2, gated_mlp=True)
WINDOWED = dataclasses.replace(LLAMA8, sliding_window=512, sliding_window_layers=16)


@pytest.mark.parametrize(("k", "e"), [(2, 8), (8, 256), (1, 16)])
def test_distinct_experts_match_a_monte_carlo_of_top_k_routing(k, e):
    rng = np.random.default_rng(20261206)
    for n in (1, 2, 5, 20, 100):
        trials = 4000
        distinct = np.empty(trials)
        for i in range(trials):
            picks = np.concatenate([rng.choice(e, size=k, replace=False) for _ in range(n)])
            distinct[i] = np.unique(picks).size
        expected = e * float(experts_read_share(k, e, n))
        sem = distinct.std() / np.sqrt(trials)
        assert abs(distinct.mean() - expected) <= 4 * sem + 1e-9, (k, e, n, distinct.mean(), expected)
    assert float(experts_read_share(k, e, 1)) == pytest.approx(k / e)  # one token: exactly its k experts


def _held_loop(shape: ModelShape, ctx: int) -> float:
    w = [shape.layers - shape.sliding_window_layers <= i for i in range(shape.layers)]  # last layers windowed
    return sum(min(ctx, shape.sliding_window) if wi else ctx for wi in w) / shape.layers


def _attended_loop(shape: ModelShape, p: int) -> float:
    n_w = shape.sliding_window_layers
    full = sum(range(1, p + 1)) / p  # query i sees keys 1..i
    win = sum(min(i, shape.sliding_window) for i in range(1, p + 1)) / p
    return ((shape.layers - n_w) * full + n_w * win) / shape.layers


@pytest.mark.parametrize("ctx", [1, 100, 512, 513, 3000])
def test_sliding_window_kv_and_attention_match_a_per_layer_loop(ctx):
    assert float(held_tokens(WINDOWED, ctx)) == pytest.approx(_held_loop(WINDOWED, ctx))
    assert float(prefill_attended(WINDOWED, ctx)) == pytest.approx(_attended_loop(WINDOWED, ctx))
    assert float(held_tokens(LLAMA8, ctx)) == ctx  # no window: the whole context


def test_windowed_worker_reads_and_holds_only_the_window():
    setup = ServingSetup(prompt_len=3000, output_len=1000, precision="fp8")
    full, win = worker(LLAMA8, H100, setup, tp=1), worker(WINDOWED, H100, setup, tp=1)
    ctx = 3000 + 1000 / 2
    ratio = _held_loop(WINDOWED, 3500) / ctx
    # KV read per decode token and the bytes per token of context scale with the tokens the layers hold
    assert win.mem_b_s / full.mem_b_s == pytest.approx(ratio)
    assert win.kv_gb_per_token / full.kv_gb_per_token == pytest.approx(ratio)
    assert win.kv_capacity_tokens / full.kv_capacity_tokens == pytest.approx(1 / ratio)
    # attention FLOPs per decode token: 4·L·H·Q per key held (PaLM), the rest of the token's cost unchanged
    rate = (full.cmp_b_s - win.cmp_b_s) / (4 * 32 * 32 * 128 * (ctx - _held_loop(WINDOWED, 3500)))
    gemm_rate = 1979e12 * 0.74 * 0.883  # H100 FP8 GEMM rate of catalogs/assumptions/performance.yaml
    assert 1 / rate == pytest.approx(gemm_rate, rel=1e-6)


def test_decode_attention_flops_are_palms_four_per_key_and_head_dim():
    """Only the context differs: the extra cost per decode token is 4·L·H·Q FLOPs per extra key at the GEMM rate."""
    a = worker(LLAMA2_70, H100, ServingSetup(prompt_len=1000, output_len=200, precision="fp8"), tp=2)
    b = worker(LLAMA2_70, H100, ServingSetup(prompt_len=3000, output_len=200, precision="fp8"), tp=2)
    flops = 4 * 80 * 64 * 128 * 2000 / 2  # per GPU of TP2
    assert (b.cmp_b_s - a.cmp_b_s) == pytest.approx(flops / (1979e12 * 0.74 * 0.883), rel=1e-9)


def test_moe_step_reads_the_expected_distinct_experts():
    w = worker(MIXTRAL, H100, ServingSetup(prompt_len=100, output_len=100, precision="fp8"), tp=1)
    assert w.moe_tok_s == pytest.approx(w.moe_all_s * 2 / 8)
    for n in (1, 3, 10, 100):
        got = float(w.step_s(0.0, float(n)) - w.step_s(0.0, 0.0)) - n * (w.cmp_c_s + w.k_tok_s)
        assert got == pytest.approx(w.moe_all_s * (1 - (6 / 8) ** n), rel=1e-9)


def test_activation_bytes_of_a_llama2_70b_layer_counted_by_hand():
    ew = serving_assumptions().table("serving_elementwise_bytes")
    # TP2, FP8: per layer and token, per GPU (bytes)
    norms = 2 * (2 + 2 + 2 + 2) * 8192  # two fused residual-add + RMSNorm: read x, r; write r, y (bf16)
    attn = (2 + 2) * (32 * 128 + 2 * 4 * 128)  # rotary / KV write / output permute over q, k, v of this rank
    act = (2 + 2 + 2) * 28672 / 2  # SiLU(gate)·up: read two, write one
    casts = (2 + 1) * (8192 + 32 * 128 + 8192 + 28672 / 2)  # GEMM inputs to FP8: QKV, output, gate/up, down
    per_layer = norms + attn + act + casts
    assert activation_bytes_per_token(LLAMA2_70, 2, 1, True, ew) == pytest.approx(80 * per_layer)
    assert activation_bytes_per_token(LLAMA2_70, 2, 1, False, ew) == pytest.approx(80 * (per_layer - casts))
    # MoE (Mixtral, TP1): the activation over both routed experts and the permute of both token copies
    moe_layer = norms / 2 + (2 + 2) * (32 * 128 + 2 * 8 * 128) + 6 * 2 * 14336 + 8 * 2 * 4096
    assert activation_bytes_per_token(MIXTRAL, 1, 1, False, ew) == pytest.approx(32 * moe_layer)


def test_wait_quantile_is_exact_for_an_mm1_queue_simulated_by_lindleys_recursion():
    """Kingman's exponential law is exact for M/M/1: P(W > t) = ρ·exp(−(μ − λ)t). Simulate the waits
    (Lindley: W' = max(0, W + S − A)) with a fixed seed and compare the 99th percentile."""
    from gpuplanner.engine.perf.serving_steady import wait_quantile

    rng = np.random.default_rng(7)
    mu = 1.0
    for rho in (0.5, 0.8):
        n = 400_000
        s, a = rng.exponential(1 / mu, n), rng.exponential(1 / (rho * mu), n)
        w = np.empty(n)
        w[0] = 0.0
        for i in range(1, n):
            w[i] = max(0.0, w[i - 1] + s[i - 1] - a[i])
        mean = rho / (mu - rho * mu)
        assert np.mean(w[10_000:]) == pytest.approx(mean, rel=0.05)
        p99 = float(wait_quantile(mean, rho, 0.99))
        assert p99 == pytest.approx(np.log(rho / 0.01) / (mu - rho * mu))
        assert np.quantile(w[10_000:], 0.99) == pytest.approx(p99, rel=0.06)
    assert float(wait_quantile(1.0, 0.005, 0.99)) == 0.0  # fewer than 1% of arrivals wait at all
    assert float(wait_quantile(2.5, 0.7, None)) == 2.5  # no percentile: the mean


def test_a_percentile_ttft_target_admits_less_load_than_the_same_target_in_the_mean():
    from gpuplanner.engine.perf.serving import max_rate

    base = dict(prompt_len=2048, output_len=256, precision="fp8", ttft_s=0.1, tpot_s=0.2)
    w = worker(LLAMA8, H100, ServingSetup(**base), tp=1)
    mean, _ = max_rate(w, ServingSetup(**base))
    p99, why = max_rate(w, ServingSetup(**base, ttft_percentile=99))
    assert 0 < p99 < 0.95 * mean and why == "ttft"


@pytest.mark.parametrize("bad", [0, 100, -5, 150])
def test_a_ttft_percentile_outside_0_100_is_refused_naming_the_field(bad):
    from gpuplanner.core.errors import ValidationError

    with pytest.raises(ValidationError) as e:
        ServingSetup(prompt_len=10, output_len=10, ttft_s=1.0, ttft_percentile=bad)
    assert e.value.field == "ttft_percentile"


@pytest.mark.parametrize("mode", ["aggregated", "disaggregated", "best"])
def test_a_stated_tp_is_the_layout_served(mode):
    from gpuplanner.engine.perf.serving import plan_serving

    setup = ServingSetup(prompt_len=1000, output_len=1000, precision="fp8")
    free = plan_serving(LLAMA8, H100, setup, n_gpus=8, mode=mode)
    fixed = plan_serving(LLAMA8, H100, setup, n_gpus=8, mode=mode, tp=4)
    tps = {fixed.tp} if fixed.mode == "aggregated" else {fixed.prefill_tp, fixed.decode_tp}
    assert tps == {4} and fixed.max_requests_per_s > 0
    assert fixed.max_requests_per_s <= free.max_requests_per_s * (1 + 1e-9)  # the free choice is the best


def test_static_moe_batch_reads_the_expected_experts_and_pays_the_activation_traffic():
    """estimate_inference (static batch): a Mixtral step at batch B reads the dense weights (not the input
    embedding table, a lookup) plus E(1 − (1 − k/E)^B) of the experts; the activation bytes add
    B × bytes / (HBM · e_elementwise)."""
    from gpuplanner.engine.perf import InferenceConfig, estimate_inference
    from gpuplanner.engine.perf.flops import param_counts

    c = param_counts(MIXTRAL)
    bw = 3.35e12 * 0.75  # decode_hbm_efficiency
    ew = serving_assumptions().table("serving_elementwise_bytes")
    act = activation_bytes_per_token(MIXTRAL, 1, 1, False, ew) / (3.35e12 * 0.62)
    steps = {}
    for b in (1, 2):
        est = estimate_inference(MIXTRAL, InferenceConfig(batch=b, prompt_len=8, output_len=2), H100)
        assert est.bound == "memory bandwidth"
        steps[b] = est.decode_step_s
        if (
            b == 1
        ):  # weights read: all but the input table and the 3/4 of the experts one token does not route to
            kv = 2 * 32 * 8 * 128 * 9 * 2.0
            read = (c["total"] - 32000 * 4096 - c["experts_total"] * 3 / 4) * 2.0 + kv
            t_tp = 0.0
            # the dense weights at the measured BF16 decode-GEMM share of HBM with 4 GEMM kernels' fixed part per
            # layer and the head's (performance.yaml decode_gemm_*: H100 0.852, 4.3 us); experts and KV at 0.75
            dense = (c["total"] - 32000 * 4096 - c["experts_total"]) * 2.0
            rest = read - dense
            fixed = (32 * 4 + 1) * 4.3e-6
            t = dense / (3.35e12 * 0.852) + fixed + rest / (3.35e12 * 0.75)
            assert est.decode_step_s == pytest.approx(t + act + t_tp, rel=1e-6)
    experts = c["experts_total"] * 2.0
    # the KV read and the activation term grow with the batch; the second sequence adds
    # experts × ((1 − (3/4)²) − 1/4) = experts × 3/16 of expert reads
    kv_one = 2 * 32 * 8 * 128 * 9 * 2.0
    extra = experts * (3 / 16) / bw + kv_one / bw + act
    assert steps[2] - steps[1] == pytest.approx(extra, rel=1e-6)


def test_lifetime_mean_occupancy_of_an_md_infinity_queue_has_variance_two_thirds_of_its_mean():
    """serving_tails: Poisson arrivals, each staying D; the number present averaged over a request's own stay has
    variance (2/3)·B. Monte-Carlo with a fixed seed: arrivals on a fine grid, occupancy by a moving sum."""
    rng = np.random.default_rng(11)
    dt, d, lam = 0.01, 10.0, 30.0  # B = λ·D = 300
    n = int(4000 / dt)
    arrivals = rng.poisson(lam * dt, n)
    k = int(d / dt)
    occ = np.convolve(arrivals, np.ones(k), mode="full")[k:n]  # sequences present at each instant
    window = np.convolve(occ, np.ones(k) / k, mode="valid")  # mean over a stay of length D
    assert occ.mean() == pytest.approx(lam * d, rel=0.02)
    assert window.var() == pytest.approx(2 / 3 * lam * d, rel=0.1)


def test_a_p99_tpot_target_admits_less_load_than_the_same_target_in_the_mean():
    from gpuplanner.engine.perf.serving import max_rate
    from gpuplanner.engine.perf.serving_tails import tpot_quantile

    base = dict(prompt_len=1000, output_len=500, precision="fp8", tpot_s=0.03)
    w = worker(LLAMA8, H100, ServingSetup(**base), tp=1)
    mean, why_mean = max_rate(w, ServingSetup(**base))
    p99, why = max_rate(w, ServingSetup(**base, tpot_percentile=99))
    assert why == why_mean == "tpot" and 0 < p99 < mean
    t, b = np.array([0.03]), np.array([400.0])
    per_seq = w.mem_b_s + w.cmp_b_s + w.k_tok_s
    assert float(tpot_quantile(w, t, b, 0.99)[0]) == pytest.approx(
        0.03 + 2.3263 * per_seq * np.sqrt(800 / 3), rel=1e-4
    )


def test_prefill_queue_load_keeps_the_wait_within_its_budget_and_no_more():
    from gpuplanner.engine.perf.serving_steady import prefill_queue_load, wait_quantile

    d = 0.3
    for q in (None, 0.5, 0.9, 0.99):
        for budget in (0.05, 0.5, 3.0):
            rho = prefill_queue_load(budget, d, q)
            mean = rho * d / (2 * (1 - rho))
            assert float(wait_quantile(mean, rho, q)) == pytest.approx(budget, rel=1e-6)
    assert prefill_queue_load(0.5, d, 0.99) < prefill_queue_load(0.5, d, None)


def test_activation_bytes_of_an_mla_layer_use_the_up_projected_widths():
    """DeepSeek-V3 (MLA: 128 heads, d_n 128, d_r 64, d_v 128): the attention I/O runs over Q and K at
    128·192 each and V at 128·128 per token, the output projection's input is 128·128 wide; at TP 8 a rank
    holds an eighth. Only the attention part differs from a GQA layer of the same widths elsewhere."""
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.request import shape_of

    ds = shape_of({"model": "deepseek-v3-671b"}, default_catalog())
    assert ds.is_mla
    ew = serving_assumptions().table("serving_elementwise_bytes")
    gqa = dataclasses.replace(ds, kv_lora_rank=0, q_lora_rank=0, qk_rope_head_dim=0, v_head_dim=0)
    assert not gqa.is_mla
    a = activation_bytes_per_token(ds, 8, 1, True, ew)
    b = activation_bytes_per_token(gqa, 8, 1, True, ew)
    qkv_mla = 128 * (192 + 192 + 128) / 8
    qkv_gqa = ds.heads * ds.head_dim / 8 + 2 * max(ds.kv_heads / 8, 1) * ds.head_dim
    ctx_mla, ctx_gqa = 128 * 128 / 8, ds.heads * ds.head_dim / 8
    per_layer = 4 * (qkv_mla - qkv_gqa) + 3 * (
        ctx_mla - ctx_gqa
    )  # attention I/O; FP8 cast of the o-proj input
    assert a - b == pytest.approx(ds.layers * per_layer)
