"""Per-flow ECMP by NetworkX shortest paths: the slow, obvious reference the vectorised router
(``gpuplanner.engine.fabric.routing``) is compared against, link by link and direction by direction.

Definition of ECMP (the engine's rule, written out; ``engine/fabric/routing.py`` module docstring):

* The network is a multigraph: nodes 0..N-1, ``transit[v]`` True for switches; link i joins
  ``link_a[i]`` and ``link_b[i]`` and has two arcs, a→b and b→a, each with its own load. Parallel links
  between the same two nodes are separate arcs. A link row is one arc per direction whatever its
  multiplicity (cables in the row): ECMP counts link rows, not cables.
* Only switches forward. A path from s to d may pass through switches only; s and d are its ends.
* A flow (s, d, v bytes) with s == d loads nothing (0 hops). Otherwise its hop distance is the length of
  a shortest path from s to d in that graph; no such path: the flow is *unroutable* and loads nothing.
* Per-hop even split, as switches hash: at the source and at every switch the traffic reaches, the
  amount held there is split equally over *every arc* (every link row) from that node to a neighbour
  that is one hop closer to d (and may carry it: a switch, or d itself). Equal-cost paths therefore do
  not get equal shares when their branching differs; the split is per hop, not per path.

Implementation: for each flow, the distances to d are those of a breadth-first search from d in the
subgraph of switches plus d (``nx.single_source_shortest_path_length``; cached per destination, since they
do not depend on the source); the flow's bytes are then pushed from s level by level toward d. One flow at
a time, plain Python: minutes for thousands of GPUs, so tests keep to small fabrics.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import networkx as nx
import numpy as np


@dataclass(frozen=True)
class OracleLoads:
    load_ab_bytes: np.ndarray  # float64[L]
    load_ba_bytes: np.ndarray  # float64[L]
    unroutable: np.ndarray  # bool[F]
    hops: np.ndarray  # int32[F], -1 unroutable


def to_multigraph(n_nodes: int, link_a, link_b, transit) -> nx.MultiGraph:
    """Nodes with a ``transit`` flag; one edge per link row, keyed by the row, remembering its a end."""
    g = nx.MultiGraph()
    g.add_nodes_from((v, {"transit": bool(transit[v])}) for v in range(int(n_nodes)))
    for i, (a, b) in enumerate(zip(np.asarray(link_a).tolist(), np.asarray(link_b).tolist(), strict=True)):
        g.add_edge(a, b, key=i, a=a)
    return g


class EcmpOracle:
    """Routes flows one at a time on a NetworkX multigraph (see the module docstring for the rule)."""

    def __init__(self, g: nx.MultiGraph, n_links: int) -> None:
        self.g = g
        self.n_links = n_links
        # the switches alone (a copy: BFS on a filtered subgraph view is several times slower)
        self._fabric = nx.Graph(g.subgraph([v for v, t in g.nodes(data="transit") if t]))
        self._dist: dict[int, dict[int, int]] = {}

    def distances(self, d: int) -> dict[int, int]:
        """Hop distance to d of every switch (and of d) that reaches d through switches only: a BFS from d
        in the subgraph of the switches plus d."""
        if d not in self._dist:
            h = self._fabric
            added = d not in h
            if added:
                h.add_edges_from((d, u) for u in self.g.adj[d] if u in h)
                h.add_node(d)
            self._dist[d] = nx.single_source_shortest_path_length(h, d)
            if added:
                h.remove_node(d)
        return self._dist[d]

    def _closer_arcs(self, v: int, dist: dict[int, int], level: int) -> list[tuple[int, int, int]]:
        """(neighbour, link row, direction 0 = a→b / 1 = b→a) of every arc from v one hop closer to d."""
        out = []
        for u, edges in self.g.adj[v].items():
            if u != v and dist.get(u, -1) == level - 1:
                out.extend((u, link, 0 if data["a"] == v else 1) for link, data in edges.items())
        return out

    def hop_count(self, s: int, d: int) -> int:
        """Links on a shortest path from s to d through switches only (0 if s == d, -1 if none)."""
        if s == d:
            return 0
        dist = self.distances(d)
        if s in dist:  # a switch
            return dist[s]
        # an endpoint: one hop to a neighbour that reaches d (d itself over a direct cable)
        near = [dist[u] for u in self.g.adj[s] if u in dist]
        return 1 + min(near) if near else -1

    def route(self, s: int, d: int, volume: float, load: np.ndarray) -> int:
        """Adds one flow's bytes to load[link, direction]; returns its hop count (-1 unroutable)."""
        start = self.hop_count(s, d)
        if start <= 0:
            return start
        dist = self.distances(d)
        held: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        held[start][s] = float(volume)
        for level in range(start, 0, -1):
            for v, amount in held[level].items():
                arcs = self._closer_arcs(v, dist, level)
                share = amount / len(arcs)
                for u, link, direction in arcs:
                    load[link, direction] += share
                    held[level - 1][u] += share
        return start

    def link_loads(self, src, dst, volume) -> OracleLoads:
        load = np.zeros((self.n_links, 2))
        hops = np.array(
            [self.route(int(s), int(d), float(v), load) for s, d, v in zip(src, dst, volume, strict=True)],
            dtype=np.int32,
        ).reshape(-1)
        return OracleLoads(load[:, 0].copy(), load[:, 1].copy(), hops < 0, hops)


def ecmp_per_flow(n_nodes: int, link_a, link_b, transit, src, dst, volume) -> OracleLoads:
    """Convenience: build the multigraph and route the demand."""
    oracle = EcmpOracle(to_multigraph(n_nodes, link_a, link_b, transit), len(link_a))
    return oracle.link_loads(src, dst, volume)


def max_relative_error(engine: np.ndarray, oracle: np.ndarray, floor: float) -> float:
    """max |engine - oracle| / max(|oracle|, floor) over links (floor: bytes below which a load counts as 0)."""
    if not engine.size:
        return 0.0
    return float(np.max(np.abs(engine - oracle) / np.maximum(np.abs(oracle), floor)))
