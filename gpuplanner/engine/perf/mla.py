"""Multi-head Latent Attention (MLA) and multi-token prediction (MTP): their parameters, FLOPs, GEMMs, KV cache.

MLA (DeepSeek-V2, arXiv:2405.04434, Section 2.1; DeepSeek-V3 technical report, arXiv:2412.19437, Section 2.1.1)
with h the hidden size, n heads, d'_c = q_lora_rank, d_c = kv_lora_rank, d_n = qk_nope_head_dim,
d_r = qk_rope_head_dim, d_v = v_head_dim, per layer:

    q_a   h × d'_c               W^DQ              replicated on every TP rank
    q_b   d'_c × n·(d_n + d_r)   W^UQ and W^QR     column-parallel
    kv_a  h × (d_c + d_r)        W^DKV and W^KR    replicated on every TP rank
    kv_b  d_c × n·(d_n + d_v)    W^UK and W^UV     column-parallel
    o     n·d_v × h              W^O               row-parallel
    RMSNorms of the two latents: d'_c + d_c

(q_lora_rank 0: one column-parallel h × n·(d_n + d_r) query projection, DeepSeek-V2-Lite.) The TP split is
Megatron-Core's (megatron/core/models/gpt/gpt_layer_specs.py: linear_q_down_proj and linear_kv_down_proj are
TELinear / backend.linear(), parallel_mode "duplicated"; the up projections are column-parallel and
linear_proj row-parallel). A query's scores run over d_n + d_r per head (QK^T) and its output over d_v (PV):
2·keys·n·(d_n + d_r + d_v) FLOPs, written here as the engine's 4·keys·width with width = n·(d_n + d_r + d_v)/2.
Only the latent and the shared RoPE key are cached for inference: d_c + d_r values per token and layer (report
Section 2.1.1), the same on every TP rank (each rank needs the whole latent for its heads).

MTP (report Section 2.2): each of `mtp_layers` modules shares the embedding and the output head with the model
and adds RMSNorms of the hidden state and of the next token's embedding (2h), a projection M of 2h → h (2h²),
one transformer block (DeepSeek-V3: an MoE block like the model's) and a final norm (h) before the shared head.
The published 671 B excludes it; the Hugging Face checkpoint's "14B of the Multi-Token Prediction (MTP) Module
weights" counts its block and projection plus its own copy of the embedding and head.
"""

from __future__ import annotations

from gpuplanner.engine.arrays import Num, Real
from gpuplanner.engine.perf.shapes import ModelShape


def qk_head_dim(shape: ModelShape) -> int:
    return shape.qk_nope_head_dim + shape.qk_rope_head_dim


def projections(shape: ModelShape, tp: Real = 1.0) -> list[tuple[str, Real, Real]]:
    """(name, output columns on one TP rank, inner dimension) of each attention GEMM of one MLA layer."""
    h, n = float(shape.hidden), float(shape.heads)
    qk, dv = float(qk_head_dim(shape)), float(shape.v_head_dim)
    d_c, d_r = float(shape.kv_lora_rank), float(shape.qk_rope_head_dim)
    out: list[tuple[str, Real, Real]] = []
    if shape.q_lora_rank:
        out.append(("q_a", float(shape.q_lora_rank), h))
        out.append(("q_b", n * qk / tp, float(shape.q_lora_rank)))
    else:
        out.append(("q", n * qk / tp, h))
    out.append(("kv_a", d_c + d_r, h))
    out.append(("kv_b", n * (shape.qk_nope_head_dim + dv) / tp, d_c))
    out.append(("o", h, n * dv / tp))
    return out


def up_projections(shape: ModelShape, tp: Real = 1.0) -> list[tuple[str, Real, Real]]:
    """The GEMMs Megatron-Core's selective recompute module "mla_up_proj" runs again: q_b and kv_b (with RoPE)."""
    return [p for p in projections(shape, tp) if p[0] in ("q_b", "kv_b")]


def attention_params(shape: ModelShape) -> float:
    """Weights of one MLA layer's attention projections (without the latent norms)."""
    return float(sum(float(cols) * inner for _, cols, inner in projections(shape)))


def latent_norm_params(shape: ModelShape) -> float:
    return float(shape.q_lora_rank + shape.kv_lora_rank)


def score_width(shape: ModelShape) -> float:
    """Width w with which a query's score FLOPs over `keys` are 4·keys·w: heads·head_dim, or for MLA
    heads·(d_n + d_r + d_v)/2 (QK^T over d_n + d_r, PV over d_v)."""
    if not shape.is_mla:
        return float(shape.heads * shape.head_dim)
    return shape.heads * (qk_head_dim(shape) + shape.v_head_dim) / 2.0


