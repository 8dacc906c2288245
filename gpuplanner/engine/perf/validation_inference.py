"""The published inference measurements bundled with the product (catalogs/validation/inference_runs.yaml),
each predicted through the serving path of `gpuplanner estimate --inference` (request.shape_of/cluster_of,
serving.ServingSetup, serving.plan_serving) and compared with what its source measured.

A row states what the command line states: the model (or its shape), the GPU and their number, the precision
of weights and KV cache, the mean prompt and output lengths, the latency targets (MLPerf Server: p99 TTFT and
TPOT limits) and the serving mode. Offline (no target) compares the largest sustainable rate of output tokens;
Server compares the largest rate meeting the TTFT/TPOT targets, which is what MLPerf's Server scenario reports
(the run is valid only when the p99 latencies stay within the limits at the scheduled rate).

error = predicted / measured − 1 (positive: the engine is optimistic). A row the engine cannot represent is
listed with the reason (`excluded`, a key of EXCLUDED) and left out of the statistics and the bands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import yaml

from gpuplanner import text
from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.core.errors import CatalogError, PlannerError, ValidationError

if TYPE_CHECKING:
    from gpuplanner.catalog import Catalog
    from gpuplanner.engine.perf.serving import ServingPlan

SHAPE_KEYS = frozenset({"model", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "seq"})
# the names of `estimate --inference`'s options a row may state; anything else is a typo
INFERENCE_KEYS = SHAPE_KEYS | {
    "gpu",
    "server",
    "gpus",
    "gpus_per_node",
    "nic_gbps",
    "precision",
    "kv_bytes",
    "prompt",
    "prompt_dataset",
    "output",
    "ttft",
    "ttft_percentile",
    "tpot",
    "tpot_percentile",
    "tp",
    "serving",
    "serving_stack",
    "kv_fraction",
    "max_seqs",
    "max_batched_tokens",
    "chunked_prefill",
    "gemm_allreduce_fusion",
}
# what `estimate --inference --precision` accepts (cli/estimate_cmd.py); fp4 is NVFP4 weights and activations
STATED_PRECISIONS = ("bf16", "fp16", "fp8", "fp4")
METRICS = ("output_tokens_per_s",)
REQUIRED = ("id", "family", "source", "states", "request", "metric", "measured")
# why a row is listed but not counted: key -> message id (text/validation_inference.py)
EXCLUDED = {
    "isl_unknown": "perf.valinf_excluded.isl_unknown",
}


@dataclass(frozen=True)
class InferenceRun:
    id: str
    family: str
    source: str
    states: str
    request: dict[str, Any]
    metric: str
    measured: float
    cite: str = ""
    excluded: str = ""  # a key of EXCLUDED, or empty


@dataclass(frozen=True)
class InferenceChecked:
    run: InferenceRun
    predicted: float | None  # None when refused
    error: float | None  # predicted / measured - 1
    refusal: str
    gpu: str
    n_gpus: int
    moe: bool
    layout: str  # e.g. "4 × TP2"
    limited_by: str
    ttft_s: float | None
    tpot_s: float | None

    @property
    def scenario(self) -> str:
        return "server" if self.run.request.get("ttft") or self.run.request.get("tpot") else "offline"

    @property
    def excluded_reason(self) -> str:
        return text.en(EXCLUDED[self.run.excluded]) if self.run.excluded else ""


def runs_path() -> Path:
    return bundled_catalog_dir() / "validation" / "inference_runs.yaml"


def _share(v: Any) -> bool:
    """A share in (0, 1] (not a bool)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and 0.0 < v <= 1.0


