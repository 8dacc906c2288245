"""Steady state of one serving worker at a request rate (continuous batching with chunked prefill, or
decode only), its capacity within TTFT/TPOT targets, and the state at a fixed concurrency.

In steady state at λ requests/s with prompt P and output O tokens, Little's law gives the decode batch
B = λ·O·T and the prefill tokens per step C = λ·P·T, where T is the step time (TPOT). The step is linear in
(B, C), so T = step(λOT, λPT) has the closed form T* = α / (1 − λβ) while λβ < 1 (the capacity); with MoE
experts the expected expert reads are concave in the step's tokens and T is found by bisection between the
closed forms with none and with all experts read. Time to first token of an aggregated replica: the prompt's
own prefill (⌈P / (budget − B)⌉ steps, the last carrying only the prompt's rest, each step at least the mean C
prefill tokens: chunked_prefill_s) plus the wait in the prefill queue, an M/G/1 queue of prefill WORK: while
prompts wait, every step carries `room = budget − B` of their tokens, so a prompt of p tokens holds the
replica's prefill for p · step(B, room) / room (FCFS, work-conserving), and the load is λ·E[work].
Pollaczek–Khinchine gives the mean wait ρ/(2(1 − ρ))·E[S²]/E[S] and the Cramér–Lundberg tail of the M/G/1 wait
its quantiles (serving_prompts.py). A stated distribution of prompt lengths (ServingSetup.prompt_dist, e.g. an
MLPerf dataset's histogram) gives each length its own prefill and the TTFT target holds at the percentile over
requests of wait + own prefill; without one, the stated length is the point mass of the same model (M/D/1). A
prefill-only worker (disaggregated) runs each prompt in chunks of at most the token budget (chunked_prefill_s)
and waits in an M/D/1 queue of token-budget batches, whose quantile comes from Kingman's heavy-traffic law
(J. F. C. Kingman, "The single server queue in heavy traffic", Proc. Cambridge Phil. Soc. 57, 1961): the GI/G/1
wait is approximately exponential; with P(wait > 0) = ρ, the wait given one has mean E[W]/ρ, so the q-quantile
is (E[W]/ρ)·ln(ρ/(1 − q)) (0 while ρ ≤ 1 − q).

A deployment's cap on sequences at once (ServingSetup.max_seqs: vLLM --max-num-seqs, TensorRT-LLM max_batch_size;
else the stack's default, Worker.max_seqs) bounds the steady decode batch: a rate whose B = λ·O·T exceeds it is
infeasible ("max seqs"), so the capacity ends where B reaches the cap, i.e. max_seqs / (O · T(cap)) requests/s.
This is a mean-value bound: requests waiting for a free slot near the cap (an M/G/c wait) are not added to TTFT.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gpuplanner.engine.perf.serving_prompts import PromptLengths, pk_wait, ttft_quantile
from gpuplanner.engine.perf.serving_setup import ServingSetup
from gpuplanner.engine.perf.serving_steps import step_own_s, two_points
from gpuplanner.engine.perf.serving_tails import tpot_quantile
from gpuplanner.engine.perf.serving_worker import Worker


def _fixed_point(alpha: float | NDArray[Any], beta: float | NDArray[Any]) -> NDArray[np.float64]:
    """Least T with T ≥ α + β·T: α / (1 − β), infinite when β ≥ 1 (the rate exceeds the capacity)."""
    a, b = np.broadcast_arrays(np.asarray(alpha, float), np.asarray(beta, float))
    ok = b < 1.0
    return np.where(ok, a / np.where(ok, 1.0 - b, 1.0), np.inf)


@dataclass(frozen=True)
class Operating:
    """A worker at a steady request rate (arrays broadcast over the rates)."""

    rate_per_s: np.ndarray
    tpot_s: np.ndarray
    ttft_s: np.ndarray
    decode_batch: np.ndarray
    prefill_tokens_per_step: np.ndarray
    kv_tokens: np.ndarray
    feasible: np.ndarray
    limit: np.ndarray  # why infeasible: "", "compute", "token budget", "kv cache"
    latency_s: np.ndarray  # TTFT + (O − 1) · TPOT
    ttft_target_s: np.ndarray  # TTFT at the setup's percentile (the mean when it states none)
    tpot_target_s: np.ndarray  # TPOT at the setup's percentile over requests (serving_tails.py)


def wait_quantile(
    mean_wait: float | NDArray[Any], rho: float | NDArray[Any], q: float | None
) -> NDArray[np.float64]:
    """The q-quantile of a single-server queue's wait (Kingman's exponential heavy-traffic law, module doc);
    q None: the mean."""
    m, r = np.broadcast_arrays(np.asarray(mean_wait, float), np.asarray(rho, float))
    if q is None:
        return np.asarray(m, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(r > 1.0 - q, m / np.maximum(r, 1e-300) * np.log(r / (1.0 - q)), 0.0)
    return np.asarray(np.where(np.isfinite(m), out, np.inf), dtype=np.float64)


@dataclass(frozen=True)
class _Decode:
    """steady_state's step at each rate (Little's law and the step's fixed point): each rate on its own, so the
    terms of some of the rates are those rows (rows)."""

    lam: np.ndarray
    tpot: np.ndarray
    finite: np.ndarray
    T: np.ndarray
    B: np.ndarray
    C: np.ndarray
    room: np.ndarray

    def rows(self, n: int) -> _Decode:
        """The first n rates."""
        return _Decode(*(getattr(self, f.name)[:n] for f in fields(self)))


def _decode(w: Worker, setup: ServingSetup, lam: NDArray[Any], prefill: bool) -> _Decode:
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    isl_c = isl if prefill else 0.0
    toks = osl + isl_c
    k0 = w.k0_s + w.gemm_fixed_s  # the per-step constants beside the weights (Worker.step_s)
    per_req = osl * (w.mem_b_s + w.cmp_b_s) + isl_c * w.cmp_c_s + toks * w.k_tok_s
    per_req += isl_c * (w.k_tok_c - w.k_tok_s)  # the prefill tokens' all-reduce rate (0.0 where the same)
    tpot = _fixed_point(w.mem0_s + w.moe_all_s + k0, lam * per_req)  # all routed experts read
    if w.moe_all_s > 0:  # the experts the step's λ·toks·T tokens touch in expectation: concave in T, bisect
        lo = _fixed_point(w.mem0_s + k0, lam * per_req)  # none read
        hi = tpot.copy()
        ok = np.isfinite(hi)
        lo, hi = np.where(ok, lo, 0.0), np.where(ok, hi, 0.0)
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            over = w.mem0_s + k0 + w.moe_s(lam * toks * mid) + lam * per_req * mid > mid
            lo, hi = np.where(over, mid, lo), np.where(over, hi, mid)
        tpot = np.where(ok, hi, np.inf)
    finite = np.isfinite(tpot)
    T = np.where(finite, tpot, 0.0)
    B = lam * osl * T
    C = lam * isl_c * T
    room = w.budget_tokens - B
    return _Decode(lam, tpot, finite, T, B, C, room)


def steady_state(
    w: Worker, setup: ServingSetup, rate_per_s: float | list[float] | NDArray[Any], prefill: bool = True
) -> Operating:
    """Aggregated (prefill=True: chunked prefill mixed into decode steps) or decode-only worker at λ."""
    if prefill and not setup.chunked_prefill:  # whole prompts in their own steps (serving_unchunked.py)
        from gpuplanner.engine.perf.serving_unchunked import steady_state_unchunked

        return steady_state_unchunked(w, setup, rate_per_s)  # type: ignore[no-any-return]
    lam = np.atleast_1d(np.asarray(rate_per_s, dtype=float))
    return _steady(w, setup, _decode(w, setup, lam, prefill), prefill)


def _steady(w: Worker, setup: ServingSetup, d: _Decode, prefill: bool) -> Operating:
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    lam, tpot, finite, T, B, C, room = d.lam, d.tpot, d.finite, d.T, d.B, d.C, d.room
    if prefill:
        rho = np.divide(C, room, out=np.full_like(C, np.inf), where=room > 0)  # share of the chunk budget
        # Each prompt length its own prefill, and the prefill queue as the M/G/1 of the prefill work (one
        # model for a stated distribution of prompt lengths and for a single length, its point mass): while
        # prompts wait, every step carries `room` of their tokens, so a prompt holds the replica's prefill for
        # p · step(B, room) / room (FCFS, work-conserving).
        dist = setup.prompt_dist or PromptLengths((isl,), (1.0,))
        pl, pw = dist.p, dist.w
        full = np.where(finite & (room > 0), w.step_s(B, np.maximum(room, 1.0)), np.inf)
        attn = w.length_attn(
            len(pl)
        )  # each length's attention beyond the token-weighted mean (serving_worker)
        work = pl[None, :] * (full / np.maximum(room, 1.0))[:, None] + attn[None, :]
        ok = np.isfinite(full)  # finite rates with room (own_prefill is finite at each of them)
        work = np.where(ok[:, None], work, 0.0)
        es, es2 = work @ pw, (work**2) @ pw
        rho_w = np.where(ok, lam * es, np.inf)  # < 1 exactly when C < room (the step is linear in C)
        wait = np.where(ok, pk_wait(rho_w, np.where(ok, es, 1.0), np.where(ok, es2, 1.0)), np.inf)
        ok &= rho_w < 1.0
        # the waits of whole steps beyond the fluid queue: the step in progress at arrival, the no-prefill part
        # of steps, the end of the prompt's last step (serving_steps.py); the fluid own p·F/room inside
        q = None if setup.ttft_percentile is None else setup.ttft_percentile / 100.0
        if q is None:
            own = step_own_s(w, pl, pw, lam, T, B, room, wait, ok) + attn[None, :]
        else:
            own, k2, k3 = step_own_s(w, pl, pw, lam, T, B, room, wait, ok, spread=True)
            own = own + attn[None, :]
        ttft = np.where(ok, np.where(ok[:, None], own, 0.0) @ pw, np.inf) + wait
        if q is None:
            ttft_t = ttft
        else:
            # the step terms' spread: each length's own as the two-point law of its first three moments
            pts, pts_w = two_points(own, pw, np.where(ok[:, None], k2, 0.0), np.where(ok[:, None], k3, 0.0))
            ttft_t = ttft_quantile(pts, pts_w, np.minimum(np.where(ok, rho_w, 1.0), 1.0), q, work, pw)
    else:
        rho = np.zeros_like(B)
        ttft = np.zeros_like(B)
        ttft_t = ttft
    kv = B * (isl + osl / 2.0) + np.where(np.isfinite(ttft), lam * ttft * isl / 2.0, np.inf)
    limit = np.full(lam.shape, "", dtype=object)
    limit[kv > w.kv_capacity_tokens] = "kv cache"
    limit[np.asarray(B) > w.max_seqs] = (
        "max seqs"  # the deployment's cap on sequences at once (ServingSetup.max_seqs)
    )
    limit[(rho >= 1) | (room <= 0)] = "token budget"
    limit[~finite] = "compute"
    feasible = (limit == "") & w.fits
    ttft = np.where(feasible, ttft, np.inf)
    ttft_t = np.where(feasible, ttft_t, np.inf)
    tpot = np.where(finite, tpot, np.inf)
    return Operating(
        rate_per_s=lam,
        tpot_s=tpot,
        ttft_s=ttft,
        decode_batch=B,
        prefill_tokens_per_step=C,
        kv_tokens=kv,
        feasible=feasible,
        limit=limit,
        latency_s=ttft + max(osl - 1.0, 0.0) * tpot,
        ttft_target_s=ttft_t,
        tpot_target_s=np.where(
            finite,
            tpot_quantile(w, T, B, None if setup.tpot_percentile is None else setup.tpot_percentile / 100.0),
            np.inf,
        ),
    )


def chunked_prefill_s(
    w: Worker,
    decode: float | NDArray[Any],
    prompts: float | NDArray[Any],
    room: float | NDArray[Any],
    floor: float | NDArray[Any] = 0.0,
) -> NDArray[np.float64]:
    """Seconds of the steps that prefill a prompt of p tokens in chunks of at most `room` tokens, each step beside
    `decode` decode tokens and carrying at least `floor` prefill tokens (broadcast over the arguments).

    n = ⌈p / room⌉ steps: n − 1 carry a full chunk, the last the rest r = p − (n − 1)·room. A step costs
    Worker.step_s of its tokens: its fixed part (the weights read, the decode tokens, the collectives' latency) once
    per step, its prefill part per token. So the partial last chunk costs its r tokens plus one step's fixed part,
    not a full chunk: for a dense model the sum is n·step(B, 0) + p·∂step/∂c. A step carries at least `floor`
    prefill tokens (an aggregated replica: the other prompts' mean share of a step, C)."""
    p, rm, b, f = np.broadcast_arrays(
        np.asarray(prompts, float), np.maximum(np.asarray(room, float), 1.0), np.asarray(decode, float), floor
    )
    n = np.maximum(np.ceil(p / rm * (1.0 - 1e-12)), 1.0)  # p an exact multiple of the room: no empty step
    r = p - (n - 1.0) * rm
    full = np.where(n > 1.0, w.step_s(b, np.maximum(rm, f)), 0.0)
    return np.asarray((n - 1.0) * full + w.step_s(b, np.maximum(r, f)), dtype=np.float64)


def own_prefill(
    w: Worker,
    prompts: NDArray[Any],
    B: NDArray[Any],
    C: NDArray[Any],
    room: NDArray[Any],
    finite: NDArray[Any],
) -> NDArray[np.float64]:
    """(rates, lengths): a prompt's own prefill in an aggregated worker: its chunks of at most the room beside the
    decode batch B, each step carrying at least the mean C prefill tokens (chunked_prefill_s)."""
    p = np.asarray(prompts, dtype=float)[None, :]
    b, c, rm = (np.asarray(x, dtype=float)[:, None] for x in (B, C, room))
    out = chunked_prefill_s(w, b, p, rm, c)
    return np.asarray(np.where(np.asarray(finite, dtype=bool)[:, None], out, np.inf), dtype=np.float64)


def prefill_service(w: Worker, setup: ServingSetup) -> tuple[float, float, float]:
    """A prefill-only worker: (seconds for one prompt alone, prompts/s at a full token budget, KV transfer s).

    A prompt runs in chunks of at most the token budget (chunked_prefill_s): one longer than the budget costs
    its own tokens plus one step's fixed part per chunk. A full batch is ⌊budget / P⌋ whole prompts in one
    step, or one prompt when P exceeds the budget; never more prompts than the worker's max_seqs."""
    isl = setup.prompt_len
    k = max(1, w.budget_tokens // isl)
    if k > w.max_seqs:  # a stated cap on sequences at once (ServingSetup.max_seqs)
        k = max(1, int(w.max_seqs))
    one = float(chunked_prefill_s(w, 0.0, float(isl), float(w.budget_tokens)))
    full = float(w.step_s(0.0, float(k * isl))) if isl <= w.budget_tokens else one
    transfer = isl * w.kv_token_total_byte / w.nic_byte_per_s
    return one, k / full, transfer


def prefill_queue_load(budget_s: float, service_s: float, q: float | None) -> float:
    """The largest utilisation of a prefill worker (M/D/1, service `service_s` per full batch) whose wait stays
    within `budget_s` in the mean (q None: closed form) or at the q-quantile (wait_quantile; bisection)."""
    if budget_s <= 0:
        return 0.0
    x = budget_s / service_s
    rho = 2.0 * x / (1.0 + 2.0 * x)  # mean wait ρ·D / (2(1 − ρ)) = budget
    if q is None:
        return rho
    lo, hi = 0.0, 1.0  # the wait's quantile grows with the load: bisect
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        wait = float(wait_quantile(mid * service_s / (2.0 * (1.0 - mid)), mid, q))
        lo, hi = (mid, hi) if wait <= budget_s else (lo, mid)
    return lo


def prefill_own_s(w: Worker, setup: ServingSetup) -> NDArray[np.float64] | None:
    """A prefill-only worker with a distribution of prompt lengths: each length's prefill alone plus its KV
    transfer (prefill_service's `one + transfer` per length); None without a distribution."""
    if setup.prompt_dist is None:
        return None
    p = setup.prompt_dist.p
    one = chunked_prefill_s(w, 0.0, p, float(w.budget_tokens)) + w.length_attn(len(p))
    return np.asarray(one + p * w.kv_token_total_byte / w.nic_byte_per_s, dtype=np.float64)


def prefill_queue_load_lengths(
    ttft_s: float, own_s: NDArray[Any], weights: NDArray[Any], service_s: float, q: float | None
) -> float:
    """prefill_queue_load with each prompt length's own prefill + transfer `own_s` (weights: their shares): the
    largest utilisation whose TTFT (M/D/1 wait of the token-budget batches + own prefill) stays within `ttft_s`
    in the mean, or at the q-quantile over requests (serving_prompts.ttft_quantile; bisection)."""
    pw = np.asarray(weights, float) / np.sum(weights)
    if q is None:
        return prefill_queue_load(ttft_s - float(np.asarray(own_s) @ pw), service_s, None)
    own = np.asarray(own_s, dtype=float)[None, :]
    batch = np.array([[service_s]])  # the queue's service: token-budget batches, M/D/1

    def at(rho: float) -> float:
        return float(ttft_quantile(own, pw, np.array([rho]), q, batch, np.ones(1))[0])

    if at(0.0) > ttft_s:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if at(mid) <= ttft_s else (lo, mid)
    return lo


def _meets(op: Operating, setup: ServingSetup, extra_ttft_s: float = 0.0) -> np.ndarray:
    ok = op.feasible.copy()
    if setup.ttft_s is not None:
        ok &= op.ttft_target_s + extra_ttft_s <= setup.ttft_s
    if setup.tpot_s is not None:
        ok &= op.tpot_target_s <= setup.tpot_s
    return ok


def _why(op: Operating, setup: ServingSetup, i: int, extra_ttft_s: float = 0.0) -> str:
    if op.limit[i]:
        return str(op.limit[i])
    if setup.tpot_s is not None and op.tpot_target_s[i] > setup.tpot_s:
        return "tpot"
    if setup.ttft_s is not None and op.ttft_target_s[i] + extra_ttft_s > setup.ttft_s:
        return "ttft"
    return ""


def max_rate(
    w: Worker, setup: ServingSetup, prefill: bool = True, extra_ttft_s: float = 0.0
) -> tuple[float, str]:
    """The largest steady request rate one worker sustains within the targets, and what binds next.

    TTFT, TPOT and KV use all grow with the rate, so the feasible rates are an interval from 0: three
    passes of a 256-point grid locate its end to 1/256³ of the capacity. A pure function of its arguments
    (frozen dataclasses): a plan that asks again for the same worker and setup gets the answer it had."""
    if prefill and not setup.chunked_prefill:  # whole prompts in their own steps (serving_unchunked.py)
        from gpuplanner.engine.perf.serving_unchunked import max_rate_unchunked

        return max_rate_unchunked(w, setup, extra_ttft_s)
    try:
        return _max_rate(w, setup, bool(prefill), float(extra_ttft_s))
    except TypeError:  # an argument that cannot be hashed: not kept
        return _max_rate.__wrapped__(w, setup, bool(prefill), float(extra_ttft_s))


@lru_cache(maxsize=4096)
def _max_rate(w: Worker, setup: ServingSetup, prefill: bool, extra_ttft_s: float) -> tuple[float, str]:
    if not w.fits:
        return 0.0, "memory"
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    isl_c = isl if prefill else 0.0
    toks = osl + isl_c
    b = osl * (w.mem_b_s + w.cmp_b_s) + isl_c * w.cmp_c_s + toks * w.k_tok_s
    b += isl_c * (w.k_tok_c - w.k_tok_s)  # the prefill tokens' all-reduce rate (0.0 where the same)
    hi = 1.0 / max(b, 1e-30)
    lo = 0.0
    why = "compute"
    for _ in range(3):
        grid = np.linspace(lo, hi, 257)[1:]
        f, op = _first_unmet(w, setup, _decode(w, setup, grid, prefill), prefill, extra_ttft_s)
        if f is None:
            lo = grid[-1]
            break
        why = _why(op, setup, f, extra_ttft_s) or why
        if f == 0 and lo == 0.0:
            op0 = steady_state(w, setup, [hi * 1e-9], prefill)
            if not _meets(op0, setup, extra_ttft_s)[0]:
                return 0.0, _why(op0, setup, 0, extra_ttft_s) or why
        lo, hi = (grid[f - 1] if f > 0 else lo), grid[f]
    return float(lo), why


def _surely_unmet(w: Worker, setup: ServingSetup, d: _Decode, prefill: bool) -> np.ndarray:
    """The rates that miss a target or a limit whatever their TTFT (_steady's limits and TPOT target, its KV use
    without the prompts in prefill)."""
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    out = ~d.finite | (d.room <= 0)
    if prefill:
        out |= np.divide(d.C, d.room, out=np.full_like(d.C, np.inf), where=d.room > 0) >= 1
    out |= d.B * (isl + osl / 2.0) > w.kv_capacity_tokens
    out |= np.asarray(d.B) > w.max_seqs
    if setup.tpot_s is not None:
        q = None if setup.tpot_percentile is None else setup.tpot_percentile / 100.0
        out |= np.where(d.finite, tpot_quantile(w, d.T, d.B, q), np.inf) > setup.tpot_s
    return np.asarray(out, dtype=bool)


def _first_unmet(
    w: Worker, setup: ServingSetup, d: _Decode, prefill: bool, extra_ttft_s: float
) -> tuple[int | None, Operating]:
    """The first of the rates that misses the targets (None: none does) and the steady state at the rates up to it.

    The rates are independent, so only those up to the first that surely misses them whatever its TTFT
    (_surely_unmet) need the TTFT terms; the first miss among those is the first miss (if none, all the rates)."""
    n = len(d.lam)
    sure = np.flatnonzero(_surely_unmet(w, setup, d, prefill))
    k = int(sure[0]) + 1 if len(sure) else n
    op = _steady(w, setup, d.rows(k) if k < n else d, prefill)
    bad = np.flatnonzero(~_meets(op, setup, extra_ttft_s))
    if not len(bad) and k < n:
        op = _steady(w, setup, d, prefill)
        bad = np.flatnonzero(~_meets(op, setup, extra_ttft_s))
    return (int(bad[0]) if len(bad) else None), op


def at_concurrency(w: Worker, setup: ServingSetup, users: float, prefill: bool = True) -> Operating:
    """The steady state of one worker with `users` requests always in flight (closed loop, no think time:
    the load of a benchmark client at fixed concurrency). λ·latency(λ) grows with λ: bisection. Rates whose decode
    batch would exceed the worker's max_seqs are infeasible (infinite latency), so the state found never exceeds it."""
    if prefill and not setup.chunked_prefill:  # whole prompts in their own steps (serving_unchunked.py)
        from gpuplanner.engine.perf.serving_unchunked import at_concurrency_unchunked

        return at_concurrency_unchunked(w, setup, users)  # type: ignore[no-any-return]
    isl, osl = float(setup.prompt_len), float(setup.output_len)
    toks = osl + (isl if prefill else 0.0)
    b = osl * (w.mem_b_s + w.cmp_b_s) + (isl if prefill else 0.0) * w.cmp_c_s + toks * w.k_tok_s
    b += (isl if prefill else 0.0) * (
        w.k_tok_c - w.k_tok_s
    )  # the prefill tokens' all-reduce rate (0.0 if same)
    lo, hi = 0.0, 1.0 / max(b, 1e-30)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        op = steady_state(w, setup, [mid], prefill)
        n = mid * float(op.latency_s[0]) if np.isfinite(op.latency_s[0]) else np.inf
        lo, hi = (mid, hi) if n < users else (lo, mid)
    return steady_state(w, setup, [lo], prefill)
