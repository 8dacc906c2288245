"""Power stage: each device's draw at idle / typical / max and at the predicted load, summed per rack and per
row with ``np.bincount``; PSU redundancy per device and A/B feed redundancy per rack.

Server draw model (constants in ``catalogs/assumptions/facility.yaml``)::

    S_gpu  = gpu_count × (gpu_tdp_w − gpu_idle_w)            the GPUs' swing, capped at max − idle
    S_rest = power_max_w − power_idle_w − S_gpu                CPUs, fans, memory, NICs, drives
    k      = (power_typical_w − idle − S_gpu) / S_rest         clipped to 0–1: share of S_rest at full load
    draw(u) = idle + (S_gpu + k × S_rest) × u                  u = GPU utilisation 0–1

so a server draws its catalog ``power_typical_w`` (sustained training) at u = 1, its idle figure at u = 0 and
never more than ``power_max_w``; the GPUs carry the whole of their swing, the rest of the server only ``k`` of
its own. Switches, storage and other devices draw their typical figure whatever the GPUs do. Catalog watts
are wall (PDU) watts, so no PSU efficiency is applied.

Invariant (tests/unit/test_power.py): Σ device draw = Σ rack kW + unracked kW = Σ row kW + unracked kW = IT kW.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpuplanner.engine.arrays import BoolArray

# the stages import these from here (engine/assumptions.py is the one loader)
from gpuplanner.engine.assumptions import Assumptions as Assumptions
from gpuplanner.engine.assumptions import load_assumptions as load_assumptions
from gpuplanner.engine.compiled import KIND_CODES, Compiled

SERVER = KIND_CODES["server"]
_EPS_KW = 1e-9


# -- device draw --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DeviceDraw:
    """Watts per device, in compiled row order."""

    idle_w: np.ndarray
    typical_w: np.ndarray
    max_w: np.ndarray
    load_w: np.ndarray


def device_draw_w(
    compiled: Compiled, gpu_util: np.ndarray | float, assumptions: Assumptions | None = None
) -> DeviceDraw:
    """Each device's draw at idle, typical, max and at GPU utilisation ``gpu_util`` (scalar or per device)."""
    a = assumptions or load_assumptions("facility")
    d = compiled.devices
    server = d.kind == SERVER
    mx = np.maximum(d.power_max_w, np.maximum(d.power_typical_w, d.power_idle_w))
    typ = np.where(d.power_typical_w > 0, d.power_typical_w, mx)
    idle_fallback = np.where(server, a.number("server_idle_fraction_fallback") * mx, typ)
    idle = np.where(d.power_idle_w > 0, d.power_idle_w, idle_fallback)
    idle = np.minimum(idle, typ)
    swing = mx - idle
    s_gpu = np.minimum(d.gpu_count * np.maximum(d.gpu_tdp_w - d.gpu_idle_w, 0.0), swing)
    s_rest = swing - s_gpu
    k_solved = np.divide(typ - idle - s_gpu, s_rest, out=np.zeros_like(s_rest), where=s_rest > 0)
    k = np.where(d.power_typical_w > 0, np.clip(k_solved, 0.0, 1.0), a.number("server_rest_fraction_at_full"))
    u = np.clip(np.broadcast_to(np.asarray(gpu_util, dtype=np.float64), mx.shape), 0.0, 1.0)
    load = np.where(server, idle + (s_gpu + k * s_rest) * u, typ)
    return DeviceDraw(idle_w=idle, typical_w=typ, max_w=mx, load_w=load)


# -- result ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PowerResult:
    """Device, rack and row power in compiled row order, plus totals. kW per rack/row/total, W per device."""

    device_idle_w: np.ndarray
    device_typical_w: np.ndarray
    device_max_w: np.ndarray
    device_load_w: np.ndarray
    device_rack: np.ndarray  # int32 rack row per device (-1 = unracked); moved by update_rack_of
    psu_capacity_w: np.ndarray  # N × psu_rating_w (0 = unknown)
    psu_ok: np.ndarray  # bool: N PSUs carry power_max_w (True where unknown)
    rack_kw_idle: np.ndarray
    rack_kw_load: np.ndarray
    rack_kw_typical: np.ndarray
    rack_kw_max: np.ndarray
    rack_budget_kw: np.ndarray  # NaN = no budget
    rack_feed_kw: np.ndarray  # capacity left after losing one feed; NaN = unknown (no PDU data)
    row_labels: list[str]
    rack_row: np.ndarray  # int32 index into row_labels per rack
    row_kw_idle: np.ndarray
    row_kw_load: np.ndarray
    row_kw_typical: np.ndarray
    row_kw_max: np.ndarray
    unracked_kw_idle: float
    unracked_kw_load: float
    unracked_kw_typical: float
    unracked_kw_max: float
    it_kw_idle: float
    it_kw_load: float
    it_kw_typical: float
    it_kw_max: float

    @property
    def rack_over_budget(self) -> np.ndarray:
        """Rack kW at the predicted load above its budget."""
        return self.rack_kw_load > self.rack_budget_kw + _EPS_KW

    @property
    def rack_over_budget_max(self) -> np.ndarray:
        """Rack kW at nameplate maximum above its budget."""
        return self.rack_kw_max > self.rack_budget_kw + _EPS_KW

    @property
    def rack_feed_ok(self) -> np.ndarray:
        """The rack's maximum kW survives the loss of one feed (True where PDU data is missing)."""
        return ~(self.rack_kw_max > self.rack_feed_kw + _EPS_KW)

    @property
    def rack_feed_known(self) -> BoolArray:
        known: BoolArray = ~np.isnan(self.rack_feed_kw)
        return known


