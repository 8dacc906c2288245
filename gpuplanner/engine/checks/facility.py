"""Power, cooling and cost checks: findings about racks (power budget, U space, cooling, A/B feeds), devices
(PSU redundancy) and the site (utility feed, PUE target, missing prices), each naming its items and a fix.

The arrays are scanned with numpy; Python only loops over the racks or device types that fail a rule.
"""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.checks.findings import Finding, register_templates
from gpuplanner.engine.compiled import Compiled
from gpuplanner.engine.facility.cost import CostResult
from gpuplanner.engine.facility.power import PowerResult, load_assumptions
from gpuplanner.engine.facility.thermal import ThermalResult
from gpuplanner.model.rows import Site

TEMPLATES: dict[str, dict[str, dict[str, str]]] = {
    "rack-over-power-budget": {
        "message": {
            "en": "Rack {rack} draws {kw_load} kW at the predicted load ({kw_max} kW at maximum), "
            "over its power budget of {budget_kw} kW.",
            "zh": "机柜 {rack} 在预测负载下功耗 {kw_load} kW（最大 {kw_max} kW），超出其 {budget_kw} kW 的功率预算。",
        },
        "fix": {
            "en": "Move some devices to another rack, or raise the rack's power budget if the room allows it.",
            "zh": "将部分设备移到其他机柜；若机房条件允许，也可提高该机柜的功率预算。",
        },
    },
    "rack-over-u-budget": {
        "message": {
            "en": "Rack {rack} cannot hold its devices: {ru_used} U used of {ru} U; "
            "above the top: {beyond}; overlapping: {overlap}.",
            "zh": "机柜 {rack} 放不下其中的设备：共 {ru} U，已占用 {ru_used} U；超出顶部：{beyond}；U 位重叠：{overlap}。",
        },
        "fix": {
            "en": "Change the devices' U positions, or move some devices to another rack.",
            "zh": "调整设备的 U 位，或将部分设备移到其他机柜。",
        },
    },
    "cooling-cannot-take-load": {
        "message": {
            "en": "Rack {rack} draws up to {kw_max} kW, more than its cooling {cooling} can remove "
            "({cooling_kw} kW per rack).",
            "zh": "机柜 {rack} 最大功耗 {kw_max} kW，超出其散热方式 {cooling} 的单柜散热能力（{cooling_kw} kW）。",
        },
        "fix": {
            "en": "Use {suggestion} (up to {suggestion_kw} kW per rack), or spread the devices over more racks.",
            "zh": "改用 {suggestion}（单柜最高 {suggestion_kw} kW），或将设备分散到更多机柜。",
        },
    },
    "cooling-not-in-catalog": {
        "message": {
            "en": "Rack {rack} names the cooling {cooling}, which is not in the catalog; "
            "the cooling was chosen automatically instead.",
            "zh": "机柜 {rack} 指定的散热方式 {cooling} 不在目录中，已改为自动选择。",
        },
        "fix": {
            "en": "Pick a cooling from the catalog, or set the rack's cooling to automatic.",
            "zh": "从目录中选择一种散热方式，或将该机柜的散热设为自动。",
        },
    },
    "psu-redundancy-not-met": {
        "message": {
            "en": "{count} × {type}: the {n} PSUs that must carry the load give {capacity_w} W, "
            "less than the maximum draw of {max_w} W, so the PSU redundancy is not met.",
            "zh": "{count} 台 {type}：承担负载的 {n} 个电源合计 {capacity_w} W，低于最大功耗 {max_w} W，电源冗余不成立。",
        },
        "fix": {
            "en": "Fit higher-rated PSUs, or use a PSU configuration with more PSUs sharing the load.",
            "zh": "选用额定功率更高的电源，或改用更多电源共同承担负载的配置。",
        },
    },
    "feed-redundancy-not-met": {
        "message": {
            "en": "Rack {rack} draws up to {kw_max} kW, but after losing one feed its remaining PDUs supply "
            "only {feed_kw} kW: the A/B feeds are not redundant.",
            "zh": "机柜 {rack} 最大功耗 {kw_max} kW，但失去一路供电后剩余 PDU 只能提供 {feed_kw} kW，A/B 双路供电起不到冗余作用。",
        },
        "fix": {
            "en": "Use PDUs of at least {need_kw} kW on each feed, add PDUs, or move devices out of the rack.",
            "zh": "每路改用容量不低于 {need_kw} kW 的 PDU，或增加 PDU，或将部分设备移出该机柜。",
        },
    },
    "facility-feed-exceeded": {
        "message": {
            "en": "The site needs a utility feed of {needed_kw} kW ({facility_kw_max} kW facility load at "
            "maximum plus {headroom_pct} % headroom), more than the {available_kw} kW available.",
            "zh": "站点需要 {needed_kw} kW 的市电容量（最大负载时设施功耗 {facility_kw_max} kW，另加 {headroom_pct}% 余量），"
            "超过可用的 {available_kw} kW。",
        },
        "fix": {
            "en": "Lower the load (fewer or lower-power servers, cooling with a lower PUE), "
            "or ask the utility for more capacity.",
            "zh": "降低负载（减少服务器、选用功耗更低的机型，或采用 PUE 更低的散热方式），或向供电部门申请扩容。",
        },
    },
    "pue-above-target": {
        "message": {
            "en": "The site PUE of {pue} is above the target of {target}.",
            "zh": "站点 PUE 为 {pue}，高于目标值 {target}。",
        },
        "fix": {
            "en": "Cool the densest racks more efficiently (rear-door, cold-plate or immersion liquid "
            "cooling), or revisit the target.",
            "zh": "为高密度机柜改用更高效的散热方式（背板、冷板或浸没式液冷），或重新评估目标值。",
        },
    },
    "prices-missing": {
        "message": {
            "en": "Catalog items without a price, counted as 0 in the cost ({count}): {ids}.",
            "zh": "以下 {count} 个目录条目没有价格，在成本中按 0 计算：{ids}。",
        },
        "fix": {
            "en": "Enter a price for these devices in the project, or add them to a price list.",
            "zh": "在项目中为这些设备填写价格，或将其加入价格表。",
        },
    },
}
register_templates(TEMPLATES)

