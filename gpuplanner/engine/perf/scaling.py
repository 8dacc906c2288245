"""Throughput and scaling efficiency from 8 GPUs up to N.

Two curves, both computed with `training.evaluate` on all sizes at once:
- "dp" (weak scaling): the model-parallel layout (tp, pp, cp, micro-batch, recompute) and the batch per
  data-parallel replica stay fixed; only dp grows, so the global batch grows with the GPU count. Efficiency =
  tokens/s per GPU relative to the smallest size. This isolates the cost of the DP reduction over the fabric.
- "best" (strong scaling): at every size the sweep's best layout for the *same* global batch. Efficiency falls
  as the batch per GPU shrinks (bubbles, smaller GEMMs) - what a user sees when adding GPUs to one job.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.sweep import sweep
from gpuplanner.engine.perf.training import config_columns, evaluate, options_for


def scaling_sizes(n_max: int, unit: int, start: int = 8) -> np.ndarray:
    """Doubling GPU counts from the first multiple of `unit` ≥ `start` up to n_max (n_max included)."""
    first = max(unit, int(np.ceil(start / unit)) * unit)
    sizes = []
    n = first
    while n <= n_max:
        sizes.append(n)
        n *= 2
    if not sizes or sizes[-1] != n_max and n_max % unit == 0 and n_max > first:
        sizes.append(n_max)
    return np.asarray(sizes, dtype=np.int64)


def dp_scaling(
    shape: ModelShape, cfg: TrainConfig, cluster: ClusterSpec, n_max: int, a: Assumptions | None = None
) -> dict[str, np.ndarray]:
    """Weak scaling: fixed layout and batch per replica, dp = N / (tp·pp·cp)."""
    unit = cfg.tp * cfg.pp * cfg.cp
    sizes = scaling_sizes(n_max, unit)
    if sizes.size == 0:
        raise ValidationError(
            text.Msg("error.replica_too_large", {"gpus": n_max, "unit": unit}), field="n_gpus", value=n_max
        )
    per_replica = cfg.global_batch // cfg.dp
    dp = sizes // unit
    cols = {k: np.repeat(v, sizes.size) for k, v in config_columns(cfg).items()}
    cols["dp"] = dp
    cols["gb"] = per_replica * dp  # the global batch grows with dp
    opt = options_for(cfg)
    out = evaluate(shape, cluster, cols, opt, a or load_assumptions())
    per_gpu = out["tokens_per_s"] / sizes
    return {
        "n_gpus": sizes,
        "tokens_per_s": out["tokens_per_s"],
        "tokens_per_s_per_gpu": per_gpu,
        "efficiency": per_gpu / per_gpu[0],
        "step_time_s": out["step_time_s"],
        "mfu": out["mfu"],
        "global_batch": per_replica * dp,
    }


def best_scaling(
    shape: ModelShape,
    cluster: ClusterSpec,
    n_max: int,
    global_batch: int,
    *,
    a: Assumptions | None = None,
    **sweep_options: Any,
) -> dict[str, np.ndarray]:
    """Strong scaling: the sweep's best layout at each size for a fixed global batch (sizes without a fitting
    layout get NaN)."""
    sizes = scaling_sizes(n_max, 8)
    tps = np.full(sizes.size, np.nan)
    step = np.full(sizes.size, np.nan)
    mfu = np.full(sizes.size, np.nan)
    layout = []
    for i, n in enumerate(sizes):  # one sweep per size (a handful); each sweep is vectorised
        try:
            r = sweep(shape, cluster, int(n), global_batch, assumptions=a, **sweep_options)
        except ValidationError:
            layout.append("")
            continue
        if len(r):
            tps[i], step[i], mfu[i] = r.out["tokens_per_s"][0], r.out["step_time_s"][0], r.out["mfu"][0]
            c = r.config(0)
            layout.append(
                f"tp{c.tp} pp{c.pp} dp{c.dp} cp{c.cp} ep{c.ep} v{c.vpp} mb{c.micro_batch} {c.recompute}"
            )
        else:
            layout.append("")
    per_gpu = tps / sizes
    first = per_gpu[np.isfinite(per_gpu)][0] if np.isfinite(per_gpu).any() else np.nan
    return {
        "n_gpus": sizes,
        "tokens_per_s": tps,
        "tokens_per_s_per_gpu": per_gpu,
        "efficiency": per_gpu / first,
        "step_time_s": step,
        "mfu": mfu,
        "layout": np.asarray(layout, dtype=object),
    }
