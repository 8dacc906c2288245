"""`gpuplanner estimate …`: training (or inference) performance of a model on a cluster given by a project
file or by a few numbers. Without TP/PP it sweeps the layouts that fit and reports the best."""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

from gpuplanner.cli.common import (
    EXIT_BAD_INPUT,
    output_language,
    print_json,
    print_table,
)

# The catalog and the engine are imported by the command, not by `register` (see cli/__init__.py).
if TYPE_CHECKING:
    from gpuplanner.engine.perf import ClusterSpec, ModelShape, TrainConfig


def _request(args: argparse.Namespace) -> dict:
    """The command line as a request (engine/perf/request.py): the names of the options, None = not stated."""
    req = dict(vars(args))
    req.pop("func", None)
    if req.pop("blocking_pp_sends", False):
        req["pp_overlap"] = False
    return req


def _shape(args: argparse.Namespace, catalog) -> ModelShape:
    from gpuplanner.engine.perf.request import shape_of

    return shape_of(_request(args), catalog)


def _cluster(args: argparse.Namespace, catalog) -> ClusterSpec:
    from gpuplanner.engine.perf.request import cluster_of

    return cluster_of(_request(args), catalog)


def _from_fabric(args: argparse.Namespace, shape: ModelShape):
    """The performance on a drawn project: its GPUs, its fabric, the flows routed over it."""
    from gpuplanner.engine.compiled import compile_project
    from gpuplanner.engine.fabric.network import analyze_fabric
    from gpuplanner.engine.perf.request import check_layout
    from gpuplanner.engine.perf.settings import SETTINGS, resolve
    from gpuplanner.engine.workload import analyze_workload
    from gpuplanner.model import Workload
    from gpuplanner.storage import open_project

    req = _request(args)
    settings, from_stack = resolve(req.get("stack"), {k: req.get(k) for k in SETTINGS})
    check_layout(shape, None, {k: req.get(k) for k in ("tp", "pp", "cp", "ep", "vpp", "micro_batch")})
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
        cp=args.cp or 1,
        ep=args.ep or 1,
        vpp=args.vpp or 1,
        micro_batch=args.micro_batch or 1,
        global_batch=args.global_batch,
        precision=settings["precision"],
        zero_stage=settings["zero_stage"],
        recompute=settings["recompute"],
        total_tokens=args.tokens,
        measured_mfu=args.measured_mfu,
        measured_busbw_gbyte_per_s=args.measured_busbw,
    )
    wl = apply_settings_to_workload(wl, settings)
    res = analyze_workload(c, fab.graph, fab.router, wl, settings)
    from gpuplanner.engine.perf.request import TrainResult

    return TrainResult(
        [(res.config, res.estimate)], shape, res.cluster, settings, from_stack, req.get("stack")
    )


def apply_settings_to_workload(wl, settings: dict, stack: str | None = None):
    """The resolved settings on the workload row's fields of the same name (on/off for the switches)."""
    names = {f.name for f in dataclasses.fields(wl)}
    values: dict = {"stack": ""}  # the settings are resolved already
    for k, v in settings.items():
        if k not in names or v is None:
            continue
        if isinstance(v, bool) and k not in ("zero_stage",):
            values[k] = "on" if v else "off"
        else:  # a text field holds the setting as text (zero3_nics_per_node 4 → "4")
            values[k] = str(v) if isinstance(getattr(wl, k), str) else v
    return dataclasses.replace(wl, **values)


def settings_names() -> tuple[str, ...]:
    """The run settings `estimate` states in its JSON: every one engine/perf/settings.py knows, in its order."""
    from gpuplanner.engine.perf.settings import SETTINGS

    return tuple(SETTINGS)


def _ranges(est, shape: ModelShape, cluster: ClusterSpec, cfg: TrainConfig) -> dict:
    """Error bands from the bundled validation (engine/perf/bands.py), for the JSON and the text."""
    from gpuplanner.engine.perf.bands import ranges

    return ranges(est, shape, cluster)


