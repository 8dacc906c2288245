"""Straightforward per-destination ECMP on a NetworkX graph: the reference the vectorised router is
tested against, and the baseline it is benchmarked against.

For each destination: a breadth-first search from it that expands only switches (and the destination
itself), then traffic of every source toward it is pushed node by node in order of decreasing distance,
split equally over the neighbours one hop closer that may forward (switches, or the destination).
Parallel links are not modelled (nx.Graph); use simple graphs with it.
"""

from __future__ import annotations

from collections import defaultdict, deque

import networkx as nx
import numpy as np


def to_networkx(n_nodes: int, link_a, link_b, transit) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from((v, {"transit": bool(t)}) for v, t in zip(range(n_nodes), transit, strict=True))
    g.add_edges_from(
        (int(a), int(b), {"link": i, "a": int(a)})
        for i, (a, b) in enumerate(zip(link_a, link_b, strict=True))
    )
    return g


def _distances(g: nx.Graph, dest: int) -> dict[int, int]:
    dist = {dest: 0}
    queue = deque([dest])
    while queue:
        v = queue.popleft()
        if v != dest and not g.nodes[v]["transit"]:
            continue  # an endpoint is reached but never forwards
        for u in g.adj[v]:
            if u not in dist:
                dist[u] = dist[v] + 1
                queue.append(u)
    return dist


def ecmp_link_loads(g: nx.Graph, n_links: int, src, dst, volume):
    """(load_ab_bytes, load_ba_bytes, unroutable, hops) for the demand, one destination at a time."""
    load = np.zeros((n_links, 2))
    unroutable = np.zeros(len(src), bool)
    hops = np.full(len(src), -1, np.int32)
    by_dest: dict[int, list[int]] = defaultdict(list)
    for i, d in enumerate(dst):
        by_dest[int(d)].append(i)
    for d, rows in by_dest.items():
        dist = _distances(g, d)
        buckets: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        for i in rows:
            s = int(src[i])
            if s == d:
                hops[i] = 0
            elif s in dist:
                hops[i] = dist[s]
                buckets[dist[s]][s] += float(volume[i])
            else:
                unroutable[i] = True
        for level in range(max(buckets, default=0), 0, -1):
            for v, amount in buckets[level].items():
                nxt = [
                    u for u in g.adj[v] if dist.get(u, -1) == level - 1 and (u == d or g.nodes[u]["transit"])
                ]
                share = amount / len(nxt)
                for u in nxt:
                    edge = g.edges[v, u]
                    load[edge["link"], 0 if edge["a"] == v else 1] += share
                    buckets[level - 1][u] += share
    return load[:, 0], load[:, 1], unroutable, hops


def ecmp_reference(n_nodes: int, link_a, link_b, transit, src, dst, volume):
    """Convenience: build the graph and route the demand."""
    return ecmp_link_loads(to_networkx(n_nodes, link_a, link_b, transit), len(link_a), src, dst, volume)
