"""Type names for the engine's numpy arrays, so that signatures say what they hold (mypy --strict)."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.int64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]
# Any numeric array (int or float rows, e.g. a column of configs) ...
NumArray: TypeAlias = npt.NDArray[np.floating[Any]] | npt.NDArray[np.integer[Any]]
# ... or a scalar: the perf formulas broadcast over either.
Num: TypeAlias = float | NumArray
# a flag per configuration, or one for all
Flag: TypeAlias = bool | BoolArray | NumArray
# a scalar or a float array inside a formula
Real: TypeAlias = float | FloatArray
# integer rows of any width (indices, codes)
IndexArray: TypeAlias = npt.NDArray[np.integer[Any]]


def dense_unique(key: npt.NDArray[np.integer[Any]], size: int) -> tuple[IntArray, IntArray]:
    """``np.unique(key, return_inverse=True)`` for integer keys in ``[0, size)``, by marking a table of
    ``size`` flags instead of sorting: (the distinct keys, ascending; each key's index among them). Same
    answer as np.unique; use it when ``size`` is not much larger than ``len(key)``."""
    mark = np.zeros(max(size, 1), dtype=bool)
    mark[key] = True
    rank = np.cumsum(mark, dtype=np.int64) - 1
    present: IntArray = np.flatnonzero(mark).astype(np.int64)
    inverse: IntArray = rank[key]
    return present, inverse


def few_unique(values: FloatArray) -> tuple[FloatArray, IntArray]:
    """``np.unique(values, return_inverse=True)`` for a float column with a handful of distinct values (link
    speeds): the distinct values of a sample, then one binary search per value against them (O(n log k), no
    sort of the column); checked, and np.unique itself when the sample missed a value (or on NaN)."""
    n = len(values)
    if not n:
        return np.zeros(0), np.zeros(0, np.int64)
    sample = np.unique(np.concatenate([values[:1024], values[:: max(1, n // 1024)]]))
    if len(sample) == 1 and bool((values == sample[0]).all()):  # one value everywhere: no search
        return sample.astype(np.float64), np.zeros(n, np.int64)
    pos = np.minimum(np.searchsorted(sample, values), len(sample) - 1)
    if np.array_equal(sample[pos], values):
        return sample.astype(np.float64), pos.astype(np.int64)
    uniq, inv = np.unique(values, return_inverse=True)
    return uniq.astype(np.float64), inv.ravel().astype(np.int64)


def first_index(key: npt.NDArray[np.integer[Any]], size: int) -> IntArray:
    """Per key in ``[0, size)``: the first position it appears at in ``key`` (``len(key)`` where absent)."""
    first = np.full(max(size, 1), len(key), dtype=np.int64)
    np.minimum.at(first, key, np.arange(len(key), dtype=np.int64))
    return first


def group_rows(key: npt.NDArray[np.integer[Any]]) -> list[IntArray]:
    """Positions of ``key`` grouped by equal value: groups in order of first appearance, positions ascending
    inside each (what appending each position to a dict of lists gives, without the Python loop)."""
    if not len(key):
        return []
    uniq, inv = np.unique(key, return_inverse=True)
    inv = inv.ravel()
    order = np.argsort(inv, kind="stable").astype(np.int64)
    parts = np.split(order, np.cumsum(np.bincount(inv, minlength=len(uniq)))[:-1])
    firsts = np.array([int(p[0]) for p in parts], dtype=np.int64)
    return [parts[g] for g in np.argsort(firsts).tolist()]


def unique_inverse(key: npt.NDArray[np.integer[Any]]) -> tuple[IntArray, IntArray]:
    """``np.unique(key, return_inverse=True)`` through a stable argsort: the same answer, and much faster on
    keys made of sorted runs (flows part by part), which the stable sort merges instead of re-sorting."""
    if not len(key):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    new = np.empty(len(key), dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(len(key), dtype=np.int64)
    inverse[order] = np.cumsum(new, dtype=np.int64) - 1
    uniq: IntArray = ordered[new].astype(np.int64)
    return uniq, inverse
