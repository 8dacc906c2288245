"""Electrical and plant findings: a rack whose side current needs more than one rack feed, a row beyond the
largest busway, a rack whose liquid heat exceeds one CDU, and switch ports left unused at scale. Each names its
items and a fix; texts in English and Chinese."""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.checks.findings import Finding, register_templates
from gpuplanner.engine.compiled import Compiled
from gpuplanner.engine.facility.electrical import ElectricalResult
from gpuplanner.engine.facility.power import load_assumptions
from gpuplanner.engine.facility.thermal import ThermalResult

TEMPLATES: dict[str, dict[str, dict[str, str]]] = {
    "rack-needs-several-circuits": {
        "message": {
            "en": "{count} rack(s), e.g. {rack}, draw up to {kw_max} kW: each side (A or B) carries {current_a} A, "
            "which needs {circuits} feeds of {feed_a} A at 80 % continuous load; the racks have {pdus_per_side} "
            "rack PDU(s) per side.",
            "zh": "{count} 个机柜（如 {rack}）最大功耗 {kw_max} kW：每一路（A 或 B）电流 {current_a} A，"
            "按 80% 持续负载需要 {circuits} 条 {feed_a} A 回路，而这些机柜每路只有 {pdus_per_side} 个机柜 PDU。",
        },
        "fix": {
            "en": "Provide {circuits} circuits per side (with as many PDUs per side), or feed the rack from a "
            "busway tap-off rated for it.",
            "zh": "每一路配置 {circuits} 条回路（每路相应数量的 PDU），或从额定容量足够的母线槽插接箱取电。",
        },
    },
    "row-busway-over-rating": {
        "message": {
            "en": "Row {row} draws up to {kw_max} kW: each side carries {current_a} A, more than the largest "
            "busway ({busway_a} A) takes at 80 % continuous load.",
            "zh": "第 {row} 列最大功耗 {kw_max} kW：每一路电流 {current_a} A，"
            "超过最大规格母线槽（{busway_a} A）在 80% 持续负载下的能力。",
        },
        "fix": {
            "en": "Run {count} busways per side over this row, or split its racks over more rows.",
            "zh": "该列每一路敷设 {count} 条母线槽，或将机柜分到更多列。",
        },
    },
    "switch-ports-unused": {
        "message": {
            "en": "{free} of the {ports} fabric switch ports ({pct} %) are unused on {switches} switches.",
            "zh": "{switches} 台交换机的 {ports} 个网络端口中有 {free} 个（{pct}%）未使用。",
        },
        "fix": {
            "en": "Use fewer or smaller switches (e.g. more rails per leaf), or keep the ports on purpose for "
            "planned growth and say so in the proposal.",
            "zh": "减少交换机数量或选用更小的交换机（例如每台叶交换机承载多个轨道）；若为规划中的扩容预留，请在方案中说明。",
        },
    },
    "rack-budget-above-rating": {
        "message": {
            "en": "{count} rack(s), e.g. {rack}, have a power budget of {budget_kw} kW, above the {rated_kw} kW "
            "the rack type {type} is rated for.",
            "zh": "{count} 个机柜（如 {rack}）的功率预算为 {budget_kw} kW，高于机柜型号 {type} 的额定 {rated_kw} kW。",
        },
        "fix": {
            "en": "Confirm the rack, its PDUs and the room can take the raised budget, or keep the rated one.",
            "zh": "请确认机柜、PDU 和机房能承受提高后的预算，否则保持额定值。",
        },
    },
    "rack-liquid-over-cdu": {
        "message": {
            "en": "Rack {rack} sends {liquid_kw} kW to liquid, more than one CDU ({cdu_kw} kW) removes.",
            "zh": "机柜 {rack} 液冷散热 {liquid_kw} kW，超过单台 CDU 的能力（{cdu_kw} kW）。",
        },
        "fix": {
            "en": "Feed the rack from two CDUs on a shared manifold, or choose a larger CDU.",
            "zh": "通过共用分水器由两台 CDU 为该机柜供液，或选用更大容量的 CDU。",
        },
    },
}
register_templates(TEMPLATES)


def _r(x: float) -> float:
    return round(float(x), 1)


