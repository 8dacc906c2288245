"""`gpuplanner validate [--json]`: the published training runs bundled with the product, each predicted through
the same request path as `gpuplanner estimate`, with the error per run and a summary per family."""

from __future__ import annotations

import argparse
import shlex

from gpuplanner.cli.common import print_json, print_table
from gpuplanner.cli.validate_print import pct as _pct
from gpuplanner.cli.validate_print import print_families


def command_line(request: dict) -> str:
    """The `gpuplanner estimate` command a run's request stands for."""
    parts = ["gpuplanner", "estimate"]
    for k, v in request.items():
        opt = "--" + k.replace("_", "-")
        if k == "zero_stage":
            opt = "--zero"
        elif k == "dp_overlap":
            opt = "--grad-reduce-overlap"
        elif k == "zero3_regather_on_recompute":
            opt = "--zero3-regather"
        if isinstance(v, bool):
            parts.append(opt if v else "--no-" + opt[2:])
        else:
            parts += [opt, str(v)]
    return shlex.join(parts)


def _cmd_validate(args: argparse.Namespace) -> int:
    if args.inference:  # published serving results: cli/validate_inference_out.py
        from gpuplanner.cli.validate_inference_out import run_validate_inference

        return run_validate_inference(args)
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.bands import stored_bands
    from gpuplanner.engine.perf.validation import METRICS, check_all, host_paced_summary, summary
    from gpuplanner.engine.perf.validation_collectives import check_collectives

    checked = check_all()
    fams = summary(checked)
    bands = stored_bands()
    collectives = check_collectives(default_catalog())
    if args.json:
        print_json(
            {
                "runs": [
                    {
                        "id": c.run.id,
                        "family": c.run.family,
                        "source": c.run.source,
                        "cite": c.run.cite,
                        "states": c.run.states,
                        "command": command_line(c.run.request),
                        "metric": c.run.metric,
                        "measured": c.run.measured,
                        "predicted": c.predicted,
                        "error": c.error,
                        "refused": c.refusal or None,
                        "excluded": c.run.excluded or None,
                        "counted": c.counted,
                        "host_paced": c.host_paced,
                        "expert_gemm_us": c.expert_gemm_us,
                        "measured_under_prediction": c.bound_holds,
                        "gpu": c.gpu,
                        "gpus": c.n_gpus,
                        "layout": c.layout,
                    }
                    for c in checked
                ],
                "families": fams,
                "host_paced": host_paced_summary(checked),
                "bands": bands,
                "collectives": [
                    {
                        "id": k.id,
                        "source": k.source,
                        "states": k.states,
                        "ranks": k.ranks,
                        "nodes": k.nodes,
                        "size_byte": k.size_byte,
                        "measured_us": k.measured_us,
                        "predicted_us": k.predicted_us,
                        "error": k.error,
                    }
                    for k in collectives
                ],
            }
        )
        return 0
    rows = []
    for c in checked:
        if not c.counted:
            continue
        fmt = ".3f" if c.run.metric in ("mfu", "step_time_s") else ".1f"
        rows.append(
            [
                c.run.id,
                c.run.cite,
                f"{c.gpu.replace('NVIDIA ', '')} × {c.n_gpus}",
                c.layout,
                c.run.metric,
                format(c.run.measured, fmt),
                "refused" if c.predicted is None or c.error is None else format(c.predicted, fmt),
                _pct(c.error),
            ]
        )
    print_table(rows, ["run", "source", "GPUs", "layout", "metric", "measured", "predicted", "error"])
    print()
    print_families(fams, "runs")
    print("\nsmall collectives between nodes (latency-bound; nccl-tests all-reduce, not in the error bands):")
    print_table(
        [
            [
                k.id,
                f"{k.ranks} ranks on {k.nodes} nodes",
                f"{k.size_byte:,.0f} B",
                f"{k.measured_us:.1f}",
                f"{k.predicted_us:.1f}",
                _pct(k.error),
            ]
            for k in collectives
        ],
        ["run", "group", "size", "measured µs", "predicted µs", "error"],
    )
    _print_host_paced(checked, host_paced_summary(checked))
    excluded = [c for c in checked if c.run.excluded]
    if excluded:
        print("\nlisted but not counted (refused, or outside what the engine models; each says why):")
        for c in excluded:
            err = f" (error {_pct(c.error)})" if c.error is not None else ""
            print(f"  {c.run.id}{err}: {c.run.excluded}")
    print(
        f"\nerror = predicted/measured − 1 in throughput ({', '.join(v[0] for v in METRICS.values())}; a step time "
        f"is inverted). Sources: `gpuplanner validate --json`. Error bands of `estimate`: measured/predicted range "
        f"per group (GPU generation, dense/MoE, scale), leave-one-out coverage {bands['loo_coverage']:.0%} of "
        f"{bands['runs']} runs{_host_paced_band(bands)}."
    )
    return 0


def _host_paced_band(bands: dict) -> str:
    hp = bands.get("host_paced")
    if not hp:
        return ""
    return (
        f"; host-paced runs: their own band {hp['low']:.2f}–{hp['high']:.2f} over {hp['runs']} runs, "
        f"leave-one-out coverage {hp['loo_coverage']:.0%}"
    )


def _print_host_paced(checked, hs: dict) -> None:
    """The host-paced runs (engine/perf/host.py): decided from the prediction, checked as upper bounds."""
    rows = [c for c in checked if c.host_paced and not c.run.excluded]
    if not rows:
        return
    print(
        "\nhost-paced fine-grained MoE (one expert's GEMM under launch_sensitive_kernel_s, decided from the "
        "prediction; not counted above: the GPU-time throughput is an upper bound, checked as one):"
    )
    print_table(
        [
            [
                c.run.id,
                c.run.cite,
                f"{c.gpu.replace('NVIDIA ', '')} × {c.n_gpus}",
                c.layout,
                f"{c.expert_gemm_us:.0f}" if c.expert_gemm_us is not None else "—",
                format(c.run.measured, ".1f"),
                "refused" if c.predicted is None else format(c.predicted, ".1f"),
                _pct(c.error),
                {True: "yes", False: "NO", None: "—"}[c.bound_holds],
            ]
            for c in rows
        ],
        [
            "run",
            "source",
            "GPUs",
            "layout",
            "expert GEMM µs",
            "measured",
            "GPU-time bound",
            "error",
            "bound holds",
        ],
    )
    us = hs["expert_gemm_us"]
    print(
        f"host-paced: {hs['runs']} runs, bound holds for {hs['bound_holds']}, over-prediction mean "
        f"{_pct(hs['mean_error'])}, largest {_pct(hs['worst_error'])}; expert GEMM {us[0]:.0f}–{us[1]:.0f} µs"
    )


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="predicted vs published training runs (the tool's own accuracy)")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--inference",
        action="store_true",
        help="published inference results (MLPerf Inference) against `estimate --inference`, and the peer tool",
    )
    p.set_defaults(func=_cmd_validate)
