"""GPU Planner: an offline planner for GPU clusters (fabric, performance, power, cooling, cost)."""

__version__ = "0.1.0"
