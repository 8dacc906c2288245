"""Static preprocessing for the ECMP router: arcs, adjacency, destination fields and their blocks.

Arcs: link i gives arc 2i (link_a → link_b) and arc 2i+1 (link_b → link_a); each carries its own load.

A *field* is one distance field over the switches: the hop distance to a set of *attachment switches*.
Every switch has its own field (destination = that switch, or any endpoint single-homed to it); every
multi-homed endpoint has its own field too (its attachment set is several switches, and the last-hop split
between them depends on where the traffic came from, so it cannot be shared with other endpoints).
Fields are grouped into *blocks* of at most BLOCK_FIELDS columns within one set of connected components of
the switch graph; a block's distance fields are computed together, bit-parallel, on that sub-graph.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

BLOCK_FIELDS = 512


@dataclass(frozen=True)
class SubGraph:
    """Switch-to-switch arcs among the switches of some components, in local numbering, CSR by tail."""

    nodes: np.ndarray  # int64[S]: global ids, sorted
    g2l: np.ndarray  # int32[N]: local index, -1 outside
    indptr: np.ndarray  # int64[S+1]
    tail: np.ndarray  # int64[A]: local tail of each arc (sorted)
    head: np.ndarray  # int64[A]: local head
    arc: np.ndarray  # int64[A]: global arc id


@dataclass(frozen=True)
class Graph:
    n_nodes: int
    n_links: int
    transit: np.ndarray  # bool[N]
    arc_tail: np.ndarray  # int64[2L]
    arc_head: np.ndarray  # int64[2L]
    # arcs from each endpoint to its switches, grouped by endpoint: up_ptr[e]..up_ptr[e+1]
    up_ptr: np.ndarray  # int64[N+1] (empty ranges for switches)
    up_node: np.ndarray  # int64[U]: the switch
    up_arc: np.ndarray  # int64[U]: arc endpoint → switch; arc ^ 1 is switch → endpoint
    up_mult: np.ndarray  # int64[U]: parallel arcs between the same endpoint and switch
    # arcs between two endpoints (direct cables), sorted by key = tail * N + head
    direct_key: np.ndarray  # int64[D]
    direct_arc: np.ndarray  # int64[D]
    # fields
    field_of_node: np.ndarray  # int64[N]: destination field of each node, -1 = none (no switch)
    field_ptr: np.ndarray  # int64[F+1]
    field_init: np.ndarray  # int64[...]: attachment switches of each field
    field_endpoint: np.ndarray  # int64[F]: the endpoint of a multi-homed field, else -1
    field_dests: np.ndarray  # int64[F]: endpoints whose destination field this is
    field_block: np.ndarray  # int64[F]
    field_col: np.ndarray  # int64[F]
    block_fields: tuple[np.ndarray, ...]
    block_compset: tuple[int, ...]
    compsets: tuple[np.ndarray, ...]  # component ids of each compset
    comp_of_node: np.ndarray  # int64[N]: component of each switch, -1 for endpoints


def _validate(n_nodes: int, link_a, link_b, transit) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = np.asarray(link_a, dtype=np.int64).ravel()
    b = np.asarray(link_b, dtype=np.int64).ravel()
    t = np.asarray(transit, dtype=bool).ravel()
    if a.shape != b.shape:
        raise ValueError(f"link_a has {a.size} entries, link_b {b.size}: they must match")
    if t.size != n_nodes:
        raise ValueError(f"transit has {t.size} entries for {n_nodes} nodes")
    if a.size and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= n_nodes):
        raise ValueError(f"link endpoints must be node indices in [0, {n_nodes})")
    loops = np.flatnonzero(a == b)
    if loops.size:
        raise ValueError(f"link {int(loops[0])} joins node {int(a[loops[0]])} to itself")
    return a, b, t


def _run_first(x: np.ndarray) -> np.ndarray:
    """True where a run of equal values starts."""
    first = np.ones(x.size, bool)
    first[1:] = x[1:] != x[:-1]
    return first


def _components(n: int, tail: np.ndarray, head: np.ndarray, transit: np.ndarray) -> np.ndarray:
    sw = tail[transit[tail] & transit[head]], head[transit[tail] & transit[head]]
    adj = coo_matrix((np.ones(sw[0].size, np.int8), sw), shape=(n, n)).tocsr()
    _, label = connected_components(adj, directed=False)
    comp = np.full(n, -1, np.int64)
    _, comp[transit] = np.unique(label[transit], return_inverse=True)
    return comp


def build_graph(n_nodes: int, link_a, link_b, transit) -> Graph:
    a, b, t = _validate(n_nodes, link_a, link_b, transit)
    n = int(n_nodes)
    tail = np.empty(2 * a.size, np.int64)
    head = np.empty(2 * a.size, np.int64)
    tail[0::2], tail[1::2] = a, b
    head[0::2], head[1::2] = b, a
    arcs = np.arange(tail.size, dtype=np.int64)
    comp = _components(n, tail, head, t)

    up = arcs[~t[tail] & t[head]]
    up = up[np.lexsort((head[up], tail[up]))]
    up_node = head[up]
    up_ptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(tail[up], minlength=n), out=up_ptr[1:])
    pair = tail[up] * n + up_node
    first = _run_first(pair)
    starts = np.flatnonzero(first)
    run = np.diff(np.r_[starts, pair.size])
    up_mult = np.repeat(run, run)
    distinct = np.bincount(tail[up][first], minlength=n)  # distinct switches per endpoint

    direct = arcs[~t[tail] & ~t[head]]
    dkey = tail[direct] * n + head[direct]
    order = np.argsort(dkey, kind="stable")

    fields = _fields(n, t, comp, tail[up][first], up_node[first], distinct)
    return Graph(
        n_nodes=n,
        n_links=int(a.size),
        transit=t,
        arc_tail=tail,
        arc_head=head,
        up_ptr=up_ptr,
        up_node=up_node,
        up_arc=up,
        up_mult=up_mult,
        direct_key=dkey[order],
        direct_arc=direct[order],
        comp_of_node=comp,
        **fields,
    )


def _fields(n, transit, comp, ep_of_pair, sw_of_pair, distinct) -> dict:
    """Fields: one per switch, then one per multi-homed endpoint; ordered so that blocks stay within one
    set of components and switches that have endpoints come first, in id order (bit locality)."""
    switches = np.flatnonzero(transit)
    multi_ep = np.flatnonzero(distinct >= 2)
    single_pair = distinct[ep_of_pair] == 1
    has_ep = np.zeros(n, bool)
    has_ep[sw_of_pair[single_pair]] = True

    # component set of each multi-homed endpoint (a loop only over endpoints homed to several components)
    pair_comp = comp[sw_of_pair]
    cmin = np.full(n, np.iinfo(np.int64).max)
    cmax = np.full(n, -1)
    np.minimum.at(cmin, ep_of_pair, pair_comp)
    np.maximum.at(cmax, ep_of_pair, pair_comp)
    n_comp = int(comp.max()) + 1 if switches.size else 0
    compsets: list[np.ndarray] = [np.array([c]) for c in range(n_comp)]
    multi_set = cmin[multi_ep].copy()
    mixed = np.flatnonzero(cmin[multi_ep] != cmax[multi_ep])
    seen: dict[tuple[int, ...], int] = {}
    for i in mixed:
        key = tuple(np.unique(pair_comp[ep_of_pair == multi_ep[i]]).tolist())
        if key not in seen:
            seen[key] = len(compsets)
            compsets.append(np.array(key))
        multi_set[i] = seen[key]

    # field order: switches (by component, with-endpoints first, id), then multi-homed endpoints
    sw_order = np.lexsort((switches, ~has_ep[switches], comp[switches]))
    ms_order = np.lexsort((multi_ep, multi_set))
    f_set = np.r_[comp[switches[sw_order]], multi_set[ms_order]]
    f_switch = np.r_[switches[sw_order], np.full(multi_ep.size, -1)]
    f_endpoint = np.r_[np.full(switches.size, -1), multi_ep[ms_order]]
    n_f = f_set.size

    field_of_node = np.full(n, -1, np.int64)
    field_of_node[f_switch[: switches.size]] = np.arange(switches.size)
    field_of_node[f_endpoint[switches.size :]] = np.arange(switches.size, n_f)
    single_ep = ep_of_pair[single_pair]
    field_of_node[single_ep] = field_of_node[sw_of_pair[single_pair]]

    # attachment switches per field
    init_len = np.ones(n_f, np.int64)
    init_len[switches.size :] = distinct[multi_ep[ms_order]]
    field_ptr = np.zeros(n_f + 1, np.int64)
    np.cumsum(init_len, out=field_ptr[1:])
    field_init = np.empty(field_ptr[-1], np.int64)
    field_init[: switches.size] = switches[sw_order]
    if multi_ep.size:
        is_multi_pair = ~single_pair
        mp_ep, mp_sw = ep_of_pair[is_multi_pair], sw_of_pair[is_multi_pair]
        rank = field_of_node[mp_ep]
        field_init[switches.size :] = mp_sw[np.argsort(rank, kind="stable")]

    field_dests = np.bincount(field_of_node[~transit & (field_of_node >= 0)], minlength=n_f)

    # blocks: runs of the same component set, cut every BLOCK_FIELDS fields
    run_start = np.flatnonzero(_run_first(f_set))
    starts = np.unique(
        np.concatenate(
            [np.arange(s, e, BLOCK_FIELDS) for s, e in zip(run_start, np.r_[run_start[1:], n_f], strict=True)]
        )
        if n_f
        else np.zeros(0, np.int64)
    )
    field_block = np.cumsum(np.isin(np.arange(n_f), starts)) - 1
    field_col = np.arange(n_f) - starts[field_block] if n_f else np.zeros(0, np.int64)
    ends = np.r_[starts[1:], n_f]
    return dict(
        field_of_node=field_of_node,
        field_ptr=field_ptr,
        field_init=field_init,
        field_endpoint=f_endpoint,
        field_dests=field_dests,
        field_block=field_block.astype(np.int64),
        field_col=field_col.astype(np.int64),
        block_fields=tuple(np.arange(s, e) for s, e in zip(starts, ends, strict=True)),
        block_compset=tuple(int(f_set[s]) for s in starts),
        compsets=tuple(compsets),
    )


def build_subgraph(g: Graph, compset: np.ndarray) -> SubGraph:
    arc_tail, arc_head = g.arc_tail, g.arc_head
    in_set = np.isin(g.comp_of_node, compset) & g.transit
    nodes = np.flatnonzero(in_set)
    g2l = np.full(g.n_nodes, -1, np.int32)
    g2l[nodes] = np.arange(nodes.size, dtype=np.int32)
    arcs = np.flatnonzero(in_set[arc_tail] & in_set[arc_head])
    lt, lh = g2l[arc_tail[arcs]].astype(np.int64), g2l[arc_head[arcs]].astype(np.int64)
    order = np.lexsort((lh, lt))
    indptr = np.zeros(nodes.size + 1, np.int64)
    np.cumsum(np.bincount(lt, minlength=nodes.size), out=indptr[1:])
    return SubGraph(nodes=nodes, g2l=g2l, indptr=indptr, tail=lt[order], head=lh[order], arc=arcs[order])
