"""Serving estimate: per-replica decode tokens/s, time to first token, memory fit with the KV cache.

A replica is `tp` GPUs holding one copy of the weights. Decode reads every weight and the whole KV cache once
per step (memory bound at small batch) and does 2·N_layers_active + 2·vocab·hidden (the output head) FLOPs per
sequence (compute bound at large batch):
step = max(bytes / (HBM · e), FLOPs / (peak · e_gemm)) + the memory-bound kernels' activation traffic per token
(serving_activations.py) + 2 all-reduces per layer over the tp group. An MoE step reads the experts its batch
touches in expectation; sliding-window layers hold and read at most the window (kv_cache.py). With fp8/fp4
weights the embedding table and the output head stay in BF16, and the head's GEMM runs at the BF16 rate
(served_weights.py). The input embedding is a row lookup: neither streamed per step nor a GEMM.
Prefill is compute bound: 2·N_layers_active FLOPs per prompt token plus attention over the prompt, and the output
head for each prompt's last token.
Cluster tokens/s = (GPUs // tp) replicas × per-replica tokens/s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpuplanner import text
from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.collectives import group_all_reduce_s, links_for
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.kv_cache import experts_read_share, held_tokens, prefill_attended
from gpuplanner.engine.perf.memory import kv_cache_bytes, usable_memory_gb
from gpuplanner.engine.perf.served_weights import head_gemm_rate, served_weights
from gpuplanner.engine.perf.serving_activations import activation_bytes_per_token
from gpuplanner.engine.perf.serving_setup import serving_assumptions
from gpuplanner.engine.perf.serving_worker import decode_gemm_terms, fp4_scale_bytes, gemm_rates, weight_bytes
from gpuplanner.engine.perf.shapes import ClusterSpec, InferenceConfig, ModelShape

GB = 1e9


@dataclass(frozen=True)
class InferenceEstimate:
    decode_tokens_per_s: float  # per replica, all sequences of the batch together
    decode_step_s: float  # one output token for every sequence of the batch
    ttft_s: float  # prefill of one batch of prompts
    cluster_tokens_per_s: float
    replicas: int
    memory: dict[str, float]
    fits: bool
    bound: str  # "memory bandwidth" or "compute" (decode)
    refusal: str = ""


def refusal_msg(memory: dict[str, float], cfg: InferenceConfig) -> text.Msg:
    """Why a static batch does not fit: the memory per GPU (an estimate's ``memory``) against what is usable."""
    return text.Msg(
        "perf.inference_refusal",
        {
            "total_gb": memory["total_gb"],
            "usable_gb": memory["usable_gb"],
            "weights_gb": memory["weights_gb"],
            "kv_gb": memory["kv_cache_gb"],
            "batch": cfg.batch,
            "tokens": cfg.prompt_len + cfg.output_len,
        },
    )


def estimate_inference(
    shape: ModelShape,
    cfg: InferenceConfig,
    cluster: ClusterSpec,
    n_gpus: int | None = None,
    a: Assumptions | None = None,
) -> InferenceEstimate:
    a = a or load_assumptions()
    g = cluster.gpu_name
    c = param_counts(shape)
    tp = cfg.tp
    fp4 = (
        cfg.weight_precision == "fp4"
    )  # NVFP4 GEMMs, attention at the FP8/BF16 rate (serving_worker.gemm_rates)
    peak = cluster.peak_bf16_tflops * 1e12
    fp8_gemm = cfg.weight_precision_bytes <= 1.0 and bool(cluster.peak_fp8_tflops) and not fp4
    if cfg.weight_precision_bytes <= 1.0 and cluster.peak_fp8_tflops:
        peak = cluster.peak_fp8_tflops * 1e12
    gemm_rate = peak * a.number("gemm_efficiency", g)
    attn_rate = gemm_rate
    wpb = cfg.weight_precision_bytes
    if fp4:
        kv = "fp8" if cfg.kv_precision_bytes == 1 else "bf16"
        gemm_rate, attn_rate, _ = gemm_rates(cluster, "fp4", kv, a)
        wpb = weight_bytes("fp4", cluster, a)  # NVFP4 0.5625, MXFP4 0.53125
    bw = cluster.mem_bw_tbyte_per_s * 1e12 * a.number("decode_hbm_efficiency")
    links = links_for(cluster, a)
    g_tp = min(tp, cluster.gpus_per_node)

    # fp8/fp4 weights: the embedding table and the output head stay in BF16 (served_weights.py)
    sw = served_weights(shape, wpb, serving_assumptions())
    weights_gpu = sw.total / tp
    # the input embedding is a row lookup: its table is not streamed each step (a tied table is the output head)
    touched = weights_gpu - sw.input_table / tp
    # an MoE step reads the experts its batch routes to: E·(1 − (1 − k/E)^B) of each layer's E in expectation
    experts_gpu = share = 0.0
    if shape.is_moe:
        experts_gpu = c["experts_total"] * wpb / tp
        share = float(experts_read_share(shape.top_k, shape.experts, max(cfg.batch, 1)))
        touched -= experts_gpu * (1.0 - share)
    context_avg = cfg.prompt_len + cfg.output_len / 2.0
    held_avg = float(held_tokens(shape, context_avg))  # sliding-window layers hold at most the window
    kv_read = float(
        kv_cache_bytes(
            shape, batch=cfg.batch, context_len=held_avg, tp=tp, kv_precision_bytes=cfg.kv_precision_bytes
        )
    )
    # GEMM FLOPs per token: the layers, and the output head at its own rate (BF16 beside fp8/fp4 layers); the
    # input embedding is a row lookup, not a GEMM
    linear = 2.0 * c["layers_active"]
    head = 2.0 * shape.vocab * shape.hidden
    head_rate = head_gemm_rate(cluster, wpb, gemm_rate, a)
    attn_token = 4.0 * shape.layers * mla.score_width(shape) * held_avg
    # the dense weights stream through the GEMMs at the measured decode-GEMM rate, each GEMM kernel with its fixed
    # part (serving_worker.decode_gemm_terms); the routed experts and the KV cache at decode_hbm_efficiency
    experts_read = experts_gpu * share if shape.is_moe else 0.0
    bw_w, gemm_fixed = decode_gemm_terms(
        cluster, "fp4" if fp4 else ("fp8" if fp8_gemm else ""), shape.layers, a
    )
    t_mem = (touched - experts_read) / bw_w + gemm_fixed + (experts_read + kv_read) / bw
    t_cmp = cfg.batch * (linear / gemm_rate + head / head_rate + attn_token / attn_rate) / tp
    ar_bytes = cfg.batch * shape.hidden * 2.0
    t_tp = 2.0 * shape.layers * float(group_all_reduce_s(ar_bytes, tp, g_tp, links, "tp"))
    # the memory-bound kernels between the GEMMs, per token (serving_activations.py), in addition
    fp8 = cfg.weight_precision_bytes <= 1.0 and bool(cluster.peak_fp8_tflops) and not fp4
    ew = serving_assumptions().table("serving_elementwise_bytes")
    act_tok = activation_bytes_per_token(
        shape, tp, 1, fp8, ew, fp4_scale_bytes(cluster, a) if fp4 else None
    ) / (cluster.mem_bw_tbyte_per_s * 1e12 * a.number("elementwise_hbm_efficiency"))
    step = max(t_mem, t_cmp) + cfg.batch * act_tok + t_tp
    decode_tps = cfg.batch / step

    prompt_tokens = cfg.batch * cfg.prompt_len
    # causal: the keys before each query (half the score square), within the window where there is one
    attn_prompt = 4.0 * shape.layers * mla.score_width(shape) * float(prefill_attended(shape, cfg.prompt_len))
    t_prefill = (
        prompt_tokens * (linear / gemm_rate + attn_prompt / attn_rate) / tp
        + cfg.batch * head / head_rate / tp  # logits of each prompt's last token only
        + weights_gpu / bw
        + prompt_tokens * act_tok
    )
    t_prefill += (
        2.0
        * shape.layers
        * float(group_all_reduce_s(prompt_tokens * shape.hidden * 2.0, tp, g_tp, links, "tp"))
    )

    kv_full = float(
        kv_cache_bytes(
            shape,
            batch=cfg.batch,
            context_len=float(held_tokens(shape, cfg.prompt_len + cfg.output_len)),
            tp=tp,
            kv_precision_bytes=cfg.kv_precision_bytes,
        )
    )
    workspace = 4.0 * cfg.batch * cfg.prompt_len * shape.hidden * 2.0 / tp  # prefill activations in flight
    total = weights_gpu + kv_full + workspace
    usable = usable_memory_gb(cluster.mem_gb, cluster.gpu_name, a)[1]
    fits = total / GB <= usable
    memory = {
        "weights_gb": weights_gpu / GB,
        "kv_cache_gb": kv_full / GB,
        "workspace_gb": workspace / GB,
        "total_gb": total / GB,
        "usable_gb": usable,
    }
    replicas = (n_gpus // tp) if n_gpus else 1
    refusal = "" if fits else refusal_msg(memory, cfg).render("en")
    return InferenceEstimate(
        decode_tokens_per_s=decode_tps,
        decode_step_s=step,
        ttft_s=t_prefill,
        cluster_tokens_per_s=replicas * decode_tps if fits else 0.0,
        replicas=replicas,
        memory=memory,
        fits=bool(fits),
        bound="memory bandwidth" if t_mem >= t_cmp else "compute",
        refusal=refusal,
    )


def max_batch(
    shape: ModelShape, cfg: InferenceConfig, cluster: ClusterSpec, a: Assumptions | None = None
) -> int:
    """Largest batch whose weights + KV cache + workspace fit in one GPU of the replica (0 if none)."""
    a = a or load_assumptions()
    usable = usable_memory_gb(cluster.mem_gb, cluster.gpu_name, a)[1] * GB
    wpb = weight_bytes("fp4", cluster, a) if cfg.weight_precision == "fp4" else cfg.weight_precision_bytes
    free = usable - served_weights(shape, wpb, serving_assumptions()).total / cfg.tp
    per_seq = float(
        kv_cache_bytes(
            shape,
            batch=1,
            context_len=float(held_tokens(shape, cfg.prompt_len + cfg.output_len)),
            tp=cfg.tp,
            kv_precision_bytes=cfg.kv_precision_bytes,
        )
    )
    per_seq += 4.0 * cfg.prompt_len * shape.hidden * 2.0 / cfg.tp
    return int(max(np.floor(free / per_seq), 0))
