"""The PDF proposal end to end: `gpuplanner report` in a subprocess on the bundled examples, the PDF parsed back
with pypdf, and its totals compared with `gpuplanner analyze --json` (the figures the app shows)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
SUPERPOD = ROOT / "examples" / "superpod-1024-h100.gpuplan"
SMALL_ZH = ROOT / "examples" / "cluster-256-h100.gpuplan"


def run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}  # headless
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def analyze_json(path: Path, *extra: str) -> dict:
    r = run("analyze", str(path), "--json", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def pdf_pages(path: Path) -> list[str]:
    return [p.extract_text() or "" for p in PdfReader(str(path)).pages]


def figure(text: str, label: str, after: str = "") -> str:
    """The value printed on the line after ``label`` in a key-figures table (below the line ``after``)."""
    lines = [ln.strip() for ln in text.splitlines()]
    start = lines.index(after) if after else 0
    for i in range(start, len(lines) - 1):
        if lines[i] == label:
            return lines[i + 1]
    raise AssertionError(f"no line {label!r} in the text")


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> tuple[list[str], dict]:
    out = tmp_path_factory.mktemp("report") / "proposal.pdf"
    r = run("report", str(SUPERPOD), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_bytes().startswith(b"%PDF")
    return pdf_pages(out), analyze_json(SUPERPOD)


@pytest.fixture(scope="module")
def chinese(tmp_path_factory) -> tuple[Path, list[str], dict]:
    out = tmp_path_factory.mktemp("report") / "proposal-zh.pdf"
    r = run("report", str(SMALL_ZH), "-o", str(out))  # the project's language is zh: no --lang needed
    assert r.returncode == 0, r.stderr
    return out, pdf_pages(out), analyze_json(SMALL_ZH)


def summary_page(pages: list[str], heading: str) -> str:
    return next(p for p in pages if heading in p and ("Key figures" in p or "关键数据" in p))


def test_english_totals_equal_the_engine(english):
    pages, data = english
    page = summary_page(pages, "Executive summary")
    cur, years = data["currency"], data["tco_years"]
    assert figure(page, "GPUs", after="Key figures") == f"{data['gpus']:,}"
    assert figure(page, "IT power, maximum (kW)") == f"{data['it_kw_max']:,.1f}"
    assert figure(page, "IT power at predicted load (kW)") == f"{data['it_kw_load']:,.1f}"
    assert figure(page, "Facility power, maximum (kW)") == f"{data['facility_kw_max']:,.1f}"
    assert figure(page, "PUE") == f"{data['pue']:.2f}"
    assert figure(page, "Annual energy (MWh)") == f"{data['annual_mwh']:,.0f}"
    assert figure(page, f"Capex ({cur})") == f"{data['capex']:,.0f}"
    assert figure(page, f"Total cost of ownership, {years} years ({cur})") == f"{data['tco']:,.0f}"
    assert figure(page, "Training throughput (tokens/s)") == f"{data['performance']['tokens_per_s']:,.0f}"


def test_english_sections_totals_and_page_furniture(english):
    pages, data = english
    text = "\n".join(pages)
    for heading in (
        "Contents",
        "Design findings",
        "Network topology",
        "Rack elevations",
        "Power and cooling",
        "Performance",
        "Bill of materials",
        "Scenario comparison",
        "Appendix: assumptions and sources",
    ):
        assert heading in text, heading
    # facility totals page and BOM total repeat the same figures
    power = next(p for p in pages if "Facility totals" in p and "Contents" not in p)
    assert figure(power, "PUE") == f"{data['pue']:.2f}"
    assert figure(power, "Facility power, maximum (kW)") == f"{data['facility_kw_max']:,.1f}"
    bom_total = re.search(r"Total capex\s+USD\s+([\d,]+)", text)
    assert bom_total and bom_total.group(1) == f"{data['capex']:,.0f}"
    # running header and "page X of Y" on every page but the cover
    n = len(pages)
    for i, p in enumerate(pages[1:], start=2):
        assert f"Page {i} of {n}" in p
        assert p.startswith(data["project"])
    # every rack of the project is in the power table
    for rack in data["racks"]:
        assert rack["name"] in text
    # no phases, teams or floor units: no such sections (nor their lines in the contents)
    assert not data["phases"] and not data["floor_units"]
    for heading in ("Phased build-out", "Teams and quotas", "Floor plan", "Scheduler advice"):
        assert heading not in text, heading


def test_scenarios_are_compared_side_by_side(english):
    pages, _ = english
    page = next(p for p in pages if "Scenario comparison" in p and "Cheaper power" in p)
    base = analyze_json(SUPERPOD, "--scenario", "Base")
    cheap = analyze_json(SUPERPOD, "--scenario", "Cheaper power")
    row = figure(page, "Energy cost per year (USD)")
    assert row == f"{base['energy_cost_per_year']:,.0f}"
    assert f"{cheap['energy_cost_per_year']:,.0f}" in page
    assert cheap["energy_cost_per_year"] < base["energy_cost_per_year"]


def test_chinese_report_has_chinese_headings_and_the_same_totals(chinese):
    _, pages, data = chinese
    text = "\n".join(pages)
    for heading in (
        "方案建议书",
        "目录",
        "执行摘要",
        "设计检查结果",
        "网络拓扑",
        "机柜布置图",
        "供电与散热",
        "性能",
        "成本与总拥有成本",
        "物料清单",
        "附录：假设与数据来源",
        "关键数据",
    ):
        assert heading in text, heading
    page = summary_page(pages, "执行摘要")
    assert figure(page, "GPU 数量", after="关键数据") == f"{data['gpus']:,}"
    assert figure(page, "IT 功率，最大值 (kW)") == f"{data['it_kw_max']:,.1f}"
    assert figure(page, "设施功率，最大值 (kW)") == f"{data['facility_kw_max']:,.1f}"
    assert figure(page, "PUE") == f"{data['pue']:.2f}"
    assert figure(page, "资本支出 (元)") == f"{data['capex']:,.0f}"
    assert figure(page, f"{data['tco_years']} 年总拥有成本 (元)") == f"{data['tco']:,.0f}"
    assert f"第 2 页，共 {len(pages)} 页" in pages[1]
    for f in data["findings"]:  # the findings in their Chinese wording
        assert f["message"][:12] in text
    for heading in (
        "分期建设",
        "团队与配额",
        "机房平面图",
    ):  # the project has no phases, teams or floor units
        assert heading not in text, heading


def test_chinese_font_is_embedded_with_a_unicode_map(chinese):
    path, _, _ = chinese
    fonts = {}
    for page in PdfReader(str(path)).pages:
        for name, ref in (page["/Resources"].get("/Font") or {}).items():
            fonts[name] = ref.get_object()
    cjk = [f for f in fonts.values() if "WenQuanYi" in str(f.get("/BaseFont"))]
    assert cjk, [str(f.get("/BaseFont")) for f in fonts.values()]
    for f in cjk:
        assert "/ToUnicode" in f
        desc = f["/FontDescriptor"].get_object()
        assert "/FontFile2" in desc  # the TrueType outlines travel with the PDF


def test_report_cli_errors_are_one_line(tmp_path):
    r = run("report", str(SUPERPOD), "-o", str(tmp_path / "missing" / "x.pdf"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "does not exist" in r.stderr
    r = run("report", str(SUPERPOD), "-o", str(tmp_path / "x.pdf"), "--scenario", "nope")
    assert r.returncode == 2 and "no scenario 'nope'" in r.stderr
    r = run("report", str(tmp_path / "none.gpuplan"), "-o", str(tmp_path / "x.pdf"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert not (tmp_path / "x.pdf").exists()
