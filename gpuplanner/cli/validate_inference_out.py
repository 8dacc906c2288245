"""`gpuplanner validate --inference [--json]`: the published inference results bundled with the product, each
predicted through the serving path of `gpuplanner estimate --inference`, with the error per row, a summary per
family, the error bands derived from them, and the peer-tool comparison (NVIDIA aiconfigurator)."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from gpuplanner import text
from gpuplanner.cli.common import output_language, print_json, print_table
from gpuplanner.cli.validate_print import pct as _pct
from gpuplanner.cli.validate_print import print_families


def command_line(request: dict[str, Any]) -> str:
    """The `gpuplanner estimate --inference` command a row's request stands for."""
    parts = ["gpuplanner", "estimate", "--inference"]
    for k, v in request.items():
        opt = "--" + k.replace("_", "-")
        if isinstance(v, bool):  # a flag (--gemm-allreduce-fusion / --no-gemm-allreduce-fusion)
            parts.append(opt if v else "--no-" + opt[2:])
        else:
            parts += [opt, str(v)]
    return shlex.join(parts)


def _row_json(c: Any) -> dict[str, Any]:
    r = c.run
    return {
        "id": r.id,
        "family": r.family,
        "source": r.source,
        "cite": r.cite,
        "states": r.states,
        "command": command_line(r.request),
        "scenario": c.scenario,
        "precision": r.request.get("precision"),
        "kv_precision": "fp8" if r.request.get("kv_bytes") == 1 else "bf16",
        "prompt_tokens": r.request.get("prompt"),
        "output_tokens": r.request.get("output"),
        "ttft_target_s": r.request.get("ttft"),
        "tpot_target_s": r.request.get("tpot"),
        "metric": r.metric,
        "measured": r.measured,
        "predicted": c.predicted,
        "error": c.error,
        "refused": c.refusal or None,
        "excluded": c.excluded_reason or None,
        "gpu": c.gpu,
        "gpus": c.n_gpus,
        "layout": c.layout,
        "limited_by": c.limited_by or None,
        "ttft_s": c.ttft_s,
        "tpot_s": c.tpot_s,
    }


def _settings(c: Any, lang: str = "en") -> str:
    q = c.run.request
    kv = "fp8" if q.get("kv_bytes") == 1 else "bf16"
    s = text.render(
        "perf.valinf.settings",
        lang,
        precision=q.get("precision"),
        kv=kv,
        prompt=q.get("prompt", "?"),
        output=q.get("output"),
    )
    if q.get("ttft") or q.get("tpot"):
        pct = f"p{q['ttft_percentile']:g} " if q.get("ttft_percentile") else ""
        s += text.render(
            "perf.valinf.targets", lang, percentile=pct, ttft=q.get("ttft"), tpot_ms=q.get("tpot") * 1e3
        )
    return s


def run_validate_inference(args: argparse.Namespace) -> int:
    from gpuplanner.catalog.loader import default_catalog
    from gpuplanner.engine.perf.bands_inference import stored_bands
    from gpuplanner.engine.perf.validation_inference import check_all, summary
    from gpuplanner.engine.perf.validation_peer import check_peer, peer_path

    checked = check_all()
    fams = summary(checked)
    bands = stored_bands()
    peer = check_peer(default_catalog())
    if args.json:
        print_json(
            {
                "runs": [_row_json(c) for c in checked],
                "families": fams,
                "bands": bands,
                "peer": [p.as_dict() for p in peer],
            }
        )
        return 0
    _print_text(checked, fams, bands, peer, peer_path().name, output_language(args))
    return 0


def _print_text(
    checked: Any, fams: Any, bands: dict[str, Any], peer: Any, peer_source: str, lang: str
) -> None:
    """The rows, families, bands, rows not counted and the peer tool as text in ``lang`` (text/cli_validate.py,
    text/validation_inference.py)."""
    from gpuplanner.engine.perf.validation_inference import EXCLUDED

    def say(msg_id: str, **values: Any) -> str:
        return text.render(msg_id, lang, **values)

    rows = []
    for c in checked:
        if c.run.excluded:
            continue
        rows.append(
            [
                c.run.cite,
                f"{c.gpu.replace('NVIDIA ', '').replace('AMD ', '')} × {c.n_gpus}",
                c.run.family.replace("MLPerf Inference ", ""),
                _settings(c, lang),
                c.layout,
                f"{c.run.measured:,.0f}",
                say("col.refused") if c.predicted is None else f"{c.predicted:,.0f}",
                _pct(c.error),
            ]
        )
    print_table(
        rows,
        [
            say(k)
            for k in (
                "col.source",
                "col.system",
                "col.model_scenario",
                "col.settings",
                "col.layout",
                "col.measured_tokens",
                "col.predicted",
                "col.error",
            )
        ],
    )
    print()
    print_families(fams, "rows", lang)
    print()
    print_table(
        [[k, g["runs"], f"{g['low']:.2f}", f"{g['high']:.2f}"] for k, g in bands["groups"].items()],
        [say(k) for k in ("col.band_group", "col.rows", "col.band_low", "col.band_high")],
    )
    excluded = [c for c in checked if c.run.excluded]
    if excluded:
        print("\n" + say("perf.valinf_heading_excluded"))
        for c in excluded:
            reason = say(EXCLUDED[c.run.excluded]) if c.run.excluded in EXCLUDED else c.excluded_reason
            family = c.run.family.replace("MLPerf Inference ", "")
            print(say("perf.valinf.excluded_line", cite=c.run.cite, family=family, reason=reason))
    if peer:
        print("\n" + say("perf.valinf_heading_peer", source=peer_source))
        print_table(
            [
                [
                    p.model,
                    p.gpu,
                    p.tp,
                    p.concurrency,
                    f"{p.prompt}/{p.output}",
                    p.precision,
                    f"{p.peer['prefill_ms']:.0f} / {p.ours['prefill_ms']:.0f} ({_pct(p.diff('prefill_ms'))})",
                    f"{p.peer['tpot_ms']:.1f} / {p.ours['tpot_ms']:.1f} ({_pct(p.diff('tpot_ms'))})",
                    f"{p.peer['tokens_per_s_per_gpu']:.0f} / {p.ours['tokens_per_s_per_gpu']:.0f} "
                    f"({_pct(p.diff('tokens_per_s_per_gpu'))})",
                ]
                for p in peer
            ],
            [
                say(k)
                for k in (
                    "col.model",
                    "col.gpu",
                    "col.tp",
                    "col.concurrency",
                    "col.isl_osl",
                    "col.precision",
                    "col.peer_prefill",
                    "col.peer_tpot",
                    "col.peer_tokens",
                )
            ],
        )
    print("\n" + say("perf.valinf_footer", coverage=bands["loo_coverage"], runs=bands["runs"]))
