"""One serving worker: what is served (ServingSetup) and the per-step cost coefficients of a replica of tp × pp
GPUs (Worker) — weights and KV cache at their precision, HBM, GEMM and TP all-reduce terms — from which the
steady state (serving_steady.py) and the plans (serving.py) are computed.

A step on one pipeline stage costs bytes / (HBM · e) + FLOPs / (peak · e_gemm) + 2 all-reduces per layer over
tp, plus the fixed part of its GEMM kernels (the dense weights stream at the measured decode-GEMM rate and each
GEMM kernel has a fixed cost: decode_gemm_terms, NVIDIA's measured TensorRT-LLM GEMMs); every term is linear in the decode batch B and the prefill tokens C of the step, so a Worker holds the
coefficients of that linear form. Constants: catalogs/assumptions/performance.yaml and serving.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.collectives import Links, group_all_reduce_s, links_for, p2p_s
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.kv_cache import held_tokens, prefill_attended, touched_share
from gpuplanner.engine.perf.memory import usable_memory_gb
from gpuplanner.engine.perf.served_weights import head_gemm_rate, served_weights
from gpuplanner.engine.perf.serving_activations import activation_bytes_per_token
from gpuplanner.engine.perf.serving_setup import (
    GB,
    PRECISION_BYTES,
    ServingSetup,
    serving_assumptions,
)
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape


@dataclass(frozen=True)
class Worker:
    """Per-GPU constants of one replica or worker (tp × pp GPUs). A step with B decode tokens and C prefill
    tokens costs  mem0 + moe_all·(1 − (1 − k/E)^(B+C)) + mem_b·B  +  cmp_b·B + cmp_c·C  +  gemm_fixed + k0 + k_tok·(B+C)
    (the additive roofline of the training model: memory traffic and math do not fully overlap in the
    kernels of one step); k/E = moe_tok / moe_all, the expected share of the routed experts the step's tokens
    touch (kv_cache.touched_share). A dense model has moe_all = 0."""

    tp: int
    pp: int
    weights_gb: float  # per GPU
    kv_gb_per_token: float  # per GPU, all layers of its stage
    kv_capacity_tokens: float  # tokens the KV cache can hold on this worker
    budget_tokens: int
    mem0_s: float  # dense weights read once per step
    moe_all_s: float  # all routed experts read
    moe_tok_s: float  # routed experts one token reads (top_k of E): moe_all · k/E
    mem_b_s: float  # KV cache read per decode token (average context)
    cmp_b_s: float  # FLOPs per decode token
    cmp_c_s: float  # FLOPs per prefill token
    k0_s: float  # collective latency per step
    k_tok_s: float  # collective bytes per decode token
    kv_token_total_byte: float  # one token's K and V over all layers and heads (what a KV transfer moves)
    nic_byte_per_s: float  # the worker's NICs for a KV transfer (line rate × efficiency × fabric share)
    fits: bool
    refusal: str = ""
    # the fixed cost of the step's GEMM kernels (launch, input quantize, tail: decode_gemm_terms),
    # paid once per step whatever its tokens
    gemm_fixed_s: float = 0.0
    # the most sequences the worker runs at once (ServingSetup.max_seqs, else the stack's default;
    # inf = uncapped): the steady decode batch never exceeds it (serving_steady.py)
    max_seqs: float = float("inf")
    refusal_msg: text.Msg | None = field(default=None, repr=False, compare=False)  # the refusal as a message
    # per length of setup.prompt_dist: seconds of its prompt's attention beyond what cmp_c_s charges its tokens
    # (cmp_c_s takes the token-weighted mean of the keys attended; zero on average over the tokens); () = none
    length_attn_s: tuple[float, ...] = ()
    # the parts of cmp_b_s that are not the linear layers' GEMMs (decode_terms): the attention products per decode
    # token and the memory-bound kernels per token
    attn_b_s: float = 0.0
    act_tok_s: float = 0.0
    # collective bytes per prefill token: k_tok_s, except the share of the prompt tokens whose steps' all-reduce
    # exceeds the stack's custom all-reduce and runs in NCCL with NVLink SHARP (nccl_share); None = k_tok_s
    k_tok_c_s: float | None = None

    def decode_terms(self, decode_tokens: float) -> dict[str, float]:
        """A decode-only step of `decode_tokens` sequences split by operator (seconds; they add up to
        step_s(decode_tokens, 0)): the linear layers' GEMMs (dense weights streamed, their FLOPs, the kernels'
        fixed part), the routed experts read (MoE), attention over the KV cache (its reads and products), the
        TP all-reduces and the memory-bound kernels between them."""
        b = float(decode_tokens)
        gemm_tok = self.cmp_b_s - self.attn_b_s - self.act_tok_s
        return {
            "gemm": self.mem0_s + self.gemm_fixed_s + gemm_tok * b,
            "experts": float(self.moe_s(b)),
            "attention": (self.mem_b_s + self.attn_b_s) * b,
            "all_reduce": self.k0_s + self.k_tok_s * b,
            "elementwise": self.act_tok_s * b,
        }

    def length_attn(self, n: int) -> NDArray[np.float64]:
        """length_attn_s as an array of the distribution's n lengths (zeros without one)."""
        if len(self.length_attn_s) == n:
            return np.asarray(self.length_attn_s, dtype=np.float64)
        return np.zeros(n)

    @property
    def gpus(self) -> int:
        return self.tp * self.pp

    def moe_s(self, tokens: float | NDArray[Any]) -> NDArray[np.float64]:
        """Expected time reading the routed experts a step of `tokens` tokens touches."""
        if self.moe_all_s <= 0:
            return np.zeros_like(np.asarray(tokens, dtype=float))
        return self.moe_all_s * touched_share(self.moe_tok_s / self.moe_all_s, tokens)

    def step_s(
        self, decode_tokens: float | NDArray[Any], prefill_tokens: float | NDArray[Any]
    ) -> NDArray[np.float64]:
        """One engine step (= one output token per running sequence), vectorised over its arguments."""
        b = np.asarray(decode_tokens, dtype=float)
        t = b + np.asarray(prefill_tokens, dtype=float)
        mem = self.mem0_s + self.moe_s(t) + self.mem_b_s * b
        cmp = self.cmp_b_s * b + self.cmp_c_s * (t - b)
        out: NDArray[np.float64] = mem + cmp + self.gemm_fixed_s + self.k0_s + self.k_tok_s * t
        # the prefill tokens' all-reduce at its own rate (k_tok_c_s): + exactly 0.0 where it is the decode tokens'
        out = out + (self.k_tok_c - self.k_tok_s) * (t - b)
        return out

    @property
    def k_tok_c(self) -> float:
        """Collective seconds per prefill token (k_tok_c_s, else the decode tokens' k_tok_s)."""
        return self.k_tok_s if self.k_tok_c_s is None else self.k_tok_c_s


