"""The Pareto front: designs no other design beats on every objective (all objectives are minimised)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    """a is no worse than b on every objective and better on one."""
    return all(x <= y for x, y in zip(a, b, strict=True)) and any(x < y for x, y in zip(a, b, strict=True))


def front(points: np.ndarray) -> np.ndarray:
    """Indices of the non-dominated rows of ``points`` (n × k), in input order. Duplicates are all kept."""
    pts = np.asarray(points, dtype=float)
    n = len(pts)
    if n == 0:
        return np.zeros(0, dtype=int)
    # row j dominates row i: pts[j] <= pts[i] everywhere and < somewhere (n² × k, fine for a few thousand)
    le = (pts[:, None, :] <= pts[None, :, :]).all(axis=2)
    lt = (pts[:, None, :] < pts[None, :, :]).any(axis=2)
    dominated = (le & lt).any(axis=0)
    return np.flatnonzero(~dominated)


def dominated_by(found: np.ndarray, points: np.ndarray) -> np.ndarray:
    """For each row of ``points`` (m × k): whether some row of ``found`` (n × k) dominates it (``dominates``,
    vectorised: m × n × k at once)."""
    p = np.asarray(points, dtype=float)
    f = np.asarray(found, dtype=float)
    if len(p) == 0 or len(f) == 0:
        return np.zeros(len(p), dtype=bool)
    le = (f[None, :, :] <= p[:, None, :]).all(axis=2)
    lt = (f[None, :, :] < p[:, None, :]).any(axis=2)
    return (le & lt).any(axis=1)
