"""`gpuplanner estimate …`: training (or inference) performance of a model on a cluster given by a project
file or by a few numbers. Without TP/PP it sweeps the layouts that fit and reports the best."""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

from gpuplanner.cli.common import EXIT_BAD_INPUT, print_json, print_table
from gpuplanner.core.errors import PlannerError, ValidationError

# The catalog and the engine are imported by the command, not by `register` (see cli/__init__.py).
if TYPE_CHECKING:
    from gpuplanner.engine.perf import ClusterSpec, ModelShape, TrainConfig


def _shape(args: argparse.Namespace, catalog) -> ModelShape:
    from gpuplanner.catalog.types import ModelType
    from gpuplanner.engine.perf import ModelShape, shape_from_entry

    if args.model:
        m = catalog.get(args.model)
        if not isinstance(m, ModelType):
            raise ValidationError(f"'{args.model}' is a {m.kind}, not a model", field="--model")
        shape = shape_from_entry(dict(m.raw))
        return dataclasses.replace(shape, seq_len=args.seq) if args.seq else shape
    missing = [n for n in ("layers", "hidden", "heads") if getattr(args, n) is None]
    if missing:
        raise ValidationError(
            f"give --model ID or the shape (--{' --'.join(missing)} missing)", field=missing[0]
        )
    return ModelShape(
        architecture="dense",
        layers=args.layers,
        hidden=args.hidden,
        heads=args.heads,
        kv_heads=args.kv_heads or args.heads,
        ffn_hidden=args.ffn or 4 * args.hidden,
        vocab=args.vocab,
        seq_len=args.seq or 2048,
        gated_mlp=bool(args.ffn and args.ffn != 4 * args.hidden),
    )


def _cluster(args: argparse.Namespace, catalog) -> ClusterSpec:
    from gpuplanner.catalog.types import GpuType, ServerType
    from gpuplanner.engine.perf import Calibration, ClusterSpec

    server = catalog.get(args.server) if args.server else None
    if server is not None and not isinstance(server, ServerType):
        raise ValidationError(f"'{args.server}' is not a server", field="--server")
    gpu_id = args.gpu or (server.gpu if server else None)
    if not gpu_id:
        raise ValidationError("give --gpu ID (or --server ID, or --fabric FILE)", field="--gpu")
    gpu = catalog.get(gpu_id)
    if not isinstance(gpu, GpuType):
        raise ValidationError(f"'{gpu_id}' is not a GPU", field="--gpu")
    per_node = args.gpus_per_node or (server.scaleup_domain_gpus or server.gpu_count if server else 8)
    if args.nic_gbps:
        nic_per_gpu = args.nic_gbps * (args.nics_per_node or per_node) / per_node
    elif server is not None and server.ports("compute"):
        nic_per_gpu = sum(p.count * p.speed_gbps for p in server.ports("compute")) / max(server.gpu_count, 1)
    else:
        nic_per_gpu = 400.0 if gpu.bf16_dense_tflops > 500 else 200.0
    share = 1.0 / args.oversub
    calib = None
    if args.measured_mfu or args.measured_busbw:
        calib = Calibration(
            mfu=args.measured_mfu,
            busbw_gbyte_per_s={"dp": args.measured_busbw} if args.measured_busbw else {},
        )
    return ClusterSpec(
        gpu_name=gpu.name,
        peak_bf16_tflops=gpu.bf16_dense_tflops,
        peak_fp8_tflops=gpu.fp8_dense_tflops,
        mem_gb=gpu.mem_gb,
        mem_bw_tbyte_per_s=gpu.mem_bw_tbyte_per_s,
        gpus_per_node=per_node,
        scaleup_bw_gbyte_per_s=gpu.scaleup_bw_gbyte_per_s or 32.0,
        nic_gbps_per_gpu=nic_per_gpu,
        net_factor={k: share for k in ("dp", "pp", "cp", "ep")} if share < 1 else {},
        calibration=calib,
    )


