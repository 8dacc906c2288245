"""Static preprocessing for the ECMP router: arcs, adjacency, destination fields and their blocks.

Arcs: link i gives arc 2i (link_a → link_b) and arc 2i+1 (link_b → link_a); each carries its own load.

A *field* is one distance field over the switches: the hop distance to a set of *attachment switches*.
Every switch has its own field (destination = that switch, or any endpoint single-homed to it); every
multi-homed endpoint has its own field too (its attachment set is several switches, and the last-hop split
between them depends on where the traffic came from, so it cannot be shared with other endpoints).
Fields are cut into *blocks* of at most BLOCK_FIELDS columns whose distance fields are computed together,
bit-parallel. Switches that have endpoints come first, in id order, so that destinations close in the
fabric (a pod's leaves) share words of bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from gpuplanner.engine.arrays import BoolArray, IntArray

BLOCK_FIELDS = 512


@dataclass(frozen=True)
class SubGraph:
    """Switch-to-switch arcs in local switch numbering, CSR by tail."""

    nodes: np.ndarray  # int64[S]: global ids of the switches, sorted
    g2l: np.ndarray  # int64[N]: local index, -1 for endpoints
    indptr: np.ndarray  # int64[S+1]
    tail: np.ndarray  # int64[A]: local tail of each arc (sorted)
    head: np.ndarray  # int64[A]: local head
    arc: np.ndarray  # int64[A]: global arc id
    lazy: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)  # in_arcs

    def in_arcs(self) -> tuple[np.ndarray, np.ndarray]:
        """(ptr int64[S+1], pos int64[A]): the CSR positions of the arcs into each switch, by head, each
        head's arcs in CSR order. Built on first use (two threads may both build it: the same arrays)."""
        if "in_pos" not in self.lazy:
            small = np.uint16 if self.nodes.size <= 1 << 16 else np.int64
            pos = np.argsort(self.head.astype(small), kind="stable")
            ptr = np.zeros(self.nodes.size + 1, np.int64)
            np.cumsum(np.bincount(self.head, minlength=self.nodes.size), out=ptr[1:])
            self.lazy["in_ptr"] = ptr
            self.lazy["in_pos"] = pos
        return self.lazy["in_ptr"], self.lazy["in_pos"]


