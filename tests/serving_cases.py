"""Shared by the serving unit tests: a model's shape and cluster from the default catalog, and a ServingSetup
with a test's base settings overridden by keyword."""

from __future__ import annotations

from typing import Any

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.serving import ServingSetup


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
