"""Time of one transformer layer for one micro-batch on one GPU, vectorised over configurations.

Physics, not per-case factors:
- every GEMM costs its FLOPs at the sustained tensor-core rate *plus* its operand traffic 2(MK+KN+MN) bytes at
  HBM speed (additive roofline), so efficiency rises with the matrix sizes a layer produces (hidden/tp, tokens
  per micro-batch) - small GEMMs are slow, big ones approach the ceiling;
- memory-bound kernels (norms, residual/dropout, activations, softmax over s×s scores when attention is not
  fused) cost the bytes they move at the achieved HBM bandwidth. Their share shrinks as 1/h, which is most of
  why Megatron-LM's throughput per GPU rises with model size;
- tensor/context/expert parallel communication is charged per layer (collectives.py).
All inputs may be numpy arrays of equal length (one entry per configuration) or scalars.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpuplanner.engine.arrays import Flag, Num, Real
from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.collectives import (
    Links,
    expert_dispatch_s,
    group_all_reduce_s,
    links_for,
)
from gpuplanner.engine.perf.flops import mlp_matrices
from gpuplanner.engine.perf.gemm_shape import grouped_extra_s
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape

ACT_BYTES = 2.0  # activations travel in bf16/fp16


@dataclass(frozen=True)
class Hardware:
    """Derived rates of one GPU type under the assumptions (flop/s, byte/s)."""

    gemm_flop_per_s: float  # sustained GEMM rate at the run's precision
    attn_flop_per_s: float  # FlashAttention rate (bf16)
    unfused_flop_per_s: float  # batched GEMMs of unfused attention (bf16)
    gemm_byte_per_s: float  # HBM rate while GEMMs stream operands
    ew_byte_per_s: float  # HBM rate of memory-bound kernels
    operand_bytes: float  # bytes per GEMM operand element
    ew: dict[str, float]  # bytes per element of each memory-bound kernel group
    links: Links
    peak_bf16_flop_per_s: float
    peak_flop_per_s: float  # dense peak at the run's precision (FP8 runs: the FP8 peak), the MFU denominator
    fp8: bool = False  # FP8 GEMMs: Transformer Engine casts and transposes their operands (fp8_cast_bytes)
    fp8_transposes: float = (
        1.0  # 1: FP8 GEMMs take only TN (Hopper), operands kept transposed too; 0: Blackwell
    )
    sm_count: float = 0.0  # SMs that run GEMM tiles (0: unknown, no tile/wave quantisation of expert GEMMs)
    tile_rows: float = 128.0  # GEMM output tile (gemm_shape.py)
    tile_cols: float = 128.0
    # FlashAttention-2's time over the attention kernel attn_flop_per_s stands for (Hopper: FA-3 / cuDNN)
    fa2_time_ratio: float = 1.0


def hardware_for(cluster: ClusterSpec, precision: str, a: Assumptions) -> Hardware:
    g = cluster.gpu_name
    e_gemm = a.number("gemm_efficiency", g)
    if cluster.calibration and cluster.calibration.gemm_efficiency:
        e_gemm = cluster.calibration.gemm_efficiency
    peak = cluster.peak_bf16_tflops * 1e12
    gemm_rate = peak * e_gemm
    operand = 2.0
    precision_peak = peak
    if precision == "fp8" and cluster.peak_fp8_tflops:
        precision_peak = cluster.peak_fp8_tflops * 1e12
        gemm_rate = cluster.peak_fp8_tflops * 1e12 * e_gemm * a.number("fp8_gemm_efficiency_ratio", g)
        operand = 1.5  # fp8 inputs, bf16 outputs
    bw = cluster.mem_bw_tbyte_per_s * 1e12
    return Hardware(
        gemm_flop_per_s=gemm_rate,
        attn_flop_per_s=peak * a.number("flash_attention_efficiency", g),
        unfused_flop_per_s=peak * e_gemm,
        gemm_byte_per_s=bw * a.number("gemm_hbm_efficiency"),
        ew_byte_per_s=bw * a.number("elementwise_hbm_efficiency"),
        operand_bytes=operand,
        ew=a.table("elementwise_bytes"),
        links=links_for(cluster, a),
        peak_bf16_flop_per_s=peak,
        peak_flop_per_s=precision_peak,
        fp8=operand == 1.5,
        fp8_transposes=a.number("fp8_gemm_transposes", g),
        sm_count=a.number("gpu_sm_count", g),
        tile_rows=a.table("gemm_tile")["rows"],
        tile_cols=a.table("gemm_tile")["cols"],
        fa2_time_ratio=a.number("fa2_attention_time_ratio", g),
    )


def gemm_s(m: Real, n: Real, k: Real, hw: Hardware) -> Real:
    """Additive roofline of one GEMM (M×K)·(K×N); the same holds for its two backward GEMMs."""
    flops = 2.0 * m * n * k
    traffic = hw.operand_bytes * (m * k + k * n + m * n)
    return flops / hw.gemm_flop_per_s + traffic / hw.gemm_byte_per_s


def _mlp_gemms_s(tokens: Real, h: float, width: float, mats: int, tp: Real, hw: Hardware) -> Real:
    """Up (and gate) projection and down projection of an MLP of `width` split over tp."""
    return gemm_s(tokens, (mats - 1) * width / tp, h, hw) + gemm_s(tokens, h, width / tp, hw)


def fp8_cast_bytes(
    tokens: Real,
    h: float,
    q_width: Real,
    kv_width: Real,
    act_width: Real,
    tp: Real,
    sp: Flag,
    ew: dict[str, float],
    transposes: float = 1.0,
    recipe: str = "delayed",
) -> tuple[Real, Real]:
    """HBM bytes of the FP8 casts and transposes of one layer, forward and backward, on one GPU.

    Hopper/Blackwell FP8 GEMMs take only the TN layout, so Transformer Engine keeps each FP8 GEMM operand in
    both orientations (transformer_engine/pytorch/cpp_extensions/transpose.py). Forward: the attention output
    is cast and transposed before the projection (fp8_cast_transpose_fused: r2 w1 w1); the norm outputs
    feeding QKV and FC1 and the activation feeding FC2 come out of fused kernels already in FP8 and only need
    their transpose for the weight gradient (r1 w1), on the full, sequence-gathered tensor. Backward: the
    output gradients of the projection and FC2 are cast to FP8 (r2 w1, each rank its sequence-parallel
    share, gathered in FP8) and transposed on the gathered tensor; the QKV output gradient is cast and
    transposed (r2 w1 w1); FC1's output gradient comes out of the fused dgelu kernel in FP8
    (fp8_cast_transpose_bgrad_dgelu_fused), so it adds nothing. With `transposes` 0 (Blackwell takes FP8 GEMMs
    in any layout, nvte_is_non_tn_fp8_gemm_supported) only the casts remain. That is the delayed-scaling
    recipe, whose scale comes from the amax history, so every cast computes its amax on the way.

    `recipe` "current" (per-tensor current scaling, Transformer Engine 2.2 csrc/extensions/cast.cpp,
    normalization.cpp, activation.cpp): the scale needs this tensor's amax before the cast, so every cast
    is preceded by an amax pass over its input (nvte_compute_amax, r2), and the norm, the activation and
    the activation gradient can no longer write FP8 themselves: they write bf16 (one byte more), which the
    amax pass and a cast then read (layernorm_mlp.py: no fused dact for current scaling). "mxfp8"
    (Blackwell, 1x32 block scales computed inside the cast, MXFP8Quantizer): no amax pass and the fused
    kernels stay, but a block-scaled operand cannot be transposed, so every tensor a weight- or
    data-gradient GEMM takes along its other dimension is quantized a second time (rowwise and columnwise
    copies, each with one 1-byte scale per 32 elements), on any GPU.
    """
    cast = ew["fp8_cast"]
    if recipe == "mxfp8":
        transposes = 1.0
    ct = _cast_bytes(ew, transposes, recipe)
    tr = tr_grad = transposes * ew["fp8_transpose"]
    norm_in = (
        2.0 * tokens * h + tokens * act_width / tp
    )  # fused-kernel outputs: the two norms, the activation
    if recipe == "mxfp8":
        scale = ew["fp8_mx_scale"]
        tr = 1.0 + scale  # the fused norm / activation kernel writes the columnwise copy as well
        tr_grad = cast + scale  # the gathered output gradient is quantized columnwise from bf16
    fwd = ct * tokens * q_width / tp + tr * norm_in
    grad_h = np.where(sp, cast * tokens * h / tp + tr_grad * tokens * h, ct * tokens * h)
    bwd = 2.0 * grad_h + ct * tokens * (q_width + 2.0 * kv_width) / tp
    if recipe == "current":
        amax = ew["fp8_amax"]
        unfused = ACT_BYTES - 1.0 + amax + cast  # bf16 written instead of FP8, its amax pass, its cast
        norm_rows = tokens * h / np.where(sp, tp, 1.0)  # the norms run on the sequence-parallel share
        fwd = fwd + amax * tokens * q_width / tp + unfused * (2.0 * norm_rows + tokens * act_width / tp)
        grad_rows = tokens * h / np.where(sp, tp, 1.0)
        bwd = bwd + amax * (2.0 * grad_rows + tokens * (q_width + 2.0 * kv_width) / tp)
        bwd = bwd + (amax + ct) * tokens * act_width / tp  # FC1's output gradient: dgelu, then amax and cast
    return fwd, bwd


def _cast_bytes(ew: dict[str, float], transposes: float, recipe: str) -> float:
    """Bytes per element of one cast (+ transpose where FP8 GEMMs need TN), or MXFP8's rowwise and
    columnwise copies with their block scales."""
    cast = ew["fp8_cast"]
    t = 1.0 if recipe == "mxfp8" else transposes
    ct = cast + t * (ew["fp8_cast_transpose"] - cast)
    return ct + 2.0 * ew["fp8_mx_scale"] if recipe == "mxfp8" else ct


def routed_cast_bytes(ew: dict[str, float], transposes: float, recipe: str) -> float:
    """Bytes per element of quantising a bf16 tensor for both GEMM orientations, as fp8_cast_bytes counts a
    cast, with current scaling's amax pass before it."""
    ct = _cast_bytes(ew, transposes, recipe)
    return float(ct + ew["fp8_amax"] if recipe == "current" else ct)


