"""One training-performance request, as `gpuplanner estimate` states it, turned into an estimate.

A request is a mapping with the command line's names (`layers`, `gpu`, `gpus`, `tp`, `micro_batch`,
`stack`, `recompute`, ...; None = not stated). `estimate` parses its arguments into one and calls `run`;
`gpuplanner validate` reads the bundled published runs (each stated the same way) and calls `run` too, so the
accuracy the tool shows is the accuracy of the command users run.

Impossible layouts are refused with the reason (a ValidationError: one line, exit 2), never reshaped.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gpuplanner import text
from gpuplanner.catalog.names import named
from gpuplanner.core.errors import PlannerError, ValidationError
from gpuplanner.engine.perf.settings import SETTINGS, resolve
from gpuplanner.engine.perf.shapes import RECOMPUTE, Calibration, ClusterSpec, ModelShape, TrainConfig

if TYPE_CHECKING:  # training imports this module's callers; the hint needs no import at run time
    from gpuplanner.catalog import Catalog
    from gpuplanner.engine.perf.training import TrainEstimate

LAYOUT = ("tp", "pp", "dp", "cp", "ep", "vpp", "micro_batch")
# every name a request may carry (the estimate command's option names); anything else is a typo
REQUEST_KEYS = frozenset(
    {"model", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "seq", "tied_embeddings", "dropout"}
    | {"head_dim", "mtp_layers"}
    | {"gated_mlp", "gpu", "gpus", "server", "gpus_per_node", "nic_gbps", "nics_per_node", "oversub"}
    | {"scaleup_gbyte_per_s", "global_batch", "tokens", "measured_mfu", "measured_busbw", "stack", "top"}
    | {"sharp", "switch_latency_ns"}
    | set(LAYOUT)
    | set(SETTINGS)
)


def default_kv_bytes(precision: str) -> int:
    """KV-cache bytes per value when none is stated: 1 (FP8) with fp8 or fp4 weights (MLPerf's NVFP4
    submissions keep an FP8 KV cache), else 2. `estimate --inference` and the design advisor both take it."""
    return 1 if precision in ("fp8", "fp4") else 2


def kv_precision_of(kv_bytes: int) -> str:
    """The serving model's KV-cache precision for a byte count (1 → fp8, 2 → bf16)."""
    return "fp8" if kv_bytes == 1 else "bf16"


@dataclass
class TrainResult:
    rows: list[tuple[TrainConfig, TrainEstimate]]  # best first
    shape: ModelShape
    cluster: ClusterSpec
    settings: dict[str, Any]
    from_stack: dict[str, Any] = field(default_factory=dict)
    stack: str | None = None
    searched: bool = False


def shape_of(req: dict[str, Any], catalog: Catalog) -> ModelShape:
    from gpuplanner.catalog.types import ModelType
    from gpuplanner.engine.perf.shapes import shape_from_entry

    overrides = {
        k: req[n]
        for k, n in (
            ("tied_embeddings", "tied_embeddings"),
            ("dropout", "dropout"),
            ("gated_mlp", "gated_mlp"),
            ("mtp_layers", "mtp_layers"),
        )
        if req.get(n) is not None
    }
    if req.get("model"):
        m = catalog.get(req["model"])
        if not isinstance(m, ModelType):
            raise ValidationError(
                text.Msg("error.not_a_model", {"id": req["model"], "kind": m.kind}), field="--model"
            )
        shape = shape_from_entry(dict(m.raw))
        if req.get("seq"):
            overrides["seq_len"] = req["seq"]
        return dataclasses.replace(shape, **overrides) if overrides else shape
    missing = [n for n in ("layers", "hidden", "heads") if req.get(n) is None]
    if missing:
        raise ValidationError(
            text.Msg("error.model_or_shape", {"missing": "--" + " --".join(missing)}), field=missing[0]
        )
    ffn = req.get("ffn") or 4 * req["hidden"]
    vocab: int | None = req.get("vocab")
    return ModelShape(
        architecture="dense",
        layers=req["layers"],
        hidden=req["hidden"],
        heads=req["heads"],
        kv_heads=req.get("kv_heads") or req["heads"],
        ffn_hidden=ffn,
        vocab=vocab if vocab is not None else 51200,
        seq_len=req.get("seq") or 2048,
        gated_mlp=overrides.get("gated_mlp", ffn != 4 * req["hidden"]),
        tied_embeddings=overrides.get("tied_embeddings", False),
        dropout=overrides.get("dropout", True),
        head_dim=req.get("head_dim") or 0,
    )


