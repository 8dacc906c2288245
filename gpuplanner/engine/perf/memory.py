"""Per-GPU memory of training (weights, gradients, optimizer state, activations) and of inference (KV cache).

Model states - Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models",
SC 2020, Section 3.1: mixed-precision Adam holds 2Ψ (fp16/bf16 weights) + 2Ψ (gradients) + 12Ψ (fp32 master
weights, momentum, variance) = 16 bytes/param; Megatron-LM with fp32 main gradients (bf16 default) holds 18.
ZeRO-1 shards the optimizer state over data parallelism, ZeRO-2 also the gradients, ZeRO-3 also the weights.

Activations - Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models", MLSys 2023
(arXiv:2205.05198), Section 4: per layer sbh(34 + 5as/h) bytes without parallelism; sbh(10 + 24/t + 5as/ht)
with tensor parallelism; sbh/t·(34 + 5as/h) with tensor + sequence parallelism; selective recomputation drops
the 5as/h term; full recomputation keeps only the layer input, 2sbh (/t with SP). With 1F1B the first stage
holds p micro-batches in flight (L layers' worth in all), times (1 + (p-1)/(p·v)) with v interleaved chunks.
The constants 34 and 10 are derived here from the shape (GQA, MLP width, gated MLP, MoE) and equal the paper's
for a GPT (ffn = 4h, multi-head attention). All functions broadcast over numpy arrays of configurations.
"""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.shapes import ModelShape

GB = 1e9


def activation_coefficients(shape: ModelShape) -> tuple[float, float]:
    """(total, replicated-without-SP) bytes per token·hidden stored by one layer, scores excluded.

    GPT (MHA, ffn = 4h, GeLU): attention 11 + MLP 19 + 2 LayerNorms 4 = 34, of which 10 are replicated across
    tensor-parallel ranks without sequence parallelism (Korthikanti et al. 2022, Section 4.1).
    """
    h = float(shape.hidden)
    kv = shape.kv_heads * shape.head_dim
    attention = 7.0 + 4.0 * kv / h  # QKV input 2, Q 2, K and V 4·kv/h, proj input 2, dropout mask 1
    act_bytes = (
        6.0 if shape.gated_mlp else 4.0
    )  # activation input(s) + down-projection input, per ffn element
    dense_mlp = 3.0 + act_bytes * shape.ffn_hidden / h  # fc1 input 2, dropout mask 1
    if shape.is_moe:
        share = shape.moe_layers / shape.layers
        width = shape.expert_ffn * (shape.top_k + shape.shared_experts)
        moe_mlp = 3.0 + act_bytes * width / h + 2.0 * shape.top_k  # routed copies of the token (dispatch)
        mlp = (1 - share) * dense_mlp + share * moe_mlp
    else:
        mlp = dense_mlp
    return attention + mlp + 4.0, 10.0


def activation_bytes_per_layer(shape: ModelShape, *, seq_len, micro_batch, tp, cp, sp, recompute, flash):
    """Bytes one layer keeps for the backward pass of one micro-batch on one GPU.

    `recompute` is an array of codes 0 none, 1 selective, 2 full (or a scalar).
    """
    s = np.asarray(seq_len, dtype=float) / np.asarray(cp, dtype=float)
    b = np.asarray(micro_batch, dtype=float)
    t = np.asarray(tp, dtype=float)
    h = float(shape.hidden)
    sbh = s * b * h
    total, replicated = activation_coefficients(shape)
    linear = np.where(sp, total / t, replicated + (total - replicated) / t)
    scores = 0.0 if flash else 5.0 * shape.heads * np.asarray(seq_len, dtype=float) / h / t
    rc = np.asarray(recompute)
    per_layer = np.where(rc == 0, linear + scores, linear)
    per_layer = np.where(rc == 2, np.where(sp, 2.0 / t, 2.0), per_layer)
    return sbh * per_layer


def layers_in_flight(pp, vpp, micro_batches):
    """Micro-batch·layers of activations the first pipeline stage holds, in units of its own layers."""
    p = np.asarray(pp, dtype=float)
    v = np.asarray(vpp, dtype=float)
    interleave = np.where(v > 1, 1.0 + (p - 1.0) / (p * v), 1.0)
    return np.minimum(
        p * interleave, np.asarray(micro_batches, dtype=float) * np.where(v > 1, interleave, 1.0)
    )