def grouped_mlp_s(
    groups: Real, rows: Real, h: float, width: float, mats: int, tp: Real, hw: Hardware
) -> Real:
    """`groups` experts' MLPs in grouped GEMMs: their roofline plus their tile and wave quantisation."""
    up = (mats - 1) * width / tp
    q = grouped_extra_s(groups, rows, up, h, hw.gemm_flop_per_s, hw.sm_count, hw.tile_rows, hw.tile_cols)
    q = q + grouped_extra_s(
        groups, rows, h, width / tp, hw.gemm_flop_per_s, hw.sm_count, hw.tile_rows, hw.tile_cols
    )
    return groups * _mlp_gemms_s(rows, h, width, mats, tp, hw) + q


@dataclass(frozen=True)
class LayerTimes:
    """Per layer, per micro-batch, per GPU (seconds); arrays over configurations."""

    gemm_fwd: np.ndarray
    attn_fwd: np.ndarray
    attn_bwd: np.ndarray
    ew_fwd: np.ndarray
    ew_bwd: np.ndarray
    tp_fwd: np.ndarray  # communication of one forward pass (the backward has the same volume)
    cp_fwd: np.ndarray  # exposed ring-attention exchange, forward (backward: twice)
    ep_fwd: np.ndarray  # expert all-to-all, forward (backward: the same)
    # the expert part (routed and shared expert GEMMs and activation) of gemm_fwd + ew_fwd and of the backward:
    # what an overlapped all-to-all can hide behind (moe.py); zero for a dense model
    moe_fwd: np.ndarray | float = 0.0
    moe_bwd: np.ndarray | float = 0.0
    # what recompute_norm_act runs again in the backward: the MoE layer's pre-MLP norm and the experts'
    # activation (with its clamp), forward only
    norm_act_fwd: np.ndarray | float = 0.0