def cluster_of(req: dict[str, Any], catalog: Catalog) -> ClusterSpec:
    from gpuplanner.catalog.types import GpuType, ServerType

    server = catalog.get(req["server"]) if req.get("server") else None
    if server is not None and not isinstance(server, ServerType):
        raise ValidationError(text.Msg("error.not_a_server", {"id": req["server"]}), field="--server")
    gpu_id = req.get("gpu") or (server.gpu if server else None)
    if not gpu_id:
        raise ValidationError(text.Msg("error.give_gpu"), field="--gpu")
    gpu = catalog.get(gpu_id)
    if not isinstance(gpu, GpuType):
        raise ValidationError(text.Msg("error.not_a_gpu", {"id": gpu_id}), field="--gpu")
    per_node = req.get("gpus_per_node") or (server.scaleup_domain_gpus or server.gpu_count if server else 8)
    if req.get("nic_gbps"):
        nic_per_gpu = req["nic_gbps"] * (req.get("nics_per_node") or per_node) / per_node
    elif server is not None and server.ports("compute"):
        nic_per_gpu = sum(p.count * p.speed_gbps for p in server.ports("compute")) / max(server.gpu_count, 1)
    else:
        nic_per_gpu = 400.0 if gpu.bf16_dense_tflops > 500 else 200.0
    oversub = req.get("oversub") or 1.0
    if oversub < 1.0:
        raise ValidationError(text.Msg("error.oversub_below_one"), field="--oversub", value=oversub)
    share = 1.0 / oversub
    calib = None
    if req.get("measured_mfu") or req.get("measured_busbw"):
        calib = Calibration(
            mfu=req.get("measured_mfu"),
            busbw_gbyte_per_s={"dp": req["measured_busbw"]} if req.get("measured_busbw") else {},
        )
    return ClusterSpec(
        gpu_name=gpu.name,
        gpu_label=named(gpu, catalog, with_figures=False),
        peak_bf16_tflops=gpu.bf16_dense_tflops,
        peak_fp8_tflops=gpu.fp8_dense_tflops,
        peak_fp4_tflops=gpu.fp4_dense_tflops,
        mem_gb=gpu.mem_gb,
        mem_bw_tbyte_per_s=gpu.mem_bw_tbyte_per_s,
        gpus_per_node=per_node,
        scaleup_bw_gbyte_per_s=req.get("scaleup_gbyte_per_s") or gpu.scaleup_bw_gbyte_per_s or 32.0,
        nic_gbps_per_gpu=nic_per_gpu,
        net_factor={k: share for k in ("dp", "pp", "cp", "ep")} if share < 1 else {},
        calibration=calib,
        switch_latency_ns=req.get("switch_latency_ns"),
        in_network_reduction=bool(req.get("sharp")),
    )


