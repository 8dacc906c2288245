"""Shared by the serving unit tests: a model's shape and cluster from the default catalog, and a ServingSetup
with a test's base settings overridden by keyword."""

from __future__ import annotations

from typing import Any

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.serving import ServingSetup
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape


def model_on(model: str, gpu: str):
    """(shape, cluster) of `model` on `gpu`, as `estimate` builds them."""
    req = {"model": model, "gpu": gpu}
    cat = default_catalog()
    return shape_of(req, cat), cluster_of(req, cat)


def setup_with(base: dict[str, Any], **kw: Any) -> ServingSetup:
    """A ServingSetup of `base` with the keywords' fields replaced."""
    return ServingSetup(**{**base, **kw})


def setups_checked(monkeypatch, run_id: str) -> list[ServingSetup]:
    """The ServingSetups `validate --inference` plans with when it checks the bundled row `run_id`."""
    from gpuplanner.engine.perf import serving
    from gpuplanner.engine.perf.validation_inference import check, load_runs

    seen: list[ServingSetup] = []
    real = serving.plan_serving

    def spy(shape, cluster, setup, **kw):
        seen.append(setup)
        return real(shape, cluster, setup, **kw)

    monkeypatch.setattr(serving, "plan_serving", spy)
    check(next(r for r in load_runs() if r.id == run_id))
    monkeypatch.setattr(serving, "plan_serving", real)
    return seen


# hand-built shapes the serving unit tests share (H200 SXM datasheet figures; Llama 2 70B, Mixtral 8x7B and
# Llama 3.1 405B as their model cards give them)
H200 = ClusterSpec(
    gpu_name="NVIDIA H200 SXM",
    peak_bf16_tflops=989,
    peak_fp8_tflops=1979,
    mem_gb=141,
    mem_bw_tbyte_per_s=4.8,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=900,
    nic_gbps_per_gpu=400,
)
LLAMA2_70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 32000, 4096, gated_mlp=True)
LLAMA3_405 = ModelShape("dense", 126, 16384, 128, 8, 53248, 128256, 131072, gated_mlp=True)
MIXTRAL = ModelShape("moe", 32, 4096, 32, 8, 14336, 32000, 4096, experts=8, top_k=2, gated_mlp=True)