def fp4_refusal(cluster: ClusterSpec) -> ValidationError:
    """`--precision fp4` on a GPU whose catalog entry has no FP4 tensor-core rate (Hopper, Ampere, MI300X...)."""
    return ValidationError(
        text.Msg(
            "error.fp4_no_tensor_cores", {"gpu": cluster.gpu_label or cluster.gpu_name, "precision": "fp4"}
        ),
        field="precision",
        value="fp4",
        hint=text.Msg("error.fp4_no_tensor_cores.hint"),
    )


def fp4_scale_bytes(cluster: ClusterSpec, a: Assumptions) -> float:
    """Block-scale bytes per FP4 element on this GPU: NVFP4 1/16 (NVIDIA), MXFP4 1/32 (AMD CDNA 4)."""
    return a.number("fp4_block_scale_bytes", cluster.gpu_name)


def weight_bytes(precision: str, cluster: ClusterSpec, a: Assumptions) -> float:
    """Bytes per weight: PRECISION_BYTES, except FP4 takes its GPU's block format (0.5 + fp4_scale_bytes)."""
    if precision == "fp4":
        if not cluster.peak_fp4_tflops:
            raise fp4_refusal(cluster)
        return 0.5 + fp4_scale_bytes(cluster, a)
    return PRECISION_BYTES[precision]


