"""Parameter counts and FLOPs of a transformer (dense, GQA, MoE, ViT, DiT).

Conventions (Narayanan et al., SC'21, "Efficient Large-Scale Language Model Training on GPU Clusters Using
Megatron-LM", Section 5.1 and Appendix): a multiply-add is 2 FLOPs; attention scores are counted over the full
s×s square (the paper's convention, also for causal models); backward = 2 × forward. "Model" FLOPs count one
forward and one backward (6·N·tokens plus attention); "hardware" FLOPs add what recomputation runs again.
For a GPT with 12h² parameters per layer and full recomputation this gives eq. 3:
96·B·s·l·h²·(1 + s/6h + V/16lh); without recomputation 72·B·s·l·h²·(1 + s/6h + V/12lh).
"""

from __future__ import annotations

from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.shapes import ModelShape


def mlp_matrices(shape: ModelShape) -> int:
    return 3 if shape.gated_mlp else 2


def attention_params_per_layer(shape: ModelShape) -> float:
    """Q, K, V and output projections (GQA: K and V have kv_heads heads; MLA: mla.py)."""
    if shape.is_mla:
        return mla.attention_params(shape)
    h, hd = shape.hidden, shape.head_dim
    q = h * shape.heads * hd
    kv = 2 * h * shape.kv_heads * hd
    o = shape.heads * hd * h
    return float(q + kv + o)


def dense_mlp_params_per_layer(shape: ModelShape) -> float:
    return float(mlp_matrices(shape) * shape.hidden * shape.ffn_hidden)


def moe_mlp_params_per_layer(shape: ModelShape) -> tuple[float, float]:
    """(all routed experts, shared experts + router) of one MoE layer."""
    one = mlp_matrices(shape) * shape.hidden * shape.expert_ffn
    routed = shape.experts * one
    shared = shape.shared_experts * one + shape.hidden * shape.experts
    return float(routed), float(shared)


def extra_params_per_layer(shape: ModelShape) -> float:
    """Norm weights (and MLA's latent norms), and DiT's adaLN-Zero modulation (6 vectors of h: 6h²)."""
    norms = 2.0 * shape.hidden + (mla.latent_norm_params(shape) if shape.is_mla else 0.0)
    return norms + (6.0 * shape.hidden * shape.hidden if shape.architecture == "dit" else 0.0)


def bias_sink_params_per_layer(shape: ModelShape) -> dict[str, float]:
    """Parameters outside the weight matrices of GPT-OSS-style layers (zero for everything else).

    With `linear_bias` every linear layer has one bias per output (Megatron add_bias_linear; openai/gpt-oss-120b
    q/k/v/o_proj.bias, gate_up_proj_bias, down_proj_bias, router.bias): QKV and the output projection; fc1
    (both halves when gated) and fc2 of the dense MLP and of each expert; the router's one per expert. With
    `attention_sinks` one learned logit per head (self_attn.sinks).
    """
    if not (shape.linear_bias or shape.attention_sinks):
        return {"attention": 0.0, "dense_mlp": 0.0, "expert": 0.0, "router": 0.0}
    b = 1.0 if shape.linear_bias else 0.0
    up = mlp_matrices(shape) - 1  # fc1 outputs per MLP width (2 when gated)
    attention = b * ((shape.heads + 2 * shape.kv_heads) * shape.head_dim + shape.hidden)
    return {
        "attention": attention + (float(shape.heads) if shape.attention_sinks else 0.0),
        "dense_mlp": b * (up * shape.ffn_hidden + shape.hidden),
        "expert": b * (up * shape.expert_ffn + shape.hidden),
        "router": b * shape.experts if shape.is_moe else 0.0,
    }


def embedding_params(shape: ModelShape) -> float:
    n_tables = 1 if shape.tied_embeddings else 2
    return float(shape.vocab * shape.hidden * (n_tables if shape.vocab else 0))


def param_counts(shape: ModelShape) -> dict[str, float]:
    """Total and active (per token) parameters, split by where they live. `total` and `active` are the model
    as published (DeepSeek-V3's 671 B / 37 B); the multi-token-prediction modules trained beside it are
    `mtp` / `mtp_active` (without the embedding and head they share)."""
    bs = bias_sink_params_per_layer(shape)
    attn = attention_params_per_layer(shape) + extra_params_per_layer(shape) + bs["attention"]
    dense_mlp = dense_mlp_params_per_layer(shape) + bs["dense_mlp"]
    routed, shared = moe_mlp_params_per_layer(shape) if shape.is_moe else (0.0, 0.0)
    if shape.is_moe:
        routed += shape.experts * bs["expert"]
        shared += shape.shared_experts * bs["expert"] + bs["router"]
    n_dense = shape.layers - shape.moe_layers
    n_moe = shape.moe_layers
    one_expert = routed / shape.experts if shape.is_moe else 0.0
    layers_total = shape.layers * attn + n_dense * dense_mlp + n_moe * (routed + shared)
    layers_active = shape.layers * attn + n_dense * dense_mlp + n_moe * (shape.top_k * one_expert + shared)
    emb = embedding_params(shape)
    mtp_total, mtp_active = mla.mtp_params(shape)
    return {
        "mtp": mtp_total,
        "mtp_active": mtp_active,
        "embedding": emb,
        "layers_total": layers_total,
        "layers_active": layers_active,
        "experts_total": n_moe * routed,
        "total": layers_total + emb,
        "active": layers_active + emb,
    }


