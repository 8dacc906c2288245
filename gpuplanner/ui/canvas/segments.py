"""Link segments as arrays: clipping to a tile (Liang–Barsky, vectorised), merging lines that land on the
same pixels, and bundling the links that leave collapsed groups (one line per pair of ends)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF


def bundle_rows(
    rows: np.ndarray, a: np.ndarray, b: np.ndarray, dev_block: np.ndarray, n_blocks: int, util: np.ndarray
) -> np.ndarray:
    """Of the link ``rows``, those to draw: every link with no end in a collapsed group, and per pair of ends
    (a block — ``dev_block`` gives each device row its block or -1 — or a device) the busiest link of the
    pair, so that the bundle's colour is its worst. A 131k plan opened collapsed draws ~600 bundles instead
    of 262,144 lines."""
    if not n_blocks or not len(rows):
        return rows
    ra, rb = a[rows], b[rows]
    ba, bb = dev_block[ra], dev_block[rb]
    bundled = (ba >= 0) | (bb >= 0)
    if not bundled.any():
        return rows
    nd = len(dev_block)
    ea = np.where(ba >= 0, nd + ba, ra)  # an end: its block (numbered after the devices) or its device
    eb = np.where(bb >= 0, nd + bb, rb)
    key = np.minimum(ea, eb) * (nd + n_blocks) + np.maximum(ea, eb)
    sub = np.flatnonzero(bundled)
    order = np.lexsort((-util[rows[sub]], key[sub]))  # per pair, the busiest first
    ks = key[sub][order]
    first = np.ones(len(ks), dtype=bool)
    first[1:] = ks[1:] != ks[:-1]
    return np.sort(np.concatenate([rows[~bundled], rows[sub[order[first]]]]))


def clip_segments(
    xy: np.ndarray, rect: QRectF, keep: np.ndarray, box: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Liang–Barsky, vectorised: the rows of the segments that cross ``rect`` and their clipped ends.
    ``box``: the segments' precomputed (min x, min y, max x, max y)."""
    x1, y1, x2, y2 = xy.T
    if box is None:
        box = np.column_stack(
            (np.minimum(x1, x2), np.minimum(y1, y2), np.maximum(x1, x2), np.maximum(y1, y2))
        )
    m = keep & (box[:, 2] >= rect.left()) & (box[:, 0] <= rect.right())
    m &= (box[:, 3] >= rect.top()) & (box[:, 1] <= rect.bottom())
    rows = np.flatnonzero(m)
    x1, y1, x2, y2 = x1[rows], y1[rows], x2[rows], y2[rows]
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = np.zeros(len(rows)), np.ones(len(rows))
    ok = np.ones(len(rows), dtype=bool)
    for pk, qk in (
        (-dx, x1 - rect.left()),
        (dx, rect.right() - x1),
        (-dy, y1 - rect.top()),
        (dy, rect.bottom() - y1),
    ):
        zero = pk == 0
        ok &= ~(zero & (qk < 0))
        r = np.divide(qk, pk, out=np.zeros_like(qk), where=~zero)
        t0 = np.where(~zero & (pk < 0), np.maximum(t0, r), t0)
        t1 = np.where(~zero & (pk > 0), np.minimum(t1, r), t1)
    ok &= t0 <= t1
    out = np.column_stack((x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy))
    return rows[ok], out[ok]


def merge_segments(
    rows: np.ndarray, xy: np.ndarray, rect: QRectF, scale: float, bucket: np.ndarray, width_class: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Drop segments that land on the same half device pixels as another of the same colour and width."""
    q = np.round((xy - [rect.left(), rect.top(), rect.left(), rect.top()]) * scale * 2).astype(np.int64)
    q = np.clip(q + 16, 0, 4095)
    swap = (q[:, 0] > q[:, 2]) | ((q[:, 0] == q[:, 2]) & (q[:, 1] > q[:, 3]))
    q[swap] = q[swap][:, [2, 3, 0, 1]]
    key = (((q[:, 0] * 4096 + q[:, 1]) * 4096 + q[:, 2]) * 4096 + q[:, 3]) * 32
    key += bucket[rows].astype(np.int64) * 4 + width_class
    _, first = np.unique(key, return_index=True)
    return rows[first], xy[first]
