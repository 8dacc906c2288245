"""Prompt lengths that vary per request (engine/perf/serving_prompts.py): the p99 TTFT over requests.

Oracle: a discrete-event simulation (Lindley's recursion, numpy, fixed seeds) of one FCFS prefill server with
Poisson arrivals and each published MLPerf prompt-length histogram, checked against the closed form (P-K mean,
Cramér–Lundberg tail of the wait, own prefill of each length). Tolerance: 1 % plus three standard errors of the
simulated p99 (from 20 batch means). Averaged over 5 seeds × 2·10⁶ arrivals the closed form is within 0.5 % of
the simulated p99 for all three histograms at ρ = 0.3 … 0.9 (docs/notes/s9-tail.md), below the simulation's own
standard error; 1 % is twice that, and the 3·SE term is the simulation's noise (the wait is strongly
autocorrelated at ρ = 0.8, where one run of 10⁶ arrivals scatters by ±2 %). Closed forms besides: the P-K mean, the Lundberg root, the degenerate cases, and the serving engine's use of them.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from gpuplanner.cli import main
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.serving import ServingSetup, plan_serving, worker
from gpuplanner.engine.perf.serving_prompts import (
    PromptLengths,
    _datasets,
    datasets_path,
    lundberg,
    pk_wait,
    prompt_lengths,
    ttft_quantile,
)
from gpuplanner.engine.perf.serving_setup import serving_assumptions
from gpuplanner.engine.perf.serving_steady import max_rate, own_prefill, steady_state, wait_quantile
from gpuplanner.engine.perf.serving_steps import step_own_s
from tests.serving_cases import H200, LLAMA2_70, LLAMA3_405

DATASETS = ("mlperf-llama2-70b", "mlperf-mixtral-8x7b", "mlperf-llama3.1-405b")


def _simulate(own, weights, service, rate, n, seed):
    """TTFT = FCFS wait + own prefill of n Poisson arrivals; the queue serves `service[i]` for a request of
    length i (Lindley: W_{k+1} = max(0, W_k + S_k − A_{k+1}), as a running minimum of the partial sums)."""
    rng = np.random.default_rng(seed)
    i = rng.choice(len(weights), size=n, p=weights)
    s = service[i]
    gaps = rng.exponential(1.0 / rate, size=n)
    d = np.concatenate([[0.0], np.cumsum(s[:-1] - gaps[1:])])
    wait = d - np.minimum.accumulate(np.minimum(d, 0.0))
    return wait + own[i]


def _p99_and_se(t):
    t = t[len(t) // 20 :]  # drop the warm-up
    blocks = np.array_split(t, 20)
    b = np.array([np.percentile(x, 99) for x in blocks])
    return float(np.percentile(t, 99)), float(b.std(ddof=1) / np.sqrt(len(b)))


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("rho", [0.3, 0.6, 0.8])
def test_p99_ttft_matches_a_simulated_mg1_prefill_server(name, rho):
    d = prompt_lengths(name)
    s = 0.05 + 2e-4 * d.p  # a fixed step plus a per-token prefill cost
    rate = rho / float(s @ d.w)
    sim, se = _p99_and_se(_simulate(s, d.w, s, rate, 1_000_000, seed=7))
    got = float(ttft_quantile(s[None, :], d.w, np.array([rho]), 0.99)[0])
    assert got == pytest.approx(sim, rel=0.01 + 3 * se / sim)
    # the mean prompt's M/D/1 figure misses the tail: below the simulation for every dataset at ρ ≥ 0.6
    if rho >= 0.6:
        one = float(s @ d.w)
        md1 = one + float(wait_quantile(rho * one / (2 * (1 - rho)), rho, 0.99))
        assert md1 < sim


def test_p99_ttft_with_a_separate_queue_service_matches_a_simulation():
    """The disaggregated prefill worker: the queue serves token-budget batches (M/D/1), each request then has
    its own prefill and KV transfer."""
    d = prompt_lengths("mlperf-llama3.1-405b")
    own = 0.1 + 2e-4 * d.p
    batch = 1.5
    rho = 0.7
    service = np.full(len(d.p), batch)
    sim, se = _p99_and_se(_simulate(own, d.w, service, rho / batch, 1_000_000, seed=11))
    got = float(ttft_quantile(own[None, :], d.w, np.array([rho]), 0.99, np.array([[batch]]), np.ones(1))[0])
    assert got == pytest.approx(sim, rel=0.01 + 3 * se / sim)


def test_pollaczek_khinchine_mean_and_its_deterministic_case():
    s = np.array([1.0, 3.0])
    w = np.array([0.5, 0.5])
    lam = 0.2
    es, es2 = s @ w, (s**2) @ w
    rho = lam * es
    assert pk_wait(np.array(rho), es, es2) == pytest.approx(lam * es2 / (2 * (1 - rho)))
    # one length: M/D/1, ρD/(2(1−ρ))
    assert pk_wait(np.array(0.5), 2.0, 4.0) == pytest.approx(0.5 * 2.0 / (2 * 0.5))
    assert np.isinf(pk_wait(np.array(1.0), 1.0, 1.0))


def test_lundberg_root_and_constant():
    s = np.array([[0.5, 1.0, 4.0]])
    w = np.array([0.2, 0.5, 0.3])
    rho = np.array([0.6])
    gamma, c = lundberg(rho, s, w)
    lam = rho[0] / float(s[0] @ w)
    g = float(gamma[0])
    assert g > 0
    assert lam * (np.exp(g * s[0]) @ w - 1.0) == pytest.approx(g, rel=1e-9)
    assert float(c[0]) == pytest.approx((1 - rho[0]) / (lam * ((s[0] * np.exp(g * s[0])) @ w) - 1.0))
    # no load: no wait; full load: no root
    g0, c0 = lundberg(np.array([0.0]), s, w)
    assert np.isinf(g0[0]) and c0[0] == 0.0
    g1, _ = lundberg(np.array([1.0]), s, w)
    assert g1[0] == 0.0


def test_without_load_the_ttft_quantile_is_the_own_prefill_quantile():
    d = prompt_lengths("mlperf-llama2-70b")
    s = 1e-3 * d.p
    assert float(ttft_quantile(s[None, :], d.w, np.array([0.0]), 0.99)[0]) == pytest.approx(
        1e-3 * d.quantile(0.99), rel=1e-6
    )
    assert np.isinf(ttft_quantile(s[None, :], d.w, np.array([1.0]), 0.99)[0])


@pytest.mark.parametrize("name", DATASETS)
def test_histograms_carry_the_published_statistics(name):
    entry = _datasets(str(datasets_path()))[name]
    stats = entry["prompt"]
    d = prompt_lengths(name)
    assert "openshift-psap/performance-dashboard" in entry["source"] and entry["as_of"]
    assert sum(b[1] for b in stats["bins"]) == stats["samples"]
    assert d.mean == pytest.approx(stats["mean"], abs=0.05)  # each bin carries its own mean
    assert abs(d.quantile(0.99) - stats["p99"]) <= stats["bin_width"]
    assert stats["min"] <= min(d.lengths) and max(d.lengths) <= stats["max"]


def test_the_mlperf_means_are_the_ones_the_rows_state():
    assert round(prompt_lengths("mlperf-llama2-70b").mean) == 222
    assert round(prompt_lengths("mlperf-mixtral-8x7b").mean) == 427
    assert round(prompt_lengths("mlperf-llama3.1-405b").mean) == 9429


def _setup(prompt, dist=None, **kw):
    return ServingSetup(
        prompt_len=prompt,
        output_len=685,
        precision="fp8",
        kv_precision="fp8",
        ttft_s=6.0,
        tpot_s=0.175,
        ttft_percentile=99,
        tpot_percentile=99,
        prompt_dist=dist,
        **kw,
    )


def test_the_long_tail_raises_the_p99_ttft_of_an_aggregated_replica():
    d = prompt_lengths("mlperf-llama3.1-405b")
    base = _setup(9429)
    w = worker(LLAMA3_405, H200, base, 8, 1, None, serving_assumptions())
    lam = np.array([0.01, 0.05, 0.1])
    old = steady_state(w, base, lam)
    new = steady_state(w, dataclasses.replace(base, prompt_dist=d), lam)
    room = w.budget_tokens - old.decode_batch
    p99_own = own_prefill(
        w, np.array([d.quantile(0.99)]), old.decode_batch, old.prefill_tokens_per_step, room, old.feasible
    )
    assert np.all(new.ttft_target_s >= p99_own[:, 0] - 1e-12)  # at least the p99 prompt's own prefill
    assert np.all(new.ttft_target_s > old.ttft_target_s)
    # the steady state (batch, step) does not depend on the shape of the distribution, only its mean
    assert np.array_equal(new.tpot_s, old.tpot_s) and np.array_equal(new.decode_batch, old.decode_batch)
    assert max_rate(w, dataclasses.replace(base, prompt_dist=d))[0] < max_rate(w, base)[0]


def test_a_single_prompt_length_is_the_point_mass_of_the_same_queue_model():
    """One model: without a distribution the replica's TTFT is the M/G/1 of prefill work at the point mass of
    the stated length (M/D/1), not a second formula; and the M/D/1 mean wait is P-K with E[S^2] = E[S]^2."""
    base = _setup(9429)
    w = worker(LLAMA3_405, H200, base, 8, 1, None, serving_assumptions())
    lam = np.array([0.01, 0.05, 0.1, 0.2])
    point = PromptLengths((9429.0,), (1.0,))
    a, b = steady_state(w, base, lam), steady_state(w, dataclasses.replace(base, prompt_dist=point), lam)
    for f in ("ttft_s", "ttft_target_s", "tpot_s", "decode_batch", "kv_tokens"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    # the load is the prefill WORK: a prompt holds the replica for p · step(B, room) / room
    room = w.budget_tokens - a.decode_batch
    work = 9429.0 * w.step_s(a.decode_batch, room) / room
    rho = lam * work
    ok = rho < 1
    mean_wait = rho * work / (2 * (1 - rho))
    # plus the waits of whole steps (serving_steps.py), at that wait
    own = step_own_s(
        w, np.array([9429.0]), np.ones(1), lam, a.tpot_s, a.decode_batch, room, mean_wait, a.feasible & ok
    )[:, 0]
    assert np.allclose(a.ttft_s[ok], own[ok] + mean_wait[ok], rtol=1e-9)


def test_a_plan_meets_its_p99_ttft_with_the_distribution_in_both_modes():
    d = prompt_lengths("mlperf-llama2-70b")
    setup = dataclasses.replace(_setup(222, d), ttft_s=0.45, tpot_s=0.04, output_len=290)
    for mode in ("aggregated", "disaggregated"):
        plan = plan_serving(LLAMA2_70, H200, setup, n_gpus=8, mode=mode)
        assert plan.fits and plan.max_requests_per_s > 0, mode
        assert plan.ttft_s < 0.45


def test_a_distribution_whose_mean_is_not_the_prompt_is_refused_naming_the_field():
    d = prompt_lengths("mlperf-llama2-70b")
    with pytest.raises(ValidationError) as e:
        _setup(2048, d)
    assert e.value.field == "--prompt" and "222" in str(e.value)
    with pytest.raises(ValidationError) as e:
        prompt_lengths("no-such-set")
    assert e.value.field == "--prompt-dataset" and "mlperf-llama2-70b" in (e.value.hint or "")
    with pytest.raises(ValidationError):
        PromptLengths((100.0, -1.0), (1.0, 1.0))


def test_estimate_inference_takes_a_prompt_dataset(capsys):
    argv = ["estimate", "--inference", "--json", "--layers", "80", "--hidden", "8192", "--heads", "64"]
    argv += [
        "--kv-heads",
        "8",
        "--ffn",
        "28672",
        "--vocab",
        "32000",
        "--seq",
        "4096",
        "--gpu",
        "nvidia-h200-sxm",
    ]
    argv += ["--gpus", "8", "--precision", "fp8", "--output", "290", "--ttft", "2", "--tpot", "0.2"]
    argv += ["--ttft-percentile", "99"]
    assert main([*argv, "--prompt", "222"]) == 0
    plain = json.loads(capsys.readouterr().out)["serving"]
    assert main([*argv, "--prompt", "222", "--prompt-dataset", "mlperf-llama2-70b"]) == 0
    dist = json.loads(capsys.readouterr().out)["serving"]
    assert dist["max_requests_per_s"] <= plain["max_requests_per_s"] * (1 + 1e-9)
    assert main([*argv, "--prompt", "2048", "--prompt-dataset", "mlperf-llama2-70b"]) == 2
    assert "--prompt 222" in capsys.readouterr().err