_NONE = "—"


def _r(x: float) -> float:
    return round(float(x), 1)


def _power_budget(c: Compiled, p: PowerResult) -> list[Finding]:
    out = []
    for i in np.flatnonzero(p.rack_over_budget_max):
        sev = "error" if p.rack_over_budget[i] else "warning"
        params = {
            "rack": c.racks.names[i],
            "kw_load": _r(p.rack_kw_load[i]),
            "kw_max": _r(p.rack_kw_max[i]),
            "budget_kw": _r(p.rack_budget_kw[i]),
        }
        out.append(Finding(sev, "rack-over-power-budget", (c.racks.ids[i],), params))
    return out


def u_space_problems(c: Compiled, device_rack: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(U used per rack, devices above the rack top, devices overlapping an earlier one in the same rack)."""
    d, r = c.devices, c.racks
    nr = len(r.ids)
    placed = device_rack >= 0
    ru = d.ru.astype(np.int64)
    used = np.bincount(device_rack[placed], weights=ru[placed], minlength=nr).astype(np.int64)
    pos = d.u_position.astype(np.int64)
    has = placed & (pos > 0)
    top = pos + ru - 1
    rack_ru = np.append(r.ru.astype(np.int64), 0)
    beyond = has & (top > rack_ru[np.where(placed, device_rack, nr)])
    overlap = np.zeros(len(d.ids), dtype=bool)
    idx = np.flatnonzero(has)
    if idx.size > 1:
        s = idx[np.lexsort((pos[idx], device_rack[idx]))]
        rs, ps = device_rack[s].astype(np.int64), pos[s]
        span = int(top.max()) + 1
        # Racks are sorted ascending, so offsetting tops by rack × span makes a running max restart per rack.
        running = np.maximum.accumulate(rs * span + top[s])
        clash = (rs[1:] == rs[:-1]) & (ps[1:] <= running[:-1] - rs[1:] * span)
        overlap[s[1:][clash]] = True
    return used, beyond, overlap


def _u_budget(c: Compiled, p: PowerResult) -> list[Finding]:
    used, beyond, overlap = u_space_problems(c, p.device_rack)
    bad = used > c.racks.ru
    bad_dev = beyond | overlap
    if bad_dev.any():
        bad[np.unique(p.device_rack[bad_dev])] = True
    out = []
    names, ids = c.devices.names, c.devices.ids
    for i in np.flatnonzero(bad):
        in_rack = p.device_rack == i
        b, o = np.flatnonzero(in_rack & beyond), np.flatnonzero(in_rack & overlap)
        params = {
            "rack": c.racks.names[i],
            "ru_used": int(used[i]),
            "ru": int(c.racks.ru[i]),
            "beyond": [names[j] for j in b] or _NONE,
            "overlap": [names[j] for j in o] or _NONE,
        }
        items = (c.racks.ids[i], *(ids[j] for j in np.union1d(b, o)))
        out.append(Finding("error", "rack-over-u-budget", items, params))
    return out


def _cooling(c: Compiled, p: PowerResult, t: ThermalResult) -> list[Finding]:
    out = []
    tab = t.table
    for i in np.flatnonzero(~t.rack_cooling_ok):
        j, k = t.rack_cooling[i], t.rack_cooling_auto[i]
        if t.rack_cooling_max_kw[i] >= tab.max_kw_per_rack[k]:  # nothing in the catalog fits better
            k = int(np.argmax(tab.max_kw_per_rack))
        params = {
            "rack": c.racks.names[i],
            "kw_max": _r(p.rack_kw_max[i]),
            "cooling": tab.ids[j],
            "cooling_kw": _r(tab.max_kw_per_rack[j]),
            "suggestion": tab.ids[k],
            "suggestion_kw": _r(tab.max_kw_per_rack[k]),
        }
        out.append(Finding("error", "cooling-cannot-take-load", (c.racks.ids[i],), params))
    for i in np.flatnonzero(t.rack_cooling_unknown):
        params = {"rack": c.racks.names[i], "cooling": c.racks.cooling_ids[i]}
        out.append(Finding("warning", "cooling-not-in-catalog", (c.racks.ids[i],), params))
    return out


def _psu(c: Compiled, p: PowerResult) -> list[Finding]:
    bad = np.flatnonzero(~p.psu_ok)
    groups: dict[str, list[int]] = {}
    for j in bad:  # one finding per device type
        groups.setdefault(c.devices.type_ids[j], []).append(int(j))
    out = []
    for type_id, rows in groups.items():
        j = rows[0]
        params = {
            "type": type_id,
            "count": len(rows),
            "n": int(c.devices.psu_needed[j]),
            "capacity_w": float(p.psu_capacity_w[j]),
            "max_w": float(p.device_max_w[j]),
        }
        out.append(
            Finding("warning", "psu-redundancy-not-met", tuple(c.devices.ids[k] for k in rows), params)
        )
    return out


def _feeds(c: Compiled, p: PowerResult) -> list[Finding]:
    out = []
    feeds = int(load_assumptions("facility").number("feeds_per_rack"))
    for i in np.flatnonzero(~p.rack_feed_ok):
        surviving = max(int(c.racks.pdu_count[i]) // feeds, 1)
        params = {
            "rack": c.racks.names[i],
            "kw_max": _r(p.rack_kw_max[i]),
            "feed_kw": _r(p.rack_feed_kw[i]),
            "need_kw": _r(np.ceil(p.rack_kw_max[i] / surviving * 10) / 10),
        }
        out.append(Finding("error", "feed-redundancy-not-met", (c.racks.ids[i],), params))
    return out


def _site(t: ThermalResult, cost: CostResult | None, site: Site) -> list[Finding]:
    out = []
    if not t.feed_ok:
        params = {
            "needed_kw": _r(t.feed_kw_needed),
            "facility_kw_max": _r(t.facility_kw_max),
            "headroom_pct": round(site.feed_headroom * 100),
            "available_kw": _r(t.utility_kw_available),
        }
        out.append(Finding("error", "facility-feed-exceeded", ("site",), params))
    if t.pue > site.target_pue + 1e-9 and (t.facility_kw > 0):
        params = {"pue": round(t.pue, 2), "target": round(site.target_pue, 2)}
        out.append(Finding("warning", "pue-above-target", ("site",), params))
    if cost is not None and cost.missing_prices:
        params = {"count": len(cost.missing_prices), "ids": list(cost.missing_prices)}
        out.append(Finding("info", "prices-missing", tuple(cost.missing_prices), params))
    return out


def facility_findings(
    compiled: Compiled,
    power: PowerResult,
    thermal: ThermalResult,
    cost: CostResult | None,
    site: Site,
) -> list[Finding]:
    """All power, cooling and cost findings, in rule order."""
    return [
        *_power_budget(compiled, power),
        *_u_budget(compiled, power),
        *_cooling(compiled, power, thermal),
        *_psu(compiled, power),
        *_feeds(compiled, power),
        *_site(thermal, cost, site),
    ]
