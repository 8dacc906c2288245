"""What the proposal's schedule and risk sections print, derived from the analysis (never recomputed): the
phases with order, delivery, installation and acceptance dates, lead times by capex category
(``catalogs/assumptions/delivery.yaml``), what each phase buys, and the delivery risks (lead times, power
availability, single points of failure) beside the design findings.

Plain data, no reportlab: the sections and the tests read the same figures.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuplanner.engine.compiled import KIND_CODES
from gpuplanner.engine.facility.power import Assumptions, load_assumptions
from gpuplanner.reports import fmt

# capex categories that are delivered goods, in the order a schedule lists them
GOODS = (
    "servers",
    "nics",
    "switches",
    "storage",
    "other_devices",
    "cables_optics",
    "racks_pdus",
    "cooling",
    "facility_build",
)
SEVERITY_RANK = {"high": 0, "medium": 1, "low": 2}
LONG_LEAD_WEEKS = 12  # a lead time from this long is a risk worth naming
VERY_LONG_LEAD_WEEKS = 26


def assumptions() -> Assumptions:
    return load_assumptions("delivery")


def lead_weeks(category: str, a: Assumptions | None = None) -> int:
    a = a or assumptions()
    return int(a.number(f"lead_weeks_{category}"))


@dataclass
class PhasePlan:
    """One phase of the schedule: what it buys and when."""

    name: str
    description: str
    order: dt.date
    delivered: dt.date
    installed: dt.date
    handover: dt.date
    procurement_weeks: int
    install_weeks: int
    acceptance_weeks: int
    critical: str  # the category whose lead time sets the delivery date ("" when nothing is bought)
    capex_added: dict[str, float]  # by capex category, in the project currency
    gpus_added: int
    servers_added: int
    switches_added: int
    racks_added: int
    cables_added: int

    @property
    def weeks(self) -> int:
        return self.procurement_weeks + self.install_weeks + self.acceptance_weeks

    @property
    def capex_total(self) -> float:
        return sum(self.capex_added.values())


def _counts(res: Any) -> tuple[int, int, int, int, int]:
    c = res.compiled
    kind = c.devices.kind
    gpus = int(np.sum(c.devices.gpu_count)) if hasattr(c.devices, "gpu_count") else 0
    servers = int(np.count_nonzero(kind == KIND_CODES["server"]))
    switches = int(np.count_nonzero(kind == KIND_CODES["switch"]))
    racks = len(c.racks.ids)
    cables = int(sum(res.fabric.cables.bom_cables.values()))
    return gpus, servers, switches, racks, cables


def _local(res: Any) -> dict[str, float]:
    return {k: res.cost.local(v) for k, v in res.cost.capex_usd_by_category.items()}


def schedule(ctx: Any, a: Assumptions | None = None) -> list[PhasePlan]:
    """The phases one after the other: each is ordered on the day the one before it is handed over, the first
    on the report's date. Without phases the whole plan is one phase."""
    a = a or assumptions()
    per_week = max(a.number("install_racks_per_week"), 1e-9)
    accept = int(a.number("acceptance_weeks"))
    if len(ctx.phases) >= 2:
        steps = [(pr.phase.name, pr.phase.description, pr.results) for pr in ctx.phases]
    else:
        steps = [(ctx.t("ps_whole_plan"), "", ctx.results)]
    out: list[PhasePlan] = []
    start = ctx.today
    before_capex: dict[str, float] = {}
    before = (0, 0, 0, 0, 0)
    for name, description, res in steps:
        capex = _local(res)
        added = {k: capex.get(k, 0.0) - before_capex.get(k, 0.0) for k in capex}
        counts = _counts(res)
        gpus, servers, switches, racks, cables = (n - b for n, b in zip(counts, before, strict=True))
        bought = [k for k in GOODS if added.get(k, 0.0) > 0.005]
        leads = {k: lead_weeks(k, a) for k in bought}
        critical = max(leads, key=lambda k: leads[k]) if leads else ""
        proc = leads.get(critical, 0)
        install = max(1, math.ceil(max(racks, 0) / per_week)) if bought else 0
        acc = accept if bought else 0
        delivered = start + dt.timedelta(weeks=proc)
        installed = delivered + dt.timedelta(weeks=install)
        handover = installed + dt.timedelta(weeks=acc)
        out.append(
            PhasePlan(
                name,
                description,
                start,
                delivered,
                installed,
                handover,
                proc,
                install,
                acc,
                critical,
                added,
                gpus,
                servers,
                switches,
                racks,
                cables,
            )  # fmt: skip
        )
        start, before_capex, before = handover, capex, counts
    return out


def lead_table(plans: list[PhasePlan], a: Assumptions | None = None) -> list[tuple[str, int, dict[str, Any]]]:
    """(category, weeks, assumption entry) for every category some phase buys, longest first."""
    a = a or assumptions()
    cats = [k for k in GOODS if any(p.capex_added.get(k, 0.0) > 0.005 for p in plans)]
    rows = [(k, lead_weeks(k, a), a.entries[f"lead_weeks_{k}"]) for k in cats]
    return sorted(rows, key=lambda r: (-r[1], GOODS.index(r[0])))