def window_square_share(seq: int, window: int, tile: float, overhead: float) -> float:
    """Share of the full seq × seq score square a sliding-window layer is charged at the fused kernel's rate.

    The kernel works in tiles of `tile` queries × `tile` keys and skips only the tiles wholly outside the
    band (FlashAttention-2, arXiv:2307.08691, Section 3.3: block sizes {64, 128} × {64, 128}): the query
    tile of rows [iB, (i+1)B) computes every key tile that meets keys [iB - w + 1, (i+1)B - 1] (each query
    sees its last w keys, itself included, cuDNN's top-left window). Each query tile also pays a fixed
    `overhead`, in tiles, that a short row of tiles does not hide (loading the queries, filling the
    pipeline, normalising and writing the output); the long rows of full attention hide it, and the
    efficiency the rate stands for already includes what is left of it there. A window as long as the
    sequence is plain causal attention."""
    b = float(tile)
    n = int(np.ceil(seq / b))
    i = np.arange(n, dtype=np.float64)
    first = np.maximum(0.0, np.floor((i * b - window + 1.0) / b))
    tiles = float(np.sum(i - first + 1.0))
    return (tiles + overhead * n) * b * b / (float(seq) * float(seq))


def _bwd_flop_ratio(shape: ModelShape) -> float:
    """FLOPs of the fused backward over the forward's. Forward: QK^T over d_qk and PV over d_v; backward: five
    matrix products, the recomputed QK^T, dQ = dS·K and dK = dS^T·Q over d_qk, dV = P^T·dO and dP = dO·V^T over
    d_v (NVIDIA cudnn-frontend benchmark/sdpa_benchmark_training/benchmark_single_sdpa.py flops(): forward
    2·(d_qk + d_vo), backward 2·(3·d_qk + 2·d_vo) per non-masked element): 2.5 when d_qk = d_v (FlashAttention-2,
    Section 3.1), 2.6 for MLA's 192 / 128."""
    if not shape.is_mla:
        return 2.5
    d_qk, d_v = float(mla.qk_head_dim(shape)), float(shape.v_head_dim)
    return (3.0 * d_qk + 2.0 * d_v) / (d_qk + d_v)


