"""A prompt's prefill in chunks (engine/perf/serving_steady.chunked_prefill_s): an aggregated replica's own
prefill and a disaggregated prefill worker's service.

Oracle: a slow per-step loop. Each step carries the decode batch plus the prompt's next chunk (at most the room
beside the batch; in a replica at least the mean prefill tokens C of the other prompts) and costs Worker.step_s
of those tokens; the loop sums the steps until the prompt is in. Checked against the closed form on seeded random
prompt lengths, rooms, batches and C, for a dense and an MoE worker (whose step is concave in its tokens). The
physics: a step's time grows with its tokens, so a partial last chunk costs its tokens plus one step's fixed part
(the weights read, the decode batch, the collectives' latency), not a full chunk. A second oracle runs a whole
replica: a discrete-event simulation of FCFS chunked prefill (Poisson arrivals, prompts drawn from the MLPerf
405B histogram, each step filled from the head of the queue up to the room and timed by step_s, a prompt's first
token at the end of the step holding its last token) against the closed-form TTFT at light load.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.engine.perf.serving import ServingSetup, worker
from gpuplanner.engine.perf.serving_prompts import prompt_lengths
from gpuplanner.engine.perf.serving_setup import serving_assumptions
from gpuplanner.engine.perf.serving_steady import chunked_prefill_s, max_rate, own_prefill, steady_state
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape
from tests.serving_cases import H200, LLAMA2_70, LLAMA3_405, MIXTRAL


def _worker(shape: ModelShape, tp: int, prompt: int = 2048):
    setup = ServingSetup(prompt_len=prompt, output_len=256, precision="fp8", kv_precision="fp8")
    return worker(shape, H200, setup, tp, 1, None, serving_assumptions())


def _steps_loop(w, decode: float, prompt: float, room: float, floor: float = 0.0) -> float:
    """Step by step: each step's tokens = the decode batch + the prompt's next chunk (at least `floor`)."""
    left, total = float(prompt), 0.0
    while left > 1e-9 * room:
        chunk = min(left, room)
        total += float(w.step_s(decode, max(chunk, floor)))
        left -= chunk
    return total


@pytest.mark.parametrize(("shape", "tp"), [(LLAMA2_70, 4), (LLAMA3_405, 8), (MIXTRAL, 2)])
def test_chunked_prefill_matches_a_per_step_loop_on_random_prompts_and_budgets(shape, tp):
    w = _worker(shape, tp)
    rng = np.random.default_rng(20261206)
    n = 300
    prompts = rng.integers(1, 40_000, size=n).astype(float)
    rooms = rng.uniform(64.0, 16_384.0, size=n)
    decode = rng.uniform(0.0, 600.0, size=n)
    floors = np.where(rng.random(n) < 0.5, 0.0, rng.uniform(0.0, 1.0, size=n) * rooms)
    # a prompt of an exact number of chunks, and one token over
    prompts[:20] = np.round(rooms[:20]) * rng.integers(1, 5, size=20)
    rooms[:20] = np.round(rooms[:20])
    prompts[20:40] = prompts[:20] + 1.0
    rooms[20:40] = rooms[:20]
    got = chunked_prefill_s(w, decode, prompts, rooms, floors)
    want = np.array([_steps_loop(w, *a) for a in zip(decode, prompts, rooms, floors, strict=True)])
    assert np.allclose(got, want, rtol=1e-12, atol=0.0)


def test_the_partial_last_chunk_costs_its_tokens_and_one_steps_fixed_part():
    """2,100 tokens at a 2,048-token room: one full step plus a step of 52 tokens, not two full steps. For a dense
    model: n·step(B, 0) + p·∂step/∂c."""
    w = _worker(LLAMA2_70, 4)
    b, room = 100.0, 2048.0
    got = float(chunked_prefill_s(w, b, 2100.0, room))
    assert got == pytest.approx(float(w.step_s(b, 2048.0) + w.step_s(b, 52.0)), rel=1e-12)
    per_token = float(w.step_s(b, 1.0) - w.step_s(b, 0.0))
    assert got == pytest.approx(2 * float(w.step_s(b, 0.0)) + 2100.0 * per_token, rel=1e-9)
    assert got < 2 * float(w.step_s(b, room)) * 0.8  # the old count: two full steps
    # one token over a whole number of chunks: one more step's fixed part and one token's work
    extra = float(chunked_prefill_s(w, b, 2 * room + 1, room) - chunked_prefill_s(w, b, 2 * room, room))
    assert extra == pytest.approx(float(w.step_s(b, 1.0)), rel=1e-9)


def test_own_prefill_is_the_chunk_sum_per_rate_and_length():
    w = _worker(LLAMA3_405, 8, 9429)
    B = np.array([0.0, 50.0, 400.0])
    C = np.array([0.0, 30.0, 300.0])
    room = w.budget_tokens - B
    finite = np.array([True, True, False])
    p = np.array([500.0, 8000.0, 9429.0, 19_988.0])
    got = own_prefill(w, p, B, C, room, finite)
    assert got.shape == (3, 4) and np.all(np.isinf(got[2]))
    for i in range(2):
        for j, pj in enumerate(p):
            assert got[i, j] == pytest.approx(_steps_loop(w, B[i], pj, room[i], C[i]), rel=1e-12)
    # a prompt within the room: one step carrying at least the mean prefill tokens (unchanged)
    assert got[1, 0] == pytest.approx(float(w.step_s(50.0, 500.0)), rel=1e-12)


def _pair_s(shape: ModelShape, tp: int) -> float:
    """Seconds per query-key pair of prefill attention on an H200 TP `tp` FP8 worker, by hand: 4·layers·heads·
    head_dim FLOPs (QK^T and PV) split over tp, at the FP8 GEMM rate (peak × gemm_efficiency × FP8 ratio)."""
    from gpuplanner.engine.perf.assumptions import load_assumptions

    a, g = load_assumptions(), H200.gpu_name
    rate = (
        H200.peak_fp8_tflops
        * 1e12
        * a.number("gemm_efficiency", g)
        * a.number("fp8_gemm_efficiency_ratio", g)
    )
    return 4.0 * shape.layers * shape.heads * (shape.hidden // shape.heads) / tp / rate


def _attn(shape: ModelShape, tp: int, lengths, weights) -> tuple[float, float]:
    """(seconds per pair, the keys per prefill token step_s charges: the token-weighted mean of (p + 1)/2)."""
    p, q = np.asarray(lengths, float), np.asarray(weights, float)
    return _pair_s(shape, tp), float((p * (p + 1) / 2) @ q) / float(p @ q)


def _replica_ttfts(w, decode: float, rate: float, lengths, weights, n: int, seed: int, attn=(0.0, 0.0)):
    """Discrete-event simulation of an aggregated replica's prefill with a fixed decode batch: a prompt joins the
    FCFS queue at the first step boundary after it arrives; each step takes up to the room of queued tokens from
    the head of the queue and lasts step_s(decode, its prefill tokens), plus each chunk's own causal attention
    (positions s+1 … s+c attend s+1 … s+c keys) beyond the mean keys per token step_s charges
    (attn = (seconds per pair, that mean)); with nothing queued, steps are decode only. A prompt's TTFT ends with
    the step that holds its last token."""
    rng = np.random.default_rng(seed)
    room = w.budget_tokens - decode
    arrive = np.cumsum(rng.exponential(1.0 / rate, n))
    left = rng.choice(lengths, size=n, p=weights).astype(float)
    pos = np.zeros(n)
    pair_s, mean_keys = attn
    idle = float(w.step_s(decode, 0.0))
    ttft = np.empty(n)
    t, head, queued = 0.0, 0, 0
    while head < n:
        while queued < n and arrive[queued] <= t:
            queued += 1
        if head == queued:  # decode-only steps until the next arrival
            t += max(np.ceil((arrive[queued] - t) / idle), 1.0) * idle
            continue
        cap, i, done, extra = room, head, [], 0.0
        while cap > 1e-9 and i < queued:
            take = min(cap, left[i])
            s, e = pos[i], pos[i] + take
            extra += pair_s * ((e * (e + 1) - s * (s + 1)) / 2 - take * mean_keys)
            pos[i] = e
            left[i] -= take
            cap -= take
            if left[i] <= 1e-9:
                done.append(i)
            i += 1
        t += float(w.step_s(decode, room - cap)) + extra
        for j in done:
            ttft[j] = t - arrive[j]
        head = done[-1] + 1 if done else head
    return ttft


def test_the_replicas_ttft_matches_a_discrete_event_simulation_at_light_load():
    """405B on one H200 TP8 replica at 5 % of its capacity, prompts from the MLPerf histogram (multi-chunk prompts
    are common: 476 … 19,988 tokens at a room of ~8,190): the closed-form mean and p99 TTFT against the
    simulation (closed form +0.1 % in the mean, +1.1 % at p99; −1.3 % / −0.2 % before the waits of whole steps,
    serving_steps.py, counted the decode step in progress at arrival). Tolerance 2 %. The old count (each prompt ⌈p / room⌉ full steps)
    gave +29 % in the mean and +24 % at p99; its own prefill alone is 40 % over the simulated TTFT."""
    d = prompt_lengths("mlperf-llama3.1-405b")
    setup = ServingSetup(
        prompt_len=9429,
        output_len=685,
        precision="fp8",
        kv_precision="fp8",
        ttft_s=6.0,
        tpot_s=0.175,
        ttft_percentile=99,
        prompt_dist=d,
    )
    w = worker(LLAMA3_405, H200, setup, 8, 1, None, serving_assumptions())
    lam = 0.05 * max_rate(w, setup)[0]
    op = steady_state(w, setup, [lam])
    attn = _attn(LLAMA3_405, 8, d.p, d.w)
    sim = _replica_ttfts(w, float(op.decode_batch[0]), lam, d.p, d.w / d.w.sum(), 60_000, 7, attn)
    assert float(op.ttft_s[0]) == pytest.approx(float(sim.mean()), rel=0.02)
    assert float(op.ttft_target_s[0]) == pytest.approx(float(np.quantile(sim, 0.99)), rel=0.02)
    room = w.budget_tokens - float(op.decode_batch[0])
    old = np.ceil(d.p / room) * float(w.step_s(op.decode_batch[0], room))
    assert float(old @ (d.w / d.w.sum())) > 1.3 * float(sim.mean())


_LOADED = {
    "405b": (LLAMA3_405, 8, "mlperf-llama3.1-405b", 685, 6.0, 0.175),
    "llama2-70b": (LLAMA2_70, 1, "mlperf-llama2-70b", 291, 2.0, 0.2),
    "mixtral": (MIXTRAL, 1, "mlperf-mixtral-8x7b", 146, 2.0, 0.2),
}


@pytest.mark.parametrize(
    ("case", "load"),
    [
        ("405b", 0.5),
        ("405b", 0.8),
        ("405b", 1.0),
        ("llama2-70b", 0.5),
        ("llama2-70b", 1.0),
        ("mixtral", 0.5),
        ("mixtral", 0.8),
    ],
)
def test_the_replicas_ttft_under_load_matches_the_simulation(case, load):
    """The waits of whole steps (serving_steps.py) under load, against the discrete-event simulation: the mean
    within 2 % at 50 % … 100 % of the rate that binds (405B: its p99 TTFT ≤ 6 s; the others their TPOT);
    before them the closed form was −6…−9 % (405B) and −29…−37 % (short prompts: an arrival waits for the step
    in progress and the next one). The 405B p99 is within 8 % and not above the simulation (−4…−5 %; it was −9 %,
    then −6 % before the step terms' spread entered the percentile). The short-prompt p99 (llama2-70b, Mixtral)
    is within 25 % and not above (−13…−22 %; −17…−27 % before the spread, which is second- and third-moment
    only: the rest of the gap is the shape of the step terms' law beyond three moments and Y's spread)."""
    shape, tp, name, out, ttft, tpot = _LOADED[case]
    d = prompt_lengths(name)
    setup = ServingSetup(
        prompt_len=round(d.mean),
        output_len=out,
        precision="fp8",
        kv_precision="fp8",
        ttft_s=ttft,
        tpot_s=tpot,
        ttft_percentile=99,
        tpot_percentile=99,
        prompt_dist=d,
    )
    w = worker(shape, H200, setup, tp, 1, None, serving_assumptions())
    lam = load * max_rate(w, setup)[0]
    op = steady_state(w, setup, [lam])
    n = 40_000
    attn = _attn(shape, tp, d.p, d.w)
    sim = _replica_ttfts(w, float(op.decode_batch[0]), lam, d.p, d.w / d.w.sum(), n, 11, attn)[n // 20 :]
    assert float(op.ttft_s[0]) == pytest.approx(float(sim.mean()), rel=0.02)
    p99 = float(np.quantile(sim, 0.99))
    if case == "405b":
        assert 0.92 * p99 <= float(op.ttft_target_s[0]) <= 1.005 * p99
    else:
        assert 0.75 * p99 <= float(op.ttft_target_s[0]) <= 1.005 * p99


# A disaggregated prefill worker: a prompt longer than the token budget runs in chunks of at most the budget, so it
# costs its own tokens' work (plus one step's fixed part per chunk), not ⌈P / budget⌉ times the whole prompt.
LLAMA3_8 = ModelShape("dense", 32, 4096, 32, 8, 14336, 128256, 8192, gated_mlp=True)


def _prefill_oracle_s(shape: ModelShape, cluster: ClusterSpec, p: int, budget: int) -> float:
    """One prompt alone on a TP1 BF16 prefill worker, counted by hand: its FLOPs (2 per weight of the layers per
    token, the output head once for the last token's logits, causal attention 4·L·heads·head_dim per query-key
    pair over p(p + 1)/2 pairs) at the BF16 GEMM rate; the weights (layers and head; the input embedding is a
    lookup) read once per chunk with the GEMM kernels' fixed part; the activation kernels' bytes per token; no
    collectives at TP1."""
    from gpuplanner.engine.perf.assumptions import load_assumptions
    from gpuplanner.engine.perf.serving_activations import activation_bytes_per_token

    a, sa = load_assumptions(), serving_assumptions()
    g = cluster.gpu_name
    d = shape.hidden // shape.heads  # head width
    h, kv = shape.hidden, shape.kv_heads * d
    per_layer = 2 * h * h + 2 * h * kv + 3 * h * shape.ffn_hidden  # q, o; k, v; gate, up, down
    per_layer += 2 * h  # the two RMSNorm weights
    layers = shape.layers * per_layer
    head = shape.vocab * h
    flops = 2.0 * layers * p + 2.0 * head + 4.0 * shape.layers * shape.heads * d * p * (p + 1) / 2
    rate = cluster.peak_bf16_tflops * 1e12 * a.number("gemm_efficiency", g)
    hbm = cluster.mem_bw_tbyte_per_s * 1e12
    # + the final norm; at the measured BF16 decode-GEMM share of HBM, and the fixed part of the chunk's GEMM
    # kernels: 4 per layer and the head (performance.yaml decode_gemm_*)
    weights_s = (layers + head + h) * 2.0 / (hbm * a.number("decode_gemm_hbm_efficiency_bf16", g))
    weights_s += (4 * shape.layers + 1) * a.number("decode_gemm_fixed_us_bf16", g) * 1e-6
    ew = sa.table("serving_elementwise_bytes")
    act_s = activation_bytes_per_token(shape, 1, 1, False, ew) / (
        hbm * a.number("elementwise_hbm_efficiency")
    )
    chunks = -(-p // budget)
    return flops / rate + chunks * weights_s + p * act_s


@pytest.mark.parametrize("prompt", [1_000, 8_192, 8_193, 20_000, 40_000])
def test_a_prefill_worker_costs_a_prompt_its_own_tokens_not_budget_multiples(prompt):
    from gpuplanner.engine.perf.serving_steady import prefill_service

    setup = ServingSetup(prompt_len=prompt, output_len=256, precision="bf16")
    w = worker(LLAMA3_8, H200, setup, 1, 1, None, serving_assumptions())
    assert w.budget_tokens == 8192 and w.fits
    one, per_s, _ = prefill_service(w, setup)
    assert one == pytest.approx(_prefill_oracle_s(LLAMA3_8, H200, prompt, w.budget_tokens), rel=1e-3)
    # the same as the per-step loop of its chunks, and a prompt above the budget is one prompt per batch
    assert one == pytest.approx(_steps_loop(w, 0.0, prompt, float(w.budget_tokens)), rel=1e-12)
    if prompt > w.budget_tokens:
        assert per_s == pytest.approx(1.0 / one, rel=1e-12)


def test_a_long_prompt_costs_about_its_tokens_on_a_prefill_worker():
    """20,000 tokens at an 8,192-token budget: about 20,000 / 8,192 = 2.44 full budget steps of work (one step's
    fixed part more: three steps), not ⌈20,000 / 8,192⌉ = 3 steps of all 20,000 tokens."""
    from gpuplanner.engine.perf.serving_steady import prefill_own_s, prefill_service

    setup = ServingSetup(prompt_len=20_000, output_len=2_000, precision="fp8", kv_precision="fp8")
    w = worker(LLAMA2_70, H200, setup, 4, 1, None, serving_assumptions())
    one, _, transfer = prefill_service(w, setup)
    fluid = 20_000 / w.budget_tokens * float(w.step_s(0.0, float(w.budget_tokens)))
    assert fluid < one < 1.1 * fluid
    assert one < float(w.step_s(0.0, 20_000.0)) + 3 * float(w.step_s(0.0, 0.0))
    # the same count for each length of a distribution
    from gpuplanner.engine.perf.serving_prompts import PromptLengths

    dist = PromptLengths((10_000.0, 30_000.0), (0.5, 0.5))
    own = prefill_own_s(w, ServingSetup(**{**setup.__dict__, "prompt_dist": dist}))
    assert own is not None
    for p, got in zip(dist.p, own, strict=True):
        want = _steps_loop(w, 0.0, p, float(w.budget_tokens)) + p * w.kv_token_total_byte / w.nic_byte_per_s
        assert got == pytest.approx(want, rel=1e-12)
    assert transfer == pytest.approx(20_000 * w.kv_token_total_byte / w.nic_byte_per_s)


@pytest.mark.parametrize("lengths", [(2_000.0, 20_000.0), (1_000.0, 8_193.0, 40_000.0)])
def test_each_prompt_length_is_charged_its_own_attention(lengths):
    """With a distribution of prompt lengths each prompt's prefill counts its own p(p + 1)/2 query-key pairs, not
    p times the mean prompt's (P̄ + 1)/2: against the hand count (_prefill_oracle_s, independent of the worker's
    coefficients) within 0.1 %, and the worker's per-token prefill FLOPs take the token-weighted mean of the keys
    attended, so the correction is zero over the requests (the queue's load is unchanged). Before: a 20,000-token
    prompt of a 2,000/20,000 mix was charged the 11,000-token prompt's attention per token."""
    from gpuplanner.engine.perf.serving_prompts import PromptLengths
    from gpuplanner.engine.perf.serving_steady import prefill_own_s

    dist = PromptLengths(lengths, tuple(1.0 for _ in lengths))
    setup = ServingSetup(prompt_len=round(dist.mean), output_len=256, precision="bf16", prompt_dist=dist)
    w = worker(LLAMA3_8, H200, setup, 1, 1, None, serving_assumptions())
    own = prefill_own_s(w, setup)
    assert own is not None
    transfer = dist.p * w.kv_token_total_byte / w.nic_byte_per_s
    for p, got in zip(dist.p, own - transfer, strict=True):
        assert got == pytest.approx(_prefill_oracle_s(LLAMA3_8, H200, int(p), w.budget_tokens), rel=1e-3)
    assert float(w.length_attn(len(dist.p)) @ dist.w) == pytest.approx(0.0, abs=1e-12)
