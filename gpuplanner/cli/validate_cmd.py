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
    from gpuplanner.engine.perf.validation import METRICS, check_all, summary
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
                        "gpu": c.gpu,
                        "gpus": c.n_gpus,
                        "layout": c.layout,
                    }
                    for c in checked
                ],
                "families": fams,
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
        if c.run.excluded:
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
        f"{bands['runs']} runs."
    )
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="predicted vs published training runs (the tool's own accuracy)")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--inference",
        action="store_true",
        help="published inference results (MLPerf Inference) against `estimate --inference`, and the peer tool",
    )
    p.set_defaults(func=_cmd_validate)
