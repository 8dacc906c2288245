"""Generic ECMP routing: per-link, per-direction loads of a demand on any drawn topology.

Rule: fluid ECMP over hop-count shortest paths. At every node the traffic toward a destination is split
equally over the arcs (egress ports) that lie on a shortest path to it — per hop, as switches hash, not
per path. Paths may pass only through transit nodes (switches); endpoints (NIC ports) never forward for
others. Two endpoints joined by a cable use it (one hop). A demand with no path is flagged, not dropped
silently.

Speed: endpoints hang off few switches, so distance fields are per destination *switch* (or per
multi-homed endpoint), computed lazily, 512 at a time bit-parallel (``routing_fields``), and cached in the
Router. The push walks hop distances farthest-first, vectorised over all switches and destinations of a
block; Python loops only over blocks and hop distances. Two blocks on equal components (the planes of a
multi-plane fabric) whose injections are equal, shifted, share one push (``_push_or_reuse``: exact, compared
array for array).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gpuplanner.engine.arrays import BoolArray, FloatArray, IndexArray, IntArray
from gpuplanner.engine.fabric.routing_alloc import keep_freed_memory
from gpuplanner.engine.fabric.routing_components import FieldSearch, SharedKey
from gpuplanner.engine.fabric.routing_fields import Arrivals, BlockFields, push
from gpuplanner.engine.fabric.routing_graph import BLOCK_FIELDS, Graph, build_graph

BITS_PER_BYTE = 8
LOADS_KEPT = 8  # link_loads results a Router remembers (one per collective kind of a workload or two)
GIGA = 1e9


@dataclass(frozen=True)
class LinkLoads:
    """Result of Router.link_loads, indexed like the links (L) and the demand rows (F)."""

    load_ab_bytes: np.ndarray  # float64[L]: bytes carried link_a → link_b
    load_ba_bytes: np.ndarray  # float64[L]: bytes carried link_b → link_a
    unroutable: np.ndarray  # bool[F]: demand rows with no path (their bytes are on no link)


@dataclass(frozen=True)
class _Plan:
    """Per-flow routing decision, shared by link_loads and hop_counts."""

    hops: np.ndarray  # int32[F], -1 = unroutable
    direct_flow: np.ndarray  # int64[...]: flow of each direct arc used
    direct_arc: np.ndarray  # int64[...]
    direct_share: np.ndarray  # float64[...]: fraction of the flow on that arc
    cand_flow: np.ndarray  # int64[C]: switched flows' first-hop candidates (chosen ones only)
    cand_node: np.ndarray  # int64[C]: switch where the traffic enters the switch fabric
    cand_arc: np.ndarray  # int64[C]: arc source → switch, -1 when the source is that switch
    cand_dist: np.ndarray  # int64[C]: hops from that switch to the destination's attachment switches
    cand_share: np.ndarray  # float64[C]
    switched: np.ndarray  # bool[F]: routed through switches


class Router:
    """Reusable routing state for one topology. Thread-safe; caches distance fields per block."""

    def __init__(self, graph: Graph) -> None:
        self._g = graph
        self._blocks: dict[int, BlockFields] = {}
        self._search = FieldSearch(graph.switches)
        self._lock = threading.Lock()
        # the last few link_loads results by digest of their demand: re-analysing after an edit that changed
        # neither the topology nor the workload routes nothing again
        self._loads: OrderedDict[str, LinkLoads] = OrderedDict()
        self.pushes_reused = 0  # blocks whose loads were moved from an equal push (tests check it happens)

    @property
    def n_nodes(self) -> int:
        return self._g.n_nodes

    @property
    def n_links(self) -> int:
        return self._g.n_links

    # ---- cached distance fields -------------------------------------------------------------------
    def _block(self, b: int) -> BlockFields:
        bf = self._blocks.get(b)
        if bf is not None:
            return bf
        with self._lock:
            if b not in self._blocks:
                g = self._g
                fields = g.block_fields(b)
                counts = g.field_ptr[fields + 1] - g.field_ptr[fields]
                init = g.field_init[_ranges(g.field_ptr[fields], counts)]
                cols = np.repeat(np.arange(fields.size), counts)
                self._blocks[b] = self._search.block(init, cols, fields.size)
            return self._blocks[b]

    def _dist(self, nodes: np.ndarray, fields: np.ndarray) -> np.ndarray:
        """Hop distance (int64, -1 = unreachable) from switch nodes[i] to field fields[i]'s switches."""
        out = np.full(nodes.size, -1, np.int64)
        size = self._g.block_size
        blocks = fields // size
        loc = self._g.switches.g2l[nodes]
        # loop over the blocks this demand touches (a handful), vectorised within each
        for b, sel in _by_block(blocks, self._g.n_blocks):
            bf = self._block(b)
            out[sel] = bf.dist_of(loc[sel], fields[sel] % size)
        return out

    # ---- per-flow plan ----------------------------------------------------------------------------
    def _direct(
        self, src: IndexArray, dst: IndexArray, same: BoolArray
    ) -> tuple[BoolArray, IndexArray, IndexArray, FloatArray]:
        """Rows joined by direct cables: (mask, row of each cable used, its arc, share of the row)."""
        g = self._g
        if g.direct_key.size:
            key = src * g.n_nodes + dst
            lo = np.searchsorted(g.direct_key, key, "left")
            n_direct = np.searchsorted(g.direct_key, key, "right") - lo
        else:
            lo = n_direct = np.zeros(src.size, np.int64)
        direct = (n_direct > 0) & ~same
        rows = np.flatnonzero(direct)
        flow = np.repeat(rows, n_direct[rows])
        return direct, flow, g.direct_arc[_ranges(lo[rows], n_direct[rows])], 1.0 / n_direct[flow]

    def _first_hops(
        self, src: IndexArray, rows: IndexArray
    ) -> tuple[IndexArray, IndexArray, IndexArray, IndexArray]:
        """Where traffic of `rows` enters the switches: the source itself if it is a switch, else each of
        its switches. Returns (candidates per row, row, switch, arc or -1), candidates of a row adjacent."""
        g = self._g
        s = src[rows]
        from_switch = g.transit[s]
        n_cand = g.up_count[s]
        if not from_switch.any():  # the usual case: every source is an endpoint
            if np.all(n_cand == 1):
                up = g.up_ptr[s]
                return n_cand, rows, g.up_node[up], g.up_arc[up]
            up = _ranges(g.up_ptr[s], n_cand)
            return n_cand, np.repeat(rows, n_cand), g.up_node[up], g.up_arc[up]
        n_cand[from_switch] = 1
        via = np.repeat(from_switch, n_cand)
        up = _ranges(g.up_ptr[s], np.where(from_switch, 0, n_cand))
        node = np.empty(via.size, np.int64)
        arc = np.full(via.size, -1, np.int64)
        node[via] = s[from_switch]
        node[~via] = g.up_node[up]
        arc[~via] = g.up_arc[up]
        return n_cand, np.repeat(rows, n_cand), node, arc

    def _plan(self, src: npt.ArrayLike, dst: npt.ArrayLike) -> _Plan:
        g = self._g
        src = np.asarray(src, dtype=np.int64).ravel()
        dst = np.asarray(dst, dtype=np.int64).ravel()
        if src.shape != dst.shape:
            raise ValueError(f"src has {src.size} entries, dst {dst.size}: they must match")
        if src.size and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= g.n_nodes):
            raise ValueError(f"src and dst must be node indices in [0, {g.n_nodes})")
        same = src == dst
        direct, direct_flow, direct_arc, direct_share = self._direct(src, dst, same)
        field = g.field_of_node[dst]
        sf = np.flatnonzero(~same & ~direct & (field >= 0))
        n_cand, cand_flow, cand_node, cand_arc = self._first_hops(src, sf)
        cand_dist = self._dist(cand_node, field[cand_flow])

        hops = np.full(src.size, -1, np.int32)
        hops[same] = 0
        hops[direct] = 1
        if cand_flow.size == sf.size and bool(np.all(n_cand == 1)):  # one entry switch per row (usual)
            ok = cand_dist >= 0
            every = bool(ok.all())
            rows = sf if every else sf[ok]
            dist = cand_dist if every else cand_dist[ok]
            hops[rows] = dist + ~g.transit[src[rows]] + ~g.transit[dst[rows]]
            switched = np.zeros(src.size, bool)
            switched[rows] = True
            return _Plan(
                hops=hops,
                direct_flow=direct_flow,
                direct_arc=direct_arc,
                direct_share=direct_share,
                cand_flow=rows,
                cand_node=cand_node if every else cand_node[ok],
                cand_arc=cand_arc if every else cand_arc[ok],
                cand_dist=dist,
                cand_share=np.ones(rows.size),
                switched=switched,
            )

        # the nearest candidates of each row (its candidates are one run of cand_flow) share the row
        big = np.iinfo(np.int64).max
        best = np.full(src.size, big)
        has = n_cand > 0
        starts = np.cumsum(n_cand) - n_cand
        best[sf[has]] = np.minimum.reduceat(np.where(cand_dist < 0, big, cand_dist), starts[has])
        chosen = (cand_dist >= 0) & (cand_dist == best[cand_flow])
        n_best = np.bincount(cand_flow[chosen], minlength=src.size)
        routed = n_best > 0
        hops[routed] = best[routed] + ~g.transit[src[routed]] + ~g.transit[dst[routed]]
        cf = cand_flow[chosen]
        return _Plan(
            hops=hops,
            direct_flow=direct_flow,
            direct_arc=direct_arc,
            direct_share=direct_share,
            cand_flow=cf,
            cand_node=cand_node[chosen],
            cand_arc=cand_arc[chosen],
            cand_dist=cand_dist[chosen],
            cand_share=1.0 / n_best[cf],
            switched=routed,
        )

    # ---- public API -------------------------------------------------------------------------------
    def hop_counts(self, src: npt.ArrayLike, dst: npt.ArrayLike) -> npt.NDArray[np.int32]:
        """Links traversed by each demand row (int32[F]); 0 when src == dst, -1 when unroutable."""
        return self._plan(src, dst).hops

    def link_loads(self, src: npt.ArrayLike, dst: npt.ArrayLike, volume: npt.ArrayLike) -> LinkLoads:
        """Bytes per link and direction for demand rows src[i] → dst[i] of volume[i] bytes.

        src, dst: node indices (normally endpoints; a switch may also send or receive); rows with
        src == dst carry nothing and are routable. Unroutable rows are flagged and load no link."""
        vol = np.asarray(volume, dtype=np.float64).ravel()
        if vol.size != np.size(src):
            raise ValueError(f"volume has {vol.size} entries for {np.size(src)} demand rows")
        if not np.all(np.isfinite(vol)) or np.any(vol < 0):
            raise ValueError("volume must be finite and non-negative (bytes)")
        src = np.asarray(src, dtype=np.int64).ravel()
        dst = np.asarray(dst, dtype=np.int64).ravel()
        key = digest(src, dst, vol)
        with self._lock:
            hit = self._loads.get(key)
            if hit is not None:
                self._loads.move_to_end(key)
        if hit is not None:  # copies: the caller owns what it gets
            return LinkLoads(hit.load_ab_bytes.copy(), hit.load_ba_bytes.copy(), hit.unroutable.copy())
        out = self._link_loads(src, dst, vol)
        with self._lock:
            self._loads[key] = LinkLoads(
                out.load_ab_bytes.copy(), out.load_ba_bytes.copy(), out.unroutable.copy()
            )
            while len(self._loads) > LOADS_KEPT:
                self._loads.popitem(last=False)
        return out

    def _link_loads(self, src: np.ndarray, dst: np.ndarray, vol: np.ndarray) -> LinkLoads:
        g = self._g
        plan = self._plan(src, dst)
        n_arcs = 2 * g.n_links
        arc_load = np.zeros(n_arcs)
        if plan.direct_arc.size:  # no cables between endpoints (the usual case): nothing to add
            arc_load += np.bincount(plan.direct_arc, vol[plan.direct_flow] * plan.direct_share, n_arcs)
        inj = vol[plan.cand_flow] * plan.cand_share
        first = plan.cand_arc >= 0
        if first.all():  # every source is an endpoint (the usual case): no selection to copy
            arc_load += np.bincount(plan.cand_arc, inj, n_arcs)
        else:
            arc_load += np.bincount(plan.cand_arc[first], inj[first], n_arcs)

        self._through_switches(plan, g.field_of_node[dst[plan.cand_flow]], inj, arc_load)

        # last hop into single-homed endpoints: everything routed to them arrives at their one switch
        to_ep = plan.switched & ~g.transit[dst]
        single = to_ep & ~g.multi_homed[dst]
        arrival = np.bincount(dst[single], vol[single], g.n_nodes)
        ep = g.up_tail
        down = np.bincount(g.up_arc ^ 1, arrival[ep] / g.up_mult * ~g.multi_homed[ep], n_arcs)
        arc_load += down

        unroutable = plan.hops < 0
        return LinkLoads(arc_load[0::2].copy(), arc_load[1::2].copy(), unroutable)

    def _through_switches(
        self, plan: _Plan, field: np.ndarray, inj: np.ndarray, arc_load: np.ndarray
    ) -> None:
        """Add the switch-to-switch loads (and last hops into multi-homed endpoints) of routed traffic."""
        g = self._g
        blocks = field // g.block_size
        rows = g.switches.g2l[plan.cand_node]
        pushed: dict[SharedKey, list[_Pushed]] = {}
        # the switch arcs' loads in CSR order: each block adds to a slice (the same additions, in the same
        # order, as adding into arc_load through the arc ids, which are distinct), scattered back once
        on_switch_arcs = arc_load[g.switches.arc]
        # loop over blocks of destination fields (≤ 512 destinations each)
        for b, sel in _by_block(blocks, g.n_blocks):
            bf = self._block(b)
            multi = bool((g.field_endpoint[g.block_fields(b)] >= 0).any())
            cols = field[sel] % g.block_size
            arcs, local, arrived, reused = _push_or_reuse(
                bf, rows[sel], cols, plan.cand_dist[sel], inj[sel], multi, pushed
            )
            self.pushes_reused += reused
            on_switch_arcs[arcs] += local
            if arrived is not None:  # last hops: switch → endpoint arcs, none of them a switch arc
                arc_load += self._last_hop_multi(b, bf.levels[0].shape[1], arrived, arc_load.size)
        arc_load[g.switches.arc] = on_switch_arcs

    def _last_hop_multi(self, b: int, width: int, arrived: Arrivals, n_arcs: int) -> np.ndarray:
        """Multi-homed destinations: each attachment switch delivers what reached it for that endpoint."""
        g = self._g
        eps = g.field_endpoint[g.block_fields(b)]
        cols = np.flatnonzero(eps >= 0)
        eps = eps[cols]
        counts = g.up_ptr[eps + 1] - g.up_ptr[eps]
        idx = _ranges(g.up_ptr[eps], counts)
        col = np.repeat(cols, counts)
        row_of = np.full(g.switches.nodes.size * width, -1, np.int64)
        row_of[arrived.node * width + arrived.word] = np.arange(arrived.node.size)
        row = row_of[g.switches.g2l[g.up_node[idx]] * width + (col >> 6)]
        hit = row >= 0
        got = arrived.amount[row[hit], col[hit] & 63] / g.up_mult[idx[hit]]
        return np.bincount(g.up_arc[idx[hit]] ^ 1, got, n_arcs)

    def diameter(self) -> int:
        """Largest hop count between two distinct endpoints that have a path (0 if no pair has one)."""
        g = self._g
        ep = np.flatnonzero(~g.transit & (g.field_of_node >= 0))
        best = 1 if g.direct_key.size else 0
        if ep.size == 0:
            return best
        # sources grouped like destinations: by their set of attachment switches (= their field's)
        fields, n_ep = np.unique(g.field_of_node[ep], return_counts=True)
        counts = g.field_ptr[fields + 1] - g.field_ptr[fields]
        init = g.field_init[_ranges(g.field_ptr[fields], counts)]
        owner = np.repeat(np.arange(fields.size), counts)
        cov_i, cov_j = self._pairs_all_direct(fields, n_ep)
        for b in np.unique(fields // g.block_size):  # loop over blocks of destination fields
            bf = self._block(int(b))
            cols = np.flatnonzero(fields // g.block_size == b)
            d = bf.dist_rows(init)[:, fields[cols] % g.block_size].astype(np.int64)
            m = np.full((fields.size, cols.size), bf.unreached, np.int64)
            np.minimum.at(m, owner, d)
            # no pair of distinct endpoints: a field alone with itself; all pairs on direct cables
            alone = (fields[:, None] == fields[cols][None, :]) & (n_ep[:, None] < 2)
            col_of = np.full(fields.size, -1, np.int64)
            col_of[cols] = np.arange(cols.size)
            here = col_of[cov_j] >= 0
            alone[cov_i[here], col_of[cov_j[here]]] = True
            valid = (m != bf.unreached) & ~alone
            if valid.any():
                best = max(best, int(m[valid].max()) + 2)
        return best

    def _pairs_all_direct(self, fields: np.ndarray, n_ep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(i, j) indices into `fields` of field pairs whose every endpoint pair has a direct cable."""
        g = self._g
        keys = np.unique(g.direct_key)
        rank = np.full(g.field_endpoint.size + 1, -1, np.int64)
        rank[fields] = np.arange(fields.size)
        fs, fd = rank[g.field_of_node[keys // g.n_nodes]], rank[g.field_of_node[keys % g.n_nodes]]
        ok = (fs >= 0) & (fd >= 0)
        pair, cables = np.unique(fs[ok] * fields.size + fd[ok], return_counts=True)
        i, j = pair // fields.size, pair % fields.size
        full = cables == n_ep[i] * n_ep[j] - np.where(i == j, n_ep[i], 0)
        return i[full], j[full]


@dataclass(frozen=True)
class _Pushed:
    """One push through a shared search, its inputs relative to its component and its loads on it."""

    rows: IndexArray  # entry switches minus the component's first switch
    cols: IndexArray
    dist: IndexArray
    amount: FloatArray
    arrivals: bool
    local: FloatArray  # loads on the component's switch arcs, in CSR order
    arrived: Arrivals | None  # node relative to the component's first switch


def _push_or_reuse(
    bf: BlockFields,
    rows: IndexArray,
    cols: IndexArray,
    dist: IndexArray,
    amount: FloatArray,
    arrivals: bool,
    pushed: dict[SharedKey, list[_Pushed]],
) -> tuple[slice, FloatArray, Arrivals | None, bool]:
    """push(), or the loads of an earlier push that had the same inputs on an equal component, moved to this
    block's component. Returns (switch arcs, in CSR positions; their loads; arrivals; whether reused).

    Exact, not approximate: two blocks share a search key only when their components' arcs are equal after
    shifting each to start at switch 0 and their attachment switches and columns are equal after the same
    shift (routing_components). push() is then a deterministic function of (rows - lo, cols, dist, amount,
    arrivals): every index it forms moves by the same shift and every sum runs in the same order. So when
    those arrays are equal element for element (compared, not hashed) the result is the same numbers on
    shifted arcs and switches. The two planes of a multi-plane fabric carrying the same traffic are this case.
    """
    place = bf.shared
    if place is None:
        local, arrived = push(bf, rows, cols, dist, amount, arrivals)
        return slice(None), local, arrived, False
    rel = rows - place.lo
    for p in pushed.get(place.key, ()):  # loop over earlier pushes through this search (one or two)
        if (
            p.arrivals == arrivals
            and np.array_equal(p.rows, rel)
            and np.array_equal(p.cols, cols)
            and np.array_equal(p.dist, dist)
            and np.array_equal(p.amount, amount)
        ):
            arrived = p.arrived
            if arrived is not None:
                arrived = Arrivals(arrived.node + place.lo, arrived.word, arrived.amount)
            return slice(place.arc_lo, place.arc_hi), p.local, arrived, True
    local, arrived = push(bf, rows, cols, dist, amount, arrivals)
    inside = slice(place.arc_lo, place.arc_hi)
    # traffic never leaves its connected component; checked, so that a reuse copies every load there is
    if np.any(local[: place.arc_lo]) or np.any(local[place.arc_hi :]):
        return slice(None), local, arrived, False
    rel_arrived = None
    if arrived is not None:
        rel_arrived = Arrivals(arrived.node - place.lo, arrived.word, arrived.amount)
    pushed.setdefault(place.key, []).append(
        _Pushed(rel, cols, dist, amount, arrivals, local[inside], rel_arrived)
    )
    return inside, local[inside], arrived, False


def digest(*arrays: np.ndarray) -> str:
    """A short hash of the arrays' dtypes, shapes and bytes (cache keys)."""
    # SHA-256 runs on the CPU's SHA extensions where present: about twice as fast as blake2b here
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape};".encode())
        h.update(a.data)
    return h.hexdigest()[:32]


def _by_block(blocks: IndexArray, n_blocks: int) -> Iterator[tuple[int, slice | IndexArray]]:
    """(block, rows of that block) for each block present; all rows at once when there is one."""
    counts = np.bincount(blocks, minlength=n_blocks)
    present = np.flatnonzero(counts)
    if present.size == 1:
        yield int(present[0]), slice(None)
        return
    # one stable sort (a radix sort on 16-bit keys) instead of a full scan per block; rows stay ascending
    order = np.argsort(blocks.astype(np.uint16) if n_blocks <= 1 << 16 else blocks, kind="stable")
    ends = np.cumsum(counts)
    for b in present:
        yield int(b), order[ends[b] - counts[b] : ends[b]]


def _ranges(starts: npt.ArrayLike, counts: npt.ArrayLike) -> IntArray:
    """Concatenation of arange(starts[i], starts[i] + counts[i])."""
    counts = np.asarray(counts, np.int64)
    total = int(counts.sum())
    return np.repeat(np.asarray(starts, np.int64) - np.cumsum(counts) + counts, counts) + np.arange(total)


def build_router(
    n_nodes: int,
    link_a: npt.ArrayLike,
    link_b: npt.ArrayLike,
    transit: npt.ArrayLike,
    *,
    block_size: int = BLOCK_FIELDS,
) -> Router:
    """Precompute what every demand on this topology reuses (arcs, switch adjacency, destination fields).

    n_nodes: nodes 0..N-1; link_a, link_b: int[L] ends of each full-duplex link; transit: bool[N], True
    for switches (may forward). block_size: destination fields computed together (memory vs. speed)."""
    keep_freed_memory()  # once per process: routing's large temporaries reuse memory without page faults
    return Router(build_graph(n_nodes, link_a, link_b, transit, block_size))


def utilization(
    loads: LinkLoads, capacity_gbps: npt.ArrayLike, window_s: float
) -> tuple[FloatArray, FloatArray]:
    """Per-direction utilisation (fraction of capacity) when the loads are carried in `window_s` seconds.
    A link with zero capacity and a positive load is np.inf."""
    cap_bps = np.asarray(capacity_gbps, dtype=np.float64) * GIGA * float(window_s)
    out = []
    for load in (loads.load_ab_bytes, loads.load_ba_bytes):
        bits = load * BITS_PER_BYTE
        u = np.divide(bits, cap_bps, out=np.zeros_like(bits), where=cap_bps > 0)
        u[(cap_bps <= 0) & (bits > 0)] = np.inf
        out.append(u)
    return out[0], out[1]