def context_width(shape: ModelShape) -> float:
    """Width of the attention output that enters the output projection (all heads)."""
    return float(shape.heads * (shape.v_head_dim if shape.is_mla else shape.head_dim))


def kv_values_per_token(shape: ModelShape) -> float:
    """Values cached per token and layer, whole model width: 2·kv_heads·head_dim, or d_c + d_r for MLA."""
    if shape.is_mla:
        return float(shape.kv_lora_rank + shape.qk_rope_head_dim)
    return 2.0 * shape.kv_heads * shape.head_dim


def kv_values_per_gpu(shape: ModelShape, tp: Num) -> Real:
    """Values one GPU of a TP group caches per token and layer. KV heads split over tp (one kept when fewer
    heads than ranks); the MLA latent is not split."""
    import numpy as np

    if shape.is_mla:
        return kv_values_per_token(shape) + 0.0 * np.asarray(tp, dtype=np.float64)
    per = np.maximum(shape.kv_heads / np.asarray(tp, dtype=np.float64), 1.0)
    return 2.0 * per * shape.head_dim


def kv_exchange_width(shape: ModelShape, tp: Real) -> Real:
    """Width per token of the K and V blocks a context-parallel ring passes on one TP rank. MLA's keys and
    values are up-projected per head before the attention core (Megatron-Core MLASelfAttention), so the ring
    moves n·(d_n + d_r) key and n·d_v value columns, split over tp like the heads."""
    if shape.is_mla:
        return shape.heads * (qk_head_dim(shape) + shape.v_head_dim) / tp
    return 2.0 * shape.kv_heads * shape.head_dim / tp


def stored_attention_width(shape: ModelShape) -> float:
    """Bytes per token of the attention activations one MLA layer keeps for its backward (bf16), whole width:
    the latents entering the up projections (q 2·d'_c, kv 2·(d_c + d_r)), Q and K (2·n·(d_n + d_r) each),
    V (2·n·d_v) and the context entering the output projection (2·n·d_v). The normed layer input (2·h) and
    the dropout mask are counted by the caller."""
    n, qk, dv = shape.heads, qk_head_dim(shape), shape.v_head_dim
    latents = 2.0 * (shape.q_lora_rank + shape.kv_lora_rank + shape.qk_rope_head_dim)
    return latents + 2.0 * n * qk * 2.0 + 2.0 * n * dv * 2.0


def up_projected_width(shape: ModelShape) -> float:
    """Bytes per token of Q, K and V (bf16), which the recompute module "mla_up_proj" does not keep."""
    return 2.0 * shape.heads * (2.0 * qk_head_dim(shape) + shape.v_head_dim)


def projection_output_width(shape: ModelShape, tp: Real) -> Real:
    """Columns on one TP rank of the GEMM outputs before the attention core (whose gradients FP8 training casts)."""
    return sum((cols for name, cols, _ in projections(shape, tp) if name != "o"), 0.0)


def mtp_params(shape: ModelShape) -> tuple[float, float]:
    """(total, active) parameters of the MTP modules, without the embedding and head they share."""
    if not shape.mtp_layers:
        return 0.0, 0.0
    from gpuplanner.engine.perf.flops import (
        attention_params_per_layer,
        dense_mlp_params_per_layer,
        extra_params_per_layer,
        moe_mlp_params_per_layer,
    )

    h = float(shape.hidden)
    attn = attention_params_per_layer(shape) + extra_params_per_layer(shape)
    glue = 2.0 * h * h + 3.0 * h  # projection M (2h -> h), the two input norms and the final norm
    if shape.is_moe:
        routed, shared = moe_mlp_params_per_layer(shape)
        total = attn + routed + shared
        active = attn + routed * shape.top_k / shape.experts + shared
    else:
        total = active = attn + dense_mlp_params_per_layer(shape)
    return shape.mtp_layers * (total + glue), shape.mtp_layers * (active + glue)


def mtp_forward_flops_per_token(shape: ModelShape, seq_len: int) -> float:
    """Forward FLOPs per token of the MTP modules: their block's GEMMs and scores, the 2h → h projection and one
    more pass through the shared output head each (full-square score convention, as flops.py)."""
    if not shape.mtp_layers:
        return 0.0
    from gpuplanner.engine.perf.flops import extra_params_per_layer

    h = float(shape.hidden)
    _, active = mtp_params(shape)
    gemm = 2.0 * (active - shape.mtp_layers * (extra_params_per_layer(shape) + 3.0 * h))
    scores = 4.0 * seq_len * score_width(shape) * shape.mtp_layers
    logits = 2.0 * h * shape.vocab * shape.mtp_layers
    return gemm + scores + logits
