"""Results → plain data: the one place that turns an analysis into the figures the CLI (``analyze --json``),
the report and the exports print, so that every output says the same numbers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.engine.analysis import Results
from gpuplanner.engine.facility.climate import climate_json
from gpuplanner.engine.facility.power import load_assumptions
from gpuplanner.engine.facility.sensitivity import sensitivity_json
from gpuplanner.engine.perf.training import TrainEstimate
from gpuplanner.engine.workload import WorkloadResult
from gpuplanner.model import Project


def _num(x: Any) -> Any:
    if x is None:
        return None
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def performance_json(results: Results, lang: str = "en") -> dict[str, Any] | None:
    w = results.workload
    if w is None:
        return None
    e = w.estimate
    return {
        "workload": w.name,
        "gpus": e.n_gpus,
        "tp": w.config.tp,
        "pp": w.config.pp,
        "dp": w.config.dp,
        "cp": w.config.cp,
        "ep": w.config.ep,
        "step_time_s": e.step_time_s,
        "tokens_per_s": e.tokens_per_s,
        "tflops_per_gpu": e.tflops_per_gpu,
        "hw_tflops_per_gpu": e.hw_tflops_per_gpu,
        "mfu": e.mfu,
        "memory_per_gpu_gb": e.memory.get(
            "total_gb", sum(v for k, v in e.memory.items() if k.endswith("_gb"))
        ),
        "memory": e.memory,
        "fits": e.fits,
        "refusal": e.refusal,
        "breakdown": e.breakdown,
        "bubble_fraction": e.bubble_fraction,
        "bottleneck": e.bottleneck_text(lang),
        "time_to_train_s": _num(e.time_to_train_s),
        "time_to_train_days": _num(e.time_to_train_s / 86400.0) if e.time_to_train_s else None,
        "net_factor": w.net_factor,
        "gpu_utilization_for_power": results.gpu_utilization,
        "calibrated": w.cluster.calibration is not None,
        **_perf_ranges(e, w),
    }


def _perf_ranges(e: TrainEstimate, w: WorkloadResult) -> dict[str, Any]:
    """Error ranges from the bundled published runs (engine/perf/bands.py) and time to train with
    interruptions (engine/perf/goodput.py)."""
    from gpuplanner.engine.perf.bands import ranges

    out = ranges(e, w.shape, w.cluster)
    ttt_f = e.extra.get("time_to_train_with_failures_s")
    out["time_to_train_with_failures_days"] = _num(ttt_f / 86400.0) if ttt_f else None
    out["goodput"] = _num(e.extra.get("goodput"))
    return out


def workloads_json(results: Results, lang: str = "en") -> list[dict[str, Any]]:
    """`analyze --json` `workloads`: one entry per active workload, each on its partition's GPUs."""
    return [_clean(e.to_json(lang)) for e in results.workloads]


def limits_json(results: Results) -> list[dict[str, Any]]:
    """`analyze --json` `limits`: each site limit or budget (name, limit, plan, within)."""
    return [_clean(dict(x)) for x in results.limits]


def _clean(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_clean(v) for v in x]
    return _num(x)


def racks_json(results: Results) -> list[dict[str, Any]]:
    c, p, t = results.compiled, results.power, results.thermal
    out = []
    for i, rid in enumerate(c.racks.ids):
        k = int(t.rack_cooling[i])
        out.append(
            {
                "id": rid,
                "name": c.racks.names[i],
                "row": c.racks.row_label[i],
                "position": int(c.racks.position[i]),
                "kw_load": _num(p.rack_kw_load[i]),
                "kw_typical": _num(p.rack_kw_typical[i]),
                "kw_max": _num(p.rack_kw_max[i]),
                "kw_budget": _num(p.rack_budget_kw[i]),
                "cooling": t.table.methods[k],
                "cooling_id": t.table.ids[k],
                "cooling_ok": bool(t.rack_cooling_ok[i]),
                "liquid_kw": _num(t.rack_liquid_kw_max[i]),
                "air_kw": _num(t.rack_air_kw_max[i]),
                "airflow_cfm": _num(t.rack_airflow_cfm[i]),
                "airflow_m3_per_h": _num(t.rack_airflow_m3_per_h[i]),
                "coolant_l_per_min": _num(t.rack_coolant_l_per_min[i]),
            }
        )
    return out


