"""Power, cooling and cost of a project by a plain per-device / per-rack Python loop that reads the catalog
entries and the assumption files directly — the slow obvious reference for the array pipeline
(``engine/facility/power.py``, ``engine/facility/thermal.py``, ``engine/facility/cost.py``).

The formulas are the ones those modules' docstrings state (server draw model, cooling choice, heat split,
airflow and coolant flow, PUE, capex categories); here each is evaluated one device or one rack at a time,
in dictionaries keyed by ids, without the compiled arrays.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import yaml

from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.catalog.types import CoolingType, GpuType, NicType, ServerType, StorageType, SwitchType

AIR = ("air", "air-contained")


def assumptions(area: str) -> dict:
    path = Path(bundled_catalog_dir()) / "assumptions" / f"{area}.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {k: e["value"] for k, e in doc["entries"].items()}


def device_watts(project, dev, util: float, fac: dict) -> dict[str, float]:
    """(idle, typical, max, load) W of one device at GPU utilisation `util`."""
    e = project.catalog.get(dev.type_id)
    idle_c = float(getattr(e, "power_idle_w", 0) or 0)
    typ_c = float(getattr(e, "power_typical_w", 0) or 0)
    max_c = float(getattr(e, "power_max_w", 0) or 0)
    server = isinstance(e, ServerType)
    mx = max(max_c, typ_c, idle_c)
    typ = typ_c if typ_c > 0 else mx
    fallback = fac["server_idle_fraction_fallback"] * mx if server else typ
    idle = min(idle_c if idle_c > 0 else fallback, typ)
    if not server:
        return {"idle": idle, "typical": typ, "max": mx, "load": typ}
    gpu_swing = 0.0
    gpu = project.catalog.entries.get(e.gpu or "") if e.gpu_count else None
    if isinstance(gpu, GpuType):
        gpu_swing = e.gpu_count * max(gpu.tdp_w - gpu.idle_w(), 0.0)
    s_gpu = min(gpu_swing, mx - idle)
    s_rest = mx - idle - s_gpu
    if typ_c > 0:
        k = min(max((typ - idle - s_gpu) / s_rest, 0.0), 1.0) if s_rest > 0 else 0.0
    else:
        k = fac["server_rest_fraction_at_full"]
    u = min(max(util, 0.0), 1.0)
    return {"idle": idle, "typical": typ, "max": mx, "load": idle + (s_gpu + k * s_rest) * u}


def power(project, util: dict[str, float]) -> dict:
    """Per device W; per rack, per row and unracked kW; IT kW — for each quantity."""
    fac = assumptions("facility")
    out = {
        "device": {},
        "rack": defaultdict(lambda: defaultdict(float)),
        "row": defaultdict(lambda: defaultdict(float)),
    }
    out["unracked"] = defaultdict(float)
    out["it"] = defaultdict(float)
    racks = project.racks
    for dev in project.devices.values():
        w = device_watts(project, dev, util[dev.id], fac)
        out["device"][dev.id] = w
        for q, watts in w.items():
            kw = watts / 1000.0
            out["it"][q] += kw
            if dev.rack_id in racks:
                out["rack"][dev.rack_id][q] += kw
                out["row"][racks[dev.rack_id].row][q] += kw
            else:
                out["unracked"][q] += kw
    return out


def coolings(project, site) -> list[dict]:
    """The catalog's coolings in choice order: method order, then price per kW, then capacity, then id."""
    fac = assumptions("facility")
    order = list(fac["cooling_order"])
    climate = float(fac["climate_overhead_factor"].get(site.climate, 1.0))
    rows = []
    for e in project.catalog.of_kind("cooling"):
        if not isinstance(e, CoolingType):
            continue
        p = project.catalog.prices.get(e.id)
        per_kw = p.price_usd if p is not None and p.unit == "per_kw" else math.nan
        rows.append(
            {
                "id": e.id,
                "method": e.method,
                "rank": order.index(e.method) if e.method in order else len(order),
                "max_kw": e.max_kw_per_rack,
                "liquid_share": e.liquid_share,
                "pue": 1.0 + (e.pue_typical - 1.0) * climate,
                "air_dt": e.delta_t_k if e.method in AIR else fac["server_air_delta_t_k"],
                "coolant_dt": e.delta_t_k if e.liquid_share > 0 else fac["liquid_loop_delta_t_k"],
                "chip": e.method in set(fac["chip_level_methods"]),
                "usd_per_kw": per_kw,
            }
        )
    rows.sort(
        key=lambda r: (
            r["rank"],
            r["usd_per_kw"] if r["usd_per_kw"] == r["usd_per_kw"] else math.inf,
            r["max_kw"],
            r["id"],
        )
    )
    return rows