def gemm_rates(
    cluster: ClusterSpec, precision: str, kv_precision: str | None, a: Assumptions
) -> tuple[float, float, str]:
    """(FLOP/s of the linear layers' GEMMs, FLOP/s of the attention products, the cast of the GEMM inputs: "",
    "fp8" or "fp4"), per GPU.

    bf16/fp16: the BF16 peak × gemm_efficiency. fp8 (weights and activations in FP8): the FP8 peak × the FP8
    ratio, attention too (TensorRT-LLM's FP8 context FMHA). fp4 (NVFP4 weights and activations, ModelOpt
    NVFP4_DEFAULT_CFG: every linear layer's weight and input quantizer): the GEMMs at the FP4 peak
    (fp4_dense_tflops) × fp4_gemm_efficiency_ratio; attention is not quantized to FP4 (the config has no
    attention quantizer): it runs at the FP8 rate with an FP8 KV cache, else at the BF16 rate. A GPU without FP4
    tensor cores is refused (fp4_refusal)."""
    g = cluster.gpu_name
    eff = a.number("gemm_efficiency", g)
    bf16 = cluster.peak_bf16_tflops * 1e12 * eff
    fp8 = (
        cluster.peak_fp8_tflops * 1e12 * (eff * a.number("fp8_gemm_efficiency_ratio", g))
        if cluster.peak_fp8_tflops
        else None
    )
    if precision == "fp4":
        if not cluster.peak_fp4_tflops:
            raise fp4_refusal(cluster)
        fp4 = cluster.peak_fp4_tflops * 1e12 * (eff * a.number("fp4_gemm_efficiency_ratio", g))
        return fp4, (fp8 if fp8 and kv_precision == "fp8" else bf16), "fp4"
    if precision == "fp8" and fp8:  # FP8 weights and activations: FP8 GEMMs
        return fp8, fp8, "fp8"
    return bf16, bf16, ""


# GEMM kernels per transformer layer in a decode step: fused QKV, attention output, fused gate-up (or up) and
# down projections (TensorRT-LLM / vLLM Llama; aiconfigurator's LLAMA model lists the same four)
GEMMS_PER_LAYER = 4


def decode_gemm_terms(cluster: ClusterSpec, cast: str, layers: float, a: Assumptions) -> tuple[float, float]:
    """(byte/s at which a decode step's GEMMs stream the weights, fixed seconds of the step's GEMM kernels) per
    GPU, for GEMM inputs cast to `cast` ("", "fp8", "fp4": gemm_rates) and `layers` layers on the GPU.

    A decode GEMM (M = the step's tokens, small) reads its weight matrix once: NVIDIA's measured TensorRT-LLM
    GEMMs (aiconfigurator's per-GPU databases, catalogs/assumptions/performance.yaml decode_gemm_*) take
    t = fixed + weight bytes / (HBM · e_w) at M ≤ 16. e_w (decode_gemm_hbm_efficiency_<dtype>) replaces
    decode_hbm_efficiency for the weights; the fixed part (decode_gemm_fixed_us_<dtype>) is paid by each of
    GEMMS_PER_LAYER kernels per layer, plus the output head's BF16 GEMM once. GPUs without a measurement take
    the defaults: e_w = decode_hbm_efficiency and no fixed part (the rule before)."""
    kind = {"fp8": "fp8", "fp4": "fp4"}.get(cast, "bf16")
    g = cluster.gpu_name
    bw = cluster.mem_bw_tbyte_per_s * 1e12 * a.number(f"decode_gemm_hbm_efficiency_{kind}", g)
    fixed = layers * GEMMS_PER_LAYER * a.number(f"decode_gemm_fixed_us_{kind}", g)
    fixed += a.number("decode_gemm_fixed_us_bf16", g)  # the output head (BF16: served_weights.py)
    return bw, fixed * 1e-6


