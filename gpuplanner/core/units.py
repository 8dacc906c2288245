"""Conversion factors used at the edges. Inside the engine everything is SI with the unit in the name."""

from __future__ import annotations

CFM_PER_M3_PER_H = 1.0 / 1.699011  # 1 CFM = 1.699011 m³/h
BITS_PER_BYTE = 8.0
SECONDS_PER_HOUR = 3600.0
HOURS_PER_YEAR = 8760.0
