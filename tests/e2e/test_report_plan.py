"""The report's phase comparison, teams and floor plan end to end: `gpuplanner report` on the phased example in
English and Chinese, the PDF parsed back, its figures compared with `gpuplanner analyze --json`."""

from __future__ import annotations

import re

import pytest

from gpuplanner.reports import i18n
from tests.e2e.test_report import ROOT, analyze_json, pdf_pages, run

PHASED = ROOT / "examples" / "phased-pilot-to-su.gpuplan"


@pytest.fixture(scope="module", params=["en", "zh"])
def phased(request, tmp_path_factory) -> tuple[str, list[str], dict]:
    lang = request.param
    out = tmp_path_factory.mktemp("report") / f"phased-{lang}.pdf"
    r = run("report", str(PHASED), "-o", str(out), "--lang", lang)
    assert r.returncode == 0, r.stderr
    return lang, pdf_pages(out), analyze_json(PHASED, "--lang", lang)


def squeeze(text: str) -> str:
    """Text without white space, so that a sentence wrapped across lines still matches."""
    return re.sub(r"\s+", "", text)


def section_page(pages: list[str], lang: str, key: str) -> str:
    """The pages of a numbered section (not the contents), joined."""
    title = i18n.tr(key, lang)
    heading = re.compile(rf"^\d+\. {re.escape(title)}$", re.M)
    start = next(
        i for i, p in enumerate(pages) if heading.search(p) and " .  . " not in p
    )  # not the contents
    out = [pages[start]]
    for p in pages[start + 1 :]:
        if re.search(r"^\d+\. \S", p, re.M):  # the next section's heading
            break
        out.append(p)
    return "\n".join(out)


def cells(values: list[str]) -> str:
    return "\n".join(values)


def test_phase_table_has_the_engine_figures_of_every_phase(phased):
    lang, pages, data = phased
    phases = data["phases"]
    assert len(phases) == 3
    text = section_page(pages, lang, "sec_phases")
    for ph in phases:
        assert ph["name"] in text
    gpus = [ph["gpus"] for ph in phases]
    added = [g - b for g, b in zip(gpus, [0, *gpus[:-1]], strict=True)]
    tokens = ["—" if ph["tokens_per_s"] is None else f"{ph['tokens_per_s']:,.0f}" for ph in phases]
    rows = {
        "gpus": [f"{a:,} / {g:,}" for a, g in zip(added, gpus, strict=True)],
        "tokens": tokens,
        "it_kw": [f"{ph['it_kw_max']:,.1f}" for ph in phases],
        "facility_kw": [f"{ph['facility_kw_max']:,.1f}" for ph in phases],
        "pue": [f"{ph['pue']:.2f}" for ph in phases],
        "capex_added": [f"{ph['capex_added']:,.0f}" for ph in phases],
        "capex": [f"{ph['capex']:,.0f}" for ph in phases],
        "tco": [f"{ph['tco']:,.0f}" for ph in phases],
        "ports_free": [f"{ph['ports_free']:,.0f}" for ph in phases],
        "feed": [f"{ph['utility_feed_kw_needed']:,.1f}" for ph in phases],
    }
    for name, values in rows.items():
        assert cells(values) in text, (name, values)
    mfu = phases[-1]["mfu"]
    assert f"{mfu * 100:.1f}%" in text
    for method in ("rear-door", "air-contained"):
        kws = [f"{ph['cooling_mix_kw'][method]:,.1f}" for ph in phases]
        assert cells(kws) in text, method
    assert i18n.label("sched", phases[-1]["scheduler"], lang) in text


def test_growth_checks_name_each_step_and_its_findings(phased):
    lang, pages, data = phased
    text = squeeze(section_page(pages, lang, "sec_phases"))
    growth = [f for f in data["findings"] if f["rule"] == "phase-growth-needs-replacement"]
    names = [ph["name"] for ph in data["phases"]]
    for before, after in zip(names, names[1:], strict=False):
        mine = [f for f in growth if f["params"]["phase"] == after]
        key = "ph_growth_bad" if mine else "ph_growth_ok"
        assert squeeze(i18n.tr(key, lang, before=before, phase=after, n=len(mine))) in text
        for f in mine:
            assert squeeze(f["message"]) in text


def test_teams_quotas_and_scheduler_advice(phased):
    lang, pages, data = phased
    text = section_page(pages, lang, "sec_teams")
    flat = squeeze(text)
    for name, part, guaranteed, burst, job in (
        ("Foundation models", "train", 192, 64, 256),
        ("Applied ML", "train", 64, 64, 64),
        ("Inference platform", "infer", 32, 16, 8),
    ):
        assert squeeze(name) in flat
        assert re.search(rf"{part}\n[\d,]+\n{guaranteed}\n{burst}\n\d+\n{job}\n", text), name
    team_rules = {"quota-exceeds-cluster", "job-larger-than-partition", "teams-without-quotas"}
    found = [f for f in data["findings"] if f["rule"] in team_rules]
    assert found  # the example has a team without a quota
    for f in found:
        assert squeeze(f["message"]) in flat
    advice = next(f for f in data["findings"] if f["rule"] == "scheduler-advice")
    assert squeeze(advice["message"]) in flat and squeeze(advice["fix"]) in flat


def test_floor_plan_lists_each_unit_load_and_capacity(phased):
    lang, pages, data = phased
    text = section_page(pages, lang, "sec_floor")
    assert data["floor_units"]
    for u in data["floor_units"]:
        load, cap = u["load_kw"], u["capacity_kw"]
        row = cells([f"{load:,.1f}", f"{cap:,.1f}", f"{load / cap * 100:.0f}%"])
        assert row in text, u["name"]
        assert f"{load:,.1f} / {cap:,.1f} kW" in text  # the label in the drawing
        assert u["name"] in text
    for rack in data["racks"]:  # a small hall: every rack is named in the plan
        assert rack["name"] in text