@dataclass(frozen=True)
class Graph:
    n_nodes: int
    n_links: int
    transit: np.ndarray  # bool[N]
    switches: SubGraph
    # arcs from each endpoint to its switches, grouped by endpoint: up_ptr[e]..up_ptr[e+1]
    up_ptr: np.ndarray  # int64[N+1] (empty ranges for switches)
    up_node: np.ndarray  # int64[U]: the switch
    up_arc: np.ndarray  # int64[U]: arc endpoint → switch; arc ^ 1 is switch → endpoint
    up_mult: np.ndarray  # int64[U]: parallel arcs between the same endpoint and switch
    up_count: np.ndarray  # int64[N]: up_ptr[e + 1] - up_ptr[e]
    up_tail: np.ndarray  # int64[U]: the endpoint of each up arc
    # arcs between two endpoints (direct cables), sorted by key = tail * N + head
    direct_key: np.ndarray  # int64[D]
    direct_arc: np.ndarray  # int64[D]
    # fields
    field_of_node: np.ndarray  # int64[N]: destination field of each node, -1 = none (no switch)
    field_ptr: np.ndarray  # int64[F+1]
    field_init: np.ndarray  # int64[...]: attachment switches of each field (local switch index)
    field_endpoint: np.ndarray  # int64[F]: the endpoint of a multi-homed field, else -1
    multi_homed: np.ndarray  # bool[N]: endpoint with links to two or more distinct switches
    field_dests: np.ndarray  # int64[F]: endpoints whose destination field this is
    block_size: int  # fields per block: field f is column f % block_size of block f // block_size

    @property
    def n_fields(self) -> int:
        return self.field_endpoint.size

    @property
    def n_blocks(self) -> int:
        return -(-self.n_fields // self.block_size)

    def block_fields(self, b: int) -> np.ndarray:
        return np.arange(b * self.block_size, min((b + 1) * self.block_size, self.n_fields))


def _validate(
    n_nodes: int, link_a: npt.ArrayLike, link_b: npt.ArrayLike, transit: npt.ArrayLike
) -> tuple[IntArray, IntArray, BoolArray]:
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


def _order_pairs(major: IntArray, minor: IntArray, n: int) -> IntArray:
    """Stable order of the pairs by (major, minor), both in [0, n): two radix passes on 16-bit keys when
    n allows it (a 64-bit comparison sort of major * n + minor costs several times more)."""
    if n > 1 << 16:
        return np.argsort(major * n + minor, kind="stable")
    order = np.argsort(minor.astype(np.uint16), kind="stable")
    return order[np.argsort(major[order].astype(np.uint16), kind="stable")]


def _switch_graph(n: int, transit: np.ndarray, tail: np.ndarray, head: np.ndarray) -> SubGraph:
    nodes = np.flatnonzero(transit)
    g2l = np.full(n, -1, np.int64)
    g2l[nodes] = np.arange(nodes.size)
    arcs = np.flatnonzero(transit[tail] & transit[head])
    lt, lh = g2l[tail[arcs]], g2l[head[arcs]]
    order = _order_pairs(lt, lh, nodes.size)
    indptr = np.zeros(nodes.size + 1, np.int64)
    np.cumsum(np.bincount(lt, minlength=nodes.size), out=indptr[1:])
    return SubGraph(nodes=nodes, g2l=g2l, indptr=indptr, tail=lt[order], head=lh[order], arc=arcs[order])


def build_graph(
    n_nodes: int,
    link_a: npt.ArrayLike,
    link_b: npt.ArrayLike,
    transit: npt.ArrayLike,
    block_size: int = BLOCK_FIELDS,
) -> Graph:
    a, b, t = _validate(n_nodes, link_a, link_b, transit)
    n = int(n_nodes)
    tail = np.empty(2 * a.size, np.int64)
    head = np.empty(2 * a.size, np.int64)
    tail[0::2], tail[1::2] = a, b
    head[0::2], head[1::2] = b, a
    arcs = np.arange(tail.size, dtype=np.int64)
    switches = _switch_graph(n, t, tail, head)

    up = arcs[~t[tail] & t[head]]
    up_key = tail[up] * n + head[up]
    if np.any(up_key[1:] < up_key[:-1]):  # drawn in order (the usual case): no sort
        up = up[np.argsort(up_key, kind="stable")]
    up_node = head[up]
    up_ptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(tail[up], minlength=n), out=up_ptr[1:])
    first = _run_first(tail[up] * n + up_node)
    run = np.diff(np.append(np.flatnonzero(first), up.size))
    distinct = np.bincount(tail[up][first], minlength=n)  # distinct switches per endpoint

    direct = arcs[~t[tail] & ~t[head]]
    dkey = tail[direct] * n + head[direct]
    order = np.argsort(dkey, kind="stable")

    if block_size < 1:
        raise ValueError(f"block_size must be at least 1, got {block_size}")
    fields = _fields(n, t, switches.g2l, tail[up][first], up_node[first], distinct)
    return Graph(
        n_nodes=n,
        n_links=int(a.size),
        transit=t,
        switches=switches,
        up_ptr=up_ptr,
        up_node=up_node,
        up_arc=up,
        up_mult=np.repeat(run, run),
        up_count=np.diff(up_ptr),
        up_tail=tail[up],
        direct_key=dkey[order],
        direct_arc=direct[order],
        block_size=int(block_size),
        **fields,
    )


class _Fields(TypedDict):
    """The destination-field arrays of a Graph (see Graph)."""

    field_of_node: IntArray
    field_ptr: IntArray
    field_init: IntArray
    field_endpoint: IntArray
    multi_homed: BoolArray
    field_dests: IntArray


def _fields(
    n: int,
    transit: BoolArray,
    g2l: IntArray,
    ep_of_pair: IntArray,
    sw_of_pair: IntArray,
    distinct: IntArray,
) -> _Fields:
    """Fields: one per switch (those with single-homed endpoints first), then one per multi-homed
    endpoint. (ep_of_pair, sw_of_pair) lists each endpoint's distinct switches, sorted by endpoint."""
    switches = np.flatnonzero(transit)
    multi_ep = np.flatnonzero(distinct >= 2)
    single_pair = distinct[ep_of_pair] == 1
    has_ep = np.zeros(n, bool)
    has_ep[sw_of_pair[single_pair]] = True
    sw_order = switches[np.argsort(~has_ep[switches], kind="stable")]
    n_sw, n_f = switches.size, switches.size + multi_ep.size

    field_of_node = np.full(n, -1, np.int64)
    field_of_node[sw_order] = np.arange(n_sw)
    field_of_node[multi_ep] = np.arange(n_sw, n_f)
    field_of_node[ep_of_pair[single_pair]] = field_of_node[sw_of_pair[single_pair]]

    init_len = np.ones(n_f, np.int64)
    init_len[n_sw:] = distinct[multi_ep]
    field_ptr = np.zeros(n_f + 1, np.int64)
    np.cumsum(init_len, out=field_ptr[1:])
    # multi-homed pairs are already grouped by endpoint, in field order
    field_init = g2l[np.concatenate([sw_order, sw_of_pair[~single_pair]])]
    field_endpoint = np.full(n_f, -1, np.int64)
    field_endpoint[n_sw:] = multi_ep
    return _Fields(
        field_of_node=field_of_node,
        field_ptr=field_ptr,
        field_init=field_init,
        field_endpoint=field_endpoint,
        multi_homed=distinct >= 2,
        field_dests=np.bincount(field_of_node[~transit & (field_of_node >= 0)], minlength=n_f),
    )