def custom_all_reduce_cap_bytes(stack: str, tp: int, sa: Assumptions) -> float:
    """The largest all-reduce message (bytes) the serving stack runs in its own all-reduce kernels; a larger one
    goes to NCCL (serving.yaml custom_allreduce_max_bytes: TensorRT-LLM 8 MB, 16 MB at two ranks; vLLM 8 MiB)."""
    caps = sa.table("custom_allreduce_max_bytes")
    if stack == "trtllm" and tp <= 2:
        return caps["trtllm_two_ranks"]
    return caps[stack]


def nccl_share(shape: ModelShape, setup: ServingSetup, tp: int, sa: Assumptions) -> float:
    """The share of the prompt tokens whose steps' TP all-reduce is larger than the stack's custom all-reduce
    (custom_all_reduce_cap_bytes), so that NCCL runs it. A prompt of p tokens is prefilled in chunks of
    min(p, budget) tokens; a step carrying such a chunk all-reduces at least min(p, budget) · hidden · 2 bytes
    (bf16 activations). Token-weighted over the setup's prompt lengths (its one length without a distribution).
    0 at tp = 1 (no all-reduce)."""
    if tp <= 1:
        return 0.0
    cap_tokens = custom_all_reduce_cap_bytes(setup.serving_stack, tp, sa) / (shape.hidden * 2.0)
    budget = float(
        setup.max_batched_tokens if setup.max_batched_tokens is not None else sa.number("max_batched_tokens")
    )
    if setup.prompt_dist is None:
        p, w = np.array([float(setup.prompt_len)]), np.ones(1)
    else:
        p, w = setup.prompt_dist.p, setup.prompt_dist.w
    big = np.minimum(p, budget) > cap_tokens
    return float((p * w)[big].sum() / (p * w).sum())


def _all_reduce_terms(
    shape: ModelShape, tp: int, g_tp: int, links: Links, probe: float, nvls: bool = False
) -> tuple[float, float]:
    """(fixed s, s per token) of a step's 2 TP all-reduces per layer made linear in the step's tokens (latency +
    bytes / bus bandwidth, from one token and `probe` tokens); `nvls`: run by NCCL with NVLink SHARP
    (collectives.nvls_factor: an NVSwitch that reduces, 5 or more ranks in the node; else the ring's rate). (0, 0)
    at tp = 1."""
    if tp <= 1:
        return 0.0, 0.0
    one = float(group_all_reduce_s(shape.hidden * 2.0, tp, g_tp, links, "tp", nvls=nvls))
    big = float(group_all_reduce_s(probe * shape.hidden * 2.0, tp, g_tp, links, "tp", nvls=nvls))
    return 2.0 * shape.layers * one, 2.0 * shape.layers * max(big - one, 0.0) / (probe - 1.0)


def fused_all_reduce_slope(shape: ModelShape, tp: int, nvls_tok: float, rate: float) -> float:
    """Seconds per prefill token of a step's TP all-reduces when each is fused into the row-parallel GEMM before it
    (ServingSetup.gemm_allreduce_fusion), from `nvls_tok`, the 2 all-reduces per layer at NCCL's NVLink SHARP rate
    (_all_reduce_terms with nvls), and the GEMMs' FLOP rate `rate`.

    TensorRT-LLM's GemmAllReduce kernel (cpp/tensorrt_llm/kernels/cutlass_kernels/allreduce_gemm, the only
    implementation kNVLS_2SHOT) reduces each finished output tile through multicast memory while the GEMM computes
    the next tiles, so per token an all-reduce adds only what it takes beyond its GEMM: max(A − G, 0), A one
    all-reduce's seconds per token, G the GEMM's (attention output projection, 2·context width·hidden/tp FLOPs;
    MLP down projection, 2·ffn·hidden/tp). The ideal overlap: the time of the reduction's own work inside the kernel
    is not counted (no measurement of it was found). A MoE layer's MLP all-reduce follows the expert combine, not a
    GEMM: it stays whole. 0 at tp = 1."""
    if tp <= 1:
        return 0.0
    one = nvls_tok / (2.0 * shape.layers)
    g_attn = 2.0 * mla.context_width(shape) * shape.hidden / tp / rate
    g_mlp = 2.0 * shape.ffn_hidden * shape.hidden / tp / rate
    dense = shape.dense_layers if shape.is_moe else shape.layers
    return (
        shape.layers * max(one - g_attn, 0.0) + dense * max(one - g_mlp, 0.0) + (shape.layers - dense) * one
    )


