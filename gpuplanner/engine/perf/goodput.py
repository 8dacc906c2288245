"""Time-to-train as goodput: the ideal figure, plus the time lost to interruptions, checkpoints and restarts.

With a cluster-wide interruption rate λ·N (Llama 3: 419 interruptions in 54 days on 16,384 GPUs), a checkpoint
write time δ and a restart time R, checkpointing every τ = sqrt(2·δ·M) (Young 1974, Daly 2006; M = 1/(λ·N) the
mean time between interruptions) loses δ/τ to writing and (τ/2 + R)/M to redoing work and restarting:
    goodput = 1 / (1 + δ/τ + (τ/2 + R)/M).
Constants in catalogs/assumptions/performance.yaml, with their sources.
"""

from __future__ import annotations

import math

from gpuplanner import text
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions


def goodput(n_gpus: int, checkpoint_gb_per_gpu: float, a: Assumptions | None = None) -> dict[str, float]:
    """Fraction of wall-clock time spent on useful steps, and the figures behind it."""
    a = a or load_assumptions()
    rate = a.number("interruptions_per_gpu_hour") / 3600.0 * max(n_gpus, 1)
    mtbi_s = 1.0 / rate
    write_s = max(checkpoint_gb_per_gpu, 0.0) / a.number("checkpoint_write_gbyte_per_s_per_gpu")
    restart_s = a.number("restart_time_s")
    interval_s = math.sqrt(2.0 * max(write_s, 1e-3) * mtbi_s)
    lost = write_s / interval_s + (interval_s / 2.0 + restart_s) / mtbi_s
    return {
        "goodput": 1.0 / (1.0 + lost),
        "mtbi_h": mtbi_s / 3600.0,
        "checkpoint_write_s": write_s,
        "checkpoint_interval_s": interval_s,
        "restart_s": restart_s,
    }


def goodput_text(g: dict[str, float]) -> str:
    return goodput_msg(g).render("en")


def goodput_msg(g: dict[str, float]) -> text.Msg:
    """The interruptions behind the goodput of :func:`goodput` (or of an estimate's ``extra``, whose keys
    carry a ``goodput_`` prefix), as a message for a reader in any language."""
    v = {k.removeprefix("goodput_"): x for k, x in g.items()}
    return text.Msg(
        "perf.goodput",
        {
            "mtbi_h": v["mtbi_h"],
            "interval_min": v["checkpoint_interval_s"] / 60,
            "write_s": v["checkpoint_write_s"],
            "restart_min": v["restart_s"] / 60,
        },
    )