def flash_attention_s(
    shape: ModelShape, hw: Hardware, a: Assumptions, *, score_flops: Real, triton: bool = False
) -> tuple[Real, Real]:
    """Forward and backward time of fused (Flash/cuDNN) attention in the average layer of `shape`.

    `score_flops`: 4·(query rows)·(keys = seq_len)·(score width), the full score square of the rows one GPU
    holds (its heads, its context-parallel share of the queries). The useful share of the square is charged:
    half of it under a causal mask (FlashAttention skips fully masked blocks), and in a sliding-window layer
    the tiles the window touches and a fixed cost per query tile (window_square_share), at most the causal
    half."""
    useful = 0.5 if shape.causal else 1.0  # FlashAttention skips fully masked blocks
    if shape.sliding_window_layers:  # and, in a windowed layer, every block outside the window
        win = a.table("sliding_window_attention")
        charged = window_square_share(
            shape.seq_len, shape.sliding_window, win["tile"], win["block_overhead_tiles"]
        )
        n_w = shape.sliding_window_layers
        useful = ((shape.layers - n_w) * useful + n_w * min(charged, 0.5)) / shape.layers
    attn_fwd = useful * score_flops / hw.attn_flop_per_s
    attn_bwd = (
        _bwd_flop_ratio(shape) * attn_fwd
    )  # backward recomputes the scores: 2.5× the forward FLOPs (FA-2)
    if triton:  # FlashAttention in Triton (2023): the time of each pass relative to FA-2's, and FA-2's
        # relative to the kernel this GPU's rate stands for (Hopper: FA-3 / cuDNN; FA-2 uses no wgmma)
        ratio = a.table("triton_attention_time_ratio")
        attn_fwd = ratio["fwd"] * hw.fa2_time_ratio * attn_fwd
        attn_bwd = ratio["bwd"] * hw.fa2_time_ratio * attn_bwd
    return attn_fwd, attn_bwd


