"""Steady state of an aggregated replica that does NOT chunk its prefill (ServingSetup.chunked_prefill False):
vLLM's V0 scheduler with `enable_chunked_prefill: False` (the AMD and Dell MLPerf vLLM harnesses).

The scheduler (vLLM V0, vllm/core/scheduler.py `Scheduler._schedule_default`, vllm-project/vllm @ 0dce2b29):
"First, it batches as many prefill requests as possible. And it schedules decodes." — at each step, when prompts
wait, `_schedule_prefills(budget, curr_loras, enable_chunking=False)` takes waiting prompts whole, first come
first served, while their tokens fit the token budget (`SchedulingBudget.can_schedule`: num_batched_tokens +
new ≤ max_num_batched_tokens, and the sequences ≤ max_num_seqs); then "Don't schedule decodes if prefills are
scheduled" (`if len(prefills.seq_groups) == 0: running_scheduled = self._schedule_running(...)`). So a step is
either a prefill-only step of whole prompts (each gets its first token at the step's end) or a decode-only step
of every running sequence; the running decodes stall during prefill steps. A prompt longer than the budget is
never scheduled (`_get_prompt_limit`: min(max_model_len, max_num_batched_tokens) when not chunked), which is why
vLLM requires the budget ≥ max_model_len without chunking (SchedulerConfig; its default is then
max(max_model_len, 2048): serving_worker.worker).

Model (prompts arrive Poisson at λ per replica, mean prompt P̄, O output tokens each):
- the step sequence is a Markov chain on m, the prompts waiting at a step boundary. m = 0: a decode step of the
  B running sequences, a = step(B, 0); m ≥ 1: a prefill step of n = min(m, K) prompts (K = ⌊budget / P̄⌋),
  lasting step(0, n·P̄); the prompts arriving during a step of length D are Poisson(λD), so m' = (m − n) +
  Poisson(λD_n). Truncated at M waiting prompts (the mass there lumped; a rate whose chain reaches it is refused
  as "token budget").
- stationary π of the chain, mean step E[D] = Σ π_m D_m; decode steps per second r_d = π_0 / E[D]. A running
  sequence gets one token per decode step, so the time per token is 1/r_d = E[D]/π_0: the decode step plus the
  share ψ = 1 − π_0·a/E[D] of time in the prefill steps that interleave.
- a request's mean TPOT is the mean of that over its own life, and its life is longer when more prompts arrive
  during it: over a life L the arrivals are λL(1 + ε), E[ε²] = 1/(λL) = 1/B; the prefill share is then ψ(1 + ε),
  the time per token t/(1 − ψ(1 + ε))·(1 − ψ) and the sequences beside it B(1 + ε/(1 − ψ)); requests weight the
  time per token by the batch they share it with, so their mean TPOT is E[D]/π_0 · (1 + ψ/((1 − ψ)²·B)) to first
  order (the simulation shows the same excess: 4–7 % at ψ ≈ 0.6, B ≈ 70). Little: B = λ·(O − 1)·TPOT (the first
  token comes from the prefill step), so a = step(λ(O − 1)·TPOT, 0) and TPOT is the least fixed point T = g(T)
  (bisection: g grows with T).
- TTFT: a request arrives in a step (length-biased: weight π_m·D_m), waits its rest (uniform, D_m/2 in the mean),
  then joins the next prefill step with the k ~ Poisson(λD_m) prompts that arrived in the same step and the m − n
  left over (its own prompt length p and the others at P̄: step(0, (W − 1)·P̄ + p) + its own attention beyond
  the mean, Worker.length_attn); when the W waiting exceed K, the full steps of K ahead of it are added
  (its position taken at the middle of its step's arrivals). The p-quantile over requests: the mixture of these
  uniform waits plus own steps (bisection).
- the TPOT percentile: a request's TPOT is the mean of its O − 1 intervals between tokens, each a decode step and
  then the prefill steps until the next one. At a fixed decode step the intervals are independent, with the first
  three moments of the chain's first passage back to m = 0 (h_k = (I − Q)⁻¹(…), Q the chain among m ≥ 1) plus
  the prompt lengths' variance. They are coupled through the decode batch: the batch at decode step j is the
  prompts admitted in the O − 1 intervals before it, and every sequence waits through the same prefill steps, so
  a run of long intervals (many arrivals) raises the batch, which lengthens the decode steps and the next
  intervals (more arrivals per step). Linearised about the steady state, with x_j an interval's excess and ν_j
  its arrivals' excess (Poisson, variance λ·T_step):
      x_j = β·Σ_{l=1..O−1} (λ·x_{j−l} + ν_{j−l}) + c·ν_j + e_j,
  β = ∂step/∂B · ∂T_step/∂a (one more sequence lengthens the decode step a, and with it the prefill steps its
  arrivals bring), c = ∂T_step/∂λ / T_step (one more arrival in the interval, with the arrivals its prefill
  brings), e_j the rest of the interval's variance (white); β, c are the chain's finite differences. Its spectrum
  S_x = (|βW + c|²·λT_step + Var e)/|1 − βλW|² (W the window of O − 1 intervals; loop gain βλ(O − 1) < 1)
  averaged over a request's O − 1 intervals gives the variance of its TPOT; the decode batch's Poisson spread
  (serving_tails) is its β·ν part. The q-quantile: T + z·sd plus the Cornish–Fisher skewness term of the
  independent intervals' mean ((z² − 1)·γ/6·sd₀, γ = the interval's skewness/√(O − 1)). Against the simulation
  the p99 is within ±8 % (−7.6 … +7.1 % on 16 setups × 3 seeds; without the coupling −22 … 0 %).

Not modelled: AMD's own scheduler knobs (VLLM_LLAMA2_MLPERF_SCHED with target decode batches), multi-step
scheduling (num_scheduler_steps: prefills can start only every few decode steps), the max_num_seqs and KV checks
at admission (mean-value limits as in serving_steady), the decode batch's variation inside the chain (a at the
mean B). Checked against a discrete-event simulation of the scheduler (tests/unit/test_serving_unchunked.py).
"""

