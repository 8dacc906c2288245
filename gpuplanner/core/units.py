"""Unit conversions at the edges. Inside the engine everything is SI with the unit in the name."""

from __future__ import annotations

W_PER_KW = 1000.0
CFM_PER_M3_PER_H = 1.0 / 1.699011  # 1 CFM = 1.699011 m³/h
BITS_PER_BYTE = 8.0
SECONDS_PER_HOUR = 3600.0
HOURS_PER_YEAR = 8760.0


def gbps_to_gbyte_per_s(gbps: float) -> float:
    """Gigabits per second → gigabytes per second."""
    return gbps / BITS_PER_BYTE


def gbyte_per_s_to_gbps(gbyte_per_s: float) -> float:
    return gbyte_per_s * BITS_PER_BYTE


def m3_per_h_to_cfm(m3_per_h: float) -> float:
    return m3_per_h * CFM_PER_M3_PER_H


def cfm_to_m3_per_h(cfm: float) -> float:
    return cfm / CFM_PER_M3_PER_H


def fahrenheit_delta_to_kelvin(delta_f: float) -> float:
    return delta_f * 5.0 / 9.0
