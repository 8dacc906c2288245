"""The proposal's decision summary, risks, schedule, price terms and sources, in process (no PDF): the figures
against independent readings (the delivery assumptions read as YAML, the analysis JSON, the model's tables)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest
import yaml
from reportlab.graphics.shapes import Drawing, String

from gpuplanner.reports import new_context, phase_figures
from gpuplanner.reports.delivery import GOODS, risks, schedule, single_points
from gpuplanner.reports.sections import exec_summary, scenarios
from gpuplanner.reports.sections import schedule as schedule_section
from gpuplanner.reports.sources import bibliography, price_terms
from gpuplanner.storage import open_project
from gpuplanner.topology.presets import build_preset

ROOT = Path(__file__).resolve().parents[2]
DELIVERY = yaml.safe_load((ROOT / "catalogs" / "assumptions" / "delivery.yaml").read_text(encoding="utf-8"))
TODAY = dt.date(2026, 12, 3)


def weeks(category: str) -> int:
    return int(DELIVERY["entries"][f"lead_weeks_{category}"]["value"])


def context(project, lang="en"):
    ctx = new_context(project, lang, today=TODAY, warn=lambda m: None)
    if len(project.tables["phases"]) >= 2:
        ctx.phases, ctx.growth = phase_figures(project, None, lang)
    return ctx


@pytest.fixture(scope="module")
def phased():
    project = open_project(ROOT / "examples" / "phased-pilot-to-su.gpuplan")
    return project, context(project)


def strings(d: Drawing) -> list[str]:
    out = []

    def walk(node):
        for c in getattr(node, "contents", []):
            if isinstance(c, String):
                out.append(c.text)
            walk(c)

    walk(d)
    return out


def test_schedule_follows_the_phases_and_the_lead_times(phased):
    project, ctx = phased
    plans = schedule(ctx)
    names = [p.name for p in sorted(project.tables["phases"].values(), key=lambda p: (p.order, p.id))]
    assert [p.name for p in plans] == names
    assert plans[0].order == TODAY
    for before, after in zip(plans, plans[1:], strict=False):
        assert after.order == before.handover  # each phase ordered at the previous handover
    for p, pr in zip(plans, ctx.phases, strict=True):
        # the delivery waits for the longest lead time of what the phase buys (from the YAML, not the module)
        bought = [k for k in GOODS if p.capex_added.get(k, 0) > 0.005]
        assert bought and p.procurement_weeks == max(weeks(k) for k in bought)
        assert (p.delivered - p.order).days == 7 * p.procurement_weeks
        assert p.acceptance_weeks == DELIVERY["entries"]["acceptance_weeks"]["value"]
        assert (p.handover - p.order).days == 7 * p.weeks
        # the phase's capex is what its analysis adds to the one before it
        assert p.capex_total == pytest.approx(pr.summary["capex_added"], rel=1e-9, abs=0.01)
        assert p.gpus_added == pr.summary["gpus"] - (
            ctx.phases[ctx.phases.index(pr) - 1].summary["gpus"] if ctx.phases.index(pr) else 0
        )


def test_gantt_draws_one_row_per_phase_with_fitted_labels(phased):
    project, ctx = phased
    plans = schedule(ctx)
    d = schedule_section.chart(ctx, plans)
    assert d.phase_rows == len(project.tables["phases"]) == 3
    labels = strings(d)
    for p in project.tables["phases"].values():
        assert any(s == p.name or (s.endswith("…") and p.name.startswith(s[:-1])) for s in labels), p.name
    # a name too long for the label column is shortened, never drawn over the bars
    long = dataclasses.replace(plans[0], name="A very long phase name " * 8)
    d2 = schedule_section.chart(ctx, [long, *plans[1:]])
    assert any(s.endswith("…") for s in strings(d2))


def test_without_phases_the_whole_plan_is_one_phase():
    project = open_project(ROOT / "examples" / "cluster-256-h100.gpuplan")
    ctx = context(project)
    plans = schedule(ctx)
    assert len(plans) == 1 and plans[0].gpus_added == ctx.data["gpus"]
    assert plans[0].capex_total == pytest.approx(ctx.data["capex"], rel=1e-9)
    # the decision summary prints the TCO section's capex, TCO and NPV exactly
    much = dict(exec_summary.much_rows(ctx))
    assert much["Capex (CNY)"] == f"{ctx.data['capex']:,.0f}"
    assert much["Total cost of ownership, 5 years (CNY)"] == f"{ctx.data['tco']:,.0f}"
    perf = ctx.data["performance"]
    fast = dict(exec_summary.fast_rows(ctx)[0])
    lo, hi = sorted(perf["tokens_per_s_range"])
    assert (
        fast["Training throughput"] == f"{perf['tokens_per_s']:,.0f} tokens/s (expected {lo:,.0f}–{hi:,.0f})"
    )


def test_single_points_of_failure_come_from_the_model():
    project = build_preset("roce-4-node")  # four servers on one switch, one management switch
    ctx = context(project)
    what = [r.what for r in single_points(ctx)]
    assert "All 4 servers hang off one switch: its failure stops the cluster." in what
    assert not any("spine" in w for w in what)
    # N electrical redundancy and a site that cannot feed the plan: both named, power first
    site = dataclasses.replace(project.site, redundancy="N", utility_kw_available=10.0)
    project.tables["site"]["site"] = site
    ctx = context(project)
    found = risks(ctx)
    assert found[0].area == "power" and found[0].severity == "high"
    assert any(r.what.startswith("UPS and generators are sized N") for r in found)
    # a feed large enough: a low risk with the spare capacity
    need = ctx.data["utility_feed_kw_needed"]
    project.tables["site"]["site"] = dataclasses.replace(site, utility_kw_available=need + 100.0)
    ok = [r for r in risks(context(project)) if r.area == "power"]
    assert len(ok) == 1 and ok[0].severity == "low" and "100.0 kW spare" in ok[0].what


def test_findings_become_risks_with_their_fix_as_mitigation(phased):
    _, ctx = phased
    design = [r for r in risks(ctx) if r.area == "design"]
    expected = [f for f in [*ctx.results.findings, *ctx.growth] if f.severity in ("error", "warning")]
    assert len(design) == len(expected) > 0
    for f in expected:
        assert any(r.what == f.message("en") and r.mitigation == (f.fix("en") or "—") for r in design)


def test_price_validity_and_sources_listed_once(phased):
    project, ctx = phased
    terms = price_terms(ctx)
    assert terms.valid_until == TODAY + dt.timedelta(days=DELIVERY["entries"]["price_validity_days"]["value"])
    assert all(a <= b for (a, _), (b, _) in zip(terms.dates, terms.dates[1:], strict=False))
    assert all(d < "2025-12" for d, _ in terms.stale)  # older than 12 months before December 2026
    bib = bibliography(ctx)
    texts = [s.text for s in bib.items]
    assert len(texts) == len(set(texts)) and [s.n for s in bib.items] == list(range(1, len(texts) + 1))
    # every used entry's own source (read from its YAML) is one numbered item
    for tid in project.used_type_ids():
        e = project.catalog.entries.get(tid)
        if e is None:
            continue
        assert bib.ref(e.source) > 0, tid


def test_scenario_difference_column_is_scenario_minus_base():
    f = scenarios.fmt.money
    assert scenarios.difference(100.0, 250.0, f) == "+150"
    assert scenarios.difference(250.0, 100.0, f) == "−150"
    assert scenarios.difference(1.0, 1.0004, f) == "="  # equal as printed
    assert scenarios.difference((0, 2), (1, 2), str) == "+1 / +0"
    assert scenarios.difference(None, 3.0, f) == scenarios.fmt.DASH


def test_a_preset_ships_scenarios_in_both_languages():
    en = build_preset("ib-su-32-node")
    zh = build_preset("ib-su-32-node", lang="zh")
    assert [s.name for s in en.tables["scenarios"].values()] == ["Base", "DGX H200", "Own data hall"]
    assert [s.name for s in zh.tables["scenarios"].values()] == ["基准", "DGX H200", "自建机房"]