from __future__ import annotations

from functools import lru_cache
from math import lgamma
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gpuplanner.engine.perf.serving_prompts import PromptLengths
from gpuplanner.engine.perf.serving_setup import ServingSetup
from gpuplanner.engine.perf.serving_tails import tpot_quantile
from gpuplanner.engine.perf.serving_worker import Worker

M_WAIT = 96  # the chain's truncation: at most this many prompts waiting at a step boundary
_LGAMMA = np.array([lgamma(k + 1.0) for k in range(M_WAIT + 1)])


def _poisson(mu: NDArray[Any], n: int) -> NDArray[np.float64]:
    """(..., n + 1) Poisson probabilities of 0 … n − 1 and the tail ≥ n in the last column."""
    k = np.arange(n)
    m = np.maximum(np.asarray(mu, dtype=float), 1e-300)[..., None]
    with np.errstate(under="ignore"):
        pmf = np.exp(k * np.log(m) - m - _LGAMMA[:n])
    tail = np.maximum(1.0 - pmf.sum(axis=-1, keepdims=True), 0.0)
    return np.asarray(np.concatenate([pmf, tail], axis=-1), dtype=np.float64)


def _per_step(w: Worker, K: int, p_mean: float) -> NDArray[np.float64]:
    """Seconds of a prefill step of n = 1 … K prompts of the mean length (index n; index 0 unused)."""
    n = np.arange(K + 1, dtype=float)
    return np.asarray(w.step_s(0.0, n * p_mean), dtype=np.float64)


