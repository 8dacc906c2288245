"""`gpuplanner validate [--json]`: the published training runs bundled with the product, each predicted through
the same request path as `gpuplanner estimate`, with the error per run and a summary per family."""

from __future__ import annotations

import argparse
import shlex

from gpuplanner import text
from gpuplanner.cli.common import add_lang_argument, output_language, print_json, print_table
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
    from gpuplanner.engine.perf.validation import check_all, host_paced_summary, summary
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
    _print_text(checked, fams, bands, collectives, output_language(args))
    return 0


def _print_text(checked, fams: list, bands: dict, collectives: list, lang: str) -> None:
    """The runs, the families, the small collectives, the host-paced runs and the footer as text in ``lang``
    (text/cli_validate.py)."""
    from gpuplanner.engine.perf.validation import METRICS, host_paced_summary

    def say(msg_id: str, **values) -> str:
        return text.render(msg_id, lang, **values)

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
                text.word("metric_short", c.run.metric, lang),
                format(c.run.measured, fmt),
                say("col.refused") if c.predicted is None or c.error is None else format(c.predicted, fmt),
                _pct(c.error),
            ]
        )
    cols = ("run", "source", "gpus", "layout", "metric", "measured", "predicted", "error")
    print_table(rows, [say(f) for f in _columns(cols)])
    print()
    print_families(fams, "runs", lang)
    print("\n" + say("perf.val.collectives"))
    print_table(
        [
            [
                k.id,
                say("perf.val.ranks_on_nodes", ranks=k.ranks, nodes=k.nodes),
                f"{k.size_byte:,.0f} B",
                f"{k.measured_us:.1f}",
                f"{k.predicted_us:.1f}",
                _pct(k.error),
            ]
            for k in collectives
        ],
        [say(f) for f in _columns(("run", "group", "size", "measured_us", "predicted_us", "error"))],
    )
    _print_host_paced(checked, host_paced_summary(checked), lang)
    excluded = [c for c in checked if c.run.excluded]
    if excluded:
        print("\n" + say("perf.valinf_heading_excluded"))
        for c in excluded:  # the reason is the data file's own note (catalogs/validation/training_runs.yaml)
            err = say("perf.val.excluded_error", error=_pct(c.error)) if c.error is not None else ""
            print(say("perf.val.excluded_line", run=c.run.id, error=err, reason=c.run.excluded))
    metrics = say("col.list_separator").join(text.render(f"word.metric.{m}", lang) for m in METRICS)
    print(
        "\n"
        + say(
            "perf.val.footer",
            metrics=metrics,
            coverage=bands["loo_coverage"],
            runs=bands["runs"],
            host_paced=_host_paced_band(bands, lang),
        )
    )


_COLUMN_IDS = {
    "run": "col.run",
    "source": "col.source",
    "gpus": "col.gpus",
    "layout": "col.layout",
    "metric": "col.metric",
    "measured": "col.measured",
    "predicted": "col.predicted",
    "error": "col.error",
    "group": "col.group",
    "size": "col.size",
    "measured_us": "col.measured_us",
    "predicted_us": "col.predicted_us",
    "expert_gemm_us": "col.expert_gemm_us",
    "gpu_time_bound": "col.gpu_time_bound",
    "bound_holds": "col.bound_holds",
}


def _columns(names: tuple[str, ...]) -> list[str]:
    return [_COLUMN_IDS[n] for n in names]


def _host_paced_band(bands: dict, lang: str = "en") -> str:
    hp = bands.get("host_paced")
    if not hp:
        return ""
    return text.render(
        "perf.val.footer_host_paced",
        lang,
        low=hp["low"],
        high=hp["high"],
        runs=hp["runs"],
        coverage=hp["loo_coverage"],
    )


def _print_host_paced(checked, hs: dict, lang: str = "en") -> None:
    """The host-paced runs (engine/perf/host.py): decided from the prediction, checked as upper bounds."""
    rows = [c for c in checked if c.host_paced and not c.run.excluded]
    if not rows:
        return

    def say(msg_id: str, **values) -> str:
        return text.render(msg_id, lang, **values)

    print("\n" + say("perf.val.host_paced"))
    holds = {True: say("col.yes"), False: say("col.bound_fails"), None: "—"}
    print_table(
        [
            [
                c.run.id,
                c.run.cite,
                f"{c.gpu.replace('NVIDIA ', '')} × {c.n_gpus}",
                c.layout,
                f"{c.expert_gemm_us:.0f}" if c.expert_gemm_us is not None else "—",
                format(c.run.measured, ".1f"),
                say("col.refused") if c.predicted is None else format(c.predicted, ".1f"),
                _pct(c.error),
                holds[c.bound_holds],
            ]
            for c in rows
        ],
        [
            say(f)
            for f in _columns(
                (
                    "run",
                    "source",
                    "gpus",
                    "layout",
                    "expert_gemm_us",
                    "measured",
                    "gpu_time_bound",
                    "error",
                    "bound_holds",
                )
            )
        ],
    )
    us = hs["expert_gemm_us"]
    print(
        say(
            "perf.val.host_paced_summary",
            runs=hs["runs"],
            holds=hs["bound_holds"],
            mean=_pct(hs["mean_error"]),
            worst=_pct(hs["worst_error"]),
            lo=us[0],
            hi=us[1],
        )
    )


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="predicted vs published training runs (the tool's own accuracy)")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--inference",
        action="store_true",
        help="published inference results (MLPerf Inference) against `estimate --inference`, and the peer tool",
    )
    add_lang_argument(p)
    p.set_defaults(func=_cmd_validate)
