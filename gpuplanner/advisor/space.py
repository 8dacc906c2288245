"""The search space and its closed-form bounds.

Candidates are server type × server count × fabric template × oversubscription × rack density. Before a plan
is built, each candidate gets lower bounds that need no plan: capex ≥ the servers' list price; facility kW ≥
the servers' maximum draw (PUE ≥ 1, switches and cooling only add); racks ≥ servers ÷ the most that fit one
rack's kW and U; time to train ≥ the best layout's time on an ideal fabric (the drawn fabric can only slow the
same layout: its net factors are ≤ 1). A candidate whose bound already breaks a limit is pruned with that
reason; one whose bounds are dominated by a design already found is pruned as dominated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from gpuplanner import text
from gpuplanner.advisor.goal import Candidate, Goal
from gpuplanner.catalog.names import named
from gpuplanner.catalog.types import GpuType, ServerType, SwitchType
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.facility.cost import unit_price_usd
from gpuplanner.engine.perf.shapes import ClusterSpec, shape_from_entry
from gpuplanner.topology.plan import ports_at

# Server counts tried: multiples that fill scalable units and racks evenly.
LADDER = tuple(
    sorted(
        {1, 2, 4, 8, 12}
        | set(range(16, 257, 16))
        | set(range(288, 513, 32))
        | set(range(576, 1025, 64))
        | set(range(1152, 2049, 128))
        | set(range(2304, 4097, 256))
        | set(range(4608, 16385, 512))
    )
)
RACK_U = 48  # the planner's dense rack type


@dataclass(frozen=True)
class Bounds:
    capex_usd: float
    tco_usd: float  # capex bound + the colocation rent of the servers' maximum draw over the TCO years
    facility_kw: float
    racks: int
    time_days: float  # training: ideal-fabric time to train; inference: 0
    layout: dict[str, Any] | None  # the layout the ideal-fabric search chose (tp, pp, …), reused by the plan


def technology(port_type: str) -> str:
    return "infiniband" if port_type.startswith("infiniband-") else "ethernet"


def compute_group(srv: ServerType):
    groups = srv.ports("compute")
    return groups[0] if groups else None


def pick_switch(catalog, srv: ServerType, vendors: tuple[str, ...] = ()) -> SwitchType | None:
    """The leaf/spine switch for a server's compute ports: same technology, a speed the ports take directly
    or by a 1:2 / 1:4 breakout; the goal's vendors first, then the same speed, the largest radix, the lowest
    price."""
    pg = compute_group(srv)
    if pg is None:
        return None
    best: tuple[Any, ...] | None = None
    choice = None
    for sw in catalog.of_kind("switch"):
        groups = [
            g for g in sw.port_groups if g.role in ("fabric", "downlink") and g.speed_gbps >= pg.speed_gbps
        ]
        if not groups or any(technology(g.type) != technology(pg.type) for g in groups):
            continue
        radix = ports_at(sw, pg.speed_gbps)  # the generator's own count of usable ports at that speed
        if radix < 8:
            continue
        exact = any(g.speed_gbps == pg.speed_gbps for g in groups)
        price = catalog.price_usd(sw.id) or math.inf
        key = (bool(vendors) and sw.vendor not in vendors, not exact, -radix, price, sw.id)
        if best is None or key < best:
            best, choice = key, sw
    return choice


def cluster_spec(catalog, srv: ServerType) -> ClusterSpec:
    gpu: GpuType = catalog.get(srv.gpu)
    nic = sum(pg.count * pg.speed_gbps for pg in srv.ports("compute")) / max(srv.gpu_count, 1)
    return ClusterSpec(
        gpu_name=gpu.name,
        gpu_label=named(gpu, catalog, with_figures=False),
        peak_bf16_tflops=gpu.bf16_dense_tflops,
        peak_fp8_tflops=gpu.fp8_dense_tflops,
        peak_fp4_tflops=gpu.fp4_dense_tflops,  # None: no FP4 tensor cores (an fp4 goal leaves the server out)
        mem_gb=gpu.mem_gb,
        mem_bw_tbyte_per_s=gpu.mem_bw_tbyte_per_s,
        gpus_per_node=srv.scaleup_domain_gpus or srv.gpu_count,
        scaleup_bw_gbyte_per_s=gpu.scaleup_bw_gbyte_per_s or 32.0,
        nic_gbps_per_gpu=max(nic, 1.0),
    )


def model_shape(catalog, model_id: str):
    entry = catalog.entries.get(model_id)
    if entry is None or getattr(entry, "kind", "") != "model":
        raise PlannerError(
            text.Msg("error.advise.no_model", {"model_id": model_id}),
            hint=text.Msg("error.advise.no_model.hint"),
        )
    return shape_from_entry(dict(entry.raw))


def restricted(entry, region: str) -> bool:
    ec = getattr(entry, "export_control", None) or {}
    return bool(region) and region.upper() in {str(r).upper() for r in ec.get("restricted_regions", ())}


def server_types(catalog, goal: Goal) -> tuple[list[ServerType], dict[str, text.Msg]]:
    """The GPU servers the goal allows, and why each other one is left out (a message, in either language)."""
    out: list[ServerType] = []
    why: dict[str, text.Msg] = {}
    for srv in catalog.of_kind("server"):
        if not srv.gpu or srv.gpu_count < 1 or srv.gpu not in catalog:
            continue
        gpu = catalog.get(srv.gpu)
        if goal.servers and srv.id not in goal.servers:
            why[srv.id] = text.Msg("advisor.left_out.not_listed")
        elif goal.vendors and gpu.vendor not in goal.vendors:
            why[srv.id] = text.Msg("advisor.left_out.vendor", {"vendor": gpu.vendor})
        elif restricted(srv, goal.region) or restricted(gpu, goal.region):
            why[srv.id] = text.Msg("advisor.left_out.export", {"region": goal.region.upper()})
        elif goal.kind == "inference" and goal.precision == "fp4" and not gpu.fp4_dense_tflops:
            # the engine refuses fp4 on such a GPU (serving_worker.fp4_refusal): not scored, named here
            why[srv.id] = text.Msg("advisor.left_out.no_fp4", {"gpu": named(gpu, catalog)})
        elif compute_group(srv) is None:
            why[srv.id] = text.Msg("advisor.left_out.no_compute_ports")
        elif not unit_price_usd(catalog, srv.id):
            # an unpriced server would cost 0 and win every cost comparison: it cannot be ranked
            why[srv.id] = text.Msg("advisor.left_out.no_price")
        else:
            out.append(srv)
    return out, why


def densities(goal: Goal, srv: ServerType) -> list[float | None]:
    """Rack budgets tried: the site's limit (None: the rack type's own budget when the site states none).
    Lower densities were tried once and only ever added designs with the same figures on more racks; the
    cooling dimension (air by density vs cold plate) carries the density trade-off instead."""
    if goal.rack_kw_max is None:
        return [None]
    return [float(goal.rack_kw_max)]  # a server above it is pruned by the rack bound, with its reason


def cooling_options(catalog, goal: Goal) -> list[str]:
    """Rack cooling tried: the engine's choice by density, and direct liquid (cold plate) — or the goal's
    allowed methods."""
    entries = catalog.of_kind("cooling")
    if goal.cooling:
        return [""] + sorted(e.id for e in entries if getattr(e, "method", "") in goal.cooling)
    return [""] + sorted(e.id for e in entries if getattr(e, "method", "") == "cold-plate")


def candidates(catalog, goal: Goal) -> tuple[list[Candidate], dict[str, text.Msg]]:
    servers, left_out = server_types(catalog, goal)
    out: list[Candidate] = []
    coolings = cooling_options(catalog, goal)
    for srv in servers:
        sw = pick_switch(catalog, srv, goal.vendors)
        if sw is None:
            left_out[srv.id] = text.Msg("advisor.left_out.no_switch")
            continue
        for n in LADDER:
            if n > goal.max_servers:
                break
            for template in goal.templates:
                if template == "single-switch" and n > 8:
                    continue
                oversubs = goal.oversubs if template != "single-switch" else (1.0,)
                for o in oversubs:
                    for d in densities(goal, srv):
                        for cool in coolings:
                            out.append(
                                Candidate(
                                    srv.id, n, template, float(o), d, sw.id, cool, gpus=n * srv.gpu_count
                                )
                            )
    return out, left_out


# -- bounds ---------------------------------------------------------------------------------------------
def rack_capacity(srv: ServerType, budget_kw: float | None) -> int:
    by_u = max(1, RACK_U // max(srv.ru, 1))
    if budget_kw is None:
        return by_u
    return min(by_u, int(budget_kw * 1000 // srv.power_max_w))


def bounds(catalog, goal: Goal, cand: Candidate, shape=None, sweep_fn=None) -> Bounds:
    srv: ServerType = catalog.get(cand.server)
    price = unit_price_usd(catalog, srv.id) or 0.0
    per_rack = rack_capacity(srv, cand.rack_budget_kw)
    racks = math.ceil(cand.servers / per_rack) if per_rack > 0 else 10**9
    time_days, layout = 0.0, None
    if goal.kind == "training" and sweep_fn is not None:
        time_days, layout = sweep_fn(catalog, goal, srv, cand.gpus, shape)
    capex = price * cand.servers
    it_kw = srv.power_max_w * cand.servers / 1000.0
    return Bounds(
        capex_usd=capex,
        tco_usd=capex + facility_rent_usd(it_kw),
        facility_kw=it_kw,
        racks=racks,
        time_days=time_days,
        layout=layout,
    )


def facility_rent_usd(it_kw: float) -> float:
    """The colocation rent a plan pays at least over the TCO horizon (the advisor's plans use the default
    site: colocation, charged per kW of IT power at maximum — which is at least the servers' maximum)."""
    from gpuplanner.engine.facility.power import load_assumptions
    from gpuplanner.model.rows import Site

    site = Site()
    if site.facility_model != "colocation":
        return 0.0
    rate = site.colo_usd_per_kw_month or load_assumptions("cost").number("colocation_usd_per_kw_month")
    return it_kw * rate * 12 * site.tco_years


def limit_broken(goal: Goal, b: Bounds) -> str | None:
    """The first limit the bounds already break (the reason a candidate is pruned), or None."""
    if b.racks >= 10**9:
        return "rack kW: one server draws more than the rack limit"
    if goal.racks_max is not None and b.racks > goal.racks_max:
        return "rack count"
    if goal.facility_kw_max is not None and b.facility_kw > goal.facility_kw_max:
        return "facility kW"
    if goal.capex_usd_max is not None and b.capex_usd > goal.capex_usd_max:
        return "capex budget"
    if goal.tco_usd_max is not None and b.tco_usd > goal.tco_usd_max:
        return "TCO budget"
    if goal.kind == "training" and not math.isfinite(b.time_days):
        return "no layout fits in GPU memory"
    if goal.kind == "training" and b.time_days > goal.deadline_days:
        return "deadline (even on an ideal fabric)"
    return None
