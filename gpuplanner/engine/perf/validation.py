"""The published training runs bundled with the product (catalogs/validation/training_runs.yaml), each
predicted through the same request path as `gpuplanner estimate` (engine/perf/request.py), and compared with
what its source measured.

The error of a run is predicted/measured - 1 in throughput terms (a step time is inverted first), so a positive
error means the engine is optimistic. `gpuplanner validate` prints the table and a summary per family; the
error bands of every estimate (bands.py) are derived from these errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from gpuplanner import text
from gpuplanner.catalog import Catalog
from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.core.errors import CatalogError, PlannerError
from gpuplanner.engine.perf.request import REQUEST_KEYS

METRICS = {
    "hw_tflops_per_gpu": (text.en("word.metric.hw_tflops_per_gpu"), False),
    "tflops_per_gpu": (text.en("word.metric.tflops_per_gpu"), False),
    "mfu": (text.en("word.metric.mfu"), False),
    "step_time_s": (text.en("word.metric.step_time_s"), True),  # True: lower is faster
    "tokens_per_s_per_gpu": (
        text.en("word.metric.tokens_per_s_per_gpu"),
        False,
    ),  # free of any FLOP-counting convention
}
REQUIRED = ("id", "family", "source", "states", "request", "metric", "measured")


@dataclass(frozen=True)
class Run:
    id: str
    family: str
    source: str
    states: str
    request: dict[str, Any]
    metric: str
    measured: float
    excluded: str = ""  # why the run is listed but left out of the statistics (the engine refuses it)
    cite: str = ""  # short citation for tables ("Narayanan et al. SC'21, Table 1")


@dataclass(frozen=True)
class Checked:
    run: Run
    predicted: float | None  # None when refused
    error: float | None  # throughput error: predicted / measured - 1 (step times inverted)
    refusal: str
    gpu: str
    n_gpus: int
    precision: str
    moe: bool
    layout: str
    step_time_s: float | None = None
    # host-paced fine-grained MoE (engine/perf/host.py): decided from the prediction (its expert GEMM time
    # against launch_sensitive_kernel_s), never from the error; such a run is checked as a bound
    host_paced: bool = False
    expert_gemm_us: float | None = None

    @property
    def counted(self) -> bool:
        """In the statistics and the error bands: neither excluded by its row nor host-paced."""
        return not self.run.excluded and not self.host_paced

    @property
    def bound_holds(self) -> bool | None:
        """For a host-paced run the GPU-time throughput is an upper bound: measured <= predicted
        (error >= 0). None without a prediction."""
        return None if self.error is None else self.error >= 0.0


def runs_path() -> Path:
    return bundled_catalog_dir() / "validation" / "training_runs.yaml"


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Run, ...]:
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_runs", {"reason": str(exc)}), file=path) from exc
    out = []
    for i, r in enumerate(doc.get("runs") or []):
        missing = [k for k in REQUIRED if not isinstance(r, dict) or k not in r]
        if missing:
            raise CatalogError(
                text.Msg("error.valinf_missing", {"fields": ", ".join(missing)}),
                file=path,
                entry=str(r.get("id", i)),
            )
        unknown = (
            sorted(set(r["request"]) - REQUEST_KEYS) if isinstance(r["request"], dict) else ["(not a map)"]
        )
        if unknown:
            raise CatalogError(
                text.Msg("error.unknown_request_fields", {"fields": ", ".join(unknown)}),
                file=path,
                entry=r["id"],
                field="request",
            )
        if r["metric"] not in METRICS:
            raise CatalogError(
                text.Msg("error.valinf_metric", {"value": r["metric"], "known": ", ".join(METRICS)}),
                file=path,
                entry=r["id"],
                field="metric",
            )
        out.append(
            Run(
                id=r["id"],
                family=r["family"],
                source=r["source"],
                states=r["states"],
                request=r["request"],
                metric=r["metric"],
                measured=r["measured"],
                excluded=str(r.get("excluded") or ""),
                cite=str(r.get("cite") or ""),
            )
        )
    if not out:
        raise CatalogError(text.Msg("error.valinf_no_runs"), file=path)
    return tuple(out)


def load_runs(path: str | Path | None = None) -> tuple[Run, ...]:
    return _load(str(path or runs_path()))


def check(run: Run, catalog: Catalog | None = None) -> Checked:
    from gpuplanner.engine.perf.request import run as run_request

    req = dict(run.request)
    try:
        res = run_request(req, catalog)
    except PlannerError as exc:
        return Checked(
            run, None, None, exc.one_line(), str(req.get("gpu")), int(req.get("gpus") or 0), "", False, ""
        )
    cfg, est = res.rows[0]
    value = {
        "hw_tflops_per_gpu": est.hw_tflops_per_gpu,
        "tflops_per_gpu": est.tflops_per_gpu,
        "mfu": est.mfu,
        "step_time_s": est.step_time_s,
        "tokens_per_s_per_gpu": est.tokens_per_s / max(est.n_gpus, 1),
    }[run.metric]
    inverted = METRICS[run.metric][1]
    err = (run.measured / value if inverted else value / run.measured) - 1.0
    layout = f"TP{cfg.tp} PP{cfg.pp} CP{cfg.cp} DP{cfg.dp} VPP{cfg.vpp} mb{cfg.micro_batch}"
    return Checked(
        run,
        value,
        err if est.fits else None,
        "" if est.fits else est.refusal,
        res.cluster.gpu_name,
        est.n_gpus,
        cfg.precision,
        res.shape.is_moe,
        layout,
        est.step_time_s,
        host_paced=bool(est.extra.get("short_expert_kernels", False)),
        expert_gemm_us=est.extra.get("expert_gemm_us"),
    )


@lru_cache(maxsize=2)
def _check_all(path: str) -> tuple[Checked, ...]:
    from gpuplanner.catalog.loader import default_catalog

    catalog = default_catalog()
    return tuple(check(r, catalog) for r in _load(path))


def check_all(path: str | Path | None = None) -> tuple[Checked, ...]:
    return _check_all(str(path or runs_path()))


def summary(checked: tuple[Checked, ...] | list[Checked]) -> list[dict[str, Any]]:
    """Per family, then all runs: count, refused, mean |error|, worst, mean signed error (counted runs only;
    `host_paced_summary` gives the host-paced ones)."""
    fams: dict[str, list[Checked]] = {}
    checked = [c for c in checked if c.counted]
    for c in checked:
        fams.setdefault(c.run.family, []).append(c)
    rows = []
    for name, cs in [*fams.items(), ("all runs", list(checked))]:
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


def host_paced_summary(checked: tuple[Checked, ...] | list[Checked]) -> dict[str, Any]:
    """The host-paced runs (not excluded by their row): how many, how many hold the bound (measured <=
    predicted), their mean and largest over-prediction, and the range of their expert GEMM times."""
    hp = [c for c in checked if c.host_paced and not c.run.excluded]
    e = np.array([c.error for c in hp if c.error is not None])
    us = [c.expert_gemm_us for c in hp if c.expert_gemm_us is not None]
    return {
        "runs": len(hp),
        "bound_holds": sum(bool(c.bound_holds) for c in hp),
        "mean_error": float(np.mean(e)) if e.size else None,
        "worst_error": float(np.max(e)) if e.size else None,
        "expert_gemm_us": [float(min(us)), float(max(us))] if us else None,
    }