class _Chain:
    """The step chain at given decode-step lengths a (R,) and rate λ (R,): stationary π (R, M + 1) and its
    steps' lengths D (R, M + 1)."""

    def __init__(self, a: NDArray[Any], lam: NDArray[Any], pre: NDArray[Any], K: int):
        M = M_WAIT
        m = np.arange(M + 1)
        n = np.minimum(m, K)
        left = m - n
        R = len(lam)
        D = np.empty((R, M + 1))
        D[:, 0] = a
        D[:, 1:] = pre[n[1:]][None, :]
        self.D = D
        # P[r, i, j]: from i waiting to j = left_i + arrivals (the tail lumped at M)
        pois = _poisson(lam[:, None] * D, M + 1)  # (R, M + 1, M + 2): 0 … M, tail ≥ M + 1
        j = np.arange(M + 1)
        idx = j[None, :] - left[:, None]  # (from i, to j): the arrivals that take i to j
        P = np.where(idx[None] >= 0, np.take_along_axis(pois, np.maximum(idx, 0)[None].repeat(R, 0), -1), 0.0)
        P[:, :, M] = 0.0
        P[:, :, M] = np.maximum(1.0 - P.sum(axis=-1), 0.0)  # the arrivals beyond M lumped there
        self.P = P
        A = np.transpose(P, (0, 2, 1)) - np.eye(M + 1)[None]
        A[:, -1, :] = 1.0
        b = np.zeros((R, M + 1))
        b[:, -1] = 1.0
        with np.errstate(all="ignore"):
            pi = np.linalg.solve(A, b[..., None])[..., 0]
        pi = np.where(np.isfinite(pi), np.maximum(pi, 0.0), 0.0)
        s = pi.sum(axis=-1, keepdims=True)
        self.pi = pi / np.where(s > 0, s, 1.0)
        self.mean_step = (self.pi * D).sum(axis=-1)
        self.at_top = self.pi[:, -1]


def _g(
    w: Worker, lam: NDArray[Any], T: NDArray[Any], osl: float, pre: NDArray[Any], K: int
) -> tuple[Any, ...]:
    """The per-request TPOT implied by a guess T of it: B = λ(O − 1)T (Little), the chain with decode steps at
    step(B, 0) gives the time per decode step E[D]/π_0 and the share ψ of time in prefill steps; a request's mean
    TPOT is that times 1 + ψ/((1 − ψ)²·B) (module doc: the arrival rate's fluctuation over a request's life)."""
    B = lam * max(osl - 1.0, 0.0) * T
    a = np.asarray(w.step_s(B, 0.0), dtype=float)
    ch = _Chain(a, lam, pre, K)
    p0 = ch.pi[:, 0]
    t_step = np.where(p0 > 1e-12, ch.mean_step / np.maximum(p0, 1e-12), np.inf)
    psi = np.clip(1.0 - p0 * a / np.maximum(ch.mean_step, 1e-300), 0.0, 1.0 - 1e-12)
    g = t_step * (1.0 + psi / ((1.0 - psi) ** 2 * np.maximum(B, 1.0)))
    return g, ch, B


