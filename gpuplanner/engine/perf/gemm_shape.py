"""Tile and wave quantisation of the grouped expert GEMMs of a MoE layer.

A GPU computes a GEMM's M×N output in tiles, one tile per SM at a time (NVIDIA, "Matrix Multiplication
Background User's Guide", DU-09799-001, 2023, chapter 3 "Dimension Quantization Effects"):
- *tile quantisation*: a dimension that is not a multiple of the tile is padded to one; a tile with few rows
  costs as much as a full one;
- *wave quantisation*: the tiles run in waves of one tile per SM; the last wave may leave SMs idle.

An expert GEMM in a fine-grained MoE has as many rows as tokens routed to that expert (tokens·top_k/experts on
a balanced router), which can be a few hundred or fewer; a grouped GEMM (Transformer Engine GroupedLinear,
CUTLASS grouped GEMM, DeepGEMM's contiguous layout) schedules the tiles of all the local experts in one launch,
so the waves are counted over the group and each expert's tile count is rounded up on its own.

The compute time is the tile-waves the GEMM occupies at the sustained rate: flops / rate × (tiles actually
run / useful tiles). The size-dependent operand traffic stays in layer_time.gemm_s. Dense GEMMs are not
changed: the GEMM efficiency of catalogs/assumptions/performance.yaml (MAMF) is measured on large shapes,
where both quantisations vanish.
"""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.arrays import FloatArray, Num


def grouped_quantisation(
    groups: Num, rows: Num, cols: Num, sm_count: float, tile_rows: float, tile_cols: float
) -> FloatArray:
    """Factor (>= 1) by which a grouped GEMM's compute time exceeds flops / rate.

    `groups` GEMMs, each with an output of `rows` × `cols`, share one launch on `sm_count` SMs; `sm_count` 0
    (a GPU without a published SM count) gives 1.
    """
    g = np.maximum(np.asarray(groups, dtype=np.float64), 1.0)
    r = np.maximum(np.asarray(rows, dtype=np.float64), 1e-9)
    c = np.maximum(np.asarray(cols, dtype=np.float64), 1e-9)
    if sm_count <= 0:
        return np.ones_like(g * r * c)
    tiles = g * np.ceil(r / tile_rows) * np.ceil(c / tile_cols)
    waves = np.ceil(tiles / sm_count)
    useful = g * r * c / (tile_rows * tile_cols)  # tiles' worth of output the experts really need
    return np.asarray(waves * sm_count / useful)


def grouped_extra_s(
    groups: Num,
    rows: Num,
    cols: Num,
    inner: Num,
    flop_per_s: float,
    sm_count: float,
    tile_rows: float,
    tile_cols: float,
) -> FloatArray:
    """Time a grouped GEMM (`groups` × (rows × inner)·(inner × cols)) spends on padded tiles and idle SMs of
    its last wave, beyond its FLOPs at `flop_per_s`."""
    q = grouped_quantisation(groups, rows, cols, sm_count, tile_rows, tile_cols)
    g = np.asarray(groups, dtype=np.float64)
    flops = 2.0 * g * np.asarray(rows, dtype=np.float64) * np.asarray(cols, dtype=np.float64) * inner
    return np.asarray(flops / flop_per_s * (q - 1.0))