def model_state_bytes(
    shape: ModelShape, a: Assumptions, *, tp, pp, dp, cp, ep, zero_stage: int, precision: str
):
    """(weights, gradients, optimizer) bytes on the GPU holding the most parameters (first/last stage)."""
    c = param_counts(shape)
    layers_per_stage = np.ceil(shape.layers / np.asarray(pp, dtype=float))
    expert_per_layer = c["experts_total"] / max(shape.moe_layers, 1)
    dense_per_layer = (c["layers_total"] - c["experts_total"]) / shape.layers
    moe_share = shape.moe_layers / shape.layers
    t = np.asarray(tp, dtype=float)
    emb_stage = shape.vocab * shape.hidden / t  # input embedding on the first stage, output layer on the last
    emb_stage = (
        emb_stage * np.where(np.asarray(pp) == 1, 2.0 - shape.tied_embeddings, 1.0) if shape.vocab else 0.0
    )
    dense = layers_per_stage * dense_per_layer / t + emb_stage
    experts = layers_per_stage * moe_share * expert_per_layer / (t * np.asarray(ep, dtype=float))
    table = a.table("adam_bytes_per_param")
    grad_b = table["grads_fp16"] if precision == "fp16" else table["grads_fp32"]
    shard_dense = np.asarray(dp, dtype=float) * np.asarray(cp, dtype=float)
    shard_expert = np.maximum(shard_dense / np.asarray(ep, dtype=float), 1.0)

    def held(stage_min: int):
        if zero_stage >= stage_min:
            return dense / shard_dense + experts / shard_expert
        return dense + experts

    weights = table["weights"] * held(3)
    grads = grad_b * held(2)
    optim = table["optimizer"] * held(1)
    return weights, grads, optim, dense + experts


def training_memory(
    shape: ModelShape,
    a: Assumptions,
    *,
    mem_gb: float,
    seq_len,
    micro_batch,
    micro_batches,
    tp,
    pp,
    dp,
    cp,
    ep,
    vpp,
    sp,
    recompute,
    flash: bool,
    zero_stage: int,
    precision: str,
) -> dict:
    """Per-GPU breakdown in GB (arrays over configurations) and `fits` against the usable share of mem_gb."""
    w, g, o, _ = model_state_bytes(
        shape, a, tp=tp, pp=pp, dp=dp, cp=cp, ep=ep, zero_stage=zero_stage, precision=precision
    )
    per_layer = activation_bytes_per_layer(
        shape, seq_len=seq_len, micro_batch=micro_batch, tp=tp, cp=cp, sp=sp, recompute=recompute, flash=flash
    )
    layers_per_stage = np.ceil(shape.layers / np.asarray(pp, dtype=float))
    stored = per_layer * layers_per_stage * layers_in_flight(pp, vpp, micro_batches)
    # the layer being recomputed / back-propagated holds its full activations for a moment
    working = activation_bytes_per_layer(
        shape, seq_len=seq_len, micro_batch=micro_batch, tp=tp, cp=cp, sp=sp, recompute=0, flash=flash
    )
    rc = np.asarray(recompute)
    working = np.where(rc == 0, 0.0, working)
    tokens = (
        np.asarray(micro_batch, dtype=float) * np.asarray(seq_len, dtype=float) / np.asarray(cp, dtype=float)
    )
    logits = 6.0 * tokens * shape.vocab / np.asarray(tp, dtype=float)  # fp16 logits + fp32 copy, last stage
    acts = stored + working + logits
    total = w + g + o + acts
    usable = mem_gb * a.number("memory_usable_fraction")
    return {
        "weights_gb": w / GB,
        "grads_gb": g / GB,
        "optimizer_gb": o / GB,
        "activations_gb": acts / GB,
        "total_gb": total / GB,
        "usable_gb": np.full(np.shape(total), usable) if np.ndim(total) else usable,
        "fits": total / GB <= usable,
    }


def kv_cache_bytes(shape: ModelShape, *, batch, context_len, tp, kv_precision_bytes: float):
    """K and V of every layer for `batch` sequences of `context_len` tokens, per GPU of a tp group.

    KV heads are split over tp; when there are fewer KV heads than tp ranks each rank keeps one (replicated).
    """
    kv_per_gpu = np.maximum(shape.kv_heads / np.asarray(tp, dtype=float), 1.0)
    return (
        2.0
        * shape.layers
        * kv_per_gpu
        * shape.head_dim
        * np.asarray(context_len, dtype=float)
        * np.asarray(batch, dtype=float)
        * kv_precision_bytes
    )


def bytes_per_param(precision: str, zero_stage: int, dp: int, a: Assumptions) -> float:
    """Model-state bytes per parameter (16 fp16 / 18 bf16 without ZeRO), after ZeRO sharding over dp."""
    t = a.table("adam_bytes_per_param")
    g = t["grads_fp16"] if precision == "fp16" else t["grads_fp32"]
    w = t["weights"] / (dp if zero_stage >= 3 else 1)
    g = g / (dp if zero_stage >= 2 else 1)
    o = t["optimizer"] / (dp if zero_stage >= 1 else 1)
    return w + g + o