def check_layout(
    shape: ModelShape, n_gpus: int | None, lay: dict[str, int | None], mode: str = "training"
) -> None:
    """Refuse a stated layout that cannot run, with the reason. Unstated entries (None) are not checked."""
    tp, pp, cp, ep, dp, vpp = (lay.get(k) for k in ("tp", "pp", "cp", "ep", "dp", "vpp"))
    for name in ("tp", "pp", "dp", "cp", "ep", "vpp", "micro_batch"):
        v = lay.get(name)
        if v is not None and v < 1:
            raise ValidationError(
                text.Msg("error.at_least_one", {"name": name}), field=f"--{name.replace('_', '-')}", value=v
            )
    if tp is not None and shape.heads % tp:
        raise ValidationError(
            text.Msg("error.tp_heads", {"tp": tp, "heads": shape.heads}), field="--tp", value=tp
        )
    # a true GQA model groups heads evenly; a kv_heads that does not divide the heads stands for a compressed
    # KV cache and constrains nothing in training
    if tp is not None and shape.heads % shape.kv_heads == 0:
        kv = shape.kv_heads
        bad = (kv % tp) if mode == "training" else (kv % tp and tp % kv)
        if bad:
            msg_id = (
                "error.tp_kv_heads_divide" if mode == "training" else "error.tp_kv_heads_divide_or_multiple"
            )
            raise ValidationError(text.Msg(msg_id, {"tp": tp, "kv": kv}), field="--tp", value=tp)
    if pp is not None and pp > shape.layers:
        raise ValidationError(
            text.Msg("error.pp_layers", {"pp": pp, "layers": shape.layers}), field="--pp", value=pp
        )
    if vpp is not None and vpp > 1:
        if (pp or 1) < 2:
            raise ValidationError(text.Msg("error.vpp_needs_pp"), field="--vpp", value=vpp)
        if (pp or 1) * vpp > shape.layers + (2 if lay.get("balanced") else 0):
            raise ValidationError(
                text.Msg("error.vpp_layers", {"pp": pp, "vpp": vpp, "layers": shape.layers}),
                field="--vpp",
                value=vpp,
            )
    if ep is not None and ep > 1:
        if not shape.is_moe:
            raise ValidationError(text.Msg("error.ep_needs_moe"), field="--ep", value=ep)
        if shape.experts % ep:
            raise ValidationError(
                text.Msg("error.ep_experts", {"ep": ep, "experts": shape.experts}), field="--ep", value=ep
            )
    if n_gpus is None:
        return
    model_par = (tp or 1) * (pp or 1) * (cp or 1)
    if n_gpus % model_par:
        raise ValidationError(
            text.Msg(
                "error.gpus_model_parallel",
                {"gpus": n_gpus, "tp": tp or 1, "pp": pp or 1, "cp": cp or 1, "model_par": model_par},
            ),
            field="--gpus",
            value=n_gpus,
            hint=text.Msg("error.gpus_model_parallel.hint"),
        )
    if dp is not None and tp and pp and model_par * dp != n_gpus:
        raise ValidationError(
            text.Msg("error.dp_gpus", {"product": model_par * dp, "gpus": n_gpus}), field="--dp", value=dp
        )
    dp_eff = dp or n_gpus // model_par
    # with experts not split over TP (etp 1, MoE parallel folding) the EP group is drawn from tp·dp·cp ranks
    expert_grid = dp_eff * (cp or 1) * (1 if lay.get("expert_tp", True) else (tp or 1))
    if ep is not None and ep > 1 and expert_grid % ep:
        raise ValidationError(
            text.Msg("error.ep_dp_cp", {"ep": ep, "dp": dp_eff, "cp": cp or 1}), field="--ep", value=ep
        )


def stated_config(
    req: dict[str, Any], shape: ModelShape, n_gpus: int, settings: dict[str, Any]
) -> TrainConfig:
    """The TrainConfig of a request that states its layout (tp and pp)."""
    tp, pp, cp = req["tp"], req["pp"], req.get("cp") or 1
    return TrainConfig(
        tp=tp,
        pp=pp,
        dp=req.get("dp") or n_gpus // (tp * pp * cp),
        cp=cp,
        ep=req.get("ep") or 1,
        vpp=req.get("vpp") or 1,
        micro_batch=req.get("micro_batch") or 1,
        global_batch=req.get("global_batch") or 1024,
        seq_len=req.get("seq") or shape.seq_len,
        total_tokens=req.get("tokens") or 0.0,
        **settings,
    )


def build(req: dict[str, Any], catalog: Catalog | None = None) -> tuple[ModelShape, ClusterSpec, TrainConfig]:
    """Shape, cluster and configuration of a request that states its layout (for tests and tools)."""
    if catalog is None:
        from gpuplanner.catalog.loader import default_catalog

        catalog = default_catalog()
    shape, cluster = shape_of(req, catalog), cluster_of(req, catalog)
    settings, _ = resolve(req.get("stack"), {k: req.get(k) for k in SETTINGS})
    check_layout(
        shape,
        req["gpus"],
        {
            **{k: req.get(k) for k in LAYOUT},
            "balanced": settings["balanced_pipeline"],
            "expert_tp": settings["expert_tp"],
        },
    )
    return shape, cluster, stated_config(req, shape, req["gpus"], settings)