def _json(cfg: TrainConfig, est, cluster: ClusterSpec, shape: ModelShape | None = None) -> dict:
    out = {
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
        "settings": {k: getattr(cfg, k) for k in settings_names()},
        "step_time_s": est.step_time_s,
        "tokens_per_s": est.tokens_per_s,
        "tflops_per_gpu": est.tflops_per_gpu,
        "hw_tflops_per_gpu": est.hw_tflops_per_gpu,
        "mfu": est.mfu,
        "mfu_peak": "fp8"
        if cfg.precision == "fp8" and cluster.peak_fp8_tflops
        else cfg.precision.replace("fp8", "bf16"),
        "memory_per_gpu_gb": est.memory.get("total_gb"),
        "memory": est.memory,
        "fits": est.fits,
        "refusal": est.refusal,
        "breakdown": est.breakdown,
        "bottleneck": est.bottleneck,
        "bubble_fraction": est.bubble_fraction,
        "time_to_train_s": est.time_to_train_s or None,
        "time_to_train_days": est.time_to_train_s / 86400.0 if est.time_to_train_s else None,
        "time_to_train_with_failures_days": (
            est.extra["time_to_train_with_failures_s"] / 86400.0
            if "time_to_train_with_failures_s" in est.extra
            else None
        ),
        "goodput": est.extra.get("goodput"),
        "net_factor": dict(cluster.net_factor),
        "calibrated": cluster.calibration is not None,
    }
    if shape is not None:
        out.update(_ranges(est, shape, cluster, cfg))
    return out


def _fmt_range(lo: float, hi: float, fmt: str) -> str:
    return f"{format(lo, fmt)}–{format(hi, fmt)}"


def _print_text(cfg: TrainConfig, est, cluster: ClusterSpec, shape: ModelShape, rows, res, lang: str) -> None:
    """The estimate as text in ``lang``: every sentence and header from the text package (text/cli_estimate.py),
    the numbers as `--json` has them."""
    from gpuplanner import text
    from gpuplanner.engine.perf.bands import explanations
    from gpuplanner.engine.perf.goodput import goodput_msg
    from gpuplanner.engine.perf.sentences import refusal_msg, step_part

    def say(msg_id: str, **values) -> str:
        return text.render(msg_id, lang, **values)

    if res is not None and res.stack:
        set_text = ", ".join(f"{k} {v}" for k, v in res.from_stack.items()) or say("perf.est.stack_nothing")
        print(say("perf.est.stack", stack=res.stack, settings=set_text))
    if res is not None and res.searched:
        print(say("perf.est.searched"))
    norm = say("perf.est.norm_act") if cfg.recompute_norm_act else ""
    print(
        say(
            "perf.est.layout",
            gpu=cluster.gpu_label or cluster.gpu_name,  # the name in the output's language
            gpus=est.n_gpus,
            tp=cfg.tp,
            pp=cfg.pp,
            dp=cfg.dp,
            cp=cfg.cp,
            ep=cfg.ep,
            vpp=cfg.vpp,
            mb=cfg.micro_batch,
            recompute=cfg.recompute,
            norm=norm,
            precision=cfg.precision,
            attention=cfg.attention,
            sp="on" if cfg.sp else "off",
            zero=cfg.zero_stage,
        )
    )
    r = _ranges(est, shape, cluster, cfg)
    why = explanations(est, shape, cluster)
    peak = (
        "FP8"
        if cfg.precision == "fp8" and cluster.peak_fp8_tflops
        else cfg.precision.upper().replace("FP8", "BF16")
    )

    def rng(key: str, fmt: str, scale: float = 1.0, msg_id: str = "perf.est.range") -> str:
        v = r[key]
        if not v:
            return ""
        return say(msg_id, lo=format(v[0] * scale, fmt), hi=format(v[1] * scale, fmt))

    print(
        say(
            "perf.est.step",
            step=est.step_time_s,
            step_range=rng("step_time_s_range", ".3f", msg_id="perf.est.range_s"),
            tps=est.tokens_per_s,
            tps_range=rng("tokens_per_s_range", ",.0f"),
            tflops=est.tflops_per_gpu,
            mfu=est.mfu * 100,
            peak=peak,
            mfu_range=rng("mfu_range", ".1f", 100.0, "perf.est.range_pct"),
        )
    )
    print(say("perf.est.ranges", explanation=why["band"]))
    if (
        why["host_paced"] is not None
    ):  # fine-grained MoE whose expert GEMMs are launch-bound (engine/perf/host.py)
        print(why["host_paced"].render(lang))
    print(
        say(
            "perf.est.memory_fits" if est.fits else "perf.est.memory_no_fit",
            total=est.memory.get("total_gb", 0),
            usable=est.memory.get("usable_gb", 0),
        )
    )
    if est.time_to_train_s:
        ideal = est.time_to_train_s / 86400.0
        real = est.extra.get("time_to_train_with_failures_s", est.time_to_train_s) / 86400.0
        reason = (
            goodput_msg(est.extra) if "goodput_mtbi_h" in est.extra else est.extra.get("goodput_text", "")
        )
        print(
            say(
                "perf.est.time_to_train",
                real=real,
                real_range=rng("time_to_train_days_range", ".1f"),
                ideal=ideal,
                goodput=est.extra.get("goodput", 1.0) * 100,
                why=reason,
            )
        )
    print_table(
        [
            [k, text.word("step_part", step_part(k, est.tp_intra_node, est.dp_intra_node), lang), f"{v:.4f}"]
            for k, v in est.breakdown.items()
        ],
        [say("col.term"), say("col.step_part"), say("col.seconds")],
    )
    print(say("perf.est.bottleneck", sentence=est.bottleneck_text(lang)))
    if not est.fits:
        why_not = refusal_msg(est.memory) if set(est.memory) >= _REFUSAL_FIELDS else None
        # the message when it says what the engine said, else the engine's own line
        same = why_not is not None and why_not.render("en") == est.refusal
        print(why_not.render(lang) if same and why_not is not None else est.refusal)
    if len(rows) > 1:
        print("\n" + say("perf.est.next_best"))
        print_table(
            [
                [
                    say(
                        "col.layout_row",
                        tp=c.tp,
                        pp=c.pp,
                        dp=c.dp,
                        cp=c.cp,
                        vpp=c.vpp,
                        mb=c.micro_batch,
                        recompute=c.recompute,
                    ),
                    f"{e.tokens_per_s:,.0f}",
                    f"{e.mfu * 100:.1f}%",
                ]
                for c, e in rows[1:]
            ],
            [say("col.layout"), say("col.tokens_per_s"), say("col.mfu")],
        )


