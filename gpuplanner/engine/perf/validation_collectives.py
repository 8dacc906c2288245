"""Published collective measurements (catalogs/validation/collective_runs.yaml) against the alpha-beta model.

Each row is an nccl-tests all-reduce small enough that latency is most of its time. `gpuplanner validate` prints
them beside the training runs, so the latency part of the model is shown against measurements too. The error is
in throughput terms like the training runs: measured time / predicted time - 1 (positive = optimistic).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gpuplanner import text
from gpuplanner.catalog.loader import Catalog, bundled_catalog_dir
from gpuplanner.core.errors import CatalogError
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.collectives import group_all_reduce_s, links_for
from gpuplanner.engine.perf.shapes import ClusterSpec

FIELDS = (
    "id",
    "source",
    "states",
    "gpu",
    "nic_gbps",
    "nodes",
    "ranks_per_node",
    "size_byte",
    "nvls",
    "measured_us",
)


@dataclass(frozen=True)
class CollectiveCheck:
    id: str
    source: str
    states: str
    ranks: int
    nodes: int
    size_byte: float
    measured_us: float
    predicted_us: float

    @property
    def error(self) -> float:
        return self.measured_us / self.predicted_us - 1.0


def collective_runs_path() -> Path:
    return bundled_catalog_dir() / "validation" / "collective_runs.yaml"


def load_collective_runs(path: Path | None = None) -> list[dict[str, Any]]:
    p = path or collective_runs_path()
    try:
        doc = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_collective_runs", {"reason": str(exc)}), file=str(p)) from exc
    rows = doc.get("runs") or []
    for i, r in enumerate(rows):
        missing = [k for k in FIELDS if not isinstance(r, dict) or k not in r]
        if missing:
            raise CatalogError(
                text.Msg("error.valinf_missing", {"fields": ", ".join(missing)}),
                file=str(p),
                entry=str(r.get("id", i)),
            )
    return list(rows)


def check_collectives(catalog: Catalog, path: Path | None = None) -> list[CollectiveCheck]:
    """Every published collective row predicted by the engine's all-reduce model."""
    from gpuplanner.catalog.types import GpuType

    a = load_assumptions()
    out = []
    for r in load_collective_runs(path):
        gpu = catalog.get(str(r["gpu"]))
        if not isinstance(gpu, GpuType):
            raise CatalogError(
                text.Msg("error.not_a_gpu", {"id": r["gpu"]}),
                file=str(path or collective_runs_path()),
                entry=r["id"],
            )
        per_node = int(r["ranks_per_node"])
        cluster = ClusterSpec(
            gpu_name=gpu.name,
            peak_bf16_tflops=gpu.bf16_dense_tflops,
            mem_gb=gpu.mem_gb,
            mem_bw_tbyte_per_s=gpu.mem_bw_tbyte_per_s,
            gpus_per_node=8,
            scaleup_bw_gbyte_per_s=gpu.scaleup_bw_gbyte_per_s or 32.0,
            nic_gbps_per_gpu=float(r["nic_gbps"]),
        )
        ranks = per_node * int(r["nodes"])
        t = group_all_reduce_s(
            float(r["size_byte"]), ranks, per_node, links_for(cluster, a), "dp", nvls=bool(r["nvls"])
        )
        out.append(
            CollectiveCheck(
                id=str(r["id"]),
                source=str(r["source"]),
                states=str(r["states"]),
                ranks=ranks,
                nodes=int(r["nodes"]),
                size_byte=float(r["size_byte"]),
                measured_us=float(r["measured_us"]),
                predicted_us=float(t) * 1e6,
            )
        )
    return out
