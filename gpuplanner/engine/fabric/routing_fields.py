"""Distance fields of one block of destinations, computed bit-parallel, and the ECMP push through them.

A block holds up to 512 destination fields as bit columns (64 per uint64 word). The breadth-first search
advances all of them at once: one level costs one gather + OR-reduce over the arcs next to the frontier,
a word per 64 destinations. ``levels[d][v]`` has bit c set when switch v is at hop distance d from the
attachment switches of field c; these bit planes are also what the push uses to find next hops.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import csr_matrix

from gpuplanner.engine.arrays import FloatArray, IntArray
from gpuplanner.engine.fabric.routing_graph import SubGraph

_ONE = np.uint64(1)
# the per-(arc, column) pull is used while it adds at most this many values per used (word row, arc)
# entry; the sparse product adds 64 per entry, each far cheaper than a scattered add
SCALAR_PULL = 2


@dataclass(frozen=True)
class SharedPlace:
    """Where a block's distance fields came from a search shared between equal components: the search's
    key (equal keys: the same search result), and the block's component as a range of switches and of
    switch arcs (CSR positions)."""

    key: tuple[int, bytes, bytes, int]
    lo: int  # switches lo..hi-1
    hi: int
    arc_lo: int  # switch arcs arc_lo..arc_hi-1 (the arcs whose tail is in the range)
    arc_hi: int


@dataclass(frozen=True)
class BlockFields:
    sub: SubGraph
    n_cols: int
    levels: tuple[np.ndarray, ...]  # uint64[S, W] bit planes, one per hop distance
    level_any: tuple[np.ndarray, ...]  # bool[S]: any column at that distance
    dist: np.ndarray  # uint8/uint16/int32 [R, n_cols] for switches dist_lo..dist_lo+R-1; others unreached
    unreached: int
    dist_lo: int = 0
    shared: SharedPlace | None = None  # set when the fields came from a search shared by equal components
    lazy: dict[int, tuple[int, np.ndarray | None]] = field(default_factory=dict, compare=False, repr=False)

    def into_level(self, d: int, build: bool) -> tuple[int, np.ndarray | None]:
        """The (arc, word) entries whose head is at distance d for some column of the word: (how many,
        and if `build` the entries as key = CSR position * W + word, head by head). The push enumerates
        these instead of every arc of its word rows when they are far fewer (core → aggregation)."""
        got = self.lazy.get(d)
        if got is not None and (got[1] is not None or not build):
            return got
        ptr, pos = self.sub.in_arcs()
        indeg = np.diff(ptr)
        lv = self.levels[d]
        if got is None:
            got = (int(np.count_nonzero(lv, axis=1) @ indeg), None)
        if build:
            h, w = np.nonzero(lv)  # (switch, word) pairs, by switch then word
            n = indeg[h]
            entries = pos[_ranges(ptr[h], n)] * lv.shape[1] + np.repeat(w, n)
            got = (got[0], entries)
        self.lazy[d] = got
        return got

    def dist_of(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Hop distance (int64, -1 = unreachable) from switch rows[i] to column cols[i]."""
        d: np.ndarray
        if self.dist_lo == 0 and self.dist.shape[0] == self.sub.nodes.size:  # rows of every switch
            d = self.dist[rows, cols].astype(np.int64)
            d[d == self.unreached] = -1
            return d
        r = rows - self.dist_lo
        inside = (r >= 0) & (r < self.dist.shape[0])
        if inside.all():
            d = self.dist[r, cols].astype(np.int64)
        else:
            d = np.full(rows.size, self.unreached, np.int64)
            d[inside] = self.dist[r[inside], cols[inside]]
        d[d == self.unreached] = -1
        return d

    def dist_rows(self, rows: np.ndarray) -> np.ndarray:
        """Distances [rows.size, n_cols] (dist's dtype, unreached where none) of the switches `rows`."""
        r = rows - self.dist_lo
        inside = (r >= 0) & (r < self.dist.shape[0])
        out = np.full((rows.size, self.n_cols), self.unreached, self.dist.dtype)
        out[inside] = self.dist[r[inside]]
        return out