def layer_times(
    shape: ModelShape,
    hw: Hardware,
    a: Assumptions,
    *,
    tp: Num,
    cp: Num,
    ep: Num,
    mb: Num,
    sp: Flag,
    flash: bool,
    triton: bool = False,
    fp8_recipe: str = "delayed",
    dedup_dispatch: bool = False,
    etp: Num | None = None,
) -> LayerTimes:
    """Times of the average layer (MoE layers weighted by their share of the model).

    Expert-parallel ranks are taken from the data-parallel dimension (Megatron order tp-cp-ep-dp-pp), so an
    EP group has min(ep, gpus_per_node / (tp·cp)) members per node. With `etp` below tp (Megatron-Core MoE
    parallel folding, Liu et al. arXiv:2504.14960: the expert layers get their own etp × ep × edp grid) each
    rank routes only its sequence-parallel share of the tokens (tokens·etp/tp), experts are etp-way split, and
    an EP group has gpus_per_node / etp members per node.
    """
    h, hd, s = float(shape.hidden), float(shape.head_dim), float(shape.seq_len)
    tp = np.asarray(tp, dtype=np.float64)
    cp = np.asarray(cp, dtype=np.float64)
    tokens = np.asarray(mb, dtype=np.float64) * s / cp  # rows of every GEMM on this GPU
    mats = mlp_matrices(shape)
    q_width: Real = shape.heads * hd
    kv_width: Real = shape.kv_heads * hd
    attn_gemm = gemm_s(tokens, (q_width + 2 * kv_width) / tp, h, hw) + gemm_s(tokens, h, q_width / tp, hw)
    if shape.is_mla:  # Multi-head Latent Attention: five projections, two of them replicated over tp (mla.py)
        attn_gemm = sum((gemm_s(tokens, c, k, hw) for _, c, k in mla.projections(shape, tp)), 0.0 * tokens)
        q_width = mla.context_width(shape)  # what enters the output projection
        kv_width = (mla.projection_output_width(shape, tp) * tp - q_width) / 2.0  # q + 2·kv = all outputs
    dense_mlp = _mlp_gemms_s(tokens, h, float(shape.ffn_hidden), mats, tp, hw)
    moe_share = shape.moe_layers / shape.layers
    mlp: Real
    moe_gemm: Real = 0.0
    if shape.is_moe:
        # tokens are spread over experts; an expert's GEMM sees tokens·top_k/experts rows on average
        fe = float(shape.expert_ffn)
        ep_arr = np.asarray(ep, dtype=np.float64)
        e_t = tp if etp is None else np.asarray(etp, dtype=np.float64)
        local_experts = shape.experts / ep_arr
        moe_tokens = tokens * e_t / tp  # tokens this rank routes (its SP share when experts are not TP-split)
        rows = moe_tokens * shape.top_k / local_experts  # EP brings the ep ranks' tokens to the local experts
        routed = grouped_mlp_s(local_experts, rows, h, fe, mats, e_t, hw)
        shared = (
            _mlp_gemms_s(tokens, h, fe * shape.shared_experts, mats, tp, hw) if shape.shared_experts else 0.0
        )
        router = gemm_s(tokens, float(shape.experts), h, hw)
        mlp = (1 - moe_share) * dense_mlp + moe_share * (routed + shared + router)
        moe_gemm = moe_share * (routed + shared)
        act_width = (1 - moe_share) * shape.ffn_hidden + moe_share * fe * (shape.top_k + shape.shared_experts)
    else:
        mlp = dense_mlp
        act_width = float(shape.ffn_hidden)
    gemm_fwd = attn_gemm + mlp

    heads_gpu = shape.heads / tp
    score_elems = np.asarray(mb, dtype=np.float64) * heads_gpu * (s / cp) * s
    score_flops = 4.0 * score_elems * mla.score_width(shape) / shape.heads
    if flash:
        attn_fwd, attn_bwd = flash_attention_s(shape, hw, a, score_flops=score_flops, triton=triton)
    else:
        bmm_f = np.maximum(
            score_flops / hw.unfused_flop_per_s, hw.ew["scores_bmm_fwd"] * score_elems / hw.gemm_byte_per_s
        )
        bmm_b = np.maximum(
            2 * score_flops / hw.unfused_flop_per_s,
            hw.ew["scores_bmm_bwd"] * score_elems / hw.gemm_byte_per_s,
        )
        attn_fwd = bmm_f + hw.ew["scores_fwd"] * score_elems / hw.ew_byte_per_s
        attn_bwd = bmm_b + hw.ew["scores_bwd"] * score_elems / hw.ew_byte_per_s

    replicated = tokens * h / np.where(sp, tp, 1.0)
    gated = shape.gated_mlp
    act_f = hw.ew["mlp_act_fwd"] * (1.5 if gated else 1.0)
    act_b = hw.ew["mlp_act_bwd"] * (10.0 / 6.0 if gated else 1.0)
    act_elems = tokens * act_width / tp
    # token copies sent to experts
    routed_elems: Real = (moe_share * shape.top_k * moe_tokens * h) if shape.is_moe else 0.0
    # Megatron's all-to-all dispatcher receives the copies ordered by source rank and sorts them by local
    # expert before the experts, and back before the combine (sort_chunks_by_idxs), when a rank holds more
    # than one expert; DeepEP/HybridEP hand them over already grouped
    sorted_elems: Real = 0.0
    if shape.is_moe and not dedup_dispatch:
        sorted_elems = np.where(shape.experts / np.asarray(ep, dtype=np.float64) > 1.0, routed_elems, 0.0)
    bias_f, bias_b, clamp_f, clamp_b = _bias_clamp_bytes(shape, hw.ew, replicated, routed_elems, act_elems)
    ew_fwd = (
        hw.ew["norm_residual_fwd"] * replicated
        + hw.ew["attn_io_fwd"] * tokens * mla.score_width(shape) / tp
        + act_f * act_elems
        + hw.ew["moe_permute_fwd"] * routed_elems
        + hw.ew["moe_sort_chunks_fwd"] * sorted_elems
        + bias_f
        + clamp_f
    ) / hw.ew_byte_per_s
    ew_bwd = (
        hw.ew["norm_residual_bwd"] * replicated
        + hw.ew["attn_io_bwd"] * tokens * mla.score_width(shape) / tp
        + act_b * act_elems
        + hw.ew["moe_permute_bwd"] * routed_elems
        + hw.ew["moe_sort_chunks_bwd"] * sorted_elems
        + bias_b
        + clamp_b
    ) / hw.ew_byte_per_s
    if hw.fp8:
        cast_f, cast_b = fp8_cast_bytes(
            tokens, h, q_width, kv_width, act_width, tp, sp, hw.ew, hw.fp8_transposes, fp8_recipe
        )
        ew_fwd = ew_fwd + cast_f / hw.ew_byte_per_s
        ew_bwd = ew_bwd + cast_b / hw.ew_byte_per_s
        if shape.is_moe:
            # routed experts: Transformer Engine's GroupedLinear quantises the dispatched bf16 token copies (FC1's
            # input) and, backward, FC2's output gradient over the copies, cast and transposed per expert
            # (module/grouped_linear.py, multi-tensor cast-transpose); a dense FC1 takes the norm's FP8 output
            ct = routed_cast_bytes(hw.ew, hw.fp8_transposes, fp8_recipe)
            ew_fwd = ew_fwd + ct * routed_elems / hw.ew_byte_per_s
            ew_bwd = ew_bwd + ct * routed_elems / hw.ew_byte_per_s

    links = hw.links
    g_tp = np.minimum(tp, links.gpus_per_node)
    act_bytes = tokens * h * ACT_BYTES
    # 2 all-reduces per layer and pass; with sequence parallelism 2 all-gathers + 2 reduce-scatters, same volume
    # without SP these are plain all-reduces, which NCCL runs with NVLink SHARP where the NVSwitch has it;
    # with SP they are reduce-scatters and all-gathers (no in-switch reduction gain modelled)
    ar = np.where(
        sp,
        group_all_reduce_s(act_bytes, tp, g_tp, links, "tp"),
        group_all_reduce_s(act_bytes, tp, g_tp, links, "tp", nvls=True),
    )
    tp_fwd = 2.0 * ar * (1.0 - a.number("tp_overlap_fraction"))

    kv_chunk = tokens * mla.kv_exchange_width(shape, tp) * ACT_BYTES
    g_cp = np.clip(links.gpus_per_node / tp, 1.0, cp)
    cp_bw = links.busbw("cp", cp, g_cp)
    cp_raw = (cp - 1.0) * (kv_chunk / cp_bw + links.latency(cp, g_cp, "cp"))
    cp_fwd = np.maximum(0.0, cp_raw - a.number("cp_overlap_fraction") * attn_fwd)

    if shape.is_moe:
        ep = np.asarray(ep, dtype=np.float64)
        stride = np.where(e_t == tp, tp * cp, e_t)  # EP ranks stride over tp·cp, or over etp when folded
        g_ep = np.clip(links.gpus_per_node / stride, 1.0, ep)
        one = expert_dispatch_s(
            moe_tokens * h * ACT_BYTES,
            shape.top_k,
            ep,
            g_ep,
            links,
            dedup_dispatch,
            shape.experts,
            shape.router_groups,
            shape.router_group_topk,
        )
        ep_fwd = moe_share * 2.0 * one  # dispatch and combine
        ep_fwd = ep_fwd * (1.0 - a.number("ep_overlap_fraction"))
    else:
        ep_fwd = np.zeros_like(tokens)
    z = np.zeros_like(tokens)
    moe_act: Real = 0.0
    norm_act: Real = 0.0
    expert_bias_f: Real = 0.0
    expert_bias_b: Real = 0.0
    if shape.is_moe:
        moe_act = tokens * moe_share * fe * (shape.top_k + shape.shared_experts) / tp / hw.ew_byte_per_s
        clamp_f = hw.ew["act_clamp_fwd"] if shape.swiglu_clamp else 0.0
        clamp_b = hw.ew["act_clamp_bwd"] if shape.swiglu_clamp else 0.0
        norm = hw.ew["norm_fwd"] * moe_share * replicated / hw.ew_byte_per_s
        norm_act = norm + (act_f + clamp_f) * moe_act
        # the experts' share of the clamp, and fc2's bias added per expert, are expert compute too
        act_f, act_b = act_f + clamp_f, act_b + clamp_b
        if shape.linear_bias:
            expert_bias_f = hw.ew["expert_bias_fwd"] * routed_elems / hw.ew_byte_per_s
            expert_bias_b = hw.ew["expert_bias_bwd"] * routed_elems / hw.ew_byte_per_s
    return LayerTimes(
        gemm_fwd + z,
        attn_fwd + z,
        attn_bwd + z,
        ew_fwd + z,
        ew_bwd + z,
        tp_fwd + z,
        cp_fwd + z,
        ep_fwd + z,
        moe_fwd=moe_gemm + act_f * moe_act + expert_bias_f + z,
        moe_bwd=2.0 * moe_gemm + act_b * moe_act + expert_bias_b + z,
        norm_act_fwd=norm_act + z,
    )