def thermal(project, site, pw: dict) -> dict:
    """Per rack: cooling, liquid kW, airflow m³/h, coolant L/min, loop kW; site PUE, energy."""
    fac = assumptions("facility")
    table = coolings(project, site)
    by_id = {c["id"]: c for c in table}
    rho_cp_air = fac["air_density_kg_per_m3"] * fac["air_cp_j_per_kg_k"]
    rho_cp_water = fac["water_density_kg_per_m3"] * fac["water_cp_j_per_kg_k"]
    climate = float(fac["climate_overhead_factor"].get(site.climate, 1.0))
    pue_loop = 1.0 + (fac["liquid_loop_pue"] - 1.0) * climate
    cooling_of: dict[str | None, dict] = {}
    for rid, rack in project.racks.items():
        kw_max = pw["rack"][rid]["max"]
        if rack.cooling_id in by_id:
            cooling_of[rid] = by_id[rack.cooling_id]
        else:
            fits = [c for c in table if c["max_kw"] >= kw_max - 1e-9]
            cooling_of[rid] = fits[0] if fits else max(table, key=lambda c: c["max_kw"])
    cooling_of[None] = table[0]  # unracked devices: the simplest method
    racks = defaultdict(lambda: defaultdict(float))
    overhead = 0.0
    for dev in project.devices.values():
        rid = dev.rack_id if dev.rack_id in project.racks else None
        c = cooling_of[rid]
        dev_ls = float(getattr(project.catalog.get(dev.type_id), "liquid_share", 0) or 0)
        ls = max(dev_ls, c["liquid_share"])
        ls_air = ls if c["chip"] else dev_ls
        w = pw["device"][dev.id]
        r = racks[rid]
        r["liquid_kw"] += w["load"] * ls / 1000.0
        r["liquid_kw_max"] += w["max"] * ls / 1000.0
        r["loop_kw_max"] += w["max"] * max(dev_ls - c["liquid_share"], 0.0) / 1000.0
        r["airflow_m3_per_h"] += w["max"] * (1.0 - ls_air) / (rho_cp_air * c["air_dt"]) * 3600.0
        r["coolant_l_per_min"] += w["max"] * ls / (rho_cp_water * c["coolant_dt"]) * 60000.0
        own = w["load"] * dev_ls / 1000.0
        overhead += (w["load"] / 1000.0 - own) * (c["pue"] - 1.0) + own * (min(pue_loop, c["pue"]) - 1.0)
    it = pw["it"]["load"]
    pue = 1.0 + overhead / it if it > 0 else table[0]["pue"]
    u = min(max(site.expected_utilization, 0.0), 1.0)
    annual_mwh = 8760.0 * pue * (u * pw["it"]["load"] + (1.0 - u) * pw["it"]["idle"]) / 1000.0
    return {
        "cooling": {rid: c["id"] for rid, c in cooling_of.items() if rid is not None},
        "rack": racks,
        "pue": pue,
        "annual_mwh": annual_mwh,
        "energy_usd_per_year": annual_mwh * 1000.0 * site.electricity_usd_per_kwh,
        "table": by_id,
        "cooling_of": cooling_of,
    }


def capex(project, pw: dict, th: dict, bom: dict[str, float]) -> dict[str, float]:
    """Capex by category, one device / rack / link at a time."""
    cat = project.catalog
    cost = assumptions("cost")
    out = defaultdict(float)
    nic_total = 0.0
    gpus = 0
    for dev in project.devices.values():
        e = cat.get(dev.type_id)
        price = dev.price_usd if dev.price_usd is not None else cat.price_usd(dev.type_id)
        kind = (
            "servers"
            if isinstance(e, ServerType)
            else "switches"
            if isinstance(e, SwitchType)
            else "storage"
            if isinstance(e, StorageType)
            else "other_devices"
        )
        out[kind] += price or 0.0
        if isinstance(e, ServerType):
            gpus += e.gpu_count
            for pg in e.port_groups:
                nic = cat.entries.get(pg.nic or "")
                if isinstance(nic, NicType) and cat.price_usd(nic.id) is not None:
                    nic_total += math.ceil(pg.count / max(nic.port_count, 1)) * cat.price_usd(nic.id)
    out["nics"] = 0.0 if cost["server_price_includes_nics"] else nic_total
    out["cables_optics"] = sum(q * (cat.price_usd(k) or 0.0) for k, q in bom.items())
    out["cabling_labour"] = (
        sum(lk.multiplicity for lk in project.links.values()) * cost["cabling_labour_usd_per_cable"]
    )
    for rack in project.racks.values():
        rp = cat.price_usd(rack.type_id)
        out["racks_pdus"] += rp if rp is not None else cost["rack_usd_fallback"]
        entry = cat.entries.get(rack.type_id)
        pdu, n_pdu = getattr(entry, "pdu", None), int(getattr(entry, "pdu_count", 0) or 0)
        if pdu and n_pdu:
            pp = cat.price_usd(pdu)
            out["racks_pdus"] += n_pdu * (pp if pp is not None else cost["pdu_usd_fallback"])
        c = th["cooling_of"][rack.id]
        per_kw = c["usd_per_kw"]
        if per_kw != per_kw:
            fb = cost["cooling_usd_per_kw_fallback"]
            per_kw = float(fb.get(c["method"], max(fb.values())))
        # room-level methods are part of a costed facility (colocation rent or build), not charged again
        if project.site.facility_model != "none" and c["method"] in cost["room_cooling_in_facility"]:
            per_kw = 0.0
        out["cooling"] += pw["rack"][rack.id]["max"] * per_kw
        out["cooling"] += th["rack"][rack.id]["loop_kw_max"] * cost["liquid_loop_usd_per_kw"]
    out["software"] = gpus * cost["software_capex_usd_per_gpu"]
    return dict(out)
