"""A straightforward numpy ECMP: the reference the router is compared with at 4k-16k GPUs in
``benchmarks/bench_routing.py``, where the per-flow NetworkX oracle would take hours.

Same rule as ``tests/oracles/ecmp_oracle.py`` (per-hop even split over every arc one hop closer; only switches
forward), evaluated one *destination group* at a time with whole-array numpy steps and no bit tricks, caches
or sparse products:

* An endpoint attached to a single switch w is reached only through w, and ECMP toward it splits exactly
  as ECMP toward w does, then takes the last hop(s) w → endpoint (split over parallel links). So flows to
  all endpoints of w form one group. An endpoint attached to several switches is a group of its own.
* Per group: a breadth-first search over the switch graph from the group's switches (distance 0 there),
  one level at a time over *all* switch arcs; then the traffic is pushed from the farthest level down,
  each level again over all switch arcs: every switch holding traffic splits it equally over its arcs to
  switches one level closer.
* A source endpoint enters through its arcs to the nearest of its switches (equal split per arc).

Scope (asserted): demand between endpoints (not switches) and no endpoint-to-endpoint cables — the fat
trees and planes the benchmark builds. The oracle suite checks this reference against the NetworkX oracle.
"""

from __future__ import annotations

import numpy as np


def ecmp_numpy(n_nodes: int, link_a, link_b, transit, src, dst, volume):
    """(load_ab_bytes, load_ba_bytes, unroutable) for the demand."""
    a = np.asarray(link_a, np.int64)
    b = np.asarray(link_b, np.int64)
    t = np.asarray(transit, bool)
    src = np.asarray(src, np.int64)
    dst = np.asarray(dst, np.int64)
    vol = np.asarray(volume, np.float64)
    if t[src].any() or t[dst].any():
        raise NotImplementedError("numpy reference: demand must be between endpoints")
    if (~t[a] & ~t[b]).any():
        raise NotImplementedError("numpy reference: no endpoint-to-endpoint cables")
    tail = np.concatenate([a, b])  # arc i: link i a→b; arc L + i: link i b→a
    head = np.concatenate([b, a])
    n_links = a.size
    load = np.zeros(2 * n_links)
    sw_arc = np.flatnonzero(t[tail] & t[head])
    up_arc = np.flatnonzero(~t[tail] & t[head])  # endpoint → switch
    down_arc = np.flatnonzero(t[tail] & ~t[head])  # switch → endpoint

    # destination groups: (switch) for single-homed endpoints, (endpoint) for multi-homed ones
    n_sw_of = np.zeros(n_nodes, np.int64)
    pairs = np.unique(tail[up_arc] * n_nodes + head[up_arc])
    np.add.at(n_sw_of, pairs // n_nodes, 1)
    only_switch = np.full(n_nodes, -1, np.int64)
    single = n_sw_of[pairs // n_nodes] == 1
    only_switch[pairs[single] // n_nodes] = pairs[single] % n_nodes

    keep = src != dst
    unroutable = np.zeros(src.size, bool)
    group = np.where(only_switch[dst] >= 0, only_switch[dst], n_nodes + dst)
    group[~keep] = -1
    for g in np.unique(group[group >= 0]):  # one destination group at a time
        rows = np.flatnonzero(group == g)
        if g < n_nodes:
            field = np.array([g])
        else:
            d = g - n_nodes
            field = np.unique(head[up_arc][tail[up_arc] == d])
        dist = _bfs(n_nodes, tail[sw_arc], head[sw_arc], field)
        # first hop: each source's arcs to its nearest switches that reach the group
        reach = dist[head[up_arc]]
        best = np.full(n_nodes, np.iinfo(np.int64).max)
        np.minimum.at(best, tail[up_arc][reach >= 0], reach[reach >= 0])
        chosen = up_arc[(reach >= 0) & (reach == best[tail[up_arc]])]
        n_chosen = np.bincount(tail[chosen], minlength=n_nodes)
        unroutable[rows] = n_chosen[src[rows]] == 0
        ok = rows[~unroutable[rows]]
        sent = np.bincount(src[ok], vol[ok], n_nodes)
        share = sent[tail[chosen]] / n_chosen[tail[chosen]]
        load[chosen] += share  # distinct arcs: plain += is exact
        x = np.bincount(head[chosen], share, n_nodes)
        # switch to switch, farthest level first
        st, sh = tail[sw_arc], head[sw_arc]
        closer = (dist[st] > 0) & (dist[sh] == dist[st] - 1)
        n_next = np.bincount(st[closer], minlength=n_nodes)
        for level in range(int(dist.max(initial=0)), 0, -1):
            use = closer & (dist[st] == level) & (x[st] > 0)
            share = x[st[use]] / n_next[st[use]]
            load[sw_arc[use]] += share
            x += np.bincount(sh[use], share, n_nodes)
            x[dist == level] = 0.0
        # last hop
        if g < n_nodes:  # endpoints of switch g: each receives its routed flows' bytes
            got = np.bincount(dst[ok], vol[ok], n_nodes)
            arcs = down_arc[tail[down_arc] == g]
            mult = np.bincount(head[arcs], minlength=n_nodes)
            load[arcs] += got[head[arcs]] / np.maximum(mult[head[arcs]], 1)
        else:  # a multi-homed endpoint: what reached each of its switches, split over that switch's arcs
            arcs = down_arc[head[down_arc] == g - n_nodes]
            mult = np.bincount(tail[arcs], minlength=n_nodes)
            load[arcs] += x[tail[arcs]] / mult[tail[arcs]]
    return load[:n_links].copy(), load[n_links:].copy(), unroutable


def _bfs(n_nodes: int, tail: np.ndarray, head: np.ndarray, field: np.ndarray) -> np.ndarray:
    """Hop distance over the switch arcs from any switch of `field` (-1 = unreached)."""
    dist = np.full(n_nodes, -1, np.int64)
    dist[field] = 0
    level = 0
    frontier = np.zeros(n_nodes, bool)
    frontier[field] = True
    while frontier.any():  # one BFS level per pass, over all arcs
        nxt = np.zeros(n_nodes, bool)
        nxt[tail[frontier[head]]] = True
        nxt &= dist < 0
        level += 1
        dist[nxt] = level
        frontier = nxt
    return dist