def _count(v: Any) -> bool:
    """A whole number ≥ 1 (not a bool)."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 1


def _flag(v: Any) -> bool:
    """true or false."""
    return isinstance(v, bool)


def _run_of(r: Any, i: int, path: str) -> InferenceRun:
    if not isinstance(r, dict):
        raise CatalogError(text.Msg("error.valinf_not_a_map"), file=path, entry=str(i))
    missing = [k for k in REQUIRED if k not in r]
    if missing:
        raise CatalogError(
            text.Msg("error.valinf_missing", {"fields": ", ".join(missing)}),
            file=path,
            entry=str(r.get("id", i)),
        )
    req = r["request"]
    unknown = sorted(set(req) - INFERENCE_KEYS) if isinstance(req, dict) else ["(not a map)"]
    if unknown:
        raise CatalogError(
            text.Msg("error.unknown_request_fields", {"fields": ", ".join(unknown)}),
            file=path,
            entry=r["id"],
            field="request",
        )
    excluded = str(r.get("excluded") or "")
    needed = ("gpus", "output") if excluded == "isl_unknown" else ("gpus", "prompt", "output")
    for k in needed:
        v = req.get(k)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise CatalogError(
                text.Msg("error.valinf_positive_int", {"name": k}), file=path, entry=r["id"], field=k, value=v
            )
    if r["metric"] not in METRICS:
        raise CatalogError(
            text.Msg("error.valinf_metric", {"value": r["metric"], "known": ", ".join(METRICS)}),
            file=path,
            entry=r["id"],
            field="metric",
        )
    measured = r["measured"]
    if not isinstance(measured, (int, float)) or isinstance(measured, bool) or not measured > 0:
        raise CatalogError(
            text.Msg("error.valinf_positive", {"name": "measured"}),
            file=path,
            entry=r["id"],
            field="measured",
            value=measured,
        )
    # deployment settings a row may state, each with the line of its source that sets it (estimate --inference
    # --kv-fraction / --max-seqs / --max-batched-tokens / --gemm-allreduce-fusion): (field, is it valid, refusal id,
    # source refusal id)
    stated = (
        ("kv_fraction", _share, "error.kv_fraction", "error.valinf_kv_fraction_source"),
        ("max_seqs", _count, "error.max_seqs", "error.valinf_max_seqs_source"),
        ("max_batched_tokens", _count, "error.max_batched_tokens", "error.valinf_max_batched_tokens_source"),
        ("chunked_prefill", _flag, "error.chunked_prefill", "error.valinf_chunked_prefill_source"),
        (
            "gemm_allreduce_fusion",
            _flag,
            "error.gemm_allreduce_fusion",
            "error.valinf_gemm_allreduce_fusion_source",
        ),
    )
    for name, valid, bad_id, source_id in stated:
        if name not in req:
            continue
        v = req[name]
        if not valid(v):
            raise CatalogError(text.Msg(bad_id, {"value": v}), file=path, entry=r["id"], field=name, value=v)
        if not str(r.get(f"{name}_source") or "").strip():
            raise CatalogError(text.Msg(source_id), file=path, entry=r["id"], field=f"{name}_source")
    if excluded and excluded not in EXCLUDED:
        raise CatalogError(
            text.Msg("error.valinf_excluded", {"value": excluded, "known": ", ".join(EXCLUDED)}),
            file=path,
            entry=r["id"],
            field="excluded",
        )
    return InferenceRun(
        id=str(r["id"]),
        family=str(r["family"]),
        source=str(r["source"]),
        states=str(r["states"]),
        request=dict(req),
        metric=str(r["metric"]),
        measured=float(measured),
        cite=str(r.get("cite") or ""),
        excluded=excluded,
    )


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[InferenceRun, ...]:
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_runs", {"reason": str(exc)}), file=path) from exc
    rows = doc.get("runs") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or not rows:
        raise CatalogError(text.Msg("error.valinf_no_runs"), file=path)
    out = tuple(_run_of(r, i, path) for i, r in enumerate(rows))
    ids = [r.id for r in out]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise CatalogError(text.Msg("error.valinf_duplicate", {"ids": ", ".join(twice)}), file=path)
    return out


def load_runs(path: str | Path | None = None) -> tuple[InferenceRun, ...]:
    return _load(str(path or runs_path()))


def serving_plan(req: dict[str, Any], catalog: Catalog | None = None) -> ServingPlan:
    """The serving plan `gpuplanner estimate --inference` prints for these options (its `serving` block):
    the capacity of `gpus` GPUs within the targets, with the layout that gives the most."""
    from gpuplanner.engine.perf.request import cluster_of, default_kv_bytes, kv_precision_of, shape_of
    from gpuplanner.engine.perf.serving import ServingSetup, plan_serving

    if catalog is None:
        from gpuplanner.catalog.loader import default_catalog

        catalog = default_catalog()
    precision = req.get("precision") or "bf16"
    if precision not in STATED_PRECISIONS:
        raise ValidationError(
            text.Msg("error.unknown_setting_value", {"name": "precision", "value": precision}),
            field="--precision",
            value=precision,
        )
    kv_bytes = req.get("kv_bytes") or default_kv_bytes(precision)
    dist = None
    if req.get("prompt_dataset"):  # the prompt lengths its requests draw from (inference_datasets.yaml)
        from gpuplanner.engine.perf.serving_prompts import prompt_lengths

        dist = prompt_lengths(str(req["prompt_dataset"]))
    setup = ServingSetup(
        prompt_len=int(req["prompt"]),
        output_len=int(req["output"]),
        precision=precision,
        kv_precision=kv_precision_of(kv_bytes),
        ttft_s=req.get("ttft"),
        tpot_s=req.get("tpot"),
        ttft_percentile=req.get("ttft_percentile"),
        tpot_percentile=req.get("tpot_percentile"),
        prompt_dist=dist,
        serving_stack=req.get("serving_stack") or "vllm",
        kv_fraction=req.get("kv_fraction"),
        max_seqs=req.get("max_seqs"),
        max_batched_tokens=req.get("max_batched_tokens"),
        chunked_prefill=req.get("chunked_prefill", True),
        gemm_allreduce_fusion=req.get("gemm_allreduce_fusion", False),
    )
    shape, cluster = shape_of(req, catalog), cluster_of(req, catalog)
    return plan_serving(
        shape, cluster, setup, n_gpus=req["gpus"], mode=req.get("serving") or "best", tp=req.get("tp")
    )


def check(run: InferenceRun, catalog: Catalog | None = None) -> InferenceChecked:
    from gpuplanner.engine.perf.request import cluster_of, shape_of

    if catalog is None:
        from gpuplanner.catalog.loader import default_catalog

        catalog = default_catalog()
    req = run.request
    gpu, moe = str(req.get("gpu")), False
    if run.excluded == "isl_unknown":  # nothing to predict without the prompt length
        return InferenceChecked(
            run, None, None, text.en(EXCLUDED[run.excluded]), gpu, int(req["gpus"]), moe, "", "", None, None
        )
    try:
        gpu = cluster_of(req, catalog).gpu_name
        moe = shape_of(req, catalog).is_moe
        plan = serving_plan(req, catalog)
    except PlannerError as exc:
        return InferenceChecked(
            run, None, None, exc.one_line(), gpu, int(req["gpus"]), moe, "", "", None, None
        )
    if not plan.fits or plan.output_tokens_per_s <= 0:
        why = plan.refusal or plan.limited_by
        return InferenceChecked(run, None, None, why, gpu, plan.gpus, moe, "", plan.limited_by, None, None)
    if plan.mode == "aggregated":
        layout = f"{plan.replicas} × TP{plan.tp}" + (f" PP{plan.pp}" if plan.pp > 1 else "")
    else:
        layout = f"{plan.prefill_workers} × TP{plan.prefill_tp} + {plan.decode_workers} × TP{plan.decode_tp}"
    value = plan.output_tokens_per_s
    return InferenceChecked(
        run,
        value,
        value / run.measured - 1.0,
        "",
        gpu,
        plan.gpus,
        moe,
        layout,
        plan.limited_by,
        plan.ttft_s,
        plan.tpot_s,
    )


@lru_cache(maxsize=2)
def _check_all(path: str) -> tuple[InferenceChecked, ...]:
    from gpuplanner.catalog.loader import default_catalog

    catalog = default_catalog()
    return tuple(check(r, catalog) for r in _load(path))


def check_all(path: str | Path | None = None) -> tuple[InferenceChecked, ...]:
    return _check_all(str(path or runs_path()))


def summary(checked: tuple[InferenceChecked, ...] | list[InferenceChecked]) -> list[dict[str, Any]]:
    """Per family, then all counted rows: count, refused, mean |error|, worst, mean signed error."""
    counted = [c for c in checked if not c.run.excluded]
    fams: dict[str, list[InferenceChecked]] = {}
    for c in counted:
        fams.setdefault(c.run.family, []).append(c)
    rows = []
    for name, cs in [*fams.items(), ("all rows", counted)]:
        e = np.array([c.error for c in cs if c.error is not None])
        rows.append(
            {
                "family": name,
                "runs": len(cs),
                "refused": sum(c.error is None for c in cs),
                "mean_abs_error": float(np.mean(np.abs(e))) if e.size else None,
                "worst_abs_error": float(np.max(np.abs(e))) if e.size else None,
                "mean_error": float(np.mean(e)) if e.size else None,
            }
        )
    return rows
