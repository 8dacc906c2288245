"""Prompt lengths that vary from request to request, and the percentile of the time to first token (TTFT) over
requests that they give.

A benchmark such as MLPerf's Server scenario draws each request's sample from a dataset, so the prompt length P
is a random variable (catalogs/validation/inference_datasets.yaml holds the published histograms). Two terms of
a request's TTFT depend on it:

(a) its own prefill S(P) grows with its prompt: the p99 over requests of (wait + own prefill) is above the
    figure of the mean prompt;
(b) prompts queue for the prefill capacity with a variable service time, an M/G/1 queue: the mean wait is
    Pollaczek–Khinchine's λ·E[S²] / (2(1 − ρ)) = ρ/(2(1 − ρ)) · E[S²]/E[S], larger than M/D/1's ρ·S/(2(1 − ρ)) by
    E[S²]/E[S]² (Kleinrock, "Queueing Systems, Vol. 1: Theory", 1975, ch. 5).

The wait's tail: the M/G/1 stationary wait is the ruin probability of a compound-Poisson risk process, and
the Cramér–Lundberg approximation P(W > x) ≈ C·exp(−γx) holds for light-tailed service (a histogram of bounded
prompts is): γ > 0 solves λ(E[e^{γS}] − 1) = γ and C = (1 − ρ)/(λ·E[S·e^{γS}] − 1) (S. Asmussen, "Applied
Probability and Queues", 2nd ed., Springer 2003, ch. XIII; Asmussen & Albrecher, "Ruin Probabilities", 2010,
ch. IV), capped at P(W > 0) = ρ. Under FCFS a request's wait is the work found ahead of it (PASTA),
independent of its own prompt, so

    P(TTFT > t) = Σ_i w_i · P(W > t − S(p_i))

over the histogram (p_i, w_i), where S is the own prefill and the queue's service may differ from it: in an
aggregated replica (serving_steady.steady_state) a waiting prompt holds the prefill budget for its share of
full-budget steps, p·step(B, room)/room (chunked prefill is FCFS and work-conserving: while prompts wait, every
step carries `room` of their tokens), so ρ = λ·E[P]·step(B, room)/room, the time share of prefill work; its own
prefill is ceil(p/chunk) steps as the engine counts the mean prompt's. A disaggregated prefill worker
(serving.py) queues token-budget batches (M/D/1) before each prompt's own prefill and KV transfer.

The q-quantile solves P(TTFT > t) = 1 − q (bisection: the left side falls with t). A seeded discrete-event
simulation (Lindley's recursion) checks it: the mean of 5 seeds is within 0.5 % of the closed form for the three
MLPerf histograms at ρ 0.3–0.9 (tests/unit/test_serving_prompts.py). Without a distribution the
engine keeps its M/D/1 figures and serving_steady.wait_quantile's exponential law (Kingman), so estimates
without one are unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from numpy.typing import NDArray

from gpuplanner import text
from gpuplanner.core.errors import CatalogError, ValidationError


@dataclass(frozen=True)
class PromptLengths:
    """A distribution of prompt lengths: support points (tokens) and their probabilities (normalised)."""

    lengths: tuple[float, ...]
    weights: tuple[float, ...]
    name: str = ""

    def __post_init__(self) -> None:
        n = len(self.lengths)
        if n == 0 or len(self.weights) != n:
            raise ValidationError(
                text.Msg("error.prompt_dist_shape", {"lengths": n, "weights": len(self.weights)}),
                field="prompt_lengths",
                value=self.name or n,
            )
        for name, vals in (("lengths", self.lengths), ("weights", self.weights)):
            bad = [v for v in vals if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0)]
            if bad:
                raise ValidationError(
                    text.Msg("error.positive", {"name": f"prompt {name}"}),
                    field="prompt_lengths",
                    value=bad[0],
                )

    @property
    def p(self) -> NDArray[np.float64]:
        return np.asarray(self.lengths, dtype=np.float64)

    @property
    def w(self) -> NDArray[np.float64]:
        w = np.asarray(self.weights, dtype=np.float64)
        return np.asarray(w / w.sum(), dtype=np.float64)

    @property
    def mean(self) -> float:
        return float(self.p @ self.w)

    def quantile(self, q: float) -> float:
        """The smallest length with at least q of the mass at or below it."""
        order = np.argsort(self.p)
        cum = np.cumsum(self.w[order])
        return float(self.p[order][min(int(np.searchsorted(cum, q - 1e-12)), len(cum) - 1)])


def pk_wait(rho: NDArray[Any], es: NDArray[Any], es2: NDArray[Any]) -> NDArray[np.float64]:
    """Pollaczek–Khinchine mean wait ρ/(2(1 − ρ))·E[S²]/E[S] (ρ = λE[S]); infinite at ρ ≥ 1."""
    r = np.asarray(rho, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(
            r < 1.0, r / (2.0 * np.maximum(1.0 - r, 1e-12)) * np.asarray(es2) / np.asarray(es), np.inf
        )
    return np.asarray(out, dtype=np.float64)


def lundberg(
    rho: NDArray[Any], service_s: NDArray[Any], weights: NDArray[Any]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Cramér–Lundberg tail of an M/G/1 wait, P(W > x) ≈ C·exp(−γx) (module doc): γ > 0 solves
    λ(E[e^{γS}] − 1) = γ with λ = ρ/E[S], and C = (1 − ρ)/(λ·E[S·e^{γS}] − 1). service_s: (..., n) service
    times with probabilities `weights` (n,); rho: (...). ρ ≤ 0: γ = inf (no wait); ρ ≥ 1: γ = 0."""
    s = np.asarray(service_s, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    w = w / w.sum()
    r = np.asarray(rho, dtype=np.float64)
    es = s @ w
    ok = (r > 0) & (r < 1) & np.isfinite(es) & (es > 0)
    es_ = np.where(ok, es, 1.0)
    x = np.where(ok[..., None], s, 0.0) / es_[..., None]  # service in units of its mean: scale-free root
    r_ = np.where(ok, r, 0.5)

    def f(u: NDArray[Any]) -> NDArray[np.float64]:
        with np.errstate(over="ignore"):
            return np.asarray(r_ * (np.exp(u[..., None] * x) @ w - 1.0) - u, dtype=np.float64)

    hi = np.ones(r.shape)
    for _ in range(200):  # f(0) = 0, f'(0) = ρ − 1 < 0, f convex: the root lies where f turns positive
        low = (f(hi) <= 0) & ok
        if not low.any():
            break
        hi = np.where(low, 2.0 * hi, hi)
    lo = np.zeros(r.shape)
    for _ in range(52):  # to 2^-52 of the bracket
        mid = 0.5 * (lo + hi)
        neg = f(mid) <= 0
        lo, hi = np.where(neg, mid, lo), np.where(neg, hi, mid)
    u = hi
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        c = (1.0 - r_) / (r_ * ((x * np.exp(u[..., None] * x)) @ w) - 1.0)
    gamma = np.where(ok, u / es_, np.where(r <= 0, np.inf, 0.0))
    const = np.where(ok, c, np.where(r <= 0, 0.0, 1.0))
    return np.asarray(gamma, dtype=np.float64), np.asarray(const, dtype=np.float64)


def ttft_quantile(
    own_s: NDArray[Any],
    weights: NDArray[Any],
    rho: NDArray[Any],
    q: float,
    service_s: NDArray[Any] | None = None,
    service_weights: NDArray[Any] | None = None,
) -> NDArray[np.float64]:
    """The q-quantile over requests of wait + own prefill (module doc). own_s: (..., n) seconds of each prompt
    length's own prefill, weights (n,): their shares; rho (...): the queue's utilisation; the queue's service
    times: `service_s` with `service_weights` (default: the own prefill, an M/G/1 queue of the prompts)."""
    s = np.asarray(own_s, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    w = w / w.sum(axis=-1, keepdims=True)  # (n,), or (..., n): each row its own weights
    r = np.clip(np.asarray(rho, dtype=np.float64), 0.0, 1.0)
    bad = ~np.all(np.isfinite(s), axis=-1) | (r >= 1.0)
    s = np.where(bad[..., None], 0.0, s)
    if service_s is None:
        gamma, c = lundberg(r, s, w)
    else:
        gamma, c = lundberg(
            r, np.asarray(service_s), np.asarray(service_weights if service_weights is not None else [1.0])
        )
    g_ = np.where(np.isfinite(gamma) & (gamma > 0), gamma, 1.0)[..., None]
    none = ~(np.isfinite(gamma) & (gamma > 0))[..., None]  # no wait
    r_, c_ = r[..., None], c[..., None]

    def tail(t: NDArray[Any]) -> NDArray[np.float64]:
        x = t[..., None] - s
        with np.errstate(over="ignore", under="ignore"):
            g = np.where(
                x < 0, 1.0, np.where(none, 0.0, np.minimum(r_, c_ * np.exp(-g_ * np.maximum(x, 0.0))))
            )
        return np.asarray(g @ w if w.ndim == 1 else (g * w).sum(axis=-1), dtype=np.float64)

    lo = np.zeros(r.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        extra = np.where(none[..., 0], 0.0, np.log(np.maximum(c, 1e-300) / (1.0 - q)) / g_[..., 0])
    hi = s.max(axis=-1) + np.maximum(extra, 0.0)  # P(W > hi − S_max) ≤ 1 − q
    for _ in range(44):  # to 2^-44 of the bracket
        mid = 0.5 * (lo + hi)
        over = tail(mid) > 1.0 - q
        lo, hi = np.where(over, mid, lo), np.where(over, hi, mid)
    return np.asarray(np.where(bad, np.inf, hi), dtype=np.float64)


def datasets_path() -> Path:
    from gpuplanner.catalog.loader import bundled_catalog_dir

    return bundled_catalog_dir() / "validation" / "inference_datasets.yaml"


@lru_cache(maxsize=4)
def _datasets(path: str) -> dict[str, Any]:
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_datasets", {"reason": str(exc)}), file=path) from exc
    ds = doc.get("datasets") if isinstance(doc, dict) else None
    if not isinstance(ds, dict) or not ds:
        raise CatalogError(text.Msg("error.no_datasets"), file=path, field="datasets")
    return ds


def dataset_names(path: str | Path | None = None) -> list[str]:
    return sorted(_datasets(str(path or datasets_path())))


def prompt_lengths(name: str, path: str | Path | None = None) -> PromptLengths:
    """The prompt-length histogram of a dataset in catalogs/validation/inference_datasets.yaml."""
    p = str(path or datasets_path())
    ds = _datasets(p)
    if name not in ds:
        raise ValidationError(
            text.Msg("error.unknown_setting_value", {"name": "prompt dataset", "value": name}),
            field="--prompt-dataset",
            value=name,
            hint=text.Msg("error.prompt_dataset.hint", {"known": ", ".join(sorted(ds))}),
        )
    entry = ds[name]
    try:
        bins = entry["prompt"]["bins"]
        lengths = tuple(float(b[2]) for b in bins)
        weights = tuple(float(b[1]) for b in bins)
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise CatalogError(
            text.Msg("error.prompt_bins", {"reason": str(exc)}),
            file=p,
            entry=name,
            field="prompt.bins",
        ) from exc
    try:
        return PromptLengths(lengths, weights, name=name)
    except ValidationError as exc:
        raise CatalogError(exc.message, file=p, entry=name, field="prompt.bins", value=exc.value) from exc


def check_mean(dist: PromptLengths, prompt_len: int) -> None:
    """The serving terms use the mean prompt (`prompt_len`); the distribution must have that mean (to its
    rounding: one token or 1 %)."""
    mean = dist.mean
    if abs(mean - prompt_len) > max(1.0, 0.01 * mean):
        raise ValidationError(
            text.Msg(
                "error.prompt_not_mean",
                {"prompt": prompt_len, "name": dist.name or "-", "mean": mean, "give": round(mean)},
            ),
            field="--prompt",
            value=prompt_len,
        )
