"""Distance fields of one block of destinations, computed bit-parallel, and the ECMP push through them.

A block holds up to 512 destination fields as bit columns (64 per uint64 word). The breadth-first search
advances all of them at once: one level costs one gather + OR-reduce over the arcs next to the frontier,
a word per 64 destinations. ``levels[d][v]`` has bit c set when switch v is at hop distance d from the
attachment switches of field c; these bit planes are also what the push uses to find next hops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix

from gpuplanner.engine.routing_graph import SubGraph

_ONE = np.uint64(1)


@dataclass(frozen=True)
class BlockFields:
    sub: SubGraph
    n_cols: int
    levels: tuple[np.ndarray, ...]  # uint64[S, W] bit planes, one per hop distance
    level_any: tuple[np.ndarray, ...]  # bool[S]: any column at that distance
    dist: np.ndarray  # uint8/uint16/int32 [S, n_cols]; unreached = unreached value below
    unreached: int


def _bits(rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    out = np.zeros(shape, np.uint64)
    np.bitwise_or.at(out, (rows, cols >> 6), _ONE << (cols & 63).astype(np.uint64))
    return out


def _unpack(words: np.ndarray, n_cols: int) -> np.ndarray:
    """uint64[R, W] → bool[R, n_cols] (bit c of word c // 64)."""
    flat = np.ascontiguousarray(words).view(np.uint8)
    return np.unpackbits(flat, axis=1, bitorder="little")[:, :n_cols].view(bool)


def compute_block(sub: SubGraph, init_rows: np.ndarray, init_cols: np.ndarray, n_cols: int) -> BlockFields:
    n_sub = sub.nodes.size
    width = (n_cols + 63) // 64
    front = _bits(init_rows, init_cols, (n_sub, width))
    visited = front.copy()
    levels = [front]
    # loop over BFS levels (hop distances), each level vectorised over all arcs and all columns
    while True:
        sel = np.flatnonzero(front.any(axis=1)[sub.head])  # arcs whose head is on the frontier
        if sel.size == 0:
            break
        tails = sub.tail[sel]  # sorted, so each tail's arcs are one run
        starts = np.flatnonzero(np.r_[True, tails[1:] != tails[:-1]])
        reached = np.bitwise_or.reduceat(front[sub.head[sel]], starts, axis=0)
        rows = tails[starts]
        new = reached & ~visited[rows]
        keep = new.any(axis=1)
        if not keep.any():
            break
        rows, new = rows[keep], new[keep]
        front = np.zeros((n_sub, width), np.uint64)
        front[rows] = new
        visited[rows] |= new
        levels.append(front)

    level_any = tuple(lv.any(axis=1) for lv in levels)
    dtype = np.uint8 if len(levels) < 255 else np.uint16 if len(levels) < 65535 else np.int32
    unreached = int(np.iinfo(dtype).max)
    dist = np.full((n_sub, n_cols), unreached, dtype)
    for d, (lv, any_) in enumerate(zip(levels, level_any, strict=True)):
        rows = np.flatnonzero(any_)
        block = dist[rows]
        block[_unpack(lv[rows], n_cols)] = d
        dist[rows] = block
    return BlockFields(sub, n_cols, tuple(levels), level_any, dist, unreached)


def _arcs_of(indptr: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of all CSR arcs of `nodes`, and the row (index into nodes) each belongs to."""
    counts = indptr[nodes + 1] - indptr[nodes]
    row = np.repeat(np.arange(nodes.size), counts)
    first = np.repeat(indptr[nodes] - (np.cumsum(counts) - counts), counts)
    return first + np.arange(row.size), row


def _injected(n: int, ncol: int, local: np.ndarray, rows, cols, amts) -> np.ndarray:
    return np.bincount(local[rows] * ncol + cols, amts, minlength=n * ncol).astype(np.float64)


def push(
    bf: BlockFields, inj_row: np.ndarray, inj_col: np.ndarray, inj_dist: np.ndarray, inj_amt: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Route injected traffic (bytes at switch inj_row toward field inj_col, which is inj_dist hops
    away) down to distance 0, splitting equally over the arcs toward the next distance at every switch.

    x[v, c] (traffic at switch v toward column c) is dense over the switches active at one distance.
    For every arc, mask = active columns of its tail & columns for which its head is one hop closer.
    Consecutive arcs of one switch with the same mask (a fan-out to equivalent switches) form a run and
    are counted once; the shares x / next-hops are then pulled into the next switches with one sparse ×
    dense product over rows of 64 columns, masked by the heads' distance bits.
    Returns (load per local arc of bf.sub, switches at distance 0 that received traffic, their arrivals
    float64[len, 64·W] by column)."""
    sub, levels = bf.sub, bf.levels
    width = levels[0].shape[1]
    ncol = 64 * width
    n_sub = sub.nodes.size
    arc_load = np.zeros(sub.arc.size)
    by_dist = np.argsort(inj_dist, kind="stable")
    cut = np.searchsorted(inj_dist[by_dist], np.arange(int(inj_dist.max(initial=0)) + 2))
    local = np.zeros(n_sub, np.int64)
    mark = np.zeros(n_sub, bool)

    def injections(d):
        take = by_dist[cut[d] : cut[d + 1]]
        return inj_row[take], inj_col[take], inj_amt[take]

    top = cut.size - 2
    rows, cols, amts = injections(top)
    nodes = np.unique(rows)
    local[nodes] = np.arange(nodes.size)
    x = _injected(nodes.size, ncol, local, rows, cols, amts).reshape(nodes.size, ncol)
    # loop over hop distances, farthest first; each step is vectorised over all switches and columns
    for d in range(top, 0, -1):
        rows, cols, amts = injections(d - 1)
        pos, row = _arcs_of(sub.indptr, nodes)
        head = sub.head[pos]
        near = bf.level_any[d - 1][head]
        pos, row, head = pos[near], row[near], head[near]
        active = np.packbits(x > 0, axis=1, bitorder="little").view(np.uint64)
        mask = active[row] & levels[d - 1][head]  # next-hop columns of each arc, 64 per word
        used = mask.any(axis=1)
        pos, row, head, mask = pos[used], row[used], head[used], mask[used]

        # runs of consecutive arcs of one switch with identical masks; (rep arc, column) pairs
        new_run = np.ones(pos.size, bool)
        new_run[1:] = (row[1:] != row[:-1]) | (mask[1:] != mask[:-1]).any(axis=1)
        rep = np.flatnonzero(new_run)
        run_len = np.diff(np.append(rep, pos.size))
        rr, ww = np.nonzero(mask[rep])
        bits = np.unpackbits(mask[rep[rr], ww].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        pair = np.flatnonzero(bits.view(bool))
        word = pair >> 6
        key = (row[rep[rr]] * ncol + ww * 64)[word] + (pair & 63)  # (tail, column)
        next_hops = np.bincount(key, run_len[rr[word]], minlength=x.size)
        share = np.divide(x.ravel(), next_hops, out=np.zeros(x.size), where=next_hops > 0)
        per_run = np.bincount(rr[word], share[key], minlength=rep.size)
        arc_load[pos] += per_run[np.cumsum(new_run) - 1]

        # pull the shares into the next switches; keep the columns for which they are one hop closer
        mark[head] = True
        mark[rows] = True
        nxt = np.flatnonzero(mark)
        mark[nxt] = False
        local[nxt] = np.arange(nxt.size)
        aw, wv = np.nonzero(mask)
        pull = csr_matrix(
            (np.ones(aw.size), (local[head[aw]] * width + wv, row[aw] * width + wv)),
            shape=(nxt.size * width, nodes.size * width),
        )
        closer = np.unpackbits(levels[d - 1][nxt].view(np.uint8), axis=1, bitorder="little")
        x = (pull @ share.reshape(-1, 64)).reshape(nxt.size, ncol) * closer
        x += _injected(nxt.size, ncol, local, rows, cols, amts).reshape(nxt.size, ncol)
        nodes = nxt
    return arc_load, nodes, x
