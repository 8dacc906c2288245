"""Every shipped example (examples/*.gpuplan) and every preset (``gpuplanner generate --list``), reported in
English and Chinese: each section the plan calls for has its heading in the contents and in the body, and
the appendix names the project's inputs and the model's assumptions in words (no raw ``snake_case`` keys).

The PDFs are built once per module, in process (``reports.build_report``, what ``gpuplanner report`` calls),
to keep CI time bounded: 8 plans × 2 languages, two of them 1,024 servers."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import time
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from gpuplanner.model.rows import Site
from gpuplanner.reports import build_report, i18n
from gpuplanner.storage import open_project
from gpuplanner.topology.presets import PRESETS, build_preset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.gpuplan"))
PLANS = [f"example:{p.stem}" for p in EXAMPLES] + [f"preset:{p.id}" for p in PRESETS]
LANGS = ("en", "zh")
# sections every proposal has (reports/story.py), and those a plan calls for
ALWAYS = ("sec_summary", "sec_decision", "sec_findings", "sec_risks", "sec_network", "sec_racks", "sec_power",
          "sec_performance", "sec_cost", "sec_schedule", "sec_bom", "sec_terms", "sec_assumptions",
          "sec_sources")  # fmt: skip
TIMES: dict[str, float] = {}


def load(plan: str, lang: str):
    kind, name = plan.split(":", 1)
    if kind == "example":
        return open_project(ROOT / "examples" / f"{name}.gpuplan")
    return build_preset(name, lang=lang)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[tuple[str, str], tuple[object, list[str]]]:
    base = tmp_path_factory.mktemp("every")
    out = {}
    for plan in PLANS:
        for lang in LANGS:
            t0 = time.perf_counter()
            project = load(plan, lang)
            pdf = base / f"{plan.replace(':', '-')}-{lang}.pdf"
            build_report(project, pdf, lang, today=dt.date(2026, 12, 3), warn=lambda m: None)
            pages = [p.extract_text() or "" for p in PdfReader(str(pdf)).pages]
            TIMES[f"{plan} {lang}"] = time.perf_counter() - t0
            out[plan, lang] = (project, pages)
    return out


def expected_sections(project) -> list[str]:
    keys = list(ALWAYS)
    if len(project.tables["phases"]) >= 2:
        keys.append("sec_phases")
    if len(project.tables["scenarios"]) >= 2:
        keys.append("sec_scenarios")
    if project.tables["teams"]:
        keys.append("sec_teams")
    return keys


def test_the_plans_cover_every_example_and_preset():
    assert len(EXAMPLES) >= 3 and len(PRESETS) >= 5
    assert len(PLANS) == len(EXAMPLES) + len(PRESETS)


def contents_entries(page: str) -> dict[str, int]:
    """title → page number of the contents page. pypdf reads each entry as the dot leader with the page
    number, then the title on the next line."""
    lines = [ln.strip() for ln in page.splitlines()]
    out: dict[str, int] = {}
    for i, ln in enumerate(lines[:-1]):
        m = re.fullmatch(r"(?:\.\s*)+(\d+)", ln)
        if m:
            out.setdefault(lines[i + 1], int(m.group(1)))
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("plan", PLANS)
def test_each_section_is_in_the_contents_and_the_body(reports, plan, lang):
    project, pages = reports[plan, lang]
    assert i18n.tr("contents", lang) in [ln.strip() for ln in pages[1].splitlines()[:8]], (
        "page 2 is the contents"
    )
    entries = contents_entries(pages[1])
    for key in expected_sections(project):
        title = i18n.tr(key, lang)
        listed = [(t, n) for t, n in entries.items() if re.fullmatch(rf"(\d+|[A-Z])\. {re.escape(title)}", t)]
        assert len(listed) == 1, f"{key} ({title}) is not in the contents of {plan} {lang}"
        heading, page_no = listed[0]
        # the heading is in the body, on the page the contents names (pages[2:] are the body)
        assert page_no >= 3, (key, page_no)
        assert heading in [ln.strip() for ln in pages[page_no - 1].splitlines()], (
            f"{heading} not on page {page_no} of {plan} {lang}"
        )


def appendix(pages: list[str], lang: str) -> str:
    a = re.compile(rf"^A\. {re.escape(i18n.tr('sec_assumptions', lang))}$", re.M)
    b = re.compile(rf"^B\. {re.escape(i18n.tr('sec_sources', lang))}$", re.M)
    start = next(i for i, p in enumerate(pages) if a.search(p) and i >= 2)
    end = next(i for i, p in enumerate(pages) if b.search(p) and i >= 2)
    return "\n".join(pages[start:end])


def raw_keys() -> tuple[set[str], str]:
    """Every name the appendix could print raw (the site's fields, each assumption's name and the keys of its
    nested values) and the text of the assumptions' sources/notes/units, read from the YAML files and the
    model, not from the report's code."""
    keys = {f.name for f in dataclasses.fields(Site)}
    quoted = []
    for area in ("facility", "cost", "network", "performance"):
        data = yaml.safe_load(
            (ROOT / "catalogs" / "assumptions" / f"{area}.yaml").read_text(encoding="utf-8")
        )
        for name, entry in data["entries"].items():
            keys.add(name)
            if isinstance(entry.get("value"), dict):
                keys |= {str(k) for k in entry["value"]}
            quoted += [str(entry.get(k, "")) for k in ("source", "note", "unit")]
    return {k for k in keys if "_" in k}, " ".join(quoted)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("plan", ["example:cluster-256-h100", "preset:ib-su-32-node"])
def test_the_appendix_names_inputs_and_assumptions_in_words(reports, plan, lang):
    _, pages = reports[plan, lang]
    text = appendix(pages, lang)
    flat = " ".join(text.split())
    for key in ("inp_ups_runtime_min", "inp_target_pue", "aname_liquid_loop_pue", "aname_restart_time_s"):
        assert i18n.tr(key, lang) in flat, key
    keys, sources = raw_keys()
    printed = set(re.findall(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", text))
    # a key may appear only where a printed source or note quotes it (the source column), never as a name
    # or a value: ups_runtime_min, gemm_efficiency, norm_residual_fwd, on_demand …
    raw = sorted(k for k in printed & keys if k not in sources)
    assert not raw, raw
    for gone in (
        "ups_runtime_min",
        "gemm_efficiency",
        "expected_utilization",
        "norm_residual_fwd",
        "on_demand",
    ):
        assert gone not in printed, gone


def test_report_build_times(reports):
    """Not a limit: prints what each PDF took (build + text extraction) for the notes."""
    total = sum(TIMES.values())
    print("\n" + "\n".join(f"{k}: {v:.1f} s" for k, v in sorted(TIMES.items())) + f"\ntotal {total:.1f} s")
    assert len(TIMES) == len(PLANS) * len(LANGS)