def results_json(project: Project, results: Results, lang: str = "en") -> dict[str, Any]:
    """The documented output of ``gpuplanner analyze FILE --json``. The site and floor units are those the
    results were solved with (the scenario's and phase's, ``Compiled.inputs``); the project gives its name."""
    p, t, cost = results.power, results.thermal, results.cost
    info = project.info
    inputs = results.compiled.inputs
    fabric = results.fabric.to_json(results.compiled)
    return (
        {
            "project": info.name,
            "customer": info.customer,
            "scenario": results.scenario or None,
            "gpus": int(results.compiled.devices.gpu_count.sum()),
            "servers": int(cost.servers),
            "it_kw_max": p.it_kw_max,
            "it_kw_typical": p.it_kw_typical,
            "it_kw_load": p.it_kw_load,
            "gpu_utilization": results.gpu_utilization,
            "facility_kw": t.facility_kw,
            "facility_kw_max": t.facility_kw_max,
            "pue": t.pue,
            "annual_mwh": t.annual_mwh,
            "energy_cost_per_year": cost.local(t.energy_usd_per_year),
            "utility_feed_kw_needed": t.feed_kw_needed,
            "utility_kw_available": t.utility_kw_available or None,
            "liquid_kw": t.liquid_kw,
            "air_kw": t.air_kw,
            "cooling_mix_kw": t.method_it_kw,
            "racks": racks_json(results),
            "currency": cost.currency,
            "usd_exchange_rate": cost.usd_exchange_rate,
            "capex": cost.local(cost.capex_usd),
            "capex_by_category": {k: cost.local(v) for k, v in cost.capex_usd_by_category.items()},
            "opex_per_year": cost.local(cost.opex_usd_per_year),
            "opex_by_category": {k: cost.local(v) for k, v in cost.opex_usd_per_year_by_category.items()},
            "tco": cost.local(cost.tco_usd),
            "tco_years": cost.tco_years,
            "cost_per_gpu_hour": _num(cost.local(cost.usd_per_gpu_hour)),
            "capex_usd": cost.capex_usd,
            "tco_usd": cost.tco_usd,
            "network_share_of_gpu_server_capex": _num(cost.network_share),
            "network_capex": cost.local(cost.network_usd),
            "cloud_tco": cost.local(cost.cloud_tco_usd),
            "cloud_break_even_month": cost.break_even_month,
            "training_run_cost": _num(cost.local(cost.run_usd)) if cost.run_usd is not None else None,
            "cloud_training_run_cost": _num(cost.local(cost.cloud_run_usd))
            if cost.cloud_run_usd is not None
            else None,
            "missing_prices": cost.missing_prices,
            "performance": performance_json(results, lang),
            "workload_error": text.shown(results.workload_error, lang) or None,
            "workloads": workloads_json(results, lang),
            "limits": limits_json(results),
            "fabric": fabric,
            "link_utilization": {
                "max": _num(float(results.link_util.max())) if len(results.link_util) else 0.0,
                "mean_used": _num(float(results.link_util[results.link_util > 0].mean()))
                if (results.link_util > 0).any()
                else 0.0,
            },
            "floor_units": [
                {
                    "id": iid,
                    "name": inputs.floor_items[iid].name,
                    "kind": inputs.floor_items[iid].kind,
                    "load_kw": load,
                    "capacity_kw": cap,
                }
                for iid, (load, cap) in results.floor_loads.items()
            ],
            "findings": [f.to_json(lang) for f in results.findings],
            "stage_ms": results.stage_ms,
        }
        | money_json(results)
        | electrical_json(results, inputs.site)
    )


# -- money and facility (issue 15): kept in their own functions --------------------------------------------


def money_json(results: Results) -> dict[str, Any]:
    """Facility, staffing, NPV and yearly flows, the cloud comparison per GPU type (amounts in the project's
    currency, rates per GPU-hour too)."""
    cost = results.cost
    m, t = cost.money, cost.inputs
    if m is None or t is None:
        return {}
    loc = cost.local
    return {
        "facility": {
            "model": cost.facility_model,
            "contracted_kw": cost.facility_kw_contracted,
            "cost_per_year": loc(t.facility_usd_per_year),
            "build_capex": loc(t.facility_build_usd),
            "residual_value": loc(m.residual_usd),
            "depreciation_years": t.facility_depreciation_years,
        },
        "staffing": {
            "fte": cost.staff,
            "cost_per_year": loc(t.staff_usd_per_year),
        },
        "npv": loc(m.npv_usd),
        "discount_rate_pct": t.discount_rate_pct,
        "tco_undiscounted": loc(m.tco_usd),
        "opex_by_year": {k: [loc(float(x)) for x in v] for k, v in m.opex_usd_by_year.items()},
        "depreciation_per_year": loc(m.depreciation_usd_per_year),
        "support_years_in_price": t.support_years_in_price,
        "cost_per_million_tokens": _num(loc(m.usd_per_million_tokens))
        if m.usd_per_million_tokens is not None
        else None,
        "cloud_price_per_gpu_hour": _num(loc(cost.cloud_usd_per_gpu_hour)),
        "cloud_npv": loc(m.cloud_npv_usd),
        "cloud_by_gpu": [
            {
                **row,
                "cloud_price_per_gpu_hour": _num(loc(row["cloud_usd_per_gpu_hour"])),
                "own_cost_per_gpu_hour": _num(loc(row["own_usd_per_gpu_hour"])),
            }
            for row in cost.cloud_by_gpu
        ],
        "cloud_price_missing": cost.cloud_price_missing,
        "sensitivity": sensitivity_json(t, cost.usd_exchange_rate),
    }


def electrical_json(results: Results, site: Any) -> dict[str, Any]:
    """The electrical chain (UPS, transformers, generators, utility), per-row rollups and CDUs."""
    e = results.electrical
    if e is None:
        return {}
    return {
        "electrical": e.to_json(),
        "rows": e.rows,
        "cdus": e.cdus,
        "climate": climate_json(site, load_assumptions("facility")),
    }
