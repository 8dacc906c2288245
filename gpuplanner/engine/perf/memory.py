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
The constants 34 and 10 are derived here from the shape (GQA, MLP width, gated MLP, MoE, dropout) and equal
the paper's for a GPT (ffn = 4h, multi-head attention). The in-flight count is Megatron-Core's warm-up count
(schedules.py), exact for the first rank, with the Llama 3 / Megatron-Core balanced split (the embedding takes
a layer's slot) optional.

FP8 (Transformer Engine): GEMM inputs are saved as their 1-byte FP8 copies, and each GEMM weight keeps a cached
FP8 copy and FP8 transpose (2 bytes/param) for the whole step. Gradients are fp32 main_grad (Megatron-LM's bf16
default) or bf16 (NeMo grad_sync_dtype: bf16), full-size unless ZeRO-2/3.

Usable memory: the datasheet's "80 GB" of HBM is 80 GiB (H100: 81,559 MiB), less a fixed share outside PyTorch's
allocator (CUDA context, NCCL) and the allocator's fragmentation. All functions broadcast over numpy arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpuplanner.engine.arrays import Flag, FloatArray, Num, Real
from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.shapes import ModelShape

GB = 1e9


def activation_coefficients(
    shape: ModelShape, norm_act_recompute: bool = False
) -> tuple[float, float, float]:
    """(total, replicated-without-SP, GEMM inputs) bytes per token·hidden stored by one layer, scores excluded.

    GPT (MHA, ffn = 4h, GeLU): attention 11 + MLP 19 + 2 LayerNorms 4 = 34, of which 10 are replicated across
    tensor-parallel ranks without sequence parallelism (Korthikanti et al. 2022, Section 4.1). The GEMM inputs
    (QKV 2, projection 2, fc1 2, fc2 2·ffn/h = 14 for a GPT) are what FP8 training keeps in one byte.
    Without dropout the two 1-byte masks (attention output, MLP output) are not kept. A clamped gated
    activation (`swiglu_clamp`, Megatron-Core weighted_bias_quick_geglu_impl) also keeps the clamped copy of
    its two inputs (torch.cat of the clamped halves, 4 bytes per ffn element). `norm_act_recompute` (Megatron-Core
    recompute_modules layernorm and moe_act) drops the MoE layer's pre-MLP norm output (2) and everything the
    experts' activation kept but its input (fc1 output, 4 per ffn element).
    """
    h = float(shape.hidden)
    kv = shape.kv_heads * shape.head_dim
    q = shape.heads * shape.head_dim / h  # 1 unless heads × head_dim ≠ hidden (Qwen3, GPT-OSS)
    attention = (
        3.0 + 4.0 * q + 4.0 * kv / h
    )  # QKV input 2, Q 2q, K and V 4·kv/h, proj input 2q, dropout mask 1
    if shape.is_mla:  # input 2, mask 1, latents, Q, K, V and the context (mla.py)
        q = mla.context_width(shape) / h
        attention = 3.0 + mla.stored_attention_width(shape) / h
    act_bytes = (
        6.0 if shape.gated_mlp else 4.0
    )  # activation input(s) + down-projection input, per ffn element
    dense_mlp = 3.0 + act_bytes * shape.ffn_hidden / h  # fc1 input 2, dropout mask 1
    fc2_in = 2.0 * shape.ffn_hidden / h
    if shape.swiglu_clamp:
        act_bytes += 4.0
        dense_mlp += 4.0 * shape.ffn_hidden / h
    if shape.is_moe:
        share = shape.moe_layers / shape.layers
        width = shape.expert_ffn * (shape.top_k + shape.shared_experts)
        moe_act = 4.0 if norm_act_recompute else act_bytes
        moe_mlp = 3.0 + moe_act * width / h + 2.0 * shape.top_k  # routed copies of the token (dispatch)
        moe_mlp -= 2.0 if norm_act_recompute else 0.0
        mlp = (1 - share) * dense_mlp + share * moe_mlp
        fc2_in = (1 - share) * fc2_in + share * (0.0 if norm_act_recompute else 2.0) * width / h
    else:
        mlp = dense_mlp
    masks = 0.0 if shape.dropout else 2.0
    latents = 2.0 * (shape.q_lora_rank + shape.kv_lora_rank) / h  # MLA's up-projection inputs (0 without)
    return attention + mlp + 4.0 - masks, 10.0 - masks, 4.0 + 2.0 * q + fc2_in + latents


def activation_bytes_per_layer(
    shape: ModelShape,
    *,
    seq_len: Num,
    micro_batch: Num,
    tp: Num,
    cp: Num,
    sp: Flag,
    recompute: Num,
    flash: bool,
    precision: str = "bf16",
    norm_act_recompute: bool = False,
    mla_up_recompute: bool = False,
) -> FloatArray:
    """Bytes one layer keeps for the backward pass of one micro-batch on one GPU.

    `recompute` is an array of codes 0 none, 1 selective, 2 full (or a scalar). With FP8, Transformer Engine
    saves each GEMM's input as the FP8 copy it multiplied (1 byte, TE module/linear.py `saved_inputmat`);
    FlashAttention then keeps its own bf16 output for its backward besides the projection's FP8 copy, unless
    the attention core is recomputed (selective).
    """
    s = np.asarray(seq_len, dtype=np.float64) / np.asarray(cp, dtype=np.float64)
    b = np.asarray(micro_batch, dtype=np.float64)
    t = np.asarray(tp, dtype=np.float64)
    h = float(shape.hidden)
    sbh = s * b * h
    total: Num
    total, replicated, gemm_inputs = activation_coefficients(shape, norm_act_recompute)
    rc = np.asarray(recompute)
    if precision == "fp8":
        total = total - gemm_inputs / 2.0
        replicated = replicated - 2.0  # the QKV and fc1 inputs (LayerNorm outputs) in one byte
        if flash:
            q_width = mla.context_width(shape) / h
            total = total + np.where(rc == 0, 2.0 * q_width, 0.0)
    if mla_up_recompute and shape.is_mla:  # Q, K and V are recomputed from the latents (mla.py)
        total = total - mla.up_projected_width(shape) / h
    linear = np.where(sp, total / t, replicated + (total - replicated) / t)
    score_bytes = 5.0 if shape.dropout else 2.0  # softmax output 2, dropout mask 1 and output 2
    scores = 0.0 if flash else score_bytes * shape.heads * np.asarray(seq_len, dtype=np.float64) / h / t
    per_layer = np.where(rc == 0, linear + scores, linear)
    per_layer = np.where(rc == 2, np.where(sp, 2.0 / t, 2.0), per_layer)
    return sbh * per_layer


def chunks_in_flight(pp: Num, vpp: Num, micro_batches: Num) -> FloatArray:
    """Forward passes of model chunks the first pipeline rank holds at its peak (Megatron-Core schedules.py).

    1F1B: min(p, m). Interleaved: the warm-up runs 2(p-1) + (v-1)·p chunk forwards (micro-batch groups of
    p per chunk) and the steady state one more before the first backward: p·v + p - 1, at most m·v.
    """
    p = np.asarray(pp, dtype=np.float64)
    v = np.asarray(vpp, dtype=np.float64)
    m = np.asarray(micro_batches, dtype=np.float64)
    interleaved = np.minimum(2.0 * (p - 1.0) + (v - 1.0) * p + 1.0, m * v)
    return np.where(v > 1, interleaved, np.minimum(p, m))


def layers_in_flight(pp: Num, vpp: Num, micro_batches: Num) -> FloatArray:
    """Micro-batch·layers of activations the first pipeline stage holds, in units of its own layers.

    p·(1 + (p-1)/(p·v)) = p + (p-1)/v with v interleaved chunks (Narayanan et al. SC'21; Korthikanti et al.
    2022, Section 4.2.3), which is Megatron's warm-up count; fewer when the step has fewer micro-batches.
    """
    return chunks_in_flight(pp, vpp, micro_batches) / np.asarray(vpp, dtype=np.float64)


def first_stage_layer_microbatches(
    shape: ModelShape, *, pp: Num, vpp: Num, micro_batches: Num, balanced: bool
) -> FloatArray:
    """Layer·micro-batches of activations on the first pipeline rank at its peak.

    With `balanced` the embedding takes one layer's slot (Llama 3 §3.3.2: 'the first model chunk on the first
    stage has only the embedding'), so the rank's first chunk holds one layer fewer and the forwards of that
    chunk in flight keep one layer fewer each.
    """
    p = np.asarray(pp, dtype=np.float64)
    v = np.asarray(vpp, dtype=np.float64)
    n = chunks_in_flight(pp, vpp, micro_batches)
    if not balanced:
        return n / v * np.ceil(shape.layers / p)
    per_chunk = np.ceil((shape.layers + 2.0) / p) / v
    group = p * v  # the warm-up walks chunk 0 for p micro-batches, then chunk 1, ...
    chunk0 = np.where(v > 1, np.floor(n / group) * p + np.minimum(np.mod(n, group), p), n)
    return np.maximum(n * per_chunk - chunk0, 0.0)


def model_state_bytes(
    shape: ModelShape,
    a: Assumptions,
    *,
    tp: Num,
    pp: Num,
    dp: Num,
    cp: Num,
    ep: Num,
    zero_stage: int,
    precision: str,
    grad_dtype: str | None = None,
    balanced: bool = False,
    optimizer_state: str = "fp32",
    etp: Num | None = None,
    fp8_params: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """(weights, gradients, optimizer) bytes on the GPU holding the most parameters (first/last stage).

    FP8 training with bf16 weights also keeps each GEMM weight's FP8 copy and its FP8 transpose, cast on the
    first micro-batch and reused by the others (Transformer Engine `get_fp8_workspace(cache_name="weight")`,
    Megatron-Core passes is_first_microbatch): counted in the weights. `optimizer_state` says how Adam stores
    its state (optimizer_state_bytes_per_param): 12 bytes with an fp32 master, 10 with only the master's 16
    remainder bits beside the bf16 weight, 4 with bf16 moments and the bf16 weights as master.
    """
    c = param_counts(shape)
    p = np.asarray(pp, dtype=np.float64)
    layers_per_stage = np.ceil(shape.layers / p)
    if balanced:  # the first and last stages give a layer's slot to the embedding / the output layer
        layers_per_stage = np.where(p > 1, np.ceil((shape.layers + 2.0) / p) - 1.0, layers_per_stage)
    expert_per_layer = c["experts_total"] / max(shape.moe_layers, 1)
    dense_per_layer = (c["layers_total"] - c["experts_total"]) / shape.layers
    moe_share = shape.moe_layers / shape.layers
    t = np.asarray(tp, dtype=np.float64)
    emb_stage: Real = (
        shape.vocab * shape.hidden / t
    )  # input embedding on the first stage, output layer on the last
    emb_stage = (
        emb_stage * np.where(np.asarray(pp) == 1, 2.0 - shape.tied_embeddings, 1.0) if shape.vocab else 0.0
    )
    gemm_dense = layers_per_stage * dense_per_layer / t
    dense = gemm_dense + emb_stage
    # experts are split over etp ranks (Megatron's default etp = tp; MoE parallel folding: etp 1, the experts
    # then sharded over tp·dp·cp / (etp·ep) expert-data-parallel ranks)
    e_t = t if etp is None else np.asarray(etp, dtype=np.float64)
    experts = layers_per_stage * moe_share * expert_per_layer / (e_t * np.asarray(ep, dtype=np.float64))
    table = a.table("adam_bytes_per_param")
    grad_key = {"fp32": "grads_fp32", "bf16": "grads_bf16", "fp16": "grads_fp16"}[
        grad_dtype or ("fp16" if precision == "fp16" else "fp32")
    ]
    grad_b = table[grad_key]
    shard_dense = np.asarray(dp, dtype=np.float64) * np.asarray(cp, dtype=np.float64)
    shard_expert = np.maximum(shard_dense * t / (e_t * np.asarray(ep, dtype=np.float64)), 1.0)

    def held(stage_min: int, dense_part: FloatArray = dense) -> FloatArray:
        if zero_stage >= stage_min:
            return dense_part / shard_dense + experts / shard_expert
        return dense_part + experts

    weights = table["weights"] * held(3)
    if precision == "fp8":
        cache = a.number("fp8_weight_cache_bytes_per_param")
        if fp8_params:  # FP8 primary weights: the GEMM weight is its 1-byte FP8 copy (+ the 1-byte transpose)
            cache = cache - table["weights"]
        weights = weights + cache * held(3, gemm_dense)
    grads = grad_b * held(2)
    optim = a.table("optimizer_state_bytes_per_param")[optimizer_state] * held(1)
    return weights, grads, optim, dense + experts


def usable_memory_gb(mem_gb: float, gpu_name: str, a: Assumptions) -> tuple[float, float]:
    """(device memory, memory the model's tensors can use) in GB (1e9 bytes) for a GPU sold as `mem_gb`.

    HBM capacities are binary: an "80 GB" H100 shows 81,559 MiB = 85.5e9 bytes. From that the CUDA context,
    NCCL and library workspaces take a fixed share outside PyTorch's allocator, and the caching allocator
    loses a fraction to fragmentation.
    """
    capacity = mem_gb * a.number("hbm_bytes_per_marketed_gb", gpu_name) / GB
    usable = capacity * (1.0 - a.number("allocator_fragmentation_fraction")) - a.number("memory_reserved_gb")
    return capacity, usable


def training_memory(
    shape: ModelShape,
    a: Assumptions,
    *,
    mem_gb: float,
    seq_len: Num,
    micro_batch: Num,
    micro_batches: Num,
    tp: Num,
    pp: Num,
    dp: Num,
    cp: Num,
    ep: Num,
    vpp: Num,
    sp: Flag,
    recompute: Num,
    flash: bool,
    zero_stage: int,
    precision: str,
    gpu_name: str = "",
    grad_dtype: str | None = None,
    balanced: bool = False,
    optimizer_state: str = "fp32",
    etp: Num | None = None,
    fp8_params: bool = False,
    norm_act_recompute: bool = False,
    mla_up_recompute: bool = False,
) -> dict[str, Any]:
    """Per-GPU breakdown in GB (arrays over configurations) and `fits` against the usable share of mem_gb."""
    w, g, o, _ = model_state_bytes(
        shape,
        a,
        tp=tp,
        pp=pp,
        dp=dp,
        cp=cp,
        ep=ep,
        zero_stage=zero_stage,
        precision=precision,
        grad_dtype=grad_dtype,
        balanced=balanced,
        optimizer_state=optimizer_state,
        etp=etp,
        fp8_params=fp8_params,
    )

    def act(rc: Num) -> FloatArray:
        return activation_bytes_per_layer(
            shape,
            seq_len=seq_len,
            micro_batch=micro_batch,
            tp=tp,
            cp=cp,
            sp=sp,
            recompute=rc,
            flash=flash,
            precision=precision,
            norm_act_recompute=norm_act_recompute,
            mla_up_recompute=mla_up_recompute,
        )

    per_layer = act(recompute)
    stored = per_layer * first_stage_layer_microbatches(
        shape, pp=pp, vpp=vpp, micro_batches=micro_batches, balanced=balanced
    )
    # the layer being recomputed / back-propagated holds its full activations for a moment
    working = act(0)
    rc = np.asarray(recompute)
    working = np.where(rc == 0, 0.0, working)
    tokens = (
        np.asarray(micro_batch, dtype=np.float64)
        * np.asarray(seq_len, dtype=np.float64)
        / np.asarray(cp, dtype=np.float64)
    )
    logits = (
        6.0 * tokens * shape.vocab / np.asarray(tp, dtype=np.float64)
    )  # fp16 logits + fp32 copy, last stage
    acts = stored + working + logits
    total = w + g + o + acts
    capacity, usable = usable_memory_gb(mem_gb, gpu_name, a)
    shape_of = np.shape(total)
    return {
        "weights_gb": w / GB,
        "grads_gb": g / GB,
        "optimizer_gb": o / GB,
        "activations_gb": acts / GB,
        "total_gb": total / GB,
        "usable_gb": np.full(shape_of, usable) if np.ndim(total) else usable,
        "capacity_gb": np.full(shape_of, capacity) if np.ndim(total) else capacity,
        "fits": total / GB <= usable,
    }


def kv_cache_bytes(
    shape: ModelShape, *, batch: Num, context_len: Num, tp: Num, kv_precision_bytes: float
) -> FloatArray:
    """K and V of every layer for `batch` sequences of `context_len` tokens, per GPU of a tp group.

    KV heads are split over tp; when there are fewer KV heads than tp ranks each rank keeps one (replicated).
    Multi-head Latent Attention caches its latent and RoPE key, whole on every rank (mla.py).
    """
    return (
        shape.layers
        * mla.kv_values_per_gpu(shape, tp)
        * np.asarray(context_len, dtype=np.float64)
        * np.asarray(batch, dtype=np.float64)
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
