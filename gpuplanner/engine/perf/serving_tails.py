"""The percentile of a request's time per output token (TPOT) in steady serving, for targets stated at a
percentile (MLPerf Server and Interactive: p99 over requests of each request's mean TPOT).

Requests arrive at random (Poisson, as MLPerf's Server scenario schedules them) and each decodes for O steps,
so the number of sequences decoding is the occupancy of an M/D/∞ queue: Poisson with mean B. A request's
TPOT is the mean step time over its own O steps; the step grows by s = ∂step/∂B (its KV read, FLOPs and
all-reduce bytes per decode token) per extra sequence, so the request's TPOT varies with the mean of B(t) over
its lifetime. For M/D/∞ the occupancy's autocorrelation over a lag τ is 1 − τ/D for τ < D (D = the service
time), and the variance of its mean over a window of length D is (2/3)·Var(B) = (2/3)·B. The q-quantile is
then TPOT + z_q·s·√(2B/3) (normal approximation of a Poisson mean, B in the hundreds). The variation of the
prefill tokens per step is not counted: the chunk-budget queue smooths it. With a cap on sequences at once
(Worker.max_seqs) no request decodes beside more than the cap, so the quantile's excess over the mean step is at
most s·(cap − B).
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gpuplanner.engine.perf.serving_worker import Worker


def tpot_quantile(
    w: Worker, tpot_s: NDArray[Any], decode_batch: NDArray[Any], q: float | None
) -> NDArray[np.float64]:
    """The q-quantile over requests of their mean TPOT (module doc); q None: the steady mean."""
    t = np.asarray(tpot_s, dtype=np.float64)
    if q is None:
        return t
    z = NormalDist().inv_cdf(q)
    per_seq = w.mem_b_s + w.cmp_b_s + w.k_tok_s  # one more decoding sequence in every step
    b = np.maximum(np.asarray(decode_batch, dtype=np.float64), 0.0)
    spread = per_seq * np.sqrt(2.0 * b / 3.0)
    if np.isfinite(w.max_seqs):  # a capped batch: no request decodes beside more than max_seqs sequences
        spread = np.minimum(spread, per_seq * np.maximum(w.max_seqs - b, 0.0) / max(z, 1e-12))
    return np.asarray(t + z * spread, dtype=np.float64)