def budget_prompts(w: Worker, setup: ServingSetup) -> int:
    """K: whole prompts of the mean length one prefill step takes within the token budget (and max_seqs)."""
    K = max(1, int(w.budget_tokens // max(setup.prompt_len, 1)))
    if np.isfinite(w.max_seqs):
        K = max(1, min(K, int(w.max_seqs)))
    return K


def _solve(w: Worker, setup: ServingSetup, lam: NDArray[Any]) -> tuple[Any, ...]:
    """The least fixed point TPOT = g(TPOT) per rate (bisection in log T), the chain and B there."""
    osl = float(setup.output_len)
    K = budget_prompts(w, setup)
    pre = _per_step(w, min(K, M_WAIT), float(setup.prompt_len))
    lo = np.full(lam.shape, float(w.step_s(0.0, 0.0)) * 0.999)
    hi = np.full(lam.shape, 1.0e3)
    g_hi = _g(w, lam, hi, osl, pre, K)[0]
    ok = g_hi <= hi
    for _ in range(56):
        mid = np.sqrt(lo * hi)
        g = _g(w, lam, mid, osl, pre, K)[0]
        below = g <= mid
        hi = np.where(below, mid, hi)
        lo = np.where(below, lo, mid)
    T = np.where(ok, hi, np.inf)
    g, ch, B = _g(w, lam, np.where(ok, hi, 1.0), osl, pre, K)
    return T, ch, B, K, pre


def _ttft(
    w: Worker, setup: ServingSetup, lam: NDArray[Any], ch: _Chain, K: int, q: float | None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(mean TTFT, its q-quantile over requests; the mean when q is None) per rate (module doc)."""
    M = M_WAIT
    dist = setup.prompt_dist or PromptLengths((float(setup.prompt_len),), (1.0,))
    pl, pw = dist.p, dist.w
    attn = w.length_attn(len(pl))
    pbar = float(setup.prompt_len)
    m = np.arange(M + 1)
    n = np.minimum(m, K)
    left = (m - n).astype(float)
    kk = np.arange(M + 1, dtype=float)
    W = (
        left[:, None] + kk[None, :] + 1.0
    )  # (states, arrivals): waiting at the boundary, the request among them
    own_n = np.minimum(W, K)
    ahead = np.floor((left[:, None] + kk[None, :] / 2.0) / K)  # the full steps of K ahead of it
    full = float(w.step_s(0.0, K * pbar))
    # (states, arrivals, lengths): its own step with its own prompt and the others at the mean, the steps ahead
    own = np.asarray(w.step_s(0.0, ((own_n - 1.0) * pbar)[..., None] + pl[None, None, :]), dtype=float)
    own = own + attn[None, None, :] + (ahead * full)[..., None]
    means = np.full(lam.shape, np.inf)
    quants = np.full(lam.shape, np.inf)
    for r in range(len(lam)):
        D = ch.D[r]
        wgt = ch.pi[r] * D
        if not np.isfinite(lam[r]) or wgt.sum() <= 0:
            continue
        wgt = wgt / wgt.sum()
        pk = _poisson(lam[r] * D, M + 1)[:, : M + 1]
        pk = pk / np.maximum(pk.sum(axis=-1, keepdims=True), 1e-300)
        prob = (wgt[:, None] * pk)[..., None] * pw[None, None, :]
        Dm = np.broadcast_to(D[:, None, None], own.shape)
        means[r] = float(((own + Dm / 2.0) * prob).sum())
        if q is None:
            quants[r] = means[r]
            continue
        keep = prob > 1e-15
        o, d, pr = own[keep], Dm[keep], prob[keep]
        lo, hi = 0.0, float((o + d).max())
        for _ in range(44):
            t = 0.5 * (lo + hi)
            tail = float((np.clip((o + d - t) / np.maximum(d, 1e-300), 0.0, 1.0) * pr).sum())
            lo, hi = (t, hi) if tail > 1.0 - q else (lo, t)
        quants[r] = hi
    return means, quants


def _first_passage(ch: _Chain, r: int) -> tuple[float, float, float]:
    """Mean, variance and third cumulant of one interval between a sequence's tokens at rate index r: a decode
    step, then the prefill steps until the next decode step (first-passage moments of the chain back to m = 0)."""
    M = M_WAIT
    Q = ch.P[r, 1:, 1:]
    d1 = ch.D[r, 1:]
    inv = np.linalg.inv(np.eye(M) - Q)
    h1 = inv @ d1
    h2 = inv @ (d1**2 + 2.0 * d1 * (Q @ h1))
    h3 = inv @ (d1**3 + 3.0 * d1**2 * (Q @ h1) + 3.0 * d1 * (Q @ h2))
    p0, a = ch.P[r, 0, 1:], ch.D[r, 0]
    c1, c2, c3 = p0 @ h1, p0 @ h2, p0 @ h3  # moments of the prefill steps after a decode step
    m1 = a + c1
    m2 = a * a + 2.0 * a * c1 + c2
    m3 = a**3 + 3.0 * a * a * c1 + 3.0 * a * c2 + c3
    return float(m1), float(max(m2 - m1 * m1, 0.0)), float(m3 - 3.0 * m1 * m2 + 2.0 * m1**3)


def _mean_of_life_var(
    n: int, beta_lam: float, beta: float, c: float, nu: float, v_e: float
) -> tuple[float, float]:
    """Variance of the mean of n consecutive intervals x_j of the linear model (module doc)
    x_j = β·Σ_{l=1..n} (λ·x_{j−l} + ν_{j−l}) + c·ν_j + e_j, ν white of variance `nu`, e white of variance `v_e`:
    its spectrum S_x = (|βW + c|²·ν + v_e)/|1 − βλW|² (W the window of the n intervals before, |H|² the
    mean over n) integrated on a grid of 64·n frequencies; and the same without the batch (β = 0)."""
    N = 1 << int(np.ceil(np.log2(64 * n)))
    om = 2.0 * np.pi * np.arange(1, N) / N  # ω = 0 apart: W(0) = n, H(0) = 1
    e1 = np.exp(-1j * om)
    box = (1.0 - np.exp(-1j * om * n)) / (1.0 - e1)  # Σ_{l=0}^{n−1} e^{−iωl}
    W = np.concatenate([[complex(n)], e1 * box])
    H2 = np.concatenate([[1.0], np.abs(box / n) ** 2])
    S = (np.abs(beta * W + c) ** 2 * nu + v_e) / np.abs(1.0 - beta_lam * W) ** 2
    return float(np.mean(H2 * S)), float((c * c * nu + v_e) / n)


def _tpot_target(
    w: Worker,
    setup: ServingSetup,
    lam: NDArray[Any],
    T: NDArray[Any],
    B: NDArray[Any],
    ch: _Chain,
    pre: NDArray[Any],
    K: int,
) -> NDArray[np.float64]:
    """The TPOT at the setup's percentile over requests (module doc: the intervals of a request's life coupled
    through the decode batch); the mean without one."""
    if setup.tpot_percentile is None:
        return np.asarray(T, dtype=np.float64)
    q = setup.tpot_percentile / 100.0
    z = NormalDist().inv_cdf(q)
    dist = setup.prompt_dist or PromptLengths((float(setup.prompt_len),), (1.0,))
    var_p = float(dist.p**2 @ dist.w) - dist.mean**2
    fixed = float(w.step_s(0.0, 0.0))
    b = float(w.step_s(0.0, float(setup.prompt_len)) - fixed) / float(setup.prompt_len)
    steps = max(float(setup.output_len) - 1.0, 1.0)
    n = max(int(round(steps)), 1)
    a = ch.D[:, 0]
    t_step = ch.mean_step / np.maximum(ch.pi[:, 0], 1e-300)
    eps = 1e-3  # the chain's sensitivities by finite differences: to the decode step, to the arrival rate
    ch_a = _Chain(a * (1.0 + eps), lam, pre, K)
    ch_l = _Chain(a, lam * (1.0 + eps), pre, K)
    dt_da = (ch_a.mean_step / np.maximum(ch_a.pi[:, 0], 1e-300) - t_step) / np.maximum(a * eps, 1e-300)
    dt_dl = (ch_l.mean_step / np.maximum(ch_l.pi[:, 0], 1e-300) - t_step) / np.maximum(lam * eps, 1e-300)
    s = np.asarray(w.step_s(B + 1.0, 0.0) - w.step_s(B, 0.0), dtype=float)  # the decode step per sequence
    ex = np.zeros(lam.shape)
    for r in range(len(lam)):
        if not (np.isfinite(t_step[r]) and np.isfinite(dt_da[r]) and np.isfinite(dt_dl[r]) and lam[r] > 0):
            continue
        m1, var, k3 = _first_passage(ch, r)
        var += lam[r] * m1 * b * b * var_p  # and the prompts' lengths
        nu = lam[r] * t_step[r]  # arrivals per interval (Poisson)
        c = max(dt_dl[r], 0.0) / t_step[r]  # an interval's growth per extra arrival in it
        beta = max(s[r] * dt_da[r], 0.0)  # an interval's growth per extra sequence in the batch
        if beta * lam[r] * n >= 1.0:  # the loop gain: no stable linear spread
            ex[r] = np.inf
            continue
        v_e = max(var - c * c * nu, 0.0)
        v_all, v_0 = _mean_of_life_var(n, beta * lam[r], beta, c, nu, v_e)
        sd_b = np.sqrt(max(v_all - v_0, 0.0))  # the part the decode batch's coupling adds
        if np.isfinite(w.max_seqs):  # a capped batch: no request decodes beside more than max_seqs sequences
            sd_b = min(sd_b, beta * max(w.max_seqs - B[r], 0.0) / max(z, 1e-12))
        sd = np.sqrt(v_0 + sd_b * sd_b)
        sd_0 = np.sqrt(var / steps)  # independent intervals: the skewness of their mean (Cornish–Fisher)
        skew = k3 / max(var, 1e-300) ** 1.5 / np.sqrt(steps)
        ex[r] = z * sd + sd_0 * (z * z - 1.0) * skew / 6.0
    return np.asarray(T + ex, dtype=np.float64)


def saturated(w: Worker, setup: ServingSetup) -> tuple[float, float, float] | None:
    """At the cap on sequences (Worker.max_seqs; None when uncapped): (rate, time per token, prefill step s).

    With every slot taken, `_schedule_prefills` admits only as many prompts as the last decode step finished
    (`SchedulingBudget.can_schedule`: running + new ≤ max_num_seqs), so the steps alternate: a decode step of the
    cap, then a prefill step of the k = cap/(O − 1) prompts that replace the finished sequences (k < 1: one
    prompt every 1/k decode steps; more than the budget: in several steps). A cycle τ = step(cap, 0) + that
    prefill; each sequence lives O − 1 cycles, so the rate is k/τ."""
    if not np.isfinite(w.max_seqs):
        return None
    cap, osl, pbar = float(w.max_seqs), max(float(setup.output_len) - 1.0, 1.0), float(setup.prompt_len)
    k = cap / osl
    per_step = max(1.0, float(budget_prompts(w, setup)))
    n = max(k, 1.0)
    steps = np.ceil(n / per_step)
    pre = steps * float(w.step_s(0.0, n / steps * pbar)) * min(k, 1.0)
    tau = float(w.step_s(cap, 0.0)) + pre
    return k / tau, tau, pre


def steady_state_unchunked(w: Worker, setup: ServingSetup, rate_per_s: Any) -> Any:
    """serving_steady.Operating of a non-chunking replica at each rate (module doc)."""
    from gpuplanner.engine.perf.serving_steady import Operating

    lam = np.atleast_1d(np.asarray(rate_per_s, dtype=float))
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    T, ch, B, K, pre = _solve(w, setup, lam)
    finite = np.isfinite(T)
    q = None if setup.ttft_percentile is None else setup.ttft_percentile / 100.0
    ttft, ttft_t = _ttft(w, setup, lam, ch, K, q)
    r_p = (1.0 - ch.pi[:, 0]) / np.maximum(ch.mean_step, 1e-300)
    per_prefill = np.where(r_p > 0, lam * isl / np.maximum(r_p, 1e-300), 0.0)  # tokens per prefill step
    kv = B * (isl + osl / 2.0) + lam * ttft * isl / 2.0
    limit = np.full(lam.shape, "", dtype=object)
    limit[kv > w.kv_capacity_tokens] = "kv cache"
    limit[np.asarray(B) > w.max_seqs] = "max seqs"
    limit[ch.at_top > 1e-6] = "token budget"  # the prompts waiting outgrow the chain: the queue grows
    limit[~finite] = "compute"
    feasible = (limit == "") & w.fits
    tpot = np.where(finite, T, np.inf)
    ttft = np.where(feasible, ttft, np.inf)
    ttft_t = np.where(feasible, ttft_t, np.inf)
    tpot_t = np.where(finite, _tpot_target(w, setup, lam, np.where(finite, T, 0.0), B, ch, pre, K), np.inf)
    sat = saturated(w, setup)
    if sat is not None:  # where the free-running batch would pass the cap: admission at the cap (`saturated`)
        lam_s, tau, pre_s = sat
        at_cap = (limit == "max seqs") & (lam <= lam_s)
        if at_cap.any():
            cap = float(w.max_seqs)
            B = np.where(at_cap, cap, B)
            tpot = np.where(at_cap, tau, tpot)
            # the step in progress and the prompt's own prefill step (a wait for a free slot is not added: the
            # mean-value bound of serving_steady at the cap)
            ttft = np.where(at_cap, tau / 2.0 + pre_s, ttft)
            ttft_t = np.where(at_cap, tau + pre_s, ttft_t)
            tpot_t = np.where(
                at_cap, np.asarray(tpot_quantile(w, np.full_like(lam, tau), B, None), dtype=float), tpot_t
            )
            if setup.tpot_percentile is not None:
                q_t = setup.tpot_percentile / 100.0
                tpot_t = np.where(
                    at_cap, np.asarray(tpot_quantile(w, np.full_like(lam, tau), B, q_t)), tpot_t
                )
            kv = np.where(at_cap, B * (isl + osl / 2.0) + lam * ttft * isl / 2.0, kv)
            limit = np.where(at_cap, np.where(kv > w.kv_capacity_tokens, "kv cache", ""), limit).astype(
                object
            )
            feasible = (limit == "") & w.fits
    return Operating(
        rate_per_s=lam,
        tpot_s=tpot,
        ttft_s=ttft,
        decode_batch=np.where(finite, B, np.inf),
        prefill_tokens_per_step=per_prefill,
        kv_tokens=kv,
        feasible=feasible,
        limit=limit,
        latency_s=ttft + max(osl - 1.0, 0.0) * tpot,
        ttft_target_s=ttft_t,
        tpot_target_s=tpot_t,
    )


def _meets(op: Any, setup: ServingSetup, extra: float) -> bool:
    ok = bool(op.feasible[0])
    if setup.ttft_s is not None:
        ok &= bool(op.ttft_target_s[0] + extra <= setup.ttft_s)
    if setup.tpot_s is not None:
        ok &= bool(op.tpot_target_s[0] <= setup.tpot_s)
    return ok


def _why(op: Any, setup: ServingSetup, extra: float) -> str:
    if op.limit[0]:
        return str(op.limit[0])
    if setup.tpot_s is not None and op.tpot_target_s[0] > setup.tpot_s:
        return "tpot"
    if setup.ttft_s is not None and op.ttft_target_s[0] + extra > setup.ttft_s:
        return "ttft"
    return "compute"


def max_rate_unchunked(w: Worker, setup: ServingSetup, extra_ttft_s: float = 0.0) -> tuple[float, str]:
    """The largest steady rate a non-chunking replica sustains within the targets, and what binds next
    (bisection: TTFT, TPOT, KV use and the batch grow with the rate, so the feasible rates are an interval from 0)."""
    try:
        return _max_rate(w, setup, float(extra_ttft_s))
    except TypeError:  # an argument that cannot be hashed: not kept
        return _max_rate.__wrapped__(w, setup, float(extra_ttft_s))


@lru_cache(maxsize=1024)
def _max_rate(w: Worker, setup: ServingSetup, extra: float) -> tuple[float, str]:
    if not w.fits:
        return 0.0, "memory"
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    per_req = osl * (w.mem_b_s + w.cmp_b_s) + isl * w.cmp_c_s + (osl + isl) * w.k_tok_s
    hi = 1.0 / max(per_req, 1e-30)
    lo = 0.0
    op0 = steady_state_unchunked(w, setup, [hi * 1e-6])
    if not _meets(op0, setup, extra):
        return 0.0, _why(op0, setup, extra)
    lo = hi * 1e-6
    why = "compute"
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        op = steady_state_unchunked(w, setup, [mid])
        if _meets(op, setup, extra):
            lo = mid
        else:
            hi, why = mid, _why(op, setup, extra)
        if hi - lo < 1e-7 * hi:
            break
    return float(lo), why


def at_concurrency_unchunked(w: Worker, setup: ServingSetup, users: float) -> Any:
    """The steady state with `users` requests always in flight (closed loop): λ·latency(λ) = users, bisection."""
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    per_req = osl * (w.mem_b_s + w.cmp_b_s) + isl * w.cmp_c_s + (osl + isl) * w.k_tok_s
    lo, hi = 0.0, 1.0 / max(per_req, 1e-30)
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        op = steady_state_unchunked(w, setup, [mid])
        n = mid * float(op.latency_s[0]) if np.isfinite(op.latency_s[0]) else np.inf
        lo, hi = (mid, hi) if n < users else (lo, mid)
    return steady_state_unchunked(w, setup, [lo])