def _from_fabric(args: argparse.Namespace, shape: ModelShape):
    """The performance on a drawn project: its GPUs, its fabric, the flows routed over it."""
    from gpuplanner.engine.compiled import compile_project
    from gpuplanner.engine.network import analyze_fabric
    from gpuplanner.engine.workload import analyze_workload
    from gpuplanner.model import Workload
    from gpuplanner.storage import open_project

    project = open_project(args.fabric)
    c = compile_project(project)
    fab = analyze_fabric(c, project.catalog)
    wl = Workload(
        id="cli",
        name=args.model or "model",
        model_id=args.model or "",
        architecture=shape.architecture,
        layers=shape.layers,
        hidden=shape.hidden,
        heads=shape.heads,
        kv_heads=shape.kv_heads,
        ffn_hidden=shape.ffn_hidden,
        vocab=shape.vocab,
        seq_len=args.seq or shape.seq_len,
        tp=args.tp or 1,
        pp=args.pp or 1,
        dp=args.dp or 0,
        cp=args.cp,
        ep=args.ep,
        vpp=args.vpp,
        micro_batch=args.micro_batch,
        global_batch=args.global_batch,
        precision=args.precision,
        zero_stage=args.zero,
        recompute=args.recompute,
        total_tokens=args.tokens,
        measured_mfu=args.measured_mfu,
        measured_busbw_gbyte_per_s=args.measured_busbw,
    )
    res = analyze_workload(project, c, fab.graph, fab.router, wl)
    return res.config, res.estimate, res.cluster


def _json(cfg: TrainConfig, est, cluster: ClusterSpec) -> dict:
    return {
        "gpu": cluster.gpu_name,
        "gpus": est.n_gpus,
        "tp": cfg.tp,
        "pp": cfg.pp,
        "dp": cfg.dp,
        "cp": cfg.cp,
        "ep": cfg.ep,
        "vpp": cfg.vpp,
        "micro_batch": cfg.micro_batch,
        "global_batch": cfg.global_batch,
        "recompute": cfg.recompute,
        "precision": cfg.precision,
        "step_time_s": est.step_time_s,
        "tokens_per_s": est.tokens_per_s,
        "tflops_per_gpu": est.tflops_per_gpu,
        "hw_tflops_per_gpu": est.hw_tflops_per_gpu,
        "mfu": est.mfu,
        "memory_per_gpu_gb": est.memory.get("total_gb"),
        "memory": est.memory,
        "fits": est.fits,
        "refusal": est.refusal,
        "breakdown": est.breakdown,
        "bottleneck": est.bottleneck,
        "time_to_train_s": est.time_to_train_s or None,
        "net_factor": dict(cluster.net_factor),
        "calibrated": cluster.calibration is not None,
    }


