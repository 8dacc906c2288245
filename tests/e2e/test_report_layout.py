"""What a page-by-page read of the proposals found: no clipped finding or footer, no page holding a few lines of
the contents or the bill of materials, amounts in Chinese as the app writes them (万/亿), and the performance
section saying what limits the speed and whether the model fits in GPU memory."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from gpuplanner.reports import fmt
from tests.e2e.test_report import SMALL_ZH, SUPERPOD, analyze_json, pdf_pages, run
from tests.e2e.test_report_plan import PHASED, section_page, squeeze

PDF_FILES: dict[tuple[str, str], object] = {}


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[tuple[str, str], tuple[list[str], dict]]:
    out = {}
    for name, path in (("superpod", SUPERPOD), ("small", SMALL_ZH), ("phased", PHASED)):
        for lang in ("en", "zh"):
            pdf = tmp_path_factory.mktemp("layout") / f"{name}-{lang}.pdf"
            r = run("report", str(path), "-o", str(pdf), "--lang", lang)
            assert r.returncode == 0, r.stderr
            PDF_FILES[name, lang] = pdf
            out[name, lang] = (pdf_pages(pdf), analyze_json(path, "--lang", lang))
    return out


@pytest.mark.skipif(
    shutil.which("pdffonts") is None, reason="pdffonts (Debian poppler-utils) is not installed"
)
@pytest.mark.parametrize("key", [("superpod", "en"), ("small", "zh"), ("phased", "en")])
def test_pdffonts_lists_only_embedded_fonts(reports, key):
    """Print shops (PDF/X) and archives (PDF/A) refuse a font that is referenced but not embedded — the
    canvas's initial font, table cells and drawings all started in Helvetica. Oracle: poppler's pdffonts."""
    out = subprocess.run(["pdffonts", str(PDF_FILES[key])], capture_output=True, text=True, check=True).stdout
    rows = [ln.split() for ln in out.splitlines()[2:] if ln.strip()]
    assert rows, out
    for row in rows:
        # columns: name type(1–2 words) encoding emb sub uni object ID
        emb = row[-5]
        assert emb == "yes", f"font {row[0]} is not embedded:\n{out}"
        assert not re.match(r"(Helvetica|Times|Courier|Symbol|ZapfDingbats)", row[0]), out


@pytest.mark.parametrize("key", [("superpod", "en"), ("small", "zh")])
def test_document_metadata_names_title_author_subject_and_language(reports, key):
    reader = PdfReader(str(PDF_FILES[key]))
    meta = reader.metadata
    assert meta.title and meta.subject and meta.author is not None
    lang = str(reader.trailer["/Root"].get("/Lang"))
    assert lang == ("zh-CN" if key[1] == "zh" else "en")


KEYS = [(name, lang) for name in ("superpod", "small", "phased") for lang in ("en", "zh")]


@pytest.mark.parametrize("key", KEYS)
def test_findings_are_printed_whole(reports, key):
    pages, data = reports[key]
    findings = squeeze(section_page(pages, key[1], "sec_findings"))
    for f in data["findings"]:
        assert squeeze(f["message"]) in findings
        assert squeeze(f["fix"]) in findings  # long fixes were cut at 160 characters with "…"


@pytest.mark.parametrize("key", KEYS)
def test_contents_fit_one_page_and_the_footer_is_whole(reports, key):
    pages, data = reports[key]
    contents = "目录" if key[1] == "zh" else "Contents"
    assert contents in pages[1]
    summary = "执行摘要" if key[1] == "zh" else "Executive summary"
    assert re.search(rf"^1\. {summary}$", pages[2], re.M), "the contents ran onto a second page"
    confidential = "保密" if key[1] == "zh" else "Confidential"
    for p in pages[1:]:
        assert confidential in p  # the footer "project · date · Confidential" was cut for long project names


@pytest.mark.parametrize("key", KEYS)
def test_bill_of_materials_is_not_left_with_a_line_on_a_page_of_its_own(reports, key):
    pages, _ = reports[key]
    total = "资本支出合计" if key[1] == "zh" else "Total capex"
    page = next(p for p in pages if total in p)
    rows = [ln for ln in page.splitlines() if re.search(r"\d", ln)]
    assert len(rows) > 8, page


def test_chinese_amounts_in_wan_and_yi_as_the_app_shows_them(reports):
    pages, data = reports["small", "zh"]
    text = "\n".join(pages)
    capex, tco = fmt.money_words(data["capex"], "CNY", "zh"), fmt.money_words(data["tco"], "CNY", "zh")
    assert (
        capex == "7,969.0 万元" and tco == "1.34 亿元"
    )  # the example's figures (colocation included), as the results panel
    summary = squeeze(pages[2])
    assert squeeze(f"{capex} / {tco}") in summary  # the tile
    assert squeeze(f"建设投资 {capex}，{data['tco_years']} 年总拥有成本 {tco}。") in summary
    assert f"{data['capex']:,.0f}" in pages[2]  # the exact figure stays in the key figures
    assert "累计成本（亿元）" in squeeze(text) and "百万" not in text
    pages_usd, data_usd = reports["superpod", "zh"]
    assert squeeze(fmt.money_words(data_usd["capex"], "USD", "zh")) in squeeze(pages_usd[2])
    assert "万美元" in pages_usd[2]


def test_english_tile_reads_like_the_results_panel(reports):
    pages, data = reports["superpod", "en"]
    tile = f"{fmt.money_words(data['capex'], 'USD', 'en', with_currency=False)} / "
    assert squeeze(tile + fmt.money_words(data["tco"], "USD", "en")) in squeeze(pages[2])


@pytest.mark.parametrize("key", KEYS)
def test_performance_says_what_limits_it_and_how_memory_fits(reports, key):
    pages, data = reports[key]
    perf, lang = data["performance"], key[1]
    text = squeeze(section_page(pages, lang, "sec_performance"))
    assert squeeze(perf["bottleneck"]) in text
    mem = perf["memory"]
    for k in ("weights_gb", "grads_gb", "optimizer_gb", "activations_gb", "total_gb"):
        assert fmt.num(mem[k], 1) in text, k
    assert fmt.num(mem["usable_gb"], 1) in text and perf["fits"]


@pytest.mark.parametrize("key", KEYS)
def test_rack_table_gives_airflow_in_cubic_metres_per_hour_and_cfm(reports, key):
    pages, data = reports[key]
    text = section_page(pages, key[1], "sec_power")
    assert "m³/h" in text and "CFM" in text
    for rack in data["racks"][:3]:
        assert fmt.num(rack["airflow_m3_per_h"]) in text and fmt.num(rack["airflow_cfm"]) in text


def test_catalog_years_have_no_thousands_separator(reports):
    pages, _ = reports["superpod", "en"]
    text = "\n".join(pages)
    # the appendix names the figure in words ("Released") and prints the year as a year
    assert re.search(r"^Released\s+20\d\d\b", text, re.M)
    assert not re.search(r"Released\s+2,0\d\d", text)


# A line that ends inside an amount: "9,106.3 万美" / "元", "2,348" / "万元". (Number and unit in running
# English text, "20–25" / "kW/rack", still break: not covered yet.)
BROKEN_AMOUNT = re.compile(
    r"(?:(?:万|亿)(?:美|欧|港|日)?\n(?:元|美元|欧元))|(?:\d\n(?:万|亿)(?:元|美元|欧元))"
)


@pytest.mark.parametrize("key", KEYS)
def test_no_line_breaks_inside_an_amount_or_its_currency_word(reports, key):
    pages, _ = reports[key]
    for n, page in enumerate(pages, start=1):
        lines = "\n".join(ln.strip() for ln in page.splitlines())
        m = BROKEN_AMOUNT.search(lines)
        assert m is None, f"page {n}: {lines[max(0, m.start() - 40) : m.end() + 10]!r}"


def test_chinese_labels_name_the_currency_as_the_text_does(reports):
    pages, _ = reports["superpod", "zh"]
    text = "\n".join(pages)
    assert "资本支出 (美元)" in text and "(USD)" not in text
    pages, _ = reports["superpod", "en"]
    assert "Capex (USD)" in "\n".join(pages)
