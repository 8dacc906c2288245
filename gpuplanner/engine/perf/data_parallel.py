"""Exposed data-parallel time of a training step: gradient all-reduce or reduce-scatter, parameter all-gather
(distributed optimizer / ZeRO-1 and -2), and ZeRO-3 / FSDP's per-layer gathers, each overlapped with the compute
it can hide behind. Split from training.py (which calls `dp_time` once per evaluation); arrays broadcast over
configurations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from gpuplanner.engine.arrays import FloatArray, Real
from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.collectives import group_all_gather_s, group_all_reduce_s, group_reduce_scatter_s
from gpuplanner.engine.perf.layer_time import Hardware
from gpuplanner.engine.perf.shapes import ModelShape

if TYPE_CHECKING:  # training imports this module; Options is only an annotation here
    from gpuplanner.engine.perf.training import Options


def dp_time(
    shape: ModelShape,
    opt: Options,
    a: Assumptions,
    hw: Hardware,
    *,
    tp: FloatArray,
    dp: FloatArray,
    cp: FloatArray,
    ep: FloatArray,
    m: FloatArray,
    params_dense: Real,
    params_exp: Real,
    fwd_s: FloatArray,
    bwd_s: FloatArray,
    t_mb: FloatArray,
    layers_stage: FloatArray,
    full: FloatArray,
    etp: FloatArray | None = None,
    pp: Real = 1.0,
    v: Real = 1.0,
) -> FloatArray:
    """Exposed data-parallel time: gradient reduction (and parameter gathers with ZeRO/distributed optimizer).

    ZeRO-3 / FSDP gathers every layer's parameters for the forward and again for the backward of every
    micro-batch (once more for a recomputation that re-gathers), and reduce-scatters its gradients. Prefetching
    hides a layer's collectives behind the previous layer's compute, so per micro-batch only what outlasts
    that micro-batch's compute stays exposed - and never less than the first layer's gather, which has
    nothing before it to hide behind.
    """
    links = hw.links
    n = dp * cp
    g = np.clip(links.gpus_per_node / tp, 1.0, n)  # members per node: the group strides over tp
    e_t = tp if etp is None else etp
    n_e = np.maximum(n * tp / (e_t * ep), 1.0)  # expert-data-parallel ranks
    g_e = np.clip(links.gpus_per_node / (e_t * ep), 1.0, n_e)
    grad_bytes_per_param = a.table("grad_reduce_bytes")[opt.precision]
    # the distributed optimizer gathers the updated weights in their own type: bf16, or 1 byte for the GEMM
    # weights when they are FP8 primary weights (Megatron --fp8-param-gather, NeMo fp8_params); the embedding
    # stays bf16
    emb = (shape.vocab * shape.hidden / tp) if shape.vocab else 0.0
    fp8_gather = opt.fp8_params and opt.precision == "fp8"
    gather_dense = 2.0 * params_dense - (params_dense - emb if fp8_gather else 0.0)
    gather_exp = (1.0 if fp8_gather else 2.0) * params_exp
    frac = a.number("dp_overlap_fraction") if opt.dp_overlap else 0.0
    if opt.zero_stage == 0:
        red = group_all_reduce_s(grad_bytes_per_param * params_dense, n, g, links, "dp", nvls=True)
        red = red + group_all_reduce_s(grad_bytes_per_param * params_exp, n_e, g_e, links, "dp")
        return np.maximum(0.0, red - frac * bwd_s)
    rs = group_reduce_scatter_s(
        grad_bytes_per_param * params_dense, n, g, links, "dp"
    ) + group_reduce_scatter_s(grad_bytes_per_param * params_exp, n_e, g_e, links, "dp")
    ag = group_all_gather_s(gather_dense, n, g, links, "dp") + group_all_gather_s(
        gather_exp, n_e, g_e, links, "dp"
    )
    if opt.zero_stage == 3:
        nics = opt.zero3_nics_per_node or None
        rs = group_reduce_scatter_s(
            grad_bytes_per_param * params_dense, n, g, links, "dp", nics
        ) + group_reduce_scatter_s(grad_bytes_per_param * params_exp, n_e, g_e, links, "dp", nics)
        ag = group_all_gather_s(gather_dense, n, g, links, "dp", nics) + group_all_gather_s(
            gather_exp, n_e, g_e, links, "dp", nics
        )
        gathers = 2.0 + (full if opt.zero3_regather_on_recompute else 0.0)
        comm_mb = gathers * ag + rs
        if not opt.dp_overlap:
            return m * comm_mb
        # overlapped collectives and GEMMs share the SMs and HBM: while both run, compute is slower
        contention = a.number("overlap_contention_fraction") * np.minimum(comm_mb, t_mb)
        first = ag / np.maximum(layers_stage, 1.0)
        return m * (np.maximum(first, comm_mb - t_mb) + contention)
    c = a.number("overlap_contention_fraction")
    reduce = chunked_exposed(rs, frac * bwd_s, pp, v, m, c)
    if not opt.param_gather_overlap:
        return reduce + ag
    return reduce + chunked_exposed(ag, frac * fwd_s, pp, v, m, c)


def chunked_exposed(comm: Real, hide: Real, pp: Real, v: Real, m: Real, contention: float) -> FloatArray:
    """Exposed time of a distributed-optimizer collective issued per model chunk (overlap_grad_sync /
    overlap_param_sync, one bucket set per interleaved chunk), on the first pipeline rank.

    `hide` is what one micro-batch's pass over the whole stage can hide (its v chunks). In the interleaved
    1F1B cool-down the first rank runs the last backwards chunk by chunk, v-1 down to 0, each for min(p, m)
    micro-batches (Narayanan et al. SC'21, Section 2.2.2), so chunk k's gradients are ready k·min(p, m)
    chunk-backwards before the end, and their reduce-scatter queues on the NIC behind the earlier chunks'.
    A queue of v collectives of comm/v, arriving every min(p, m) chunk-backwards, ends
    max(comm/v, comm - (v-1)·min(p, m)·hide/v) after the compute (less what each chunk's own backward
    hides). The warm-up mirrors it for the parameter all-gathers before each chunk's first forward. With
    v = 1 this is comm - hide. The hidden part still slows the compute it runs under by `contention` of its
    length (NCCL kernels take SMs and HBM bandwidth; overlap_contention_fraction, as for ZeRO-3).
    """
    v = np.asarray(v, dtype=np.float64)
    spread = 1.0 + (v - 1.0) * np.minimum(pp, m)
    exposed = np.maximum(0.0, np.maximum(comm / v - hide / v, comm - hide * spread / v))
    return exposed + contention * (comm - exposed)
