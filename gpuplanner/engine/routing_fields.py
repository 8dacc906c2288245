"""Distance fields of one block of destinations, computed bit-parallel, and the ECMP push through them.

A block holds up to 512 destination fields as bit columns (64 per uint64 word). The breadth-first search
advances all of them at once: one level costs one gather + OR-reduce over the arcs next to the frontier,
a word per 64 destinations. ``levels[d][v]`` has bit c set when switch v is at hop distance d from the
attachment switches of field c; these bit planes are also what the push uses to find next hops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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


def push(
    bf: BlockFields, inj_row: np.ndarray, inj_col: np.ndarray, inj_dist: np.ndarray, inj_amt: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Route injected traffic (bytes at switch inj_row toward field inj_col, which is inj_dist hops
    away) down to distance 0, splitting equally over the arcs toward the next distance at every switch.

    Returns (load per local arc of bf.sub, switches at distance 0 that received traffic, their arrivals
    float64[len, 64·W] by column)."""
    sub, levels = bf.sub, bf.levels
    width = levels[0].shape[1]
    ncol = 64 * width
    arc_load = np.zeros(sub.arc.size)
    local = np.full(sub.nodes.size, -1, np.int64)
    mark = np.zeros(sub.nodes.size, bool)
    by_dist = np.argsort(inj_dist, kind="stable")
    cut = np.searchsorted(inj_dist[by_dist], np.arange(int(inj_dist.max(initial=0)) + 2))
    c_row = c_col = np.zeros(0, np.int64)
    c_amt = np.zeros(0)
    # loop over hop distances, farthest first; each step is vectorised over all switches and columns
    for d in range(cut.size - 2, -1, -1):
        take = by_dist[cut[d] : cut[d + 1]]
        rows = np.concatenate([c_row, inj_row[take]])
        cols = np.concatenate([c_col, inj_col[take]])
        amts = np.concatenate([c_amt, inj_amt[take]])
        mark[rows] = True
        nodes = np.flatnonzero(mark)
        mark[nodes] = False
        local[nodes] = np.arange(nodes.size)
        key = local[rows] * ncol + cols
        x = np.bincount(key, amts, minlength=nodes.size * ncol)
        if d == 0:
            return arc_load, nodes, x.reshape(nodes.size, ncol)
        if rows.size == 0:
            continue
        # arcs from the active switches toward switches one hop closer, for any column
        pos, row = _arcs_of(sub.indptr, nodes)
        head = sub.head[pos]
        near = bf.level_any[d - 1][head]
        pos, row, head = pos[near], row[near], head[near]
        active = np.packbits((x > 0).reshape(nodes.size, ncol), axis=1, bitorder="little").view(np.uint64)
        mask = active[row] & levels[d - 1][head]
        r, w = np.nonzero(mask)
        bits = np.unpackbits(mask[r, w].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        q, b = np.nonzero(bits)
        pr = r[q]
        c_col = w[q] * 64 + b
        tkey = row[pr] * ncol + c_col
        next_hops = np.bincount(tkey, minlength=x.size)
        share = np.divide(x, next_hops, out=np.zeros_like(x), where=next_hops > 0)
        c_amt = share[tkey]
        arc_load += np.bincount(pos[pr], c_amt, minlength=arc_load.size)
        c_row = head[pr]
    return arc_load, np.zeros(0, np.int64), np.zeros((0, ncol))
