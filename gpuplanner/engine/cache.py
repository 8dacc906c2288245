"""The engine's caches, owned by whoever holds them (the engine runner holds one and drops it on close).

Nothing in the engine keeps state between calls on its own: a caller that re-analyses the same project many
times (the desktop, through its runner) passes an ``EngineCache``; every other caller (the CLI, the advisor,
tests) gets a cold analysis. Both give the same figures — the cached items are pure functions of their keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpuplanner.engine.compiled import LinkRowCache
from gpuplanner.engine.fabric.network import TopologyCache
from gpuplanner.engine.traffic_cache import TrafficCache


@dataclass
class EngineCache:
    link_rows: LinkRowCache = field(default_factory=LinkRowCache)  # link columns of the last compile
    topologies: TopologyCache = field(default_factory=TopologyCache)  # routers and hop histograms
    traffic: TrafficCache = field(default_factory=TrafficCache)  # routed flow patterns of the workloads

    def clear(self) -> None:
        self.link_rows.clear()
        self.topologies.clear()
        self.traffic.clear()