def _bits(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    out = np.zeros(shape, np.uint64)
    np.bitwise_or.at(out, (rows, cols >> 6), _ONE << (cols & 63).astype(np.uint64))
    return out


def _unpack(words: np.ndarray, n_cols: int) -> np.ndarray:
    """uint64[R, W] → bool[R, n_cols] (bit c of word c // 64)."""
    flat = np.ascontiguousarray(words).view(np.uint8)
    return np.unpackbits(flat, axis=1, bitorder="little")[:, :n_cols].view(bool)


def compute_block(sub: SubGraph, init_rows: np.ndarray, init_cols: np.ndarray, n_cols: int) -> BlockFields:
    """Distance fields of one block by a search over every switch arc of `sub`."""
    levels = search_levels(sub.tail, sub.head, sub.nodes.size, init_rows, init_cols, n_cols)
    return embed_fields(sub, local_fields(levels, n_cols), slice(None))


def search_levels(
    tail: np.ndarray, head: np.ndarray, n_sub: int, init_rows: np.ndarray, init_cols: np.ndarray, n_cols: int
) -> list[np.ndarray]:
    """Bit planes uint64[n_sub, W] per hop distance of a breadth-first search over arcs tail → head
    (tail sorted) of nodes 0..n_sub-1 from the attachment switches init_rows of columns init_cols."""
    width = (n_cols + 63) // 64
    # word-major (W, S) during the search: each word's OR-reduce over arcs is a fast 1-D reduceat
    front = np.ascontiguousarray(_bits(init_rows, init_cols, (n_sub, width)).T)
    visited = front.copy()
    every = _bits(np.zeros(n_cols, np.int64), np.arange(n_cols), (1, width)).T  # all columns of the block
    levels = [front.T.copy()]
    # loop over BFS levels (hop distances), each level vectorised over all arcs and all columns
    while True:
        done = (visited == every).all(axis=0)
        sel = np.flatnonzero(np.any(front, axis=0)[head] & ~done[tail])  # pull from the frontier
        if sel.size == 0:
            break
        tails = tail[sel]  # sorted, so each tail's arcs are one run
        starts = np.flatnonzero(np.r_[True, tails[1:] != tails[:-1]])
        heads = head[sel]
        rows = tails[starts]
        new = np.empty((width, rows.size), np.uint64)
        for w in range(width):  # loop over the ≤ 8 words of a block
            new[w] = np.bitwise_or.reduceat(front[w][heads], starts) & ~visited[w][rows]
        keep = new.any(axis=0)
        if not keep.any():
            break
        rows, new = rows[keep], new[:, keep]
        front = np.zeros((width, n_sub), np.uint64)
        front[:, rows] = new
        visited[:, rows] |= new
        levels.append(front.T.copy())
    return levels


@dataclass(frozen=True)
class LocalFields:
    """A search's result over the switches it covered (rows 0..R-1 of that search's numbering)."""

    levels: tuple[np.ndarray, ...]  # uint64[R, W]
    dist: np.ndarray  # [R, n_cols]
    unreached: int


def local_fields(levels: list[np.ndarray], n_cols: int) -> LocalFields:
    """The hop-distance matrix of a search's bit planes."""
    n_rows = levels[0].shape[0]
    dtype = np.uint8 if len(levels) < 255 else np.uint16 if len(levels) < 65535 else np.int32
    unreached = int(np.iinfo(dtype).max)
    dist = np.full((n_rows, n_cols), unreached, dtype)
    for d, lv in enumerate(levels):  # loop over hop distances (the levels' bits are disjoint)
        np.copyto(dist, dtype(d), where=_unpack(lv, n_cols))
    return LocalFields(tuple(levels), dist, unreached)


def embed_fields(
    sub: SubGraph, lf: LocalFields, place: slice | np.ndarray, shared: SharedPlace | None = None
) -> BlockFields:
    """BlockFields over all switches of `sub` from a search that covered the switches `place` (every other
    switch lies in another connected component: at no distance from any column of the block)."""
    n_sub = sub.nodes.size
    n_rows, width = lf.levels[0].shape
    levels, dist, dist_lo = lf.levels, lf.dist, 0
    if n_rows != n_sub:
        full = []
        for lv in levels:  # loop over hop distances
            out = np.zeros((n_sub, width), np.uint64)
            out[place] = lv
            full.append(out)
        levels = tuple(full)
        if isinstance(place, slice):  # a range of switches: keep the (shared) distance rows as they are
            dist_lo = place.indices(n_sub)[0]
        else:
            dist = np.full((n_sub, lf.dist.shape[1]), lf.unreached, lf.dist.dtype)
            dist[place] = lf.dist
    level_any = tuple(np.any(lv, axis=1) for lv in levels)
    return BlockFields(sub, dist.shape[1], levels, level_any, dist, lf.unreached, dist_lo, shared)


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenation of arange(starts[i], starts[i] + counts[i])."""
    return np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))


def _arcs_of(indptr: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of all CSR arcs of `nodes`, and the row (index into nodes) each belongs to."""
    first = indptr[nodes]
    counts = indptr[nodes + 1] - first
    if counts.size and counts.min() == counts.max():  # one switch tier: a 2-D broadcast, no repeats
        k = int(counts[0])
        row = np.broadcast_to(np.arange(nodes.size)[:, None], (nodes.size, k)).ravel()
        return (first[:, None] + np.arange(k)).ravel(), row
    row = np.repeat(np.arange(nodes.size), counts)
    start = np.repeat(first - (np.cumsum(counts) - counts), counts)
    return start + np.arange(row.size), row


# the entries into a level are enumerated head by head (and sorted) when they are fewer than this fraction of
# the arcs out of the word rows: the sort costs several passes over them
INTO_LEVEL_SHARE = 0.25


def _next_hop_arcs(
    bf: BlockFields, d: int, keys: IntArray, active: np.ndarray, mark: np.ndarray, slot: np.ndarray
) -> tuple[IntArray, IntArray, IntArray, np.ndarray]:
    """The (word row, arc) pairs at distance d that carry some column one hop closer: (arc CSR position,
    word row, head key, mask of those columns), ordered by word row, then by arc. Two ways, one answer:
    every arc out of the word rows' switches, kept where the mask is not empty; or, when far fewer, the
    arcs into the switches at distance d - 1 (per word, bf.into_level), kept where their tail's word row
    carries traffic and the mask is not empty, then sorted into the same order."""
    sub, width = bf.sub, bf.levels[0].shape[1]
    rows = keys // width
    out_arcs = int((sub.indptr[rows + 1] - sub.indptr[rows]).sum())
    n_into, _ = bf.into_level(d - 1, build=False)
    if n_into < INTO_LEVEL_SHARE * out_arcs:
        _, entries = bf.into_level(d - 1, build=True)
        assert entries is not None
        pos, word = entries // width, entries % width
        tail_key = sub.tail[pos] * width + word
        mark[keys] = True  # the word rows that carry traffic (slot holds their row for these keys)
        here = np.flatnonzero(mark[tail_key])
        mark[keys] = False
        pos, tail_key = pos[here], tail_key[here]
        wr = slot[tail_key]
        order = np.argsort(wr * sub.head.size + pos, kind="stable")
        pos, wr = pos[order], wr[order]
        head_key = sub.head[pos] * width + word[here][order]
    else:
        pos, wr = _arcs_of(sub.indptr, rows)
        head_key = sub.head[pos] * width + (keys % width)[wr]
    mask = active[wr] & bf.levels[d - 1].ravel()[head_key]  # next-hop columns of this arc, in this word
    if np.count_nonzero(mask) < mask.size:  # drop arcs toward no column (often none are: skip the copy)
        used = np.flatnonzero(mask)
        pos, wr, head_key, mask = pos[used], wr[used], head_key[used], mask[used]
    return pos, wr, head_key, mask


@dataclass(frozen=True)
class Arrivals:
    """Traffic that reached distance 0, as word rows: switch node[i], columns 64·word[i] + 0..63."""

    node: np.ndarray  # int64[R]: local switch index
    word: np.ndarray  # int64[R]
    amount: np.ndarray  # float64[R, 64]


def _word_rows(mark: np.ndarray, slot: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Distinct keys (node · W + word) in order, and each key's row; mark is all False on return."""
    mark[keys] = True
    distinct = np.flatnonzero(mark)
    mark[distinct] = False
    slot[distinct] = np.arange(distinct.size)
    return distinct


def push(
    bf: BlockFields,
    inj_row: np.ndarray,
    inj_col: np.ndarray,
    inj_dist: np.ndarray,
    inj_amt: np.ndarray,
    arrivals: bool = True,
) -> tuple[np.ndarray, Arrivals | None]:
    """Route injected traffic (bytes at switch inj_row toward field inj_col, which is inj_dist hops
    away) down to distance 0, splitting equally over the arcs toward the next distance at every switch.

    Traffic is held as *word rows*: x[(v, w), 0..63] for the 64 columns of word w at switch v, only for
    words that carry traffic. For each word row and arc of v, mask = its active columns & the columns
    for which the arc's head is one hop closer (the arcs with a non-empty mask: ``_next_hop_arcs``). Consecutive arcs with the same mask (a fan-out to
    equivalent switches) form a run and are counted once; the per-column shares x / next-hops are then
    pulled into the heads' word rows with one sparse × dense product, masked by the heads' distance bits.
    Returns (load per local arc of bf.sub, what reached distance 0 if `arrivals`, else None)."""
    sub, levels = bf.sub, bf.levels
    width = levels[0].shape[1]
    arc_load = np.zeros(sub.arc.size)
    top_dist = int(inj_dist.max(initial=0))
    by_dist: IntArray | None = None  # injections ordered by distance; None: all at one distance, as given
    if inj_dist.size and int(inj_dist.min()) == top_dist:  # one distance (an all-to-all across pods)
        cut = np.where(np.arange(top_dist + 2) > top_dist, inj_dist.size, 0)
    else:  # a radix sort on small keys
        small = np.uint8 if top_dist < 1 << 8 else np.uint16 if top_dist < 1 << 16 else np.int64
        by_dist = np.argsort(inj_dist.astype(small), kind="stable")
        cut = np.searchsorted(inj_dist[by_dist], np.arange(top_dist + 2))
    top = cut.size - 2
    if top == 0 and not arrivals:
        return arc_load, None
    n_keys = sub.nodes.size * width
    mark = np.zeros(n_keys, bool)
    slot = np.zeros(n_keys, np.int64)

    def injected(d: int, rows_of_keys: IntArray) -> tuple[IntArray, FloatArray]:
        if by_dist is None:
            take: slice | IntArray = slice(int(cut[d]), int(cut[d + 1]))
        else:
            take = by_dist[cut[d] : cut[d + 1]]
        col = inj_col[take]
        key = inj_row[take] * width + (col >> 6)
        keys = _word_rows(mark, slot, np.concatenate([rows_of_keys, key]) if rows_of_keys.size else key)
        x = np.bincount(slot[key] * 64 + (col & 63), inj_amt[take], minlength=keys.size * 64)
        return keys, x.astype(np.float64, copy=False).reshape(keys.size, 64)

    keys, x = injected(top, np.zeros(0, np.int64))
    # loop over hop distances, farthest first; each step is vectorised over all switches and columns
    for d in range(top, 0, -1):
        active = np.packbits(x > 0, axis=1, bitorder="little").view(np.uint64).ravel()
        pos, wr, head_key, mask = _next_hop_arcs(bf, d, keys, active, mark, slot)

        # runs of consecutive arcs of one word row with identical masks; (rep, column) pairs
        new_run = np.ones(pos.size, bool)
        new_run[1:] = (wr[1:] != wr[:-1]) | (mask[1:] != mask[:-1])
        rep = np.flatnonzero(new_run)
        run_len = np.diff(np.append(rep, pos.size))
        bits = np.unpackbits(mask[rep].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        pair = np.flatnonzero(bits.view(bool))
        run = pair >> 6
        col_key = wr[rep[run]] * 64 + (pair & 63)
        next_hops = np.bincount(col_key, run_len[run], minlength=x.size)
        # every arc of a run carries the row's share of each column of the run's mask
        pair_share = x.ravel()[col_key] / next_hops[col_key]
        per_run = np.bincount(run, pair_share, minlength=rep.size)
        # one arc appears once per word row of its tail that uses it: accumulate (a fancy-index += would
        # keep only the last word's share — 3-tier fabrics have more than 64 destination fields)
        arc_load += np.bincount(pos, np.repeat(per_run, run_len), arc_load.size)
        if d == 1 and not arrivals:  # what reaches distance 0 only loads last hops: the caller's part
            return arc_load, None

        keys, x_in = injected(d - 1, head_key)
        pair_arcs = run_len[run]
        if int(pair_arcs.sum()) <= SCALAR_PULL * pos.size:
            # few columns per run (the injection level): add each (run, column) share into the word rows
            # of the run's heads, (arc, column) by (arc, column), instead of 64 columns per arc
            arc_i = _ranges(rep[run], pair_arcs)
            into = slot[head_key[arc_i]] * 64 + np.repeat(pair & 63, pair_arcs)
            pulled = np.bincount(into, np.repeat(pair_share, pair_arcs), minlength=keys.size * 64)
            x = pulled.reshape(-1, 64) + x_in
            continue
        # many columns per run: pull the 64-column share rows into the heads' word rows with one sparse
        # product and keep the columns for which the heads are one hop closer
        share = np.zeros(x.size)
        share[col_key] = pair_share  # a column in several runs of one row has the same share in each
        # entries are ordered by word row, so the transpose of the pull is CSR as it stands
        per_row = np.zeros(x.shape[0] + 1, np.int64)
        np.cumsum(np.bincount(wr, minlength=x.shape[0]), out=per_row[1:])
        pull = csr_matrix((np.ones(pos.size), slot[head_key], per_row), shape=(x.shape[0], keys.size)).T
        closer = np.unpackbits(
            levels[d - 1].ravel()[keys].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little"
        )
        x = (pull @ share.reshape(-1, 64)) * closer + x_in
    return arc_load, Arrivals(keys // width, keys % width, x)