def run(req: dict[str, Any], catalog: Catalog | None = None) -> TrainResult:
    """The training estimate of a request: one stated layout, or the best layouts of a search."""
    from gpuplanner.engine.perf.sweep import sweep
    from gpuplanner.engine.perf.training import estimate

    if catalog is None:
        from gpuplanner.catalog.loader import default_catalog

        catalog = default_catalog()
    shape = shape_of(req, catalog)
    cluster = cluster_of(req, catalog)
    n = req.get("gpus")
    if not n:
        raise ValidationError(text.Msg("error.give_gpus"), field="--gpus")
    settings, from_stack = resolve(req.get("stack"), {k: req.get(k) for k in SETTINGS})
    lay = {k: req.get(k) for k in LAYOUT}
    check_layout(
        shape, n, {**lay, "balanced": settings["balanced_pipeline"], "expert_tp": settings["expert_tp"]}
    )
    gb = req.get("global_batch") or 1024
    seq = req.get("seq") or shape.seq_len
    tokens = req.get("tokens") or 0.0
    if req.get("tp") and req.get("pp"):
        cfg = stated_config(req, shape, n, settings)
        rows = [(cfg, estimate(shape, cfg, cluster))]
        return TrainResult(rows, shape, cluster, settings, from_stack, req.get("stack"), searched=False)
    options: dict[str, Any] = {}
    for key, opt in (
        ("tp", "tp_options"),
        ("pp", "pp_options"),
        ("cp", "cp_options"),
        ("ep", "ep_options"),
        ("dp", "dp_options"),
    ):
        if req.get(key):
            options[opt] = (req[key],)
    if req.get("micro_batch"):
        options["mb_options"] = (req["micro_batch"],)
    if req.get("vpp"):
        options["vpp_options"] = (req["vpp"],)
    if settings["pipeline_layout"]:  # a layout fixes the pipeline: pp as stated, vpp = its stages / pp
        from gpuplanner.engine.perf.stage_time import parse_layout, rank_loads

        if not req.get("pp"):
            raise ValidationError(text.Msg("error.pipeline_layout_needs_pp"), field="--pp")
        vpp = max(len(parse_layout(settings["pipeline_layout"])) // req["pp"], 1)
        rank_loads(settings["pipeline_layout"], req["pp"], req.get("vpp") or vpp, shape)
        options["vpp_options"] = (req.get("vpp") or vpp,)
    # the search chooses the recomputation unless the user states it (a stack's choice is only a default)
    if req.get("recompute"):
        options["recompute_options"] = (req["recompute"],)
    else:
        options["recompute_options"] = RECOMPUTE
    # the settings the sweep is given one by one below, or searches; the rest go through as they are
    explicit = {"precision", "zero_stage", "attention", "recompute", "sequence_parallel"}
    explicit |= {"dp_overlap", "tp_overlap", "tp_comm_overlap", "pp_overlap"}
    settings_rest = {k: settings[k] for k in SETTINGS if k not in explicit}
    res = sweep(
        shape,
        cluster,
        n,
        gb,
        seq_len=seq,
        precision=settings["precision"],
        zero_stage=settings["zero_stage"],
        attention=settings["attention"],
        dp_overlap=settings["dp_overlap"],
        tp_overlap=settings["tp_overlap"],
        tp_comm_overlap=settings["tp_comm_overlap"],
        pp_overlap=settings["pp_overlap"],
        total_tokens=tokens,
        sequence_parallel=settings["sequence_parallel"],
        settings=settings_rest,
        **options,
    )
    if not len(res):
        raise PlannerError(
            text.Msg("error.no_layout_fits", {"gpus": n, "mem_gb": cluster.mem_gb}),
            field="--gpus",
            value=n,
            hint=text.Msg("error.no_layout_fits.hint"),
        )
    return TrainResult(
        res.best(req.get("top") or 5), shape, cluster, settings, from_stack, req.get("stack"), searched=True
    )
