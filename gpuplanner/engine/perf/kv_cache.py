"""KV cache of a serving sequence with sliding-window attention layers, and the expert weights a MoE decode
step reads.

Sliding windows (Mistral 7B v0.1, Gemma 2/3, GPT-OSS): `sliding_window_layers` of the layers attend over the
last `sliding_window` tokens only, so an inference engine keeps (and a decode step reads) at most that many
tokens of K and V in those layers (vLLM's sliding-window KV cache manager frees the blocks that fall out of the
window; TensorRT-LLM's cyclic KV cache, `max_attention_window_size`). The other layers hold the full context.
Everything here is "per average layer": the tokens a layer holds or attends, averaged over the layers, so a
per-layer KV size × layers × this gives the bytes.

MoE decode: a step of n tokens, each routed to top_k of E experts (distinct), leaves a given expert unused
with probability (1 − k/E)^n on a balanced router (independent tokens), so the expected number of experts
whose weights the step reads per layer is E·(1 − (1 − k/E)^n) — k·n for a few tokens, E for many.
"""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.arrays import FloatArray, Num
from gpuplanner.engine.perf.shapes import ModelShape


def held_tokens(shape: ModelShape, context: Num) -> FloatArray:
    """Tokens of K/V the average layer holds for a sequence of `context` tokens (= those a decode step reads)."""
    ctx = np.asarray(context, dtype=np.float64)
    n_w = shape.sliding_window_layers
    if not n_w:
        return ctx
    held = ((shape.layers - n_w) * ctx + n_w * np.minimum(ctx, float(shape.sliding_window))) / shape.layers
    return np.asarray(held, dtype=np.float64)


def prefill_attended(shape: ModelShape, prompt: Num) -> FloatArray:
    """Keys the average query of a causal prefill of `prompt` tokens attends in the average layer: (P + 1)/2
    without a window (the causal half of the square), and in a windowed layer the mean of min(position, W)."""
    p = np.asarray(prompt, dtype=np.float64)
    full = (p + 1.0) / 2.0
    n_w = shape.sliding_window_layers
    if not n_w:
        return full
    w = float(shape.sliding_window)
    # Σ_{i=1..P} min(i, W) / P = (W(W+1)/2 + (P − W)·W) / P for P > W, else (P + 1)/2
    windowed = np.where(p > w, (w * (w + 1.0) / 2.0 + (p - w) * w) / np.maximum(p, 1.0), full)
    return np.asarray(((shape.layers - n_w) * full + n_w * windowed) / shape.layers, dtype=np.float64)


def touched_share(route_share: float, tokens: Num) -> FloatArray:
    """Expected share of the experts touched by `tokens` tokens that each pick a given expert with probability
    `route_share` (= k/E), independently: 1 − (1 − k/E)^tokens."""
    t = np.maximum(np.asarray(tokens, dtype=np.float64), 0.0)
    return np.asarray(1.0 - np.power(1.0 - route_share, t), dtype=np.float64)


def experts_read_share(top_k: int, experts: int, tokens: Num) -> FloatArray:
    """Expected share of a MoE layer's routed experts that `tokens` tokens (top_k distinct experts each, balanced
    router) touch: 1 − (1 − k/E)^tokens."""
    if experts <= 0:
        return np.zeros_like(np.asarray(tokens, dtype=np.float64))
    return touched_share(min(top_k, experts) / experts, tokens)