def kv_cache_fraction(stack: str, sa: Assumptions, stated: float | None = None) -> float:
    """The share of the serving stack's KV-cache rule: `stated` (a deployment's own setting), else the stack's
    default (serving.yaml: kv_cache_free_memory_fraction for trtllm, kv_cache_memory_fraction for vllm)."""
    if stated is not None:
        return float(stated)
    return sa.number("kv_cache_free_memory_fraction" if stack == "trtllm" else "kv_cache_memory_fraction")


def max_seqs_of(setup: ServingSetup, cluster: ClusterSpec, sa: Assumptions) -> float:
    """The most sequences a worker runs at once: the setup's max_seqs, else its serving stack's default
    (serving.yaml). vllm: EngineArgs.get_batch_defaults, 1024 on a GPU of at least 70 GiB whose name is not an
    A100 (vllm_max_num_seqs_large_gpu), else 256 (vllm_max_num_seqs); trtllm: no sourced default, uncapped."""
    if setup.max_seqs is not None:
        return float(setup.max_seqs)
    if setup.serving_stack != "vllm":
        return float("inf")
    large = cluster.mem_gb * 1e9 >= 70 * 2**30 and "a100" not in cluster.gpu_name.lower()
    return sa.number("vllm_max_num_seqs_large_gpu" if large else "vllm_max_num_seqs")


def kv_cache_gb(
    capacity_gb: float,
    usable_gb: float,
    weights_gb: float,
    workspace_gb: float,
    stack: str,
    sa: Assumptions,
    fraction: float | None = None,
    *,
    outside_gb: float,
) -> tuple[float, float]:
    """(memory the engine sizes from, memory its KV cache gets) per GPU in GB, by the serving stack's rule.

    vllm:   KV = min(usable, capacity · f_total) − weights − workspace   (f_total: kv_cache_memory_fraction,
            vLLM's --gpu-memory-utilization, a share of the whole device)
    trtllm: KV = f_free · (capacity − outside − weights − workspace)   (f_free: kv_cache_free_memory_fraction,
            TensorRT-LLM's free_gpu_memory_fraction, a share of what is free after the model and its workspace
            are loaded). TensorRT-LLM takes the device total of cudaMemGetInfo and subtracts the profile run's
            peak *allocated* bytes plus the memory outside PyTorch (`outside_gb`, performance.yaml
            memory_reserved_gb); the caching allocator's fragmentation is not charged (serving.yaml).
    `fraction` replaces f_total / f_free when a deployment states its own (kv_cache_fraction).
    Either may be negative (nothing fits); callers clip at 0.
    """
    f = kv_cache_fraction(stack, sa, fraction)
    if stack == "trtllm":
        base_gb = capacity_gb - outside_gb
        return base_gb, f * (base_gb - weights_gb - workspace_gb)
    engine_gb = min(usable_gb, capacity_gb * f)
    return engine_gb, engine_gb - weights_gb - workspace_gb


