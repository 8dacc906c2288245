"""The proposal's new sections end to end: `gpuplanner report` in a subprocess on the 32-node example and on the
32-node SU preset (which ships scenarios), in English and Chinese; the PDF text read back with pypdf and its
figures compared with `gpuplanner analyze --json`, the sources with the catalog's YAML files."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml

from tests.e2e.test_report import analyze_json, figure, pdf_pages, run

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "examples" / "cluster-256-h100.gpuplan"
HEADINGS = {
    "en": (
        "Decision summary",
        "Risks and mitigations",
        "Schedule",
        "Exclusions and price validity",
        "Sources",
    ),
    "zh": ("决策摘要", "风险与应对措施", "实施进度", "除外事项与价格有效期", "参考文献"),
}
CAPEX = {"en": "Capex ({cur})", "zh": "资本支出 ({cur})"}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
CUR = {("en", "CNY"): "CNY", ("zh", "CNY"): "元", ("en", "USD"): "USD", ("zh", "USD"): "美元"}


@pytest.fixture(scope="module")
def preset_file(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for lang in ("en", "zh"):
        path = tmp_path_factory.mktemp("preset") / f"su-{lang}.gpuplan"
        r = run("generate", "ib-su-32-node", "--lang", lang, "-o", str(path))
        assert r.returncode == 0, r.stderr
        out[lang] = path
    return out


@pytest.fixture(scope="module")
def reports(tmp_path_factory, preset_file) -> dict[tuple[str, str], tuple[list[str], dict, Path]]:
    """(plan, lang) → (page texts, analyze --json, project file)."""
    out = {}
    folder = tmp_path_factory.mktemp("reports")
    for plan, lang, src in [
        ("small", "en", SMALL),
        ("small", "zh", SMALL),
        ("preset", "en", preset_file["en"]),
        ("preset", "zh", preset_file["zh"]),
    ]:
        pdf = folder / f"{plan}-{lang}.pdf"
        r = run("report", str(src), "-o", str(pdf), "--lang", lang)
        assert r.returncode == 0, r.stderr
        out[(plan, lang)] = (pdf_pages(pdf), analyze_json(src), src)
    return out


HEAD = re.compile(r"^(\d+|[A-Z])\. (.+)$")


def headings(page: str) -> list[str]:
    """Section titles at the top of a page (below the running header)."""
    return [m.group(2) for ln in page.splitlines()[1:7] if (m := HEAD.match(ln.strip()))]


def body_start(pages: list[str]) -> int:
    """The index of the first page after the contents (the page of section 1)."""
    return next(
        i
        for i, p in enumerate(pages)
        if i > 1
        and any(HEAD.match(f"1. {h}") for h in headings(p))
        and any(ln.strip().startswith("1. ") for ln in p.splitlines()[1:7])
    )


def section_pages(pages: list[str], title: str) -> list[str]:
    """The pages of the numbered section (or appendix) ``title``, up to the next section heading."""
    out: list[str] = []
    inside = False
    for p in pages[body_start(pages) :]:
        starts = headings(p)
        if starts:
            inside = title in starts
        if inside:
            out.append(p)
    assert out, f"no section {title!r}"
    return out


@pytest.mark.parametrize("plan", ["small", "preset"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_new_sections_are_there_with_the_engine_figures(reports, plan, lang):
    pages, data, _ = reports[(plan, lang)]
    decision, risks, sched, terms, sources = HEADINGS[lang]
    contents = "\n".join(pages[1 : body_start(pages)])
    for h in HEADINGS[lang]:
        assert h in contents, h  # listed in the contents
        section_pages(pages, h)
    cur = CUR[(lang, data["currency"])]
    summary = "\n".join(section_pages(pages, decision))
    cost = "\n".join(
        section_pages(pages, "Cost and total cost of ownership" if lang == "en" else "成本与总拥有成本")
    )
    label = CAPEX[lang].format(cur=cur)
    capex = f"{data['capex']:,.0f}"
    assert figure(summary, label) == capex
    assert figure(cost, label) == capex  # the same figure, formatted the same, as the TCO section
    # throughput with the engine's error band
    perf = data["performance"]
    lo, hi = sorted(perf["tokens_per_s_range"])
    assert f"{perf['tokens_per_s']:,.0f}" in summary and f"{lo:,.0f}–{hi:,.0f}" in summary
    # the decision summary is one page
    assert len(section_pages(pages, decision)) == 1
    # the schedule starts on the report's date with the whole plan as one phase (no phases in these plans)
    today = dt.date.today()
    start = (
        f"{today.day} {MONTHS[today.month - 1]} {today.year}"
        if lang == "en"
        else f"{today.year}年{today.month}月{today.day}日"
    )
    schedule = "\n".join(section_pages(pages, sched))
    assert start in schedule and ("Whole plan" if lang == "en" else "整体建设") in schedule
    # the risks name the unconfirmed utility feed with the engine's figure
    need = f"{data['utility_feed_kw_needed']:,.1f} kW"
    assert need in "\n".join(section_pages(pages, risks))
    assert "90" in "\n".join(section_pages(pages, terms))


def _catalog_file(tid: str) -> Path | None:
    for p in (ROOT / "catalogs").glob(f"*/{tid}.yaml"):
        if p.parent.name not in ("prices", "assumptions", "schema", "validation"):
            return p
    return None


def squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sources_list_each_catalog_source_used_exactly_once(reports, lang):
    pages, data, path = reports[("small", lang)]
    text = squash("\n".join(section_pages(pages, HEADINGS[lang][4])))
    # what the plan uses, read independently: the model's types, the cables and optics of the analysis, and
    # each entry's source from its own YAML file
    from gpuplanner.storage import open_project

    project = open_project(path)
    ids = set(project.used_type_ids()) | set(data["fabric"]["cables"]) | set(data["fabric"]["transceivers"])
    ids |= {r["cooling_id"] for r in data["racks"] if r.get("cooling_id")}
    checked = 0
    for tid in sorted(ids):
        f = _catalog_file(tid)
        if f is None:
            continue
        source = yaml.safe_load(f.read_text(encoding="utf-8"))["source"]
        # "[n] source (as of)": the whole source up to its date (one source may begin with another)
        found = re.findall(r"\[\d+\]" + re.escape(squash(source)) + r"(?=[(（]\d{4})", text)
        assert len(found) == 1, (tid, source, len(found))
        checked += 1
    assert checked >= 8
    # numbered 1..n without gaps
    numbers = [int(n) for n in re.findall(r"\[(\d+)\]", text)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_preset_scenarios_have_a_difference_column(reports):
    pages, base, path = reports[("preset", "en")]
    page = "\n".join(section_pages(pages, "Scenario comparison"))
    assert "Δ DGX H200" in page and "Δ Own data hall" in page
    h200 = analyze_json(path, "--scenario", "DGX H200")
    diff = h200["capex"] - base["capex"]
    assert diff > 0 and f"+{diff:,.0f}" in page
    own = analyze_json(path, "--scenario", "Own data hall")
    tco = own["tco"] - base["tco"]
    sign = "+" if tco > 0 else "−"
    assert f"{sign}{abs(tco):,.0f}" in page
    zh = "\n".join(section_pages(reports[("preset", "zh")][0], "场景对比"))
    assert "自建机房 差值" in zh and f"+{diff:,.0f}" in zh


def test_chinese_counts_carry_measure_words(reports):
    pages, data, _ = reports[("preset", "zh")]
    summary = "\n".join(section_pages(pages, "决策摘要"))
    assert f"{data['gpus']} 块" in summary and f"{data['servers']} 台" in summary
    assert f"{len(data['racks'])} 个机柜" in summary
    bom = "\n".join(section_pages(pages, "实施进度"))
    assert "新增服务器（台）" in bom and "新增线缆（条）" in bom
