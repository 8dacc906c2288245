"""catalogs/assumptions/performance.yaml: the performance model's constants, each with its source
(read by the engine's one assumptions loader, ``gpuplanner.engine.assumptions``; every estimate says how it
was derived)."""

from __future__ import annotations

from pathlib import Path

from gpuplanner.engine.assumptions import Assumptions
from gpuplanner.engine.assumptions import load_assumptions as load_area

__all__ = ["Assumptions", "load_assumptions"]


def load_assumptions(path: str | Path | None = None) -> Assumptions:
    """performance.yaml (or the area file ``path``, e.g. serving.yaml), read once per process."""
    return load_area("performance", path, notes_required=True)
