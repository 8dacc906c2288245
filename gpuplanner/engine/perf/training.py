"""Step time, throughput, MFU and memory of one training configuration — and the same for many at once.

`evaluate` is the one implementation: it takes numpy arrays of configurations (tp, pp, dp, cp, ep, vpp,
micro-batch, recompute, sequence parallel) and returns arrays. `estimate` is `evaluate` on one row, so the
scalar estimate and the sweep cannot disagree.

Step = m·t_mb + (p-1)/v·t_mb + exposed DP + optimizer, with t_mb the slowest stage's time for one micro-batch
(layers + logits on the last stage + point-to-point sends), m = global_batch/(dp·micro_batch) and (p-1)/(m·v)
the interleaved 1F1B bubble fraction (Narayanan et al. SC'21, Section 2.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.arrays import Num, Real
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.collectives import p2p_s
from gpuplanner.engine.perf.data_parallel import dp_time
from gpuplanner.engine.perf.flops import hardware_flops_per_token, model_flops_per_token, param_counts
from gpuplanner.engine.perf.host import expert_gemm_s, short_expert_kernels
from gpuplanner.engine.perf.layer_time import ACT_BYTES, gemm_s, hardware_for, layer_times
from gpuplanner.engine.perf.memory import training_memory
from gpuplanner.engine.perf.sentences import bottleneck_sentence, refusal_msg, refusal_sentence
from gpuplanner.engine.perf.shapes import RECOMPUTE, ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.stage_time import LayerStep, layer_step, slowest_stage

BREAKDOWN = (
    "compute_s",
    "recompute_s",
    "tp_comm_s",
    "cp_comm_s",
    "pp_comm_s",
    "pp_bubble_s",
    "dp_comm_s",
    "ep_comm_s",
    "optimizer_s",
)


@dataclass(frozen=True)
class Options:
    """Settings shared by every row of an evaluation."""

    global_batch: int
    seq_len: int
    precision: str = "bf16"
    zero_stage: int = 1
    flash: bool = True
    triton_attention: bool = False  # FlashAttention in Triton (2023), slower than FA-2 (layer_time.py)
    dp_overlap: bool = True
    tp_overlap: bool = True
    total_tokens: float = 0.0
    tp_comm_overlap: bool = False
    pp_overlap: bool = True
    grad_dtype: str | None = None  # None: fp32 main grads (fp16 grads for fp16), as Megatron-LM
    balanced_pipeline: bool = False  # embedding and loss each take a layer's slot in the pipeline split
    param_gather_overlap: bool = True
    ep_overlap: bool = False
    zero3_regather_on_recompute: bool = False
    zero3_nics_per_node: int = 0
    optimizer: str = "fused"
    optimizer_state: str = "fp32"
    moe_dispatcher: str = "alltoall"
    expert_tp: bool = True
    fp8_params: bool = False
    recompute_norm_act: bool = False  # Megatron-Core recompute_modules layernorm + moe_act
    mla_up_proj_recompute: bool = False
    pipeline_layout: str = ""  # Megatron-Core pipeline_model_parallel_layout ("" = even split, stage_time.py)
    fp8_recipe: str = "delayed"


def evaluate(
    shape: ModelShape,
    cluster: ClusterSpec,
    cols: dict[str, np.ndarray],
    opt: Options,
    a: Assumptions | None = None,
) -> dict[str, np.ndarray]:
    """Vectorised estimate. `cols`: tp, pp, dp, cp, ep, vpp, mb, rc (0 none/1 selective/2 full), sp, and
    optionally gb (a global batch per row, overriding opt.global_batch)."""
    a = a or load_assumptions()
    if opt.seq_len != shape.seq_len:
        shape = _with_seq(shape, opt.seq_len)
    hw = hardware_for(cluster, opt.precision, a)
    if hw.fp8 and opt.fp8_recipe == "mxfp8" and hw.fp8_transposes:  # block-scaled MMA: Blackwell only
        raise ValidationError(
            text.Msg("error.mxfp8_needs_blackwell", {"gpu": cluster.gpu_label or cluster.gpu_name}),
            field="fp8_recipe",
            value=opt.fp8_recipe,
            hint=text.Msg("error.mxfp8_needs_blackwell.hint"),
        )
    f = {k: np.asarray(cols[k], dtype=np.float64) for k in ("tp", "pp", "dp", "cp", "ep", "vpp", "mb")}
    tp, pp, dp, cp, ep, v, mb = (f[k] for k in ("tp", "pp", "dp", "cp", "ep", "vpp", "mb"))
    rc = np.asarray(cols["rc"])
    sp = np.asarray(cols["sp"], dtype=bool)
    global_batch = np.asarray(cols.get("gb", opt.global_batch), dtype=np.float64)
    m = global_batch / (dp * mb)
    n_gpus = tp * pp * dp * cp
    layers_stage = np.ceil(shape.layers / pp)
    if opt.balanced_pipeline:  # middle stages hold (layers + 2) / pp; first and last one fewer
        layers_stage = np.where(pp > 1, np.ceil((shape.layers + 2.0) / pp), layers_stage)
    full, sel = (rc == 2).astype(float), (rc == 1).astype(float)
    etp = tp if opt.expert_tp else np.ones_like(tp)  # expert tensor parallelism (1: MoE parallel folding)

    lt_args = {
        "tp": tp,
        "cp": cp,
        "ep": ep,
        "mb": mb,
        "sp": sp,
        "flash": opt.flash,
        "triton": opt.triton_attention,
        "fp8_recipe": opt.fp8_recipe,
        "dedup_dispatch": opt.moe_dispatcher == "deepep",
        "etp": etp,
    }
    lt = layer_times(shape, hw, a, **lt_args)  # type: ignore[arg-type]
    step_args = {"tp": tp, "mb": mb, "cp": cp, "full": full, "sel": sel, "pp": pp, "v": v, "m": m}
    avg_layer = layer_step(
        shape, lt, hw, a, opt, **step_args
    )  # the average layer (MoE layers by their share)
    layer_fwd, layer_bwd = avg_layer.fwd, avg_layer.bwd

    tokens = mb * opt.seq_len / cp
    logits: Real = np.zeros_like(tokens)
    if shape.vocab:
        # the output layer is Megatron-Core's own ColumnParallelLinear (models/gpt/gpt_model.py), not a Transformer
        # Engine module, so fp8_autocast leaves it in BF16: its GEMMs run at the BF16 rate in every precision
        logits = 3.0 * gemm_s(tokens, shape.vocab / tp, float(shape.hidden), hardware_for(cluster, "bf16", a))
        logits += hw.ew["logits"] * tokens * shape.vocab / tp / hw.ew_byte_per_s
    params_gpu, params_dense, params_exp = params_on_gpu(shape, tp, pp, ep, etp)
    # fp16 (Megatron 2021) adds each micro-batch's gradient in a separate kernel; bf16/fp8 accumulate into
    # fp32 main_grad inside the weight-gradient GEMM epilogue (gradient-accumulation fusion)
    accum_rate = hw.ew_byte_per_s if opt.precision == "fp16" else hw.gemm_byte_per_s
    accum = a.table("grad_accum_bytes_per_param")[opt.precision] * params_gpu / accum_rate
    links = hw.links
    stage_gap = tp * cp * dp  # Megatron order tp-cp-dp-pp: the next stage is this many ranks away
    pp_intra = stage_gap * pp <= links.gpus_per_node
    pp_send = p2p_s(tokens * shape.hidden * ACT_BYTES / tp, pp_intra, links, "pp")
    pp_mb = np.where(pp > 1, 2.0 * v * pp_send, 0.0) * (1.0 - a.number("pp_overlap_fraction"))
    if opt.pp_overlap:
        # interleaved 1F1B with overlap_p2p_comm: each send runs while the next chunk computes, so only
        # what outlasts a chunk's forward (or backward) stays on the critical path
        chunk_fwd = layers_stage / v * layer_fwd
        exposed = 2.0 * v * np.maximum(0.0, pp_send - chunk_fwd)
        pp_mb = np.where(v > 1, np.where(pp > 1, exposed, 0.0), pp_mb)

    if opt.balanced_pipeline:
        # the last stage holds one layer fewer: the logits only slow it down where they outlast that layer
        logits = np.where(pp > 1, np.maximum(0.0, logits - avg_layer.total), logits)

    def step_for(s: ModelShape) -> LayerStep:  # one kind of layer (dense or MoE) under the same run
        lt_s = layer_times(s, hw, a, **lt_args)  # type: ignore[arg-type]
        return layer_step(s, lt_s, hw, a, opt, **step_args)

    mtp_glue = 3.0 * gemm_s(tokens, shape.hidden / tp, 2.0 * shape.hidden, hw)  # MTP's 2h -> h projection
    stage = slowest_stage(
        shape,
        avg_layer,
        layers_stage,
        logits,
        mtp_glue,
        layout=opt.pipeline_layout,
        pp=pp,
        vpp=v,
        step_for=step_for,
    )
    compute_mb = stage.compute + accum
    t_mb = compute_mb + (stage.recompute + stage.tp + stage.cp + stage.ep) + pp_mb
    # interleaving only shortens the bubble when every rank has a micro-batch per stage to interleave:
    # Megatron-LM/Core run the interleaved schedule with m a multiple of p (schedules.py), and with m < p the
    # first micro-batch still crosses all p·v chunks in turn, so the bubble is the non-interleaved (p-1)·t_mb
    v_eff = np.where(m >= pp, v, 1.0)
    bubble = (pp - 1.0) / v_eff * t_mb

    dp_exposed = dp_time(
        shape,
        opt,
        a,
        hw,
        tp=tp,
        dp=dp,
        cp=cp,
        ep=ep,
        m=m,
        params_dense=params_dense,
        params_exp=params_exp,
        fwd_s=layers_stage * layer_fwd,
        bwd_s=layers_stage * layer_bwd,
        t_mb=t_mb,
        layers_stage=layers_stage,
        full=full,
        etp=etp,
        pp=pp,
        v=v,
    )
    shard = dp * cp if opt.zero_stage >= 1 else 1.0
    opt_bytes = a.number(
        "optimizer_bytes_per_param" if opt.optimizer == "fused" else "optimizer_bytes_per_param_unfused"
    )
    # the step reads and writes every byte of optimizer state once: a smaller state moves fewer bytes
    state_b = a.table("optimizer_state_bytes_per_param")
    opt_bytes = opt_bytes - 2.0 * (state_b["fp32"] - state_b[opt.optimizer_state])
    optimizer = opt_bytes * params_gpu / shard / hw.ew_byte_per_s

    parts = {
        "compute_s": m * compute_mb,
        "recompute_s": m * stage.recompute,
        "tp_comm_s": m * stage.tp,
        "cp_comm_s": m * stage.cp,
        "pp_comm_s": m * pp_mb,
        "pp_bubble_s": bubble,
        "dp_comm_s": dp_exposed,
        "ep_comm_s": m * stage.ep,
        "optimizer_s": optimizer,
    }
    step = sum(parts.values())
    tokens_step = global_batch * opt.seq_len
    model_flops = model_flops_per_token(shape, opt.seq_len) * tokens_step
    hw_per_token = {r: hardware_flops_per_token(shape, opt.seq_len, r) for r in RECOMPUTE}
    hw_flops = (
        np.select([rc == 0, rc == 1], [hw_per_token["none"], hw_per_token["selective"]], hw_per_token["full"])
        * tokens_step
    )
    cal = cluster.calibration
    if cal is not None and cal.mfu:
        target = model_flops / (n_gpus * hw.peak_flop_per_s * cal.mfu)
        scale = target / step
        parts = {k: p * scale for k, p in parts.items()}
        step = target + 0.0 * step
    mem = training_memory(
        shape,
        a,
        mem_gb=cluster.mem_gb,
        seq_len=opt.seq_len,
        micro_batch=mb,
        micro_batches=m,
        tp=tp,
        pp=pp,
        dp=dp,
        cp=cp,
        ep=ep,
        vpp=v,
        sp=sp,
        recompute=rc,
        flash=opt.flash,
        zero_stage=opt.zero_stage,
        precision=opt.precision,
        gpu_name=cluster.gpu_name,
        grad_dtype=opt.grad_dtype,
        balanced=opt.balanced_pipeline,
        optimizer_state=opt.optimizer_state,
        etp=etp,
        fp8_params=opt.fp8_params and opt.precision == "fp8",
        norm_act_recompute=opt.recompute_norm_act,
        mla_up_recompute=opt.mla_up_proj_recompute,
    )
    out = {k: np.asarray(p + 0.0 * step) for k, p in parts.items()}
    # host-paced fine-grained MoE (host.py): decided from the prediction, never from a measurement
    expert_s = expert_gemm_s(shape, hw, tp=tp, cp=cp, ep=ep, mb=mb, etp=etp) + 0.0 * step
    out.update(
        step_time_s=step,
        n_gpus=n_gpus,
        micro_batches=m,
        tokens_per_s=tokens_step / step,
        tflops_per_gpu=model_flops / step / n_gpus / 1e12,
        hw_tflops_per_gpu=hw_flops / step / n_gpus / 1e12,
        mfu=model_flops / step / n_gpus / hw.peak_flop_per_s,
        bubble_fraction=(pp - 1.0) / (m * v_eff),
        time_to_train_s=(opt.total_tokens / (tokens_step / step))
        if opt.total_tokens
        else np.zeros_like(step),
        dp_intra_node=(tp * dp * cp) <= links.gpus_per_node,
        # a checkpoint holds every parameter's weight and optimizer state once, written in shards by all GPUs
        checkpoint_gb_per_gpu=param_counts(shape)["total"]
        * (a.table("adam_bytes_per_param")["weights"] + a.table("adam_bytes_per_param")["optimizer"])
        / n_gpus
        / 1e9,
        tp_intra_node=tp <= links.gpus_per_node,
        expert_gemm_s=expert_s,
        short_expert_kernels=short_expert_kernels(expert_s, a),
        **{f"mem_{k}": val for k, val in mem.items()},
    )
    return out


def _with_seq(shape: ModelShape, seq_len: int) -> ModelShape:
    from dataclasses import replace

    return replace(shape, seq_len=seq_len)


def params_on_gpu(
    shape: ModelShape, tp: Num, pp: Num, ep: Num, etp: Num | None = None
) -> tuple[Real, Real, Real]:
    """Parameters held by a GPU of the largest stage: (all, dense part, expert part); experts split etp-way."""
    c = param_counts(shape)
    layers_stage = np.ceil(shape.layers / pp)
    moe_share = shape.moe_layers / shape.layers
    expert_layer = c["experts_total"] / max(shape.moe_layers, 1)
    dense_layer = (c["layers_total"] - c["experts_total"]) / shape.layers
    emb = shape.vocab * shape.hidden / tp
    dense = layers_stage * dense_layer / tp + emb
    experts = layers_stage * moe_share * expert_layer / ((tp if etp is None else etp) * ep)
    return dense + experts, dense, experts


# ---------------------------------------------------------------- scalar API


@dataclass(frozen=True)
class TrainEstimate:
    step_time_s: float
    breakdown: dict[str, float]
    tokens_per_s: float
    tflops_per_gpu: float  # model FLOPs (no recomputation) per GPU per second, in TFLOP/s
    hw_tflops_per_gpu: float  # including recomputation, as Megatron-LM's Table 1 counts them
    mfu: float
    memory: dict[str, float]
    fits: bool
    bottleneck: str
    time_to_train_s: float
    n_gpus: int
    micro_batches: int
    bubble_fraction: float
    refusal: str = ""  # why it does not fit, with the numbers; empty when it fits
    extra: dict[str, float] = field(default_factory=dict)
    tp_intra_node: bool = True  # where TP and DP run (the bottleneck sentence names NVLink or the fabric)
    dp_intra_node: bool = False

    def bottleneck_text(self, lang: str = "en") -> str:
        return bottleneck_sentence(self.breakdown, self.tp_intra_node, self.dp_intra_node, lang)


def config_columns(cfg: TrainConfig) -> dict[str, np.ndarray]:
    return {
        "tp": np.array([cfg.tp]),
        "pp": np.array([cfg.pp]),
        "dp": np.array([cfg.dp]),
        "cp": np.array([cfg.cp]),
        "ep": np.array([cfg.ep]),
        "vpp": np.array([cfg.vpp]),
        "mb": np.array([cfg.micro_batch]),
        "rc": np.array([RECOMPUTE.index(cfg.recompute)]),
        "sp": np.array([cfg.sp]),
    }


def validate_config(shape: ModelShape, cfg: TrainConfig) -> None:
    if shape.heads % cfg.tp:
        raise ValidationError(
            text.Msg("error.heads_over_tp", {"heads": shape.heads, "tp": cfg.tp}),
            field="tp",
            value=cfg.tp,
            hint=text.Msg("error.heads_over_tp.hint"),
        )
    # uneven splits are allowed (Megatron-Core --decoder-first/last-pipeline-num-layers; Llama 3 drops one
    # layer from the first and last stage): the slowest stage holds ceil(layers / pp) layers
    slots = shape.layers + (2 if cfg.balanced_pipeline else 0)  # embedding and loss take a slot each
    if cfg.vpp > 1 and slots < cfg.pp * cfg.vpp:
        raise ValidationError(
            text.Msg("error.layers_chunks", {"layers": shape.layers, "pp": cfg.pp, "vpp": cfg.vpp}),
            field="vpp",
            value=cfg.vpp,
        )
    if cfg.pipeline_layout:  # every layer placed once, pp·vpp stages (raises with the counts)
        from gpuplanner.engine.perf.stage_time import rank_loads

        rank_loads(cfg.pipeline_layout, cfg.pp, cfg.vpp, shape)
    if cfg.pp > shape.layers:
        raise ValidationError(
            text.Msg("error.pp_layers", {"pp": cfg.pp, "layers": shape.layers}), field="pp", value=cfg.pp
        )
    expert_grid = cfg.dp * cfg.cp * (1 if cfg.expert_tp else cfg.tp)  # etp 1: EP drawn from tp·dp·cp
    if cfg.ep > 1 and (shape.experts % cfg.ep or expert_grid % cfg.ep):
        raise ValidationError(
            text.Msg("error.ep_experts_dp_cp", {"ep": cfg.ep, "experts": shape.experts}),
            field="ep",
            value=cfg.ep,
        )


def estimate(
    shape: ModelShape, cfg: TrainConfig, cluster: ClusterSpec, a: Assumptions | None = None
) -> TrainEstimate:
    """Estimate one configuration (the sweep's code on one row)."""
    validate_config(shape, cfg)
    out = evaluate(shape, cluster, config_columns(cfg), options_for(cfg), a)
    return to_estimate(out, 0)


def options_for(cfg: TrainConfig) -> Options:
    """The row-independent settings of a training configuration."""
    return Options(
        global_batch=cfg.global_batch,
        seq_len=cfg.seq_len,
        precision=cfg.precision,
        zero_stage=cfg.zero_stage,
        flash=cfg.attention != "unfused",
        triton_attention=cfg.attention == "triton",
        dp_overlap=cfg.dp_overlap,
        tp_overlap=cfg.tp_overlap,
        total_tokens=cfg.total_tokens,
        tp_comm_overlap=cfg.tp_comm_overlap,
        pp_overlap=cfg.pp_overlap,
        grad_dtype=cfg.grad_dtype,
        balanced_pipeline=cfg.balanced_pipeline,
        param_gather_overlap=cfg.param_gather_overlap,
        ep_overlap=cfg.ep_overlap,
        zero3_regather_on_recompute=cfg.zero3_regather_on_recompute,
        zero3_nics_per_node=cfg.zero3_nics_per_node,
        optimizer=cfg.optimizer,
        optimizer_state=cfg.optimizer_state,
        moe_dispatcher=cfg.moe_dispatcher,
        expert_tp=cfg.expert_tp,
        fp8_params=cfg.fp8_params,
        recompute_norm_act=cfg.recompute_norm_act,
        mla_up_proj_recompute=cfg.mla_up_proj_recompute,
        pipeline_layout=cfg.pipeline_layout,
        fp8_recipe=cfg.fp8_recipe,
    )


def to_estimate(out: dict[str, np.ndarray], i: int) -> TrainEstimate:
    """The i-th row of an evaluation as a TrainEstimate."""
    row = {k: np.asarray(val).reshape(-1)[i] if np.ndim(val) else val for k, val in out.items()}
    breakdown = {k: float(row[k]) for k in BREAKDOWN}
    memory = {
        k[4:]: (bool(row[k]) if k == "mem_fits" else float(row[k])) for k in row if k.startswith("mem_")
    }
    fits = bool(memory.pop("fits"))
    n_gpus = int(round(float(row["n_gpus"])))
    extra: dict[str, Any] = {}
    ttt = float(row["time_to_train_s"])
    if ttt > 0:
        from gpuplanner.engine.perf.goodput import goodput, goodput_text

        g = goodput(n_gpus, float(row["checkpoint_gb_per_gpu"]))
        extra = {
            "goodput": g["goodput"],
            "time_to_train_with_failures_s": ttt / g["goodput"],
            "goodput_text": goodput_text(g),
            **{f"goodput_{k}": v for k, v in g.items() if k != "goodput"},
        }
    expert_s = float(row.get("expert_gemm_s", np.inf))
    if np.isfinite(expert_s):  # a MoE model: its expert GEMM time and whether it is host-paced (host.py)
        extra["expert_gemm_us"] = expert_s * 1e6
        extra["short_expert_kernels"] = bool(row["short_expert_kernels"])
    return TrainEstimate(
        step_time_s=float(row["step_time_s"]),
        breakdown=breakdown,
        tokens_per_s=float(row["tokens_per_s"]),
        tflops_per_gpu=float(row["tflops_per_gpu"]),
        hw_tflops_per_gpu=float(row["hw_tflops_per_gpu"]),
        mfu=float(row["mfu"]),
        memory=memory,
        fits=fits,
        bottleneck=bottleneck_sentence(breakdown, bool(row["tp_intra_node"]), bool(row["dp_intra_node"])),
        time_to_train_s=ttt,
        n_gpus=n_gpus,
        micro_batches=int(round(float(row["micro_batches"]))),
        bubble_fraction=float(row["bubble_fraction"]),
        refusal="" if fits else refusal_sentence(memory),
        extra=extra,
        tp_intra_node=bool(row["tp_intra_node"]),
        dp_intra_node=bool(row["dp_intra_node"]),
    )


def require_fit(est: TrainEstimate) -> None:
    """Raise a ValidationError with the numbers when the configuration does not fit in GPU memory."""
    if not est.fits:
        raise ValidationError(
            text.Msg("error.does_not_fit", {"why": refusal_msg(est.memory)}),
            field="memory",
            value=round(est.memory["total_gb"], 1),
            hint=text.Msg("error.does_not_fit.hint"),
        )
