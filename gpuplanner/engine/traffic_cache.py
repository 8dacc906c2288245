"""The routed traffic pattern of a training workload, kept between solves by whoever owns the cache (the engine
runner, in its ``EngineCache``).

A workload edit that changes only how many bytes the flows carry — the global batch, the micro-batch, the
sequence length, the precision — leaves the set of flows alone: the same (source, destination, kind) entries
on the same fabric. What depends on that set only is kept here, per pattern: the aggregation of the flows
(``perf.traffic.FlowPattern``), which flows each collective kind routes (endpoints and rows), the routes' unit
loads of each kind whose flows carry one volume, and the switch hops of each kind. The bytes are then summed
again and the loads multiplied by the new volume — the same operations a fresh analysis does on the same
arrays, so the figures are equal bit for bit (tests/unit/test_edit_oracle.py).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gpuplanner.engine.arrays import FloatArray
from gpuplanner.engine.perf.traffic import FlowPattern

IntArray = npt.NDArray[np.int64]
PATTERNS_KEPT = 4  # patterns a cache remembers (the workloads of a plan, an undo and a redo)


@dataclass
class RoutedPattern:
    """What a pattern's flows need on one fabric graph, filled in by the workload stage on first use."""

    pattern: FlowPattern | None  # None: flows made elsewhere (route_flows called on its own)
    # per collective kind present: rows of the flows it routes, their source and destination endpoints
    kinds: dict[str, tuple[IntArray, IntArray, IntArray]] | None = None
    unit: dict[str, tuple[FloatArray, FloatArray]] = field(default_factory=dict)  # graph-link unit loads
    hops: dict[str, float] | None = None


class TrafficCache:
    """Routed patterns by (fabric graph, pattern key). An entry holds its graph and router, so a key made
    with their ids cannot meet a new graph that reuses an old id."""

    def __init__(self) -> None:
        self._entries: OrderedDict[tuple[Any, ...], tuple[object, object, RoutedPattern]] = OrderedDict()

    def get(self, key: tuple[Any, ...], graph: object, router: object) -> RoutedPattern | None:
        hit = self._entries.get(key)
        if hit is None or hit[0] is not graph or hit[1] is not router:
            return None
        self._entries.move_to_end(key)
        return hit[2]

    def put(self, key: tuple[Any, ...], graph: object, router: object, routed: RoutedPattern) -> None:
        self._entries[key] = (graph, router, routed)
        while len(self._entries) > PATTERNS_KEPT:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()
