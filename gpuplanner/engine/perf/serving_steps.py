"""A request's time to first token in an aggregated replica beyond the fluid prefill queue: the waits that come
from a replica working in whole steps (serving_steady.steady_state).

The fluid model serves prefill work continuously: a prompt of p tokens is p·F/room of work (F = step(B, room),
a full step), and the M/G/1 of that work gives the wait W (Pollaczek–Khinchine, Cramér–Lundberg:
serving_prompts.py). A replica instead works in steps, and a step carrying c < room prefill tokens lasts
a + b·c (a = step(B, 0), the decode-only step; b per prefill token), which is c·F/room of service followed by
a(1 − c/room) in which no prefill work is done (a decode-only step is all of it). Prompts that arrive during a
step join at its end, and a prompt's first token comes at the end of the step that holds its last token. A
request's TTFT is then exactly

    TTFT = X + N + p·F/room + E

X: the work in the system at arrival. The server works at unit rate except in the no-prefill intervals, so by
the work decomposition of Boxma & Groenendijk (O. J. Boxma, W. P. Groenendijk, "Pseudo-conservation laws in
cyclic-service systems", J. Appl. Prob. 24 (1987) 949–964; a generalisation of Fuhrmann & Cooper, "Stochastic
decompositions in the M/G/1 queue with generalized vacations", Oper. Res. 33 (1985)) X is the M/G/1 work W
plus, independently, Y: the work at a random epoch of a no-prefill interval. An interval a(1 − z) (z = c/room)
starts with the work that arrived during the step's c·F/room of service (ρ·zF, ρ = λ·E[p]·F/room) and gains ρ
per second: E[Y] = ρ·E[zF·L + L²/2] / E[L], L = a(1 − z).
N: the rest of the no-prefill part of the step in progress (an arrival in its c·F/room waits all of it, one in it
the residual; steps length-biased by PASTA and renewal theory, Kleinrock, "Queueing Systems, Vol. 1", 1975,
§5.2, residual life E[S²]/(2E[S])): E[N] = E[zF·L + L²/2] / E[S], E[S] = T, the mean step (TPOT).
E: the end of the prompt's last step. Its tokens end at a share φ of that step (U tokens ahead at the boundary:
φ = frac((U + p)/room), 1 for a whole number of chunks); the step also carries the tokens of later prompts
already queued when it starts (fill ≤ room·(1 − φ)) and lasts step(B, φ·room + fill), of which the fluid counts
φ·F: E = step(B, φ·room + fill) − φ·F.

The per-step prefill tokens c: mean C = λ·E[p]·T (Little); second moment from the step-to-step recursion of a
replica that takes in each step what arrived during the previous one (c_{k+1} = tokens arriving in step k, a
compound Poisson count over a step of a + b·c_k: E[S²] = (a² + 2abC + b²λE[p²]T)/(1 − (bλE[p])²)), capped at
room·C (c ≤ room). U: exponential with its mean E[X] − E[service left in the step in progress] in tokens, and
an atom at 0 of mass (1 − ρ)·exp(−λ·E[S²]/(2T)) (no backlog and no arrival ahead in the step in progress):
φ is averaged over the atom and Gauss–Laguerre nodes of the exponential. fill: the tokens of the prompts that
arrive between the request's arrival and the start of its last step (τ = TTFT − that step), a compound
Poisson count: one prompt (its length drawn from the histogram, capped at the room left) with probability
P(1), two or more with the rest of the mean count. τ depends on the TTFT: a short fixed-point iteration.

The spread (for a TTFT percentile): N and E vary from request to request; their variance and third cumulant
(independent terms: cumulants add) go into the percentile as the two-point law with the same first three
moments (the 2-node Gauss quadrature of the law, e.g. Golub & Welsch, Math. Comp. 23 (1969) 221–230), a
mixture point per length beside the Cramér–Lundberg tail of W (serving_prompts.ttft_quantile). N: residual
life, E[N^k] = E[zF·L^k + L^(k+1)/(k+1)] / T, with E[z³], E[z⁴] of a gamma law of z's mean and variance. E: the
mixture over φ's atom and nodes, plus b × the fill, a compound Poisson count (cumulants λτ·E[min(P, cap)^k];
variance at most cap²/4, the most a variable on [0, cap] has). Y (inside X) is kept at its mean.

Checked against a discrete-event simulation of the replica (tests/unit/test_serving_chunks.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from gpuplanner.engine.perf.serving_worker import Worker

_NODES, _NODE_W = np.polynomial.laguerre.laggauss(4)


def _rounding(x: NDArray[Any]) -> NDArray[np.float64]:
    """⌈x⌉ − x with a whole number of chunks at 0 (φ = 1): the room a prompt leaves in its last step."""
    n = np.maximum(np.ceil(x * (1.0 - 1e-12)), 1.0)
    return np.asarray(n - x, dtype=np.float64)


def _mean_min(lengths: NDArray[Any], weights: NDArray[Any], cap: NDArray[Any]) -> NDArray[np.float64]:
    """E[min(P, cap)] over the histogram (piecewise linear in cap, knots at the lengths)."""
    order = np.argsort(lengths)
    p, w = lengths[order], weights[order]
    knots = np.concatenate([[0.0], p])
    below = np.concatenate([[0.0], np.cumsum(w * p)])  # Σ_{p_i ≤ knot} w_i p_i
    above = 1.0 - np.concatenate([[0.0], np.cumsum(w)])  # P(P > knot)
    vals = below + knots * above
    c = np.asarray(cap, dtype=float)
    return np.asarray(np.where(c >= p[-1], float(w @ p), np.interp(c, knots, vals)), dtype=np.float64)


def _moment_min(
    lengths: NDArray[Any], weights: NDArray[Any], cap: NDArray[Any], k: int
) -> NDArray[np.float64]:
    """E[min(P, cap)^k] over the histogram."""
    order = np.argsort(lengths)
    p, w = lengths[order], weights[order]
    below = np.concatenate([[0.0], np.cumsum(w * p**k)])
    above = np.concatenate([[1.0], 1.0 - np.cumsum(w)])
    c = np.asarray(cap, dtype=float)
    j = np.searchsorted(p, c, side="right")
    return np.asarray(below[j] + c**k * np.maximum(above[j], 0.0), dtype=np.float64)


def step_own_s(
    w: Worker,
    lengths: NDArray[Any],
    weights: NDArray[Any],
    lam: NDArray[Any],
    T: NDArray[Any],
    B: NDArray[Any],
    room: NDArray[Any],
    wait: NDArray[Any],
    ok: NDArray[Any],
    iterations: int = 4,
    spread: bool = False,
) -> Any:
    """(rates, lengths): a request's TTFT less the M/G/1 wait W (module doc: E[Y] + E[N] + p·F/room + E), at the
    rates `lam` with their mean step T, decode batch B, room and W (`wait`); inf where not `ok`.

    Each rate is computed on its own (only the `ok` rates are), the nodes of φ on the leading axis of (nodes,
    rates, lengths) arrays: their sums are the left-to-right sums of a trailing axis, value for value.

    spread: also return the (rates, lengths) variance and third cumulant of the step terms N + E (module doc)."""
    p = np.asarray(lengths, dtype=float)
    pw = np.asarray(weights, dtype=float)
    pw = pw / pw.sum()
    m1, m2 = float(p @ pw), float(p**2 @ pw)
    ok_ = np.asarray(ok, dtype=bool)
    out = np.full((ok_.shape[0], p.shape[0]), np.inf)
    idx = np.flatnonzero(ok_)
    if not len(idx):
        return (out, out.copy(), out.copy()) if spread else out
    lam_, T_, B_, rm, W_ = (np.asarray(v, dtype=float)[idx] for v in (lam, T, B, room, wait))
    rm = np.maximum(rm, 1.0)
    a = w.step_s(B_, 0.0)
    F = w.step_s(B_, rm)
    b = (F - a) / rm
    C = lam_ * m1 * T_
    u = np.minimum(b * lam_ * m1, 1.0 - 1e-9)
    es2_gated = (a * a + 2 * a * b * C + b * b * lam_ * m2 * T_) / (1.0 - u * u)
    ec2 = np.minimum(lam_ * m2 * T_ + (lam_ * m1) ** 2 * es2_gated, rm * C)
    ez, ez2 = C / rm, ec2 / rm**2
    es2 = a * a + 2 * a * b * C + b * b * ec2
    rho = lam_ * m1 * F / rm
    zl = a * F * (ez - ez2)  # E[zF · L]
    l1, l2 = a * (1.0 - ez), a * a * (1.0 - 2.0 * ez + ez2)  # E[L], E[L²]
    n_res = (zl + l2 / 2.0) / T_
    y = rho * (zl + l2 / 2.0) / np.maximum(l1, 1e-30)
    in_service = F * F * ez2 / (2.0 * T_)
    u_tok = np.maximum(W_ + y - in_service, 0.0) * rm / F  # E[U], tokens ahead at the boundary
    busy = 1.0 - (1.0 - np.minimum(rho, 1.0)) * np.exp(-lam_ * es2 / (2.0 * T_))
    # 1 − φ per (node, rate, length): the atom (U = 0) and the exponential's Gauss–Laguerre nodes
    r3 = (slice(None), None)  # a per-rate (R,) array against (R, L)
    k3 = (None, slice(None), None)  # a per-rate (R,) array against (K, R, L)
    s = p[None, :] / rm[r3]
    mu = u_tok / np.maximum(busy, 1e-12) / rm
    x = np.empty((len(_NODES) + 1, len(idx), len(p)))
    x[0] = _rounding(s)
    x[1:] = _rounding(s[None] + (mu[None, :] * _NODES[:, None])[..., None])
    xw = np.concatenate([(1.0 - busy)[None], busy[None] * _NODE_W[:, None]])[..., None]  # (K, R, 1)
    base = (W_ + y + n_res)[r3] + p[None, :] * (F / rm)[r3]  # the TTFT but for E
    cap = rm[k3] * x
    one = _mean_min(p, pw, cap)
    omx = 1.0 - x
    rest = rm[k3] * omx  # the room the prompt's last chunk leaves
    rest_f = omx * F[k3]  # the fluid's share of the step it does not count
    ax = a[k3] * x
    ax *= xw
    ttft = base + ax.sum(0)
    tau = np.maximum(ttft - F[r3], 0.0)
    fill, tmp = np.empty_like(x), np.empty_like(x)
    for i in range(iterations):  # fill ← τ ← TTFT
        mean_n = lam_[r3] * tau  # prompts arriving behind before the last step starts
        e = np.exp(-mean_n)
        p1 = mean_n * e
        p2 = np.maximum(1.0 - e - p1, 0.0)
        more = np.where(p2 > 0, m1 * (mean_n - p1) / np.maximum(p2, 1e-300), 0.0)  # E[tokens | ≥ 2 prompts]
        np.minimum(more[None], cap, out=tmp)
        tmp *= p2[None]
        np.multiply(p1[None], one, out=fill)
        fill += tmp
        tokens = np.add(rest, fill, out=fill)
        if i < iterations - 1:  # τ from the step's chord (a + b·c); the last pass at the step itself (MoE)
            last = np.multiply(b[k3], tokens, out=tmp)
            last += a[k3]
        else:
            last = w.step_s(B_[k3], tokens)
        np.subtract(last, rest_f, out=fill)
        fill *= xw
        ttft = base + fill.sum(0)
        np.multiply(last, xw, out=fill)
        tau = np.maximum(ttft - fill.sum(0), 0.0)
    out[idx] = ttft - W_[r3]
    if not spread:
        return out
    cum2, cum3 = np.full_like(out, np.inf), np.full_like(out, np.inf)
    # N: E[N^k] = E[zF·L^k + L^(k+1)/(k+1)] / T (residual life); E[z³], E[z⁴] of a gamma law with z's mean and
    # variance (each kept between its Cauchy–Schwarz bound and the one below: z ≤ 1)
    ez_, ez2_ = np.maximum(ez, 1e-300), np.maximum(ez2, 1e-300)
    theta = np.maximum(ez2 - ez * ez, 0.0) / ez_
    ez3 = np.clip(ez2 * (ez + 2.0 * theta), ez2 * ez2 / ez_, ez2)
    ez4 = np.clip(ez3 * (ez + 3.0 * theta), ez3 * ez3 / ez2_, ez3)
    n2 = (a**2 * F * (ez - 2.0 * ez2 + ez3) + a**3 * (1.0 - 3.0 * ez + 3.0 * ez2 - ez3) / 3.0) / T_
    n3 = (
        a**3 * F * (ez - 3.0 * ez2 + 3.0 * ez3 - ez4)
        + a**4 * (1.0 - 4.0 * ez + 6.0 * ez2 - 4.0 * ez3 + ez4) / 4.0
    ) / T_
    c2_n = np.maximum(n2 - n_res * n_res, 0.0)
    c3_n = n3 - 3.0 * n_res * n2 + 2.0 * n_res**3
    # E: a mixture over φ's atom and nodes of the last step's end (mean e_k) plus b × the fill, a compound
    # Poisson count of later prompts (cumulants λτ·E[min(P, cap)^k]; its variance at most cap²/4)
    e_k = last - rest_f
    count = lam_[r3] * tau
    f2 = count * _moment_min(p, pw, cap, 2)
    f3 = count * _moment_min(p, pw, cap, 3)
    shrink = np.minimum(1.0, cap * cap / 4.0 / np.maximum(f2, 1e-300))
    f2 *= shrink * b[k3] ** 2
    f3 *= shrink**1.5 * b[k3] ** 3
    m = (e_k * xw).sum(0)
    r2 = ((f2 + e_k * e_k) * xw).sum(0)
    r3_ = ((f3 + 3.0 * e_k * f2 + e_k**3) * xw).sum(0)
    cum2[idx] = c2_n[r3] + np.maximum(r2 - m * m, 0.0)
    cum3[idx] = c3_n[r3] + r3_ - 3.0 * m * r2 + 2.0 * m**3
    return out, cum2, cum3


def two_points(
    own: NDArray[Any], weights: NDArray[Any], k2: NDArray[Any], k3: NDArray[Any]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each length's own time (rates, n) with the step terms' variance k2 and third cumulant k3 as the two-point
    law with those three moments (the 2-node Gauss quadrature of the law: x1·x2 = −1, x1 + x2 = skewness, weight
    1/(1 + x2²) at x2): (rates, 2n) times and (rates, 2n) weights for serving_prompts.ttft_quantile."""
    sd = np.sqrt(np.where(np.isfinite(k2), k2, 0.0))
    big = sd > 1e-12  # a spread below a picosecond is none
    k3_ = np.where(big & np.isfinite(k3), k3, 0.0)
    sk = k3_ / np.where(big, sd, 1.0) ** 3
    root = np.sqrt(sk * sk + 4.0)
    x1, x2 = (sk - root) / 2.0, (sk + root) / 2.0
    w2 = 1.0 / (1.0 + x2 * x2)
    pw = np.asarray(weights, dtype=float)
    pw = pw / pw.sum()
    times = np.concatenate([np.maximum(own + sd * x1, 0.0), own + sd * x2], axis=-1)
    ws = np.concatenate([pw * (1.0 - w2), pw * w2], axis=-1)
    return np.asarray(times, dtype=np.float64), np.asarray(ws, dtype=np.float64)