def _cmd_estimate(args: argparse.Namespace) -> int:
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf import TrainConfig, estimate, sweep

    catalog = default_catalog()
    shape = _shape(args, catalog)
    if args.inference:  # static batch and serving plan: cli/serving_out.py
        from gpuplanner.cli.serving_out import run_inference

        return run_inference(args, shape, _cluster(args, catalog))
    if args.fabric:
        cfg, est, cluster = _from_fabric(args, shape)
        rows = [(cfg, est)]
    else:
        cluster = _cluster(args, catalog)
        if not args.gpus:
            raise ValidationError("give --gpus N (or --fabric FILE)", field="--gpus")
        if args.tp and args.pp:
            dp = args.dp or args.gpus // (args.tp * args.pp * args.cp)
            cfg = TrainConfig(
                tp=args.tp,
                pp=args.pp,
                dp=dp,
                cp=args.cp,
                ep=args.ep,
                vpp=args.vpp,
                micro_batch=args.micro_batch,
                global_batch=args.global_batch,
                seq_len=args.seq or shape.seq_len,
                precision=args.precision,
                zero_stage=args.zero,
                recompute=args.recompute,
                total_tokens=args.tokens,
                tp_comm_overlap=args.tp_comm_overlap,
                pp_overlap=not args.blocking_pp_sends,
                grad_dtype=args.grad_dtype,
            )
            rows = [(cfg, estimate(shape, cfg, cluster))]
        else:
            res = sweep(
                shape,
                cluster,
                args.gpus,
                args.global_batch,
                seq_len=args.seq,
                precision=args.precision,
                zero_stage=args.zero,
                total_tokens=args.tokens,
                tp_comm_overlap=args.tp_comm_overlap,
                pp_overlap=not args.blocking_pp_sends,
            )
            if not len(res):
                raise PlannerError(
                    f"no parallel layout of {args.gpus} GPUs fits this model in {cluster.mem_gb:g} GB per GPU"
                )
            rows = res.best(args.top)
    cfg, est = rows[0]
    if args.json:
        out = _json(cfg, est, cluster)
        if len(rows) > 1:
            out["alternatives"] = [_json(c, e, cluster) for c, e in rows[1:]]
        print_json(out)
    else:
        print(
            f"{cluster.gpu_name} × {est.n_gpus}: TP{cfg.tp} PP{cfg.pp} DP{cfg.dp} CP{cfg.cp} "
            f"micro-batch {cfg.micro_batch}, recompute {cfg.recompute}"
        )
        print(
            f"step {est.step_time_s:.3f} s, {est.tokens_per_s:,.0f} tokens/s, {est.tflops_per_gpu:.0f} TFLOP/s per GPU, "
            f"MFU {est.mfu * 100:.1f}%, memory {est.memory.get('total_gb', 0):.1f} GB/GPU ({'fits' if est.fits else 'does NOT fit'})"
        )
        print_table([[k, f"{v:.4f}"] for k, v in est.breakdown.items()], ["term", "seconds"])
        print(f"bottleneck: {est.bottleneck}")
        if not est.fits:
            print(est.refusal)
        if len(rows) > 1:
            print("\nnext best layouts:")
            print_table(
                [
                    [
                        f"TP{c.tp} PP{c.pp} DP{c.dp} CP{c.cp} mb{c.micro_batch} {c.recompute}",
                        f"{e.tokens_per_s:,.0f}",
                        f"{e.mfu * 100:.1f}%",
                    ]
                    for c, e in rows[1:]
                ],
                ["layout", "tokens/s", "MFU"],
            )
    return 0 if est.fits else EXIT_BAD_INPUT


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("estimate", help="training/inference performance of a model on a cluster")
    p.add_argument("--model", help="model catalog id (see `catalog list model`)")
    for name in ("layers", "hidden", "heads", "kv-heads", "ffn"):
        p.add_argument(f"--{name}", type=int)
    p.add_argument("--vocab", type=int, default=51200)
    p.add_argument("--seq", type=int, help="sequence length")
    p.add_argument("--gpu", help="GPU catalog id")
    p.add_argument("--gpus", type=int, help="number of GPUs")
    p.add_argument("--server", help="server catalog id (GPUs per node and NICs)")
    p.add_argument("--gpus-per-node", type=int)
    p.add_argument("--nic-gbps", type=float, help="speed of one compute NIC")
    p.add_argument("--nics-per-node", type=int)
    p.add_argument(
        "--oversub", type=float, default=1.0, help="fabric oversubscription for inter-node traffic"
    )
    p.add_argument("--fabric", help="a project file: use its GPUs and its drawn fabric")
    for name in ("tp", "pp", "dp"):
        p.add_argument(f"--{name}", type=int)
    p.add_argument("--cp", type=int, default=1)
    p.add_argument("--ep", type=int, default=1)
    p.add_argument("--vpp", type=int, default=1)
    p.add_argument("--micro-batch", type=int, default=1)
    p.add_argument("--global-batch", type=int, default=1024, help="sequences per step")
    p.add_argument("--precision", choices=["bf16", "fp16", "fp8"], default="bf16")
    p.add_argument("--recompute", choices=["none", "selective", "full"], default="selective")
    p.add_argument("--zero", type=int, default=1, choices=[0, 1, 2, 3])
    p.add_argument(
        "--tp-comm-overlap",
        action="store_true",
        help="TP communication overlapped with the GEMMs (Transformer Engine userbuffers, as NeMo's FP8 recipes)",
    )
    p.add_argument(
        "--grad-dtype",
        choices=["fp32", "bf16", "fp16"],
        help="gradient buffer type (default: fp32 main grads as Megatron-LM; bf16 as NeMo's FP8 recipes)",
    )
    p.add_argument(
        "--blocking-pp-sends",
        action="store_true",
        help="pipeline sends do not overlap compute (Megatron before overlap_p2p_comm, 2021–2022 runs)",
    )
    p.add_argument("--tokens", type=float, default=0.0, help="training tokens (for time-to-train)")
    p.add_argument("--measured-mfu", type=float, help="calibration: a measured MFU (0–1)")
    p.add_argument(
        "--measured-busbw", type=float, help="calibration: measured nccl-tests all-reduce bus bandwidth, GB/s"
    )
    p.add_argument("--top", type=int, default=5, help="layouts shown by a sweep")
    p.add_argument("--inference", action="store_true")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--prompt", type=int, default=2048)
    p.add_argument("--output", type=int, default=512)
    p.add_argument("--kv-bytes", type=int, help="KV cache bytes per value (default: 1 with fp8, else 2)")
    p.add_argument("--json", action="store_true")
    from gpuplanner.cli.serving_out import add_arguments

    add_arguments(p)
    p.set_defaults(func=_cmd_estimate)