def electrical_findings(c: Compiled, e: ElectricalResult, thermal: ThermalResult) -> list[Finding]:
    a = load_assumptions("electrical")
    out: list[Finding] = []
    feed_a = a.number("rack_feed_max_a")
    # a rack whose PDUs already give one circuit per needed feed on each side is fine
    pdus_per_side = c.racks.pdu_count.astype(np.int64) // int(
        load_assumptions("facility").number("feeds_per_rack")
    )
    bad = np.flatnonzero((e.rack_circuits_per_side > 1) & (e.rack_circuits_per_side > pdus_per_side))
    groups: dict[tuple, list[int]] = {}  # one finding per (current, circuits, PDUs): a row of equal racks
    for i in bad:
        key = (_r(e.rack_side_current_a[i]), int(e.rack_circuits_per_side[i]), int(pdus_per_side[i]))
        groups.setdefault(key, []).append(int(i))
    pf = a.number("it_power_factor")
    for (amps, circuits, per_side), rows in groups.items():
        i = rows[0]
        params = {
            "count": len(rows),
            "rack": c.racks.names[i],
            "kw_max": _r(e.rack_side_current_a[i] * np.sqrt(3) * e.voltage_v * pf / 1000),
            "current_a": amps,
            "feed_a": _r(feed_a),
            "circuits": circuits,
            "pdus_per_side": per_side,
        }
        out.append(
            Finding("warning", "rack-needs-several-circuits", tuple(c.racks.ids[k] for k in rows), params)
        )
    for row in e.rows:
        if row["busways_per_side"] > 1:
            racks = tuple(
                rid for rid, r in zip(c.racks.ids, c.racks.row_label, strict=True) if r == row["row"]
            )
            params = {
                "row": row["row"],
                "kw_max": _r(row["kw_max"]),
                "current_a": _r(row["side_current_a"]),
                "busway_a": _r(max(a.value("busway_ratings_a"))),
                "count": row["busways_per_side"],
            }
            out.append(Finding("warning", "row-busway-over-rating", racks, params))
    cdu_kw = a.number("cdu_capacity_kw")
    liquid = thermal.rack_liquid_kw_max + thermal.rack_loop_kw_max
    for i in np.flatnonzero(liquid > cdu_kw + 1e-9):
        params = {"rack": c.racks.names[i], "liquid_kw": _r(liquid[i]), "cdu_kw": _r(cdu_kw)}
        out.append(Finding("warning", "rack-liquid-over-cdu", (c.racks.ids[i],), params))
    return out


UNUSED_PORTS_SHARE = 0.25  # a quarter of the fabric ports idle is worth a sentence in the proposal


def unused_port_findings(c: Compiled, port_use: list) -> list[Finding]:
    """Free ports on compute/storage fabric switches (management switches excluded: their spare ports are
    normal). ``port_use``: engine.network.PortUse rows."""
    from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES

    mgmt = ROLE_CODES.get("management", -1)
    sw = (c.devices.kind == KIND_CODES["switch"]) & (c.devices.role != mgmt)
    rows = [p for p in port_use if sw[p.device_row]]
    ports = sum(p.ports for p in rows)
    free = sum(max(0.0, p.ports - p.used) for p in rows)
    if ports <= 0 or free / ports <= UNUSED_PORTS_SHARE:
        return []
    devs = sorted({p.device_row for p in rows})
    params = {
        "free": int(round(free)),
        "ports": int(ports),
        "pct": round(100.0 * free / ports),
        "switches": len(devs),
    }
    return [Finding("warning", "switch-ports-unused", tuple(c.devices.ids[i] for i in devs[:50]), params)]


def budget_raised_findings(c: Compiled, catalog) -> list[Finding]:
    """Racks whose budget was set above their rack type's rating: said once per (type, budget)."""
    groups: dict[tuple[str, float, float], list[int]] = {}
    for i, t in enumerate(c.racks.type_ids):
        rated = getattr(catalog.entries.get(t), "power_budget_kw", None)
        b = float(c.racks.budget_kw[i])
        if rated and b == b and b > float(rated) + 1e-9:
            groups.setdefault((t, b, float(rated)), []).append(i)
    out = []
    for (t, b, rated), rows in groups.items():
        params = {
            "count": len(rows),
            "rack": c.racks.names[rows[0]],
            "budget_kw": _r(b),
            "rated_kw": _r(rated),
            "type": getattr(catalog.entries.get(t), "name", t),
        }
        out.append(Finding("info", "rack-budget-above-rating", tuple(c.racks.ids[k] for k in rows), params))
    return out