_QUANTITIES = ("idle", "load", "typical", "max")


def compute_power(
    compiled: Compiled, gpu_util: np.ndarray | float, assumptions: Assumptions | None = None
) -> PowerResult:
    """The power stage. ``gpu_util``: predicted GPU utilisation (per device or one number, e.g. site.load_factor)."""
    a = assumptions or load_assumptions("facility")
    d, r = compiled.devices, compiled.racks
    draw = device_draw_w(compiled, gpu_util, a)
    nr = len(r.ids)
    # Unracked devices go to an extra bucket nr, so one bincount per quantity gives racks and the rest.
    bucket = np.where(d.rack >= 0, d.rack, nr)
    sums = {
        q: np.bincount(bucket, weights=getattr(draw, f"{q}_w"), minlength=nr + 1) / 1000.0
        for q in _QUANTITIES
    }
    labels, rack_row = _row_index(r.row_label)
    nrow = len(labels)
    rows = {q: np.bincount(rack_row, weights=sums[q][:nr], minlength=nrow) for q in _QUANTITIES}
    surviving = np.where(r.pdu_count > 0, r.pdu_count // int(a.number("feeds_per_rack")), 0)
    feed_kw = np.where(r.pdu_count > 0, r.pdu_capacity_kw * a.number("pdu_derate") * surviving, np.nan)
    psu_cap = d.psu_needed.astype(np.float64) * d.psu_rating_w
    known = d.psu_count > 0
    psu_ok = ~known | ((psu_cap >= draw.max_w - 1e-6) & (d.psu_count >= d.psu_needed))
    totals = {q: float(getattr(draw, f"{q}_w").sum() / 1000.0) for q in _QUANTITIES}
    return PowerResult(
        device_idle_w=draw.idle_w,
        device_typical_w=draw.typical_w,
        device_max_w=draw.max_w,
        device_load_w=draw.load_w,
        device_rack=d.rack.astype(np.int32, copy=True),
        psu_capacity_w=psu_cap,
        psu_ok=psu_ok,
        rack_kw_idle=sums["idle"][:nr],
        rack_kw_load=sums["load"][:nr],
        rack_kw_typical=sums["typical"][:nr],
        rack_kw_max=sums["max"][:nr],
        rack_budget_kw=r.budget_kw.astype(np.float64, copy=True),
        rack_feed_kw=feed_kw,
        row_labels=labels,
        rack_row=rack_row,
        row_kw_idle=rows["idle"],
        row_kw_load=rows["load"],
        row_kw_typical=rows["typical"],
        row_kw_max=rows["max"],
        unracked_kw_idle=float(sums["idle"][nr]),
        unracked_kw_load=float(sums["load"][nr]),
        unracked_kw_typical=float(sums["typical"][nr]),
        unracked_kw_max=float(sums["max"][nr]),
        it_kw_idle=totals["idle"],
        it_kw_load=totals["load"],
        it_kw_typical=totals["typical"],
        it_kw_max=totals["max"],
    )


def _row_index(labels: list[str]) -> tuple[list[str], np.ndarray]:
    """Sorted distinct row labels and each rack's index into them."""
    distinct = sorted(set(labels))
    pos = {lab: i for i, lab in enumerate(distinct)}
    return distinct, np.fromiter(map(pos.__getitem__, labels), dtype=np.int32, count=len(labels))


def update_rack_of(result: PowerResult, device_row: int, new_rack: int) -> PowerResult:
    """The result after moving one device to rack row ``new_rack`` (-1 = out of any rack)."""
    return move_devices(result, np.array([device_row]), np.array([new_rack]))


def move_devices(result: PowerResult, device_rows: np.ndarray, new_racks: np.ndarray) -> PowerResult:
    """The result after moving devices to other rack rows (-1 = out of any rack): the device draws are kept
    and only the racks the devices left or entered are summed again, plus the per-row sums over racks (no
    device draw is recomputed). Each touched rack is re-summed from its devices in device order, as
    ``compute_power``'s ``np.bincount`` does, so the figures equal a full recompute to the last bit."""
    rows = np.asarray(device_rows, dtype=np.int64)
    new = np.asarray(new_racks, dtype=np.int64)
    nr = len(result.rack_kw_max)
    if len(new) and (new.max() >= nr or new.min() < -1):
        raise IndexError(f"rack row {int(new.max() if new.max() >= nr else new.min())} out of range")
    old = result.device_rack[rows]
    if np.array_equal(old, new):
        return result
    dev_rack = result.device_rack.copy()
    dev_rack[rows] = new
    touched = np.unique(np.concatenate([old, new]))
    changes: dict[str, Any] = {"device_rack": dev_rack}
    for q in _QUANTITIES:
        w = getattr(result, f"device_{q}_w")
        rack = getattr(result, f"rack_kw_{q}").copy()
        unracked = getattr(result, f"unracked_kw_{q}")
        for r in touched.tolist():
            sel = w[dev_rack == r]
            kw = float(np.bincount(np.zeros(len(sel), np.int64), weights=sel, minlength=1)[0])
            if r >= 0:
                rack[r] = kw / 1000.0
            else:
                unracked = kw / 1000.0
        changes[f"rack_kw_{q}"] = rack
        changes[f"row_kw_{q}"] = np.bincount(result.rack_row, weights=rack, minlength=len(result.row_labels))
        changes[f"unracked_kw_{q}"] = unracked
    return dataclasses.replace(result, **changes)