def params_total(shape: ModelShape) -> float:
    return param_counts(shape)["total"]


def attended_keys(shape: ModelShape, seq_len: int) -> float:
    """Keys a query's scores run over in the average layer, in the full-square convention: seq_len, or
    min(window, seq_len) in the sliding-window layers (GPT-OSS: 18 of 36 layers over 128 tokens)."""
    if not shape.sliding_window_layers:
        return float(seq_len)
    n_w = shape.sliding_window_layers
    return ((shape.layers - n_w) * seq_len + n_w * min(shape.sliding_window, seq_len)) / shape.layers


def bias_active_per_layer(shape: ModelShape) -> float:
    """Bias parameters one token passes through in the average layer (its top_k and shared experts only)."""
    bs = bias_sink_params_per_layer(shape)
    n_moe = shape.moe_layers
    dense = (shape.layers - n_moe) * bs["dense_mlp"]
    moe = n_moe * ((shape.top_k + shape.shared_experts) * bs["expert"] + bs["router"])
    sinks = float(shape.heads) if shape.attention_sinks else 0.0
    return bs["attention"] - sinks + (dense + moe) / shape.layers


def sink_forward_flops_per_token(shape: ModelShape) -> float:
    """A learned sink adds one term to each head's softmax row: subtract the row maximum, exponentiate, add
    to the row sum (3 FLOPs per head and token; the sink takes no key or value, so no QK^T or PV work)."""
    return 3.0 * shape.heads if shape.attention_sinks else 0.0


def layer_forward_flops_per_token(shape: ModelShape, seq_len: int) -> tuple[float, float]:
    """(matrix FLOPs, attention-score FLOPs) of one average layer's forward pass, per token. A bias costs one
    add per output (counted with the matrices), a sink its softmax term (counted with the scores)."""
    c = param_counts(shape)
    extra = extra_params_per_layer(shape) * shape.layers  # not GEMMs over tokens (norms, adaLN)
    bias = bias_active_per_layer(shape)
    sinks = float(shape.heads) if shape.attention_sinks else 0.0
    gemm = 2.0 * ((c["layers_active"] - extra) / shape.layers - bias - sinks) + bias
    scores = 4.0 * attended_keys(shape, seq_len) * mla.score_width(shape)  # QK^T and PV, full square
    return gemm, scores + sink_forward_flops_per_token(shape)


def logits_forward_flops_per_token(shape: ModelShape) -> float:
    return 2.0 * shape.hidden * shape.vocab


def forward_flops_per_token(shape: ModelShape, seq_len: int | None = None) -> float:
    s = seq_len or shape.seq_len
    gemm, scores = layer_forward_flops_per_token(shape, s)
    mtp = mla.mtp_forward_flops_per_token(shape, s)  # MTP modules: one block and one head pass each
    return shape.layers * (gemm + scores) + logits_forward_flops_per_token(shape) + mtp


def model_flops_per_token(shape: ModelShape, seq_len: int | None = None) -> float:
    """Forward + backward, no recomputation: ≈ 6·N_active + attention."""
    return 3.0 * forward_flops_per_token(shape, seq_len)


def hardware_flops_per_token(shape: ModelShape, seq_len: int | None, recompute: str) -> float:
    """Model FLOPs plus what recomputation runs again (Megatron's 'hardware' FLOPs, Korthikanti et al.)."""
    s = seq_len or shape.seq_len
    gemm, scores = layer_forward_flops_per_token(shape, s)
    again = {"none": 0.0, "selective": scores, "full": gemm + scores}[recompute]
    return model_flops_per_token(shape, s) + shape.layers * again


def megatron_eq3_flops(batch: int, seq_len: int, layers: int, hidden: int, vocab: int) -> float:
    """Narayanan et al. SC'21 eq. 3 (GPT, full recomputation): 96·B·s·l·h²·(1 + s/6h + V/16lh)."""
    b, s, n_layers, h, v = float(batch), float(seq_len), float(layers), float(hidden), float(vocab)
    return 96.0 * b * s * n_layers * h * h * (1.0 + s / (6.0 * h) + v / (16.0 * n_layers * h))