# -- risks ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Risk:
    severity: str  # high | medium | low
    area: str  # delivery | power | redundancy | design
    what: str
    mitigation: str
    params: dict[str, Any] = field(default_factory=dict)


def _lead_risks(ctx: Any, plans: list[PhasePlan], a: Assumptions) -> list[Risk]:
    out = []
    for k, weeks, _ in lead_table(plans, a):
        if weeks < LONG_LEAD_WEEKS:
            continue
        sev = "high" if weeks >= VERY_LONG_LEAD_WEEKS else "medium"
        cat = ctx.t(f"cat_{k}")
        out.append(
            Risk(
                sev,
                "delivery",
                ctx.t("ps_risk_lead", category=cat, weeks=weeks),
                ctx.t("ps_fix_lead", category=cat),
            )
        )
    return out


def _power_risks(ctx: Any) -> list[Risk]:
    d, site = ctx.data, ctx.project.site
    need = float(d.get("utility_feed_kw_needed") or 0.0)
    avail = float(d.get("utility_kw_available") or 0.0)
    p = dict(need=fmt.kw(need), fac=fmt.kw(d["facility_kw_max"]), headroom=fmt.pct(site.feed_headroom, 0))
    if avail <= 0:
        return [
            Risk("medium", "power", ctx.t("ps_risk_power_unknown", **p), ctx.t("ps_fix_power_unknown", **p))
        ]
    if avail < need:
        return [
            Risk(
                "high",
                "power",
                ctx.t("ps_risk_power_short", avail=fmt.kw(avail), **p),
                ctx.t("ps_fix_power_short", **p),
            )
        ]
    return [
        Risk(
            "low",
            "power",
            ctx.t("ps_risk_power_ok", avail=fmt.kw(avail), spare=fmt.kw(avail - need), **p),
            ctx.t("ps_fix_power_ok", **p),
        )
    ]


def single_points(ctx: Any) -> list[Risk]:
    """Single points of failure read from the model: one spine, one switch for all servers, one management
    switch, N electrical redundancy, racks on one feed, rows cooled by one CDU, one storage system."""
    d, r = ctx.data, ctx.results
    c = r.compiled
    tiers = d["fabric"]["switches_by_tier"]
    servers = int(np.count_nonzero(c.devices.kind == KIND_CODES["server"]))
    out: list[Risk] = []
    if servers > 1 and tiers.get("spine", 0) == 1:
        out.append(Risk("high", "redundancy", ctx.t("ps_spof_spine"), ctx.t("ps_fix_spof_spine")))
    if servers > 1 and tiers.get("leaf", 0) == 1 and not tiers.get("spine", 0):
        out.append(Risk("medium", "redundancy", ctx.t("ps_spof_leaf", n=servers), ctx.t("ps_fix_spof_leaf")))
    if tiers.get("management", 0) == 1:
        out.append(Risk("low", "redundancy", ctx.t("ps_spof_mgmt"), ctx.t("ps_fix_spof_mgmt")))
    e = d.get("electrical")
    if e and e.get("redundancy") == "N":
        out.append(Risk("high", "redundancy", ctx.t("ps_spof_ups"), ctx.t("ps_fix_spof_ups")))
    single = int(np.count_nonzero(np.asarray(c.racks.pdu_count) < 2))
    if single:
        out.append(Risk("medium", "redundancy", ctx.t("ps_spof_feed", n=single), ctx.t("ps_fix_spof_feed")))
    for row in d.get("rows") or []:
        if row.get("liquid_kw_max", 0) > 0 and int(row.get("cdus", 0)) <= 1:
            out.append(
                Risk(
                    "high",
                    "redundancy",
                    ctx.t("ps_spof_cdu", row=row["row"], kw=fmt.kw(row["liquid_kw_max"])),
                    ctx.t("ps_fix_spof_cdu"),
                )
            )
    storage = int(np.count_nonzero(c.devices.kind == KIND_CODES["storage"]))
    if storage == 1 and servers > 1:
        out.append(Risk("medium", "redundancy", ctx.t("ps_spof_storage"), ctx.t("ps_fix_spof_storage")))
    return out


def finding_risks(ctx: Any) -> list[Risk]:
    """Errors and warnings of the design checks: the finding's message, its fix as the mitigation."""
    sev = {"error": "high", "warning": "medium"}
    out = []
    for f in [*ctx.results.findings, *ctx.growth]:
        if f.severity in sev:
            out.append(Risk(sev[f.severity], "design", f.message(ctx.lang), f.fix(ctx.lang) or "—"))
    return out


def risks(ctx: Any, plans: list[PhasePlan] | None = None) -> list[Risk]:
    """Every risk, most severe first (delivery and power before design findings of equal severity)."""
    a = assumptions()
    plans = plans if plans is not None else schedule(ctx, a)
    found = [*_power_risks(ctx), *single_points(ctx), *_lead_risks(ctx, plans, a), *finding_risks(ctx)]
    order = {"power": 0, "redundancy": 1, "delivery": 2, "design": 3}
    return sorted(found, key=lambda x: (SEVERITY_RANK[x.severity], order[x.area]))
