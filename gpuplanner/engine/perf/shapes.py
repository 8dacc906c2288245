"""Frozen inputs of the performance model: model shape, training and inference set-ups, the cluster.

Plain values only (no project objects), so the model can be used and tested on its own; the lead's wiring
fills them from the catalog and the routed topology.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gpuplanner import text
from gpuplanner.core.errors import ValidationError

ARCHITECTURES = ("dense", "moe", "vit", "dit")
PRECISIONS = ("bf16", "fp16", "fp8")
RECOMPUTE = ("none", "selective", "full")
ATTENTION = ("flash", "unfused", "triton")
# FP8 scaling recipes (Transformer Engine): per-tensor delayed (amax history), per-tensor current, MXFP8 blocks
FP8_RECIPES = ("delayed", "current", "mxfp8")
OPTIMIZERS = ("fused", "unfused")
# what Adam keeps per parameter besides the model's weights (catalogs/assumptions/performance.yaml
# optimizer_state_bytes_per_param): fp32 master + fp32 moments; the fp32 master rebuilt from the bf16
# weight and its 16-bit remainder; bf16 moments with the bf16 weights as the master copy; an fp32 master with
# bf16 moments (Megatron-Core's precision-aware optimizer)
OPTIMIZER_STATES = ("fp32", "fp32-remainder", "bf16", "fp32-bf16-moments")
# how MoE tokens reach their experts: one message per (token, expert) copy, or once per destination node
# with NVLink fan-out (DeepEP / HybridEP behind Megatron-Core's flex dispatcher)
MOE_DISPATCHERS = ("alltoall", "deepep")
COLLECTIVE_KINDS = ("tp", "cp", "dp", "pp", "ep")


@dataclass(frozen=True)
class ModelShape:
    """A transformer's shape. `ffn_hidden` is the dense MLP width; `moe_ffn_hidden` one expert's width."""

    architecture: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn_hidden: int
    vocab: int
    seq_len: int
    experts: int = 1
    top_k: int = 1
    shared_experts: int = 0
    moe_ffn_hidden: int | None = None
    dense_layers: int = 0
    gated_mlp: bool = False  # SwiGLU/GeGLU: three matrices in the MLP instead of two
    tied_embeddings: bool = False  # output layer shares the input embedding (GPT-2/3, Megatron GPT)
    dropout: bool = True  # hidden/attention dropout (GPT-3, BLOOM); Llama-style models train without it
    name: str = ""
    # width of one attention head; 0 = hidden / heads. Qwen3 and GPT-OSS use heads × head_dim ≠ hidden
    # (Megatron kv_channels, Hugging Face head_dim): Q/K/V/O widths, attention scores and the KV cache follow it
    head_dim: int = 0
    # node-limited MoE routing (DeepSeek-V3 report §2.1.2; Megatron-Core moe_router_num_groups / group_topk):
    # experts sit in `router_groups` equal groups and a token's top_k experts come from at most
    # `router_group_topk` of them; 0 = no limit
    router_groups: int = 0
    router_group_topk: int = 0
    # sliding-window attention (GPT-OSS: every other layer attends over the last 128 tokens; Mistral-style
    # windows): `sliding_window_layers` of the layers see only the last `sliding_window` tokens; 0 = none
    sliding_window: int = 0
    sliding_window_layers: int = 0
    # GPT-OSS (openai/gpt-oss-120b config.json; Megatron-Bridge GPTOSSProvider): a learned sink logit per
    # attention head joins every softmax row (softmax_type "learnable"); every linear layer (QKV, output
    # projection, expert fc1/fc2, router) carries a bias (add_bias_linear); the gated activation clamps its
    # inputs at `swiglu_clamp` (activation_func_clamp_value 7.0; 0 = no clamp)
    attention_sinks: bool = False
    linear_bias: bool = False
    swiglu_clamp: float = 0.0
    # Multi-head Latent Attention (DeepSeek-V2/V3; Hugging Face config q_lora_rank, kv_lora_rank, qk_nope_head_dim,
    # qk_rope_head_dim, v_head_dim): queries through a q_lora_rank bottleneck (0 = a direct projection), keys and
    # values from a cached kv_lora_rank latent plus a shared qk_rope_head_dim RoPE key; kv_lora_rank 0 = no MLA.
    # mla.py holds the arithmetic. mtp_layers: multi-token-prediction modules trained beside the model
    # (num_nextn_predict_layers; Megatron-Core mtp_num_layers), each one more layer and one more output head
    q_lora_rank: int = 0
    kv_lora_rank: int = 0
    qk_nope_head_dim: int = 0
    qk_rope_head_dim: int = 0
    v_head_dim: int = 0
    mtp_layers: int = 0

    def __post_init__(self) -> None:
        if self.architecture not in ARCHITECTURES:
            raise ValidationError(
                text.Msg("error.unknown_architecture", {"value": self.architecture}),
                field="architecture",
                value=self.architecture,
                hint=text.Msg("error.use_one_of", {"options": ", ".join(ARCHITECTURES)}),
            )
        for name in ("layers", "hidden", "heads", "kv_heads", "ffn_hidden", "seq_len", "experts", "top_k"):
            if getattr(self, name) < 1:
                raise ValidationError(
                    text.Msg("error.at_least_one", {"name": name}), field=name, value=getattr(self, name)
                )
        if self.swiglu_clamp < 0 or (self.swiglu_clamp and not self.gated_mlp):
            raise ValidationError(
                text.Msg("error.swiglu_clamp", {"value": self.swiglu_clamp}),
                field="swiglu_clamp",
                entry=self.name,
            )
        if self.head_dim < 0:
            raise ValidationError(text.Msg("error.at_least_one", {"name": "head_dim"}), field="head_dim")
        if not self.head_dim and self.hidden % self.heads:
            raise ValidationError(
                text.Msg("error.hidden_heads"), field="hidden", value=self.hidden, entry=self.name
            )
        if self.top_k > self.experts:
            raise ValidationError(
                text.Msg("error.top_k_experts"), field="top_k", value=self.top_k, entry=self.name
            )
        if self.router_group_topk > self.router_groups or (
            self.router_groups and (self.experts % self.router_groups or not self.router_group_topk)
        ):
            raise ValidationError(
                text.Msg(
                    "error.router_groups",
                    {"topk": self.router_group_topk, "groups": self.router_groups, "experts": self.experts},
                ),
                field="router_groups",
                entry=self.name,
            )
        if (
            self.sliding_window < 0
            or self.sliding_window_layers < 0
            or self.sliding_window_layers > self.layers
            or (self.sliding_window_layers and not self.sliding_window)
        ):
            raise ValidationError(
                text.Msg(
                    "error.sliding_window",
                    {
                        "layers_w": self.sliding_window_layers,
                        "window": self.sliding_window,
                        "layers": self.layers,
                    },
                ),
                field="sliding_window_layers",
                entry=self.name,
            )
        if self.dense_layers > self.layers:
            raise ValidationError(
                text.Msg("error.dense_layers"), field="dense_layers", value=self.dense_layers
            )
        mla = ("q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")
        for name in (*mla, "mtp_layers"):
            if getattr(self, name) < 0:
                raise ValidationError(text.Msg("error.at_least_one", {"name": name}), field=name)
        if self.kv_lora_rank and not (self.qk_nope_head_dim + self.qk_rope_head_dim and self.v_head_dim):
            raise ValidationError(
                text.Msg("error.mla_dims"), field="kv_lora_rank", value=self.kv_lora_rank, entry=self.name
            )
        if not self.head_dim:  # stated as 0: the usual hidden / heads (frozen, so set once here)
            object.__setattr__(self, "head_dim", self.hidden // self.heads)

    @property
    def is_moe(self) -> bool:
        return self.experts > 1

    @property
    def moe_layers(self) -> int:
        return self.layers - self.dense_layers if self.is_moe else 0

    @property
    def expert_ffn(self) -> int:
        return self.moe_ffn_hidden or self.ffn_hidden

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def causal(self) -> bool:
        """Language models mask the future; vision and diffusion transformers attend to every token."""
        return self.architecture in ("dense", "moe")


@dataclass(frozen=True)
class TrainConfig:
    """One training set-up. Batches count sequences; `total_tokens` is the training budget."""

    tp: int
    pp: int
    dp: int
    micro_batch: int
    global_batch: int
    seq_len: int
    cp: int = 1
    ep: int = 1
    vpp: int = 1
    precision: str = "bf16"
    zero_stage: int = 1
    recompute: str = "selective"
    total_tokens: float = 0.0
    # "unfused" = pre-FlashAttention kernels (Megatron-LM 2021/2022); "triton" = FlashAttention in Triton (2023)
    attention: str = "flash"
    sequence_parallel: bool | None = None  # None: on whenever tp > 1 (Megatron-Core default)
    dp_overlap: bool = (
        True  # gradient reduce overlapped with the last backward (Megatron --overlap-grad-reduce)
    )
    tp_overlap: bool = (
        True  # backward TP all-reduce overlapped with the weight-gradient GEMM (Megatron ≥ 2022)
    )
    tp_comm_overlap: bool = (
        False  # TE userbuffers (--tp-comm-overlap): TP collectives pipelined with the GEMMs
    )
    pp_overlap: bool = True  # Megatron-Core overlap_p2p_comm: interleaved sends overlap the next chunk
    # dtype of the gradient buffer the backward accumulates into: None = Megatron-LM's default (fp32
    # main_grad for bf16/fp8, --accumulate-allreduce-grads-in-fp32; fp16 grads for fp16); "bf16" = NeMo's
    # optim.grad_sync_dtype: bf16 (its GPT-3/Llama performance recipes)
    grad_dtype: str | None = None
    # the embedding and the loss each take one layer's slot in the pipeline split, so the first and last
    # stages hold one layer fewer (Llama 3 §3.3.2; Megatron-Core --account-for-embedding-in-pipeline-split
    # and --account-for-loss-in-pipeline-split)
    balanced_pipeline: bool = False
    # the distributed optimizer's parameter all-gather runs under the next step's forward (Megatron-Core
    # --overlap-param-gather); off: it sits between the optimizer step and the next forward
    param_gather_overlap: bool = True
    # expert all-to-all hidden behind another micro-batch's compute (DeepSeek-V3 DualPipe, Megatron-Core
    # --overlap-moe-expert-parallel-comm / DeepEP); off: dispatch and combine sit on the critical path
    ep_overlap: bool = False
    # ZeRO-3 / FSDP: a checkpointed layer's recomputation gathers its parameters once more (DeepSpeed stage 3
    # releases them after every module's forward); FSDP recomputes inside the unit's backward, already gathered
    zero3_regather_on_recompute: bool = False
    # NICs per node that carry the ZeRO-3 parameter and gradient collectives (0 = all of them, as NCCL's
    # multi-channel rings do for large buffers)
    zero3_nics_per_node: int = 0
    # Adam as one fused kernel (Apex/Megatron/DeepSpeed FusedAdam, torch fused=True) or as separate
    # per-tensor passes (torch foreach/for-loop AdamW, Composer's DecoupledAdamW)
    optimizer: str = "fused"
    # the optimizer state's storage (OPTIMIZER_STATES): Megatron-Core's distributed optimizer keeps fp32
    # master weights and moments; NeMo's Apex distributed_fused_adam with bf16 weights keeps only the 16
    # remainder bits of the fp32 master (store_param_remainders), or bf16 moments and no master (dtype: bf16)
    optimizer_state: str = "fp32"
    # MOE_DISPATCHERS: "deepep" sends a token across the network once per destination node, so node-limited
    # routing (ModelShape.router_groups) caps the network bytes; "alltoall" sends every expert copy
    moe_dispatcher: str = "alltoall"
    # experts split over the TP ranks (Megatron's default, etp = tp); False: etp 1, MoE parallel folding
    # (Megatron-Core --expert-tensor-parallel-size 1, Megatron-Bridge's DeepSeek-V3/Qwen3 recipes)
    expert_tp: bool = True
    # FP8 primary weights (Megatron --fp8-param-gather, NeMo fp8_params, MLPerf FP8_PARAMS): with precision fp8
    # the GEMM weights live as FP8 (1 byte + the 1-byte transpose) instead of bf16 + an FP8 cache, and the
    # distributed optimizer all-gathers them in 1 byte
    fp8_params: bool = False
    # Megatron-Core recompute_modules ["layernorm", "moe_act"] (Megatron-Bridge's GPT-OSS recipes): the MoE
    # layer's pre-MLP norm output and the experts' activation output are dropped after the forward and
    # recomputed in the backward (tensor_parallel.CheckpointWithoutOutput)
    recompute_norm_act: bool = False
    # Megatron-Core selective recompute module "mla_up_proj": a Multi-head Latent Attention layer keeps only its
    # latents and recomputes the Q/K/V up projections in the backward (no effect without MLA)
    mla_up_proj_recompute: bool = False
    # Megatron-Core pipeline_model_parallel_layout: which embedding (E), layers (t), MTP modules (m) and head (L)
    # each virtual pipeline stage holds, e.g. "Et|(tt|)*30mL" (stage_time.py); "" = the even split
    pipeline_layout: str = ""
    # FP8_RECIPES: how Transformer Engine scales FP8 tensors, which sets the HBM passes of its casts
    # (engine/perf/layer_time.py fp8_cast_bytes)
    fp8_recipe: str = "delayed"

    def __post_init__(self) -> None:
        for name in ("tp", "pp", "dp", "cp", "ep", "vpp", "micro_batch", "global_batch", "seq_len"):
            if getattr(self, name) < 1:
                raise ValidationError(
                    text.Msg("error.at_least_one", {"name": name}), field=name, value=getattr(self, name)
                )
        if self.precision not in PRECISIONS:
            raise ValidationError(
                text.Msg("error.unknown_precision", {"value": self.precision}),
                field="precision",
                hint=text.Msg("error.unknown_precision.hint"),
            )
        if self.recompute not in RECOMPUTE:
            raise ValidationError(
                text.Msg("error.unknown_recompute", {"value": self.recompute}),
                field="recompute",
                hint=text.Msg("error.unknown_recompute.hint"),
            )
        if self.attention not in ATTENTION:
            raise ValidationError(
                text.Msg("error.unknown_attention", {"value": self.attention}), field="attention"
            )
        if self.grad_dtype not in (None, "fp32", "bf16", "fp16"):
            raise ValidationError(
                text.Msg("error.unknown_grad_dtype", {"value": self.grad_dtype}),
                field="grad_dtype",
                hint=text.Msg("error.unknown_grad_dtype.hint"),
            )
        if self.optimizer not in OPTIMIZERS:
            raise ValidationError(
                text.Msg("error.unknown_optimizer", {"value": self.optimizer}),
                field="optimizer",
                hint=text.Msg("error.unknown_optimizer.hint"),
            )
        if self.optimizer_state not in OPTIMIZER_STATES:
            raise ValidationError(
                text.Msg(
                    "error.setting_not_allowed",
                    {
                        "where": "setting",
                        "key": "optimizer_state",
                        "value": self.optimizer_state,
                        "options": ", ".join(OPTIMIZER_STATES),
                    },
                ),
                field="optimizer_state",
            )
        if self.moe_dispatcher not in MOE_DISPATCHERS:
            raise ValidationError(
                text.Msg(
                    "error.setting_not_allowed",
                    {
                        "where": "setting",
                        "key": "moe_dispatcher",
                        "value": self.moe_dispatcher,
                        "options": ", ".join(MOE_DISPATCHERS),
                    },
                ),
                field="moe_dispatcher",
            )
        if not 0 <= self.zero_stage <= 3:
            raise ValidationError(text.Msg("error.zero_stage"), field="zero_stage", value=self.zero_stage)
        if self.global_batch % (self.dp * self.micro_batch):
            raise ValidationError(
                text.Msg(
                    "error.global_batch",
                    {"batch": self.global_batch, "dp": self.dp, "micro_batch": self.micro_batch},
                ),
                field="global_batch",
                value=self.global_batch,
                hint=text.Msg("error.global_batch.hint"),
            )

    @property
    def n_gpus(self) -> int:
        return self.tp * self.pp * self.dp * self.cp

    @property
    def micro_batches(self) -> int:
        """m: micro-batches each pipeline runs per step."""
        return self.global_batch // (self.dp * self.micro_batch)

    @property
    def sp(self) -> bool:
        return (self.tp > 1) if self.sequence_parallel is None else bool(self.sequence_parallel)


@dataclass(frozen=True)
class Calibration:
    """Measured figures that override the model: bus bandwidth per collective kind (GB/s), MFU, GEMM efficiency."""

    busbw_gbyte_per_s: dict[str, float] = field(default_factory=dict)
    mfu: float | None = None
    gemm_efficiency: float | None = None


@dataclass(frozen=True)
class ClusterSpec:
    """The hardware as the performance model sees it.

    `scaleup_bw_gbyte_per_s` is per GPU with both directions added, as vendors print it (600 for NVLink 3).
    `net_factor[kind]` is the share of the NIC bandwidth a collective kind really gets on the drawn fabric
    (0.5 for DP on a 2:1 oversubscribed fabric); the routing engine fills it, default 1.0.
    """

    gpu_name: str
    peak_bf16_tflops: float
    mem_gb: float
    mem_bw_tbyte_per_s: float
    gpus_per_node: int
    scaleup_bw_gbyte_per_s: float
    nic_gbps_per_gpu: float
    peak_fp8_tflops: float | None = None
    inter_node_latency_us: float | None = None  # one network step at the endpoints; None: the assumptions'
    intra_node_latency_us: float | None = None  # one NVLink step; None: the assumptions'
    net_factor: dict[str, float] = field(default_factory=dict)
    calibration: Calibration | None = None
    switch_latency_ns: float | None = None  # one switch crossed; None: the assumptions' (catalog when drawn)
    switch_hops: dict[str, float] = field(default_factory=dict)  # per kind, switches a network step crosses
    in_network_reduction: bool = False  # the scale-out switches reduce all-reduces (InfiniBand SHARP)
    peak_fp4_tflops: float | None = None  # dense FP4 (NVFP4) tensor-core peak; None: no FP4 tensor cores
    # the GPU's name in each language (catalog.names.named) for the sentences that quote it; gpu_name when
    # None. Never read by the model: gpu_name picks the family values.
    gpu_label: text.Msg | None = None

    def __post_init__(self) -> None:
        for name in ("peak_bf16_tflops", "mem_gb", "mem_bw_tbyte_per_s", "gpus_per_node", "nic_gbps_per_gpu"):
            if getattr(self, name) <= 0:
                raise ValidationError(
                    text.Msg("error.positive", {"name": name}), field=name, value=getattr(self, name)
                )
        for kind, f in self.net_factor.items():
            if kind not in COLLECTIVE_KINDS or not 0 < f <= 1:
                raise ValidationError(
                    text.Msg("error.net_factor"),
                    field="net_factor",
                    value={kind: f},
                )

    def factor(self, kind: str) -> float:
        return float(self.net_factor.get(kind, 1.0))


@dataclass(frozen=True)
class InferenceConfig:
    """One serving set-up: concurrent sequences per replica, prompt and output lengths, TP per replica."""

    batch: int
    prompt_len: int
    output_len: int
    tp: int = 1
    kv_precision_bytes: float = 2.0
    weight_precision_bytes: float = 2.0
    weight_precision: str = ""  # "fp4": NVFP4 weights and activations on the FP4 tensor cores

    def __post_init__(self) -> None:
        for name in ("batch", "prompt_len", "output_len", "tp"):
            if getattr(self, name) < 1:
                raise ValidationError(
                    text.Msg("error.at_least_one", {"name": name}), field=name, value=getattr(self, name)
                )


SHAPE_FIELDS = (
    "architecture",
    "layers",
    "hidden",
    "heads",
    "kv_heads",
    "ffn_hidden",
    "vocab",
    "seq_len",
    "experts",
    "top_k",
    "shared_experts",
    "moe_ffn_hidden",
    "dense_layers",
    "gated_mlp",
    "dropout",
    "head_dim",
    "router_groups",
    "router_group_topk",
    "sliding_window",
    "sliding_window_layers",
    "attention_sinks",
    "linear_bias",
    "swiglu_clamp",
    "q_lora_rank",
    "kv_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "v_head_dim",
    "mtp_layers",
)


def shape_from_entry(entry: Mapping[str, Any]) -> ModelShape:
    """A ModelShape from a catalogs/models/*.yaml entry (a mapping with the catalog's field names)."""
    values = {k: entry[k] for k in SHAPE_FIELDS if k in entry and entry[k] is not None}
    values.setdefault("kv_heads", entry["heads"])
    values.setdefault("vocab", 0)
    return ModelShape(**values, name=str(entry.get("id", "")))
