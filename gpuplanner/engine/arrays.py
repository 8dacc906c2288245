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
