"""`gpuplanner validate --inference [--json]`: the published inference results bundled with the product, each
predicted through the serving path of `gpuplanner estimate --inference`, with the error per row, a summary per
family, the error bands derived from them, and the peer-tool comparison (NVIDIA aiconfigurator)."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from gpuplanner import text
from gpuplanner.cli.common import print_json, print_table
from gpuplanner.cli.validate_print import pct as _pct
from gpuplanner.cli.validate_print import print_families


def command_line(request: dict[str, Any]) -> str:
    """The `gpuplanner estimate --inference` command a row's request stands for."""
    parts = ["gpuplanner", "estimate", "--inference"]
    for k, v in request.items():
        parts += ["--" + k.replace("_", "-"), str(v)]
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


def _settings(c: Any) -> str:
    q = c.run.request
    kv = "fp8" if q.get("kv_bytes") == 1 else "bf16"
    s = f"{q.get('precision')} (KV {kv}), in {q.get('prompt', '?')} / out {q.get('output')}"
    if q.get("ttft") or q.get("tpot"):
        pct = f"p{q['ttft_percentile']:g} " if q.get("ttft_percentile") else ""
        s += f", {pct}TTFT≤{q.get('ttft'):g} s TPOT≤{q.get('tpot') * 1e3:g} ms"
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
    rows = []
    for c in checked:
        if c.run.excluded:
            continue
        rows.append(
            [
                c.run.cite,
                f"{c.gpu.replace('NVIDIA ', '').replace('AMD ', '')} × {c.n_gpus}",
                c.run.family.replace("MLPerf Inference ", ""),
                _settings(c),
                c.layout,
                f"{c.run.measured:,.0f}",
                "refused" if c.predicted is None else f"{c.predicted:,.0f}",
                _pct(c.error),
            ]
        )
    print_table(
        rows,
        [
            "source",
            "system",
            "model / scenario",
            "settings",
            "layout",
            "measured tok/s",
            "predicted",
            "error",
        ],
    )
    print()
    print_families(fams, "rows")
    print()
    print_table(
        [[k, g["runs"], f"{g['low']:.2f}", f"{g['high']:.2f}"] for k, g in bands["groups"].items()],
        ["band group", "rows", "measured/predicted low", "high"],
    )
    excluded = [c for c in checked if c.run.excluded]
    if excluded:
        print("\n" + text.en("perf.valinf_heading_excluded"))
        for c in excluded:
            print(f"  {c.run.cite}, {c.run.family.replace('MLPerf Inference ', '')}: {c.excluded_reason}")
    if peer:
        print("\n" + text.en("perf.valinf_heading_peer", source=peer_path().name))
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
                "model",
                "GPU",
                "TP",
                "conc.",
                "ISL/OSL",
                "prec",
                "one prefill aic / ours ms",
                "TPOT aic / ours ms",
                "tok/s/GPU aic / ours",
            ],
        )
    print("\n" + text.en("perf.valinf_footer", coverage=bands["loo_coverage"], runs=bands["runs"]))
    return 0
