"""Analytical performance model of LLM training and inference (pure functions over numpy arrays, no Qt).

Public entry points:
- training.estimate(shape, cfg, cluster) -> TrainEstimate (one configuration)
- sweep.sweep(shape, cluster, n_gpus, global_batch, ...) -> SweepResult (all valid layouts, ranked)
- inference.estimate_inference(shape, cfg, cluster, n_gpus) -> InferenceEstimate
- scaling.dp_scaling / scaling.best_scaling -> curves from 8 GPUs to N
- traffic.training_flows(shape, cfg, gpus_per_node, order) -> Flows for the routing engine
Constants live in catalogs/assumptions/performance.yaml (assumptions.load_assumptions).
"""

from gpuplanner.engine.perf.inference import InferenceEstimate, estimate_inference, max_batch
from gpuplanner.engine.perf.scaling import best_scaling, dp_scaling
from gpuplanner.engine.perf.shapes import (
    Calibration,
    ClusterSpec,
    InferenceConfig,
    ModelShape,
    TrainConfig,
    shape_from_entry,
)
from gpuplanner.engine.perf.sweep import SweepResult, sweep
from gpuplanner.engine.perf.traffic import KIND_CODES, Flows, training_flows
from gpuplanner.engine.perf.training import TrainEstimate, estimate, require_fit

__all__ = [
    "Calibration",
    "ClusterSpec",
    "Flows",
    "InferenceConfig",
    "InferenceEstimate",
    "KIND_CODES",
    "ModelShape",
    "SweepResult",
    "TrainConfig",
    "TrainEstimate",
    "best_scaling",
    "dp_scaling",
    "estimate",
    "estimate_inference",
    "max_batch",
    "require_fit",
    "shape_from_entry",
    "sweep",
    "training_flows",
]
