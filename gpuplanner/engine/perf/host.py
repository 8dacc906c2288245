"""Host-paced fine-grained MoE: when an expert's GEMM is too short for the GPU time to set the step.

A fine-grained MoE (many narrow experts, several per token) splits each layer's MLP into as many small GEMMs
as there are local experts. Grouped GEMMs launch them together, but every MoE layer and micro-batch still
costs a fixed host time: the router, permutation and dispatch kernels are launched one by one, and the
dropless dispatcher synchronises with the host on the tokens each expert receives. NVIDIA names this host
boundedness as the compute wall of fine-grained MoE (Yan et al., "Scalable Training of Mixture-of-Experts
Models with Megatron Core", arXiv:2603.07685) and CUDA Graph guidance takes kernels under ~50 µs as the
launch-bound ones (catalogs/assumptions/performance.yaml `launch_sensitive_kernel_s`).

The engine has no model of host time, so it does not add one. It decides, from the prediction alone, whether
a configuration is in that regime: `expert_gemm_s` is the mean time of one expert's forward GEMMs (up and
gate projection, then down projection) for one micro-batch in one MoE layer on this GPU, the same roofline
with tile and wave quantisation the layer time uses (layer_time.grouped_mlp_s), with the router balanced:
an expert sees tokens·top_k/local_experts rows, the EP ranks' tokens brought to it. Below the threshold the
run is *host-paced*: the GPU-time throughput is an upper bound, not an estimate (validation.py counts such
runs as bounds, bands.py gives them the band of host-paced runs).
"""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.arrays import FloatArray, Num
from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.flops import mlp_matrices
from gpuplanner.engine.perf.layer_time import Hardware, grouped_mlp_s
from gpuplanner.engine.perf.shapes import ModelShape


def expert_gemm_s(
    shape: ModelShape, hw: Hardware, *, tp: Num, cp: Num, ep: Num, mb: Num, etp: Num | None = None
) -> FloatArray:
    """Mean forward time of one expert's GEMMs per micro-batch and MoE layer (s); infinite for a dense
    model (it has no expert kernels to be short).

    Rows per expert: the micro-batch's tokens on this rank (mb·seq/cp, its sequence-parallel share tokens·etp/tp
    when the experts are not tensor-split) times top_k, over the local experts (experts/ep), as in
    layer_time.layer_times."""
    tp_a = np.asarray(tp, dtype=np.float64)
    tokens = np.asarray(mb, dtype=np.float64) * float(shape.seq_len) / np.asarray(cp, dtype=np.float64)
    if not shape.is_moe or shape.moe_layers == 0:
        return np.full_like(tokens * tp_a, np.inf)
    e_t = tp_a if etp is None else np.asarray(etp, dtype=np.float64)
    local = shape.experts / np.asarray(ep, dtype=np.float64)
    rows = tokens * e_t / tp_a * shape.top_k / local
    group = grouped_mlp_s(
        local, rows, float(shape.hidden), float(shape.expert_ffn), mlp_matrices(shape), e_t, hw
    )
    return np.asarray(group / local)


def threshold_s(a: Assumptions) -> float:
    """The expert GEMM time below which a run is host-paced (catalogs/assumptions/performance.yaml)."""
    return a.number("launch_sensitive_kernel_s")


def short_expert_kernels(expert_s: Num, a: Assumptions) -> FloatArray:
    """Whether each configuration's expert GEMM is launch-sensitive (False for a dense model)."""
    e = np.asarray(expert_s, dtype=np.float64)
    return np.asarray(np.where(np.isfinite(e), e < threshold_s(a), False), dtype=bool)
