"""Bad content never breaks the report: markup characters, very long names, an empty project, a missing or
unreadable logo (a warning, not a failure) — each report written, parsed back and checked."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from gpuplanner.commands import AddRows
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Device, Project, Scenario
from gpuplanner.reports import build_report
from gpuplanner.topology import GenerateOptions, generate_into

MARKUP = 'A&B <b>bold</b> "quoted" \'single\' <font name="x">'


def small_project(**info) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="single-switch", servers=2, rack_budget_kw=42))
    p.tables["project"]["project"] = dataclasses.replace(p.info, **info)
    return p


def text_of(path: Path) -> str:
    return "\n".join(pg.extract_text() or "" for pg in PdfReader(str(path)).pages)


def test_markup_characters_print_literally(tmp_path):
    p = small_project(name=MARKUP, customer="<Customer & Co>", consultant='O\'Brien "QA"', notes=MARKUP)
    sw = next(d for d in p.devices.values() if d.role != "compute")
    p.tables["devices"][sw.id] = dataclasses.replace(sw, name="sw<1>&2")
    warnings: list[str] = []
    out = build_report(p, tmp_path / "r.pdf", lang="en", warn=warnings.append)
    text = text_of(out)
    assert "A&B <b>bold</b>" in text
    assert "<Customer & Co>" in text
    assert 'O\'Brien "QA"' in text
    assert "sw<1>&2" in text  # the switch's label in the topology drawing
    assert warnings == []


def test_very_long_names_stay_on_the_page(tmp_path):
    long = "Very-long-unbroken-name-" * 40 + " and some words " * 30
    p = small_project(name=long, customer=long, consultant=long)
    dev = next(iter(p.devices.values()))
    p.tables["devices"][dev.id] = dataclasses.replace(dev, name="x" * 600)
    rack = next(iter(p.racks.values()))
    p.tables["racks"][rack.id] = dataclasses.replace(rack, name="R" * 300)
    out = build_report(p, tmp_path / "long.pdf", lang="zh")
    reader = PdfReader(str(out))
    assert len(reader.pages) < 60
    assert "Very-long-unbroken-name" in text_of(out)


def test_a_plan_without_servers_links_or_racks_renders_every_section(tmp_path):
    p = Project()
    AddRows(
        "devices", [Device(id="d1", name="lonely switch", type_id="nvidia-quantum-2-qm9700", role="leaf")]
    ).apply(p)
    out = build_report(p, tmp_path / "empty.pdf", lang="en")
    text = text_of(out)
    for s in (
        "Executive summary",
        "The plan has no racks yet.",
        "No training workload is defined",
        "Bill of materials",
        "Appendix: assumptions and sources",
    ):
        assert s in text, s
    data = results_json(p, analyze_project(p), "en")
    assert data["gpus"] == 0 and f"{data['capex']:,.0f}" in text


def test_an_empty_project_gives_a_report_or_one_clear_error(tmp_path):
    try:
        out = build_report(Project(), tmp_path / "empty.pdf", lang="zh")
    except PlannerError as exc:  # the analysis of an empty plan may refuse; it must say so in one line
        assert "\n" not in exc.one_line()
    else:
        assert "执行摘要" in text_of(out)


def test_missing_logo_is_a_warning_not_a_failure(tmp_path):
    p = small_project(logo_path=str(tmp_path / "no-such-logo.png"))
    warnings: list[str] = []
    out = build_report(p, tmp_path / "r.pdf", warn=warnings.append)
    assert out.exists() and len(warnings) == 1 and "no-such-logo.png" in warnings[0]


def test_unreadable_logo_is_a_warning(tmp_path):
    bad = tmp_path / "logo.png"
    bad.write_text("not an image")
    p = small_project(logo_path=str(bad))
    warnings: list[str] = []
    build_report(p, tmp_path / "r.pdf", warn=warnings.append)
    assert len(warnings) == 1 and "cannot be read" in warnings[0]


def test_logo_is_drawn_on_the_cover(tmp_path):
    logo = tmp_path / "logo.png"
    Image.new("RGB", (400, 120), (11, 83, 148)).save(logo)
    p = small_project(logo_path=str(logo))
    out = build_report(p, tmp_path / "r.pdf", warn=pytest.fail)
    cover = PdfReader(str(out)).pages[0]
    images = [
        o
        for o in (cover["/Resources"].get("/XObject") or {}).values()
        if o.get_object()["/Subtype"] == "/Image"
    ]
    assert len(images) == 1


def test_scenario_that_cannot_be_analysed_is_shown_not_raised(tmp_path):
    p = small_project()
    AddRows(
        "scenarios",
        [
            Scenario(id=p.new_id("scenarios"), name="Good", overrides_json='{"site.tco_years": 3}'),
            Scenario(id=p.new_id("scenarios"), name="Broken <&>", overrides_json='{"nowhere.x": 1}'),
        ],
    ).apply(p)
    out = build_report(p, tmp_path / "r.pdf", lang="en")
    text = text_of(out)
    assert "Scenario comparison" in text and "Broken <&>" in text and "could not be analysed" in text


def test_unknown_language_is_refused(tmp_path):
    from gpuplanner.core.errors import ValidationError

    with pytest.raises(ValidationError, match="no report language 'fr'"):
        build_report(small_project(), tmp_path / "r.pdf", lang="fr")
    assert not list(tmp_path.iterdir())
