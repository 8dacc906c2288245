"""Analytical performance model of LLM training and inference (pure functions over numpy arrays, no Qt).

Public entry points:
- training.estimate(shape, cfg, cluster) -> TrainEstimate (one configuration)
- sweep.sweep(shape, cluster, n_gpus, global_batch, ...) -> SweepResult (all valid layouts, ranked)
- inference.estimate_inference(shape, cfg, cluster, n_gpus) -> InferenceEstimate
- scaling.dp_scaling / scaling.best_scaling -> curves from 8 GPUs to N
- traffic.training_flows(shape, cfg, gpus_per_node, order) -> Flows for the routing engine
- request.run(request) -> TrainResult: what `gpuplanner estimate` states (layout or search, settings, stack),
  refusing impossible layouts with the reason; settings.resolve applies a software stack's defaults
- validation.check_all() -> the bundled published runs predicted through request.run (`gpuplanner validate`);
  bands.ranges(estimate, shape, cluster) -> error ranges derived from them; goodput.goodput(...) -> time to
  train with interruptions, checkpoints and restarts; host.expert_gemm_s -> whether a fine-grained MoE is
  host-paced (its GPU-time throughput then an upper bound, with the band of the host-paced runs)
Constants live in catalogs/assumptions/performance.yaml (assumptions.load_assumptions), software stacks in
catalogs/assumptions/stacks.yaml, published runs and error bands in catalogs/validation/.
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