def _bias_clamp_bytes(
    shape: ModelShape, ew: dict[str, float], residual: Real, routed: Real, act: Real
) -> tuple[Real, Real, Real, Real]:
    """HBM bytes (forward, backward) of GPT-OSS's linear biases and of its clamped gated activation.

    Megatron-Core (transformer/moe/experts.py TEGroupedMLP) adds fc1's bias inside the grouped GEMM, but
    returns fc2's and adds it per expert, scaled by the routing weight (`_apply_bias`: b·p, t + b·p,
    torch.cat), and the biased grouped experts rule out the fused bias-dropout-add, so the output projection's
    bias is a separate add (GPTOSSProvider bias_dropout_fusion False). The clamp (fusions/fused_bias_geglu.py
    weighted_bias_quick_geglu_impl) clamps each half of the activation input and concatenates them before the
    fused activation; its backward masks each half's gradient and concatenates them again.
    """
    bias_f: Real = 0.0
    bias_b: Real = 0.0
    if shape.linear_bias and shape.is_moe:
        bias_f = ew["expert_bias_fwd"] * routed + ew["proj_bias_fwd"] * residual
        bias_b = ew["expert_bias_bwd"] * routed + ew["proj_bias_bwd"] * residual
    if not shape.swiglu_clamp:
        return bias_f, bias_b, 0.0, 0.0
    return bias_f, bias_b, ew["act_clamp_fwd"] * act, ew["act_clamp_bwd"] * act
