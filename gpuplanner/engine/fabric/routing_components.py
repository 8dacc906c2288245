"""Distance-field searches restricted to connected components, shared between identical components.

A block's distance fields are non-trivial only on the switches that can reach its attachment switches:
the connected components those lie in (every other switch is at no distance from any of its columns).
The search therefore runs over those components' arcs only, not over every switch arc. Two planes of a
multi-plane fabric are such components.

Sharing (exact, not heuristic): when a block's attachment switches all lie in one component whose switches
are a contiguous range of local indices, the search's inputs are (the component's arcs, the attachment
switches, the columns), all shifted by the range's start. Two components whose shifted arc lists are equal
array for array (same sizes, same tails, same heads, same order) are the same graph under that shift, and
the search is a deterministic function of its inputs; so a block whose shifted inputs equal those of a
block already searched gets that block's result, moved to its own range. The check compares the arrays
themselves, never a hash.
"""

from __future__ import annotations

import threading

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from gpuplanner.engine.fabric.routing_fields import (
    BlockFields,
    LocalFields,
    SharedPlace,
    embed_fields,
    local_fields,
    search_levels,
)
from gpuplanner.engine.fabric.routing_graph import SubGraph

SharedKey = tuple[int, bytes, bytes, int]


class FieldSearch:
    """Computes BlockFields for a SubGraph; remembers component classes and shared search results."""

    def __init__(self, sub: SubGraph) -> None:
        self._sub = sub
        self._lock = threading.Lock()
        self._labels: np.ndarray | None = None  # int32[S]: connected component of each switch
        self._range: np.ndarray | None = None  # int64[C, 2]: (first, last + 1) switch, if contiguous
        self._contiguous: np.ndarray | None = None  # bool[C]
        self._class: dict[int, int] = {}  # component → representative component with equal arcs
        self._reps: dict[tuple[int, int], list[int]] = {}  # (switches, arcs) → representatives
        self._shared: dict[SharedKey, LocalFields] = {}
        self.searches = 0  # searches run (tests check that sharing happened)

    def _components(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._labels is None or self._range is None or self._contiguous is None:
            sub = self._sub
            n = sub.nodes.size
            adj = csr_matrix((np.ones(sub.head.size, np.int8), sub.head, sub.indptr), shape=(n, n))
            # every switch link gives both arcs, so strong components are the connected components
            n_comp, labels = connected_components(adj, directed=True, connection="strong")
            size = np.bincount(labels, minlength=n_comp)
            first = np.full(n_comp, n, np.int64)
            np.minimum.at(first, labels, np.arange(n))
            last = np.zeros(n_comp, np.int64)
            np.maximum.at(last, labels, np.arange(n))
            self._contiguous = last - first + 1 == size
            self._range = np.stack([first, last + 1], axis=1)
            self._labels = labels
        return self._labels, self._range, self._contiguous

    def _class_of(self, c: int, lo: int, hi: int) -> int:
        """The first component searched whose arcs, shifted to start at 0, equal component c's."""
        known = self._class.get(c)
        if known is not None:
            return known
        sub = self._sub
        a0, a1 = int(sub.indptr[lo]), int(sub.indptr[hi])
        reps = self._reps.setdefault((hi - lo, a1 - a0), [])
        rng = self._range
        assert rng is not None
        for r in reps:  # loop over the few representatives of this size
            r_lo = int(rng[r, 0])
            r0 = int(sub.indptr[r_lo])
            if np.array_equal(sub.tail[a0:a1] - lo, sub.tail[r0 : r0 + a1 - a0] - r_lo) and np.array_equal(
                sub.head[a0:a1] - lo, sub.head[r0 : r0 + a1 - a0] - r_lo
            ):
                self._class[c] = r
                return r
        reps.append(c)
        self._class[c] = c
        return c

    def block(self, init_rows: np.ndarray, init_cols: np.ndarray, n_cols: int) -> BlockFields:
        """Distance fields of the columns init_cols whose attachment switches are init_rows (local)."""
        sub = self._sub
        with self._lock:
            labels, rng, contiguous = self._components()
            comps = np.unique(labels[init_rows])
            if comps.size == rng.shape[0]:  # every component: the search over all arcs
                self.searches += 1
                levels = search_levels(sub.tail, sub.head, sub.nodes.size, init_rows, init_cols, n_cols)
                return embed_fields(sub, local_fields(levels, n_cols), slice(None))
            if comps.size == 1 and contiguous[comps[0]]:
                c = int(comps[0])
                lo, hi = int(rng[c, 0]), int(rng[c, 1])
                rows = init_rows - lo
                key = (self._class_of(c, lo, hi), rows.tobytes(), init_cols.tobytes(), n_cols)
                lf = self._shared.get(key)
                a0, a1 = int(sub.indptr[lo]), int(sub.indptr[hi])
                if lf is None:
                    self.searches += 1
                    levels = search_levels(
                        sub.tail[a0:a1] - lo, sub.head[a0:a1] - lo, hi - lo, rows, init_cols, n_cols
                    )
                    lf = self._shared[key] = local_fields(levels, n_cols)
                return embed_fields(sub, lf, slice(lo, hi), SharedPlace(key, lo, hi, a0, a1))
            # several components, or one whose switches are not contiguous: renumber its switches
            members = np.flatnonzero(np.isin(labels, comps))
            rank = np.full(sub.nodes.size, -1, np.int64)
            rank[members] = np.arange(members.size)
            arcs = np.flatnonzero(rank[sub.tail] >= 0)  # tails stay sorted: rank is increasing
            self.searches += 1
            levels = search_levels(
                rank[sub.tail[arcs]], rank[sub.head[arcs]], members.size, rank[init_rows], init_cols, n_cols
            )
            return embed_fields(sub, local_fields(levels, n_cols), members)