def worker(
    shape: ModelShape,
    cluster: ClusterSpec,
    setup: ServingSetup,
    tp: int,
    pp: int = 1,
    a: Assumptions | None = None,
    sa: Assumptions | None = None,
) -> Worker:
    a = a or load_assumptions()
    sa = sa or serving_assumptions()
    g = cluster.gpu_name
    c = param_counts(shape)
    n = tp * pp
    rate, attn_rate, cast = gemm_rates(cluster, setup.precision, setup.kv_precision, a)
    bw = cluster.mem_bw_tbyte_per_s * 1e12 * a.number("decode_hbm_efficiency")
    # the memory-bound kernels between the GEMMs, per token of a step (serving_activations.py)
    ew = sa.table("serving_elementwise_bytes")
    scales = fp4_scale_bytes(cluster, a) if cast == "fp4" else None
    act_s = activation_bytes_per_token(shape, tp, pp, cast == "fp8", ew, scales) / (
        cluster.mem_bw_tbyte_per_s * 1e12 * a.number("elementwise_hbm_efficiency")
    )
    links = links_for(cluster, a)
    g_tp = min(tp, cluster.gpus_per_node)

    wb = weight_bytes(setup.precision, cluster, a)
    # fp8/fp4 weights: the embedding table and the output head stay in BF16 (served_weights.py)
    sw = served_weights(shape, wb, sa)
    weights = sw.total / n
    # KV values per token and layer: GQA heads split over tp (one kept when fewer), MLA's latent whole (mla.py)
    ctx_decode = setup.prompt_len + setup.output_len / 2.0
    # sliding-window layers hold at most the window (kv_cache.py): bytes per context token at the mean context
    win = float(held_tokens(shape, ctx_decode)) / ctx_decode
    kv_full_tok = (shape.layers / pp) * float(mla.kv_values_per_gpu(shape, tp)) * setup.kv_bytes
    kv_tok = kv_full_tok * win
    kv_total = shape.layers * mla.kv_values_per_token(shape) * setup.kv_bytes
    kv_total *= float(held_tokens(shape, setup.prompt_len)) / setup.prompt_len  # a prompt's KV to transfer
    score = (
        4.0 * shape.layers * mla.score_width(shape)
    )  # QK^T + PV FLOPs per query-key pair (mla.score_width)
    # GEMM FLOPs: the layers, plus the output head for every token that yields logits (each decode token, the
    # last token of a prompt); the input embedding is a row lookup, not a GEMM. The head's GEMM runs at its own
    # rate (BF16 beside fp8/fp4 layers), counted here as the FLOPs at `rate` that take the same time
    head = 2.0 * shape.vocab * shape.hidden * (rate / head_gemm_rate(cluster, wb, rate, a))
    gemm_dec = (2.0 * c["layers_active"] + head) / n
    gemm_pre = (2.0 * c["layers_active"] + head / setup.prompt_len) / n
    budget = int(
        setup.max_batched_tokens if setup.max_batched_tokens is not None else sa.number("max_batched_tokens")
    )
    if not setup.chunked_prefill and setup.max_batched_tokens is None:
        # vLLM V0 without chunking: max(max_model_len, 2048) (serving.yaml unchunked_min_batched_tokens)
        budget = int(max(shape.seq_len, sa.number("unchunked_min_batched_tokens")))

    capacity_gb, usable_gb = usable_memory_gb(cluster.mem_gb, g, a)
    act_gb = sa.number("prefill_activation_bytes_per_token_hidden") * budget * shape.hidden / tp / GB
    engine_gb, free_gb = kv_cache_gb(
        capacity_gb,
        usable_gb,
        weights / GB,
        act_gb,
        setup.serving_stack,
        sa,
        setup.kv_fraction,
        outside_gb=a.number("memory_reserved_gb"),
    )
    kv_capacity = max(free_gb, 0.0) * GB / kv_tok
    need = setup.prompt_len + setup.output_len
    fits = max(free_gb, 0.0) * GB >= kv_full_tok * float(held_tokens(shape, need))
    refusal_msg = None
    if not fits:
        refusal_msg = text.Msg(
            "perf.serving_refusal" if setup.serving_stack == "vllm" else "perf.serving_refusal_free",
            dict(
                tp=tp,
                pp=pp,
                weights_gb=weights / GB,
                workspace_gb=act_gb,
                free_gb=max(free_gb, 0),
                usable_gb=engine_gb,
                tokens=need,
                kv_gb=kv_full_tok * float(held_tokens(shape, need)) / GB,
                kv_precision=setup.kv_precision or setup.precision,
                left_gb=max(engine_gb - weights / GB - act_gb, 0),
                fraction=kv_cache_fraction("trtllm", sa, setup.kv_fraction),
            ),
        )

    # all-reduce made linear in the step's tokens (latency + bytes / bus bandwidth), 2 per layer
    k0, k_tok = _all_reduce_terms(shape, tp, g_tp, links, 4096.0)
    nvls_tok = _all_reduce_terms(shape, tp, g_tp, links, 4096.0, nvls=True)[1]
    if setup.gemm_allreduce_fusion:
        k_tok_c = fused_all_reduce_slope(shape, tp, nvls_tok, rate)
    else:
        k_tok_c = k_tok + nccl_share(shape, setup, tp, sa) * (nvls_tok - k_tok)
    if pp > 1:  # activations handed from stage to stage once per step (between nodes: one NIC)
        k0 += (pp - 1) * float(p2p_s(shape.hidden * 2.0, False, links))

    # the input embedding is a row lookup: its table is not streamed each step (a tied table is the output head)
    dense_w = weights - sw.input_table / n
    # the dense weights stream through the step's GEMMs at the measured decode-GEMM rate, plus their fixed part
    bw_w, gemm_fixed = decode_gemm_terms(cluster, cast, shape.layers / pp, a)
    moe_all = moe_tok = 0.0
    if shape.is_moe:
        expert_w = c["experts_total"] * wb / n
        dense_w -= expert_w
        per_token = expert_w * shape.top_k / shape.experts  # each token routes to top_k of the experts
        moe_all, moe_tok = expert_w / bw, per_token / bw
    nic = n * cluster.nic_gbps_per_gpu * GB / 8.0 * sa.number("kv_transfer_efficiency")
    # keys a prefill token attends: a prompt of p tokens has p·attended(p) query-key pairs, so the mean per prefill
    # token over requests is token-weighted, E[p·attended(p)] / E[p] (attended(P̄) for a single length); each
    # length's own prefill differs from it by p·(attended(p) − that mean) pairs (length_attn_s)
    attn_pair_s = score / n / attn_rate
    attended = float(prefill_attended(shape, setup.prompt_len))
    length_attn: tuple[float, ...] = ()
    if setup.prompt_dist is not None:
        lp, lw = setup.prompt_dist.p, setup.prompt_dist.w
        pairs = lp * prefill_attended(shape, lp)
        attended = float(pairs @ lw) / float(lp @ lw)
        length_attn = tuple(float(v) for v in (pairs - lp * attended) * attn_pair_s)
    return Worker(
        tp=tp,
        pp=pp,
        weights_gb=weights / GB,
        kv_gb_per_token=kv_tok / GB,
        kv_capacity_tokens=float(kv_capacity),
        budget_tokens=budget,
        mem0_s=dense_w / bw_w,
        moe_all_s=moe_all,
        moe_tok_s=moe_tok,
        mem_b_s=kv_full_tok * float(held_tokens(shape, ctx_decode)) / bw,
        # attention at its own rate: rate / attn_rate is exactly 1.0 unless FP4 GEMMs run beside FP8/BF16 attention
        cmp_b_s=(gemm_dec + score * float(held_tokens(shape, ctx_decode)) / n * (rate / attn_rate)) / rate
        + act_s,
        attn_b_s=score * float(held_tokens(shape, ctx_decode)) / n / attn_rate,
        act_tok_s=act_s,
        cmp_c_s=(gemm_pre + score * attended / n * (rate / attn_rate)) / rate + act_s,
        gemm_fixed_s=gemm_fixed,
        k0_s=k0,
        k_tok_s=k_tok,
        k_tok_c_s=k_tok_c,
        kv_token_total_byte=kv_total,
        nic_byte_per_s=nic * cluster.factor("dp"),
        fits=bool(fits),
        refusal=refusal_msg.render("en") if refusal_msg else "",
        max_seqs=max_seqs_of(setup, cluster, sa),
        refusal_msg=refusal_msg,
        length_attn_s=length_attn,
    )
