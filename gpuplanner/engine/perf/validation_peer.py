"""The peer-tool comparison of `gpuplanner validate --inference`: NVIDIA aiconfigurator's figures for static
serving points (catalogs/validation/peer_aiconfigurator.yaml, as benchmarks/bench_serving_aiconfigurator.py
printed them) beside GPU Planner's, recomputed now the way that benchmark computes them (one worker at the
row's TP, steady state at the fixed concurrency; the prefill of one prompt alone)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from gpuplanner import text
from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.core.errors import CatalogError

if TYPE_CHECKING:
    from gpuplanner.catalog import Catalog

FIELDS = ("model", "gpu", "tp", "concurrency", "prompt", "output", "precision")
FIGURES = ("prefill_ms", "tpot_ms", "tokens_per_s_per_gpu")


@dataclass(frozen=True)
class PeerRow:
    model: str
    gpu: str
    tp: int
    concurrency: int
    prompt: int
    output: int
    precision: str
    peer: dict[str, float]
    ours: dict[str, float]

    def diff(self, figure: str) -> float:
        """ours / peer - 1."""
        return self.ours[figure] / self.peer[figure] - 1.0

    def as_dict(self) -> dict[str, Any]:
        return {
            **{k: getattr(self, k) for k in FIELDS},
            "aiconfigurator": self.peer,
            "gpuplanner": self.ours,
            "difference": {k: self.diff(k) for k in FIGURES},
        }


def peer_path() -> Path:
    return bundled_catalog_dir() / "validation" / "peer_aiconfigurator.yaml"


@lru_cache(maxsize=2)
def _load(path: str) -> tuple[dict[str, Any], ...]:
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_runs", {"reason": str(exc)}), file=path) from exc
    rows = doc.get("rows") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or not rows:
        raise CatalogError(text.Msg("error.valinf_no_runs"), file=path)
    for i, r in enumerate(rows):
        missing = [k for k in (*FIELDS, *FIGURES) if not isinstance(r, dict) or k not in r]
        if missing:
            raise CatalogError(
                text.Msg("error.valinf_missing", {"fields": ", ".join(missing)}), file=path, entry=str(i)
            )
    return tuple(rows)


def ours(row: dict[str, Any], catalog: Catalog) -> dict[str, float]:
    """GPU Planner's figures for one peer row (the computation of benchmarks/bench_serving_aiconfigurator.py)."""
    from gpuplanner.engine.perf.request import cluster_of, shape_of
    from gpuplanner.engine.perf.serving import ServingSetup, at_concurrency, worker

    req = {"model": row["model"], "gpu": row["gpu"], "gpus_per_node": 8, "nic_gbps": 400}
    shape, cluster = shape_of(req, catalog), cluster_of(req, catalog)
    # aiconfigurator ran --backend trtllm: TensorRT-LLM's KV-cache rule (serving_worker.kv_cache_gb)
    setup = ServingSetup(
        prompt_len=row["prompt"], output_len=row["output"], precision=row["precision"], serving_stack="trtllm"
    )
    w = worker(shape, cluster, setup, row["tp"])
    op = at_concurrency(w, setup, row["concurrency"])
    return {
        "prefill_ms": float(w.step_s(0.0, float(row["prompt"]))) * 1e3,
        "tpot_ms": float(op.tpot_s[0]) * 1e3,
        "tokens_per_s_per_gpu": float(op.rate_per_s[0]) * row["output"] / row["tp"],
    }


def check_peer(catalog: Catalog, path: str | Path | None = None) -> list[PeerRow]:
    out = []
    for r in _load(str(path or peer_path())):
        out.append(
            PeerRow(
                **{k: r[k] for k in FIELDS},
                peer={k: float(r[k]) for k in FIGURES},
                ours=ours(r, catalog),
            )
        )
    return out