# the memory figures the refusal sentence names (engine/perf/sentences.py, text "perf.training_refusal")
_REFUSAL_FIELDS = {"total_gb", "usable_gb", "weights_gb", "grads_gb", "optimizer_gb", "activations_gb"}


def _cmd_estimate(args: argparse.Namespace) -> int:
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.request import run

    catalog = default_catalog()
    if args.precision == "fp4" and not args.inference:
        from gpuplanner import text
        from gpuplanner.core.errors import ValidationError

        raise ValidationError(text.Msg("error.fp4_training"), field="--precision", value="fp4")
    shape = _shape(args, catalog)
    if args.inference:  # static batch and serving plan: cli/serving_out.py
        from gpuplanner.cli.serving_out import run_inference

        return run_inference(args, shape, _cluster(args, catalog), output_language(args))
    res = None
    if args.fabric:
        res = _from_fabric(args, shape)
        rows, cluster = res.rows, res.cluster
    else:
        res = run(_request(args), catalog)
        rows, cluster, shape = res.rows, res.cluster, res.shape
    cfg, est = rows[0]
    if args.json:
        out = _json(cfg, est, cluster, shape)
        if res is not None:
            out["stack"] = res.stack
            out["stack_set"] = res.from_stack
            out["searched"] = res.searched
        if len(rows) > 1:
            out["alternatives"] = [_json(c, e, cluster, shape) for c, e in rows[1:]]
        print_json(out)
    else:
        _print_text(cfg, est, cluster, shape, rows, res, output_language(args))
    return 0 if est.fits else EXIT_BAD_INPUT


def register(sub: argparse._SubParsersAction) -> None:
    from gpuplanner.cli.estimate_options import add_estimate_arguments

    p = sub.add_parser("estimate", help="training/inference performance of a model on a cluster")
    add_estimate_arguments(p)
    p.set_defaults(func=_cmd_estimate)
