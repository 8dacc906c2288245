"""The proposal's electrical design, sensitivity tornadoes, readable catalog appendix and layout rules, end to end:
a 32-node preset and a GB200 NVL72 plan made by `gpuplanner generate` (as users make them), reported in English
and Chinese by `gpuplanner report`, read back with pypdf and compared with `gpuplanner analyze --json`."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from gpuplanner.reports import fmt, i18n
from tests.e2e.test_report import analyze_json, pdf_pages, run

MM = 72 / 25.4
TOP, BOTTOM = 24 * MM, 20 * MM  # the frame of the portrait and landscape pages (reports/styles.py)
PLANS = {
    "n32": ("generate", "ib-su-32-node"),
    "gb200": (
        "generate",
        "rail-leaf-spine",
        "--server",
        "nvidia-gb200-nvl72",
        "--servers",
        "8",
        "--su-size",
        "4",
    ),
}
KEYS = [(plan, lang) for plan in PLANS for lang in ("en", "zh")]


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[tuple[str, str], tuple[Path, list[str], dict]]:
    base = tmp_path_factory.mktemp("design")
    out = {}
    for plan, args in PLANS.items():
        project = base / f"{plan}.gpuplan"
        r = run(*args, "-o", str(project), "--name", f"{plan} plan")
        assert r.returncode == 0, r.stderr
        for lang in ("en", "zh"):
            pdf = base / f"{plan}-{lang}.pdf"
            r = run("report", str(project), "-o", str(pdf), "--lang", lang)
            assert r.returncode == 0, r.stderr
            out[plan, lang] = (pdf, pdf_pages(pdf), analyze_json(project, "--lang", lang))
    return out


def section_pages(pages: list[str], lang: str, key: str) -> list[str]:
    """The body pages of a numbered section (from its heading to the next numbered heading)."""
    heading = re.compile(rf"^(\d+|[A-Z])\. {re.escape(i18n.tr(key, lang))}$", re.M)
    start = next(i for i, p in enumerate(pages) if heading.search(p) and " . . " not in p and i > 1)
    out = [pages[start]]
    for p in pages[start + 1 :]:
        if re.search(r"^(\d+|[A-Z])\. \S", p, re.M):
            break
        out.append(p)
    return out


def section_text(pages: list[str], lang: str, key: str) -> str:
    return "\n".join(section_pages(pages, lang, key))


def flat(text: str) -> str:
    return re.sub(r"[\s\u00a0]+", " ", text)


@pytest.mark.parametrize("key", KEYS)
def test_one_line_diagram_prints_the_engines_ratings(reports, key):
    """Transformers, generators and UPS in the drawing: count × unit kVA (redundancy) and the load kVA, as the
    electrical stage sized them (oracle: analyze --json)."""
    _, pages, data = reports[key]
    lang = key[1]
    text = flat(section_text(pages, lang, "sec_electrical"))
    e = data["electrical"]
    t, g, u = e["transformer"], e["generator"], e["ups"]
    red = e["redundancy"]
    expected = [
        i18n.tr("ol_transformer", lang, n=t["installed"], kva=fmt.num(t["unit_kva"], 0), red=red),
        i18n.tr("ol_load_kva", lang, kva=fmt.num(t["load_kva"], 0)),
        i18n.tr("ol_generator", lang, n=g["installed"], kva=fmt.num(g["unit_kva"], 0), red=red),
        i18n.tr("ol_ups", lang, n=u["modules_installed"], kva=fmt.num(u["module_kva"], 0), red=red),
        i18n.tr("ol_load_kva", lang, kva=fmt.num(u["load_kva"], 0)),
        i18n.tr("ol_utility_kw", lang, kw=fmt.num(e["utility"]["kw_max"], 0)),
    ]
    for s in expected:
        assert flat(s) in text, s
    # one busway label per drawn row (the plans have fewer rows than the drawing's branches)
    rows = data["rows"]
    assert len(rows) <= 8
    for r in rows:
        assert flat(i18n.tr("ol_busway", lang, a=fmt.num(r["busway_a"], 0))) in text


@pytest.mark.parametrize("key", KEYS)
def test_hall_rollup_adds_up_the_racks(reports, key):
    """The hall line of the per-row table: racks and kW max summed over the racks of analyze --json (not over
    its rows: an independent sum), and the CDU count of the electrical stage."""
    _, pages, data = reports[key]
    lang = key[1]
    text = section_text(pages, lang, "sec_electrical")
    lines = [ln.strip() for ln in text.splitlines()]
    at = lines.index(i18n.tr("el_hall", lang))  # the hall's label, its figures on the lines after it
    cells = lines[at + 1 : at + 7]
    assert cells[0] == fmt.integer(len(data["racks"]))
    assert cells[1] == fmt.kw(sum(r["kw_max"] for r in data["racks"]))
    n_cdu = data["cdus"]["count"]
    assert (fmt.integer(n_cdu) if n_cdu else fmt.DASH) in cells


def _tornado_labels(text: str, lang: str, data: dict) -> list[str]:
    """The tornado bar labels in the order printed."""
    labels = [i18n.tr(f"drv_{s['driver']}", lang) for s in data["sensitivity"]["drivers"]]
    sep = "：" if lang == "zh" else ": "
    found = []
    for ln in text.splitlines():
        for lab in labels:
            if ln.strip().startswith(lab + sep):
                found.append(lab)
    return found


@pytest.mark.parametrize("key", KEYS)
def test_tornado_has_a_bar_per_sensitivity_row_sorted_by_swing(reports, key):
    """Two tornadoes (cost per GPU-hour, TCO), each with one labelled bar per sensitivity row; the first in the
    order of its swing computed here from analyze --json."""
    _, pages, data = reports[key]
    lang = key[1]
    text = section_text(pages, lang, "sec_cost")
    drivers = data["sensitivity"]["drivers"]
    found = _tornado_labels(text, lang, data)
    assert len(found) == 2 * len(drivers)

    def swing(s: dict, fig: str) -> float:
        lo, hi = s["low"][fig], s["high"][fig]
        return abs(hi - lo) if lo is not None and hi is not None else 0.0

    for block, fig in ((found[: len(drivers)], "cost_per_gpu_hour"), (found[len(drivers) :], "tco")):
        swings = {i18n.tr(f"drv_{s['driver']}", lang): swing(s, fig) for s in drivers}
        assert [swings[b] for b in block] == sorted(swings.values(), reverse=True)
    base = fmt.num(data["sensitivity"]["base"]["cost_per_gpu_hour"], 2)
    assert flat(i18n.tr("tornado_title_hour", lang, cur="X", base=base)).split("X")[-1] in flat(text)


@pytest.mark.parametrize("key", KEYS)
def test_catalog_appendix_reads_as_words_without_ids_file_names_or_urls(reports, key):
    _, pages, data = reports[key]
    lang = key[1]
    text = section_text(pages, lang, "sec_assumptions")
    catalog = re.split(rf"^{re.escape(i18n.tr('asm_prices', lang))}$", text, flags=re.M)[
        0
    ]  # before the prices
    assert i18n.tr("fld_power_max_w", lang) in catalog
    assert "power_max_w" not in catalog and "http" not in catalog and ".yaml" not in catalog
    used = {r["cooling_id"] for r in data["racks"]}
    for cid in used:
        assert cid not in catalog  # entries are named, never by their catalog id
    if key[0] == "n32":  # its Lustre appliance publishes no idle power: a reason, not "0"
        assert flat(i18n.tr("why_unpublished", lang)) in flat(catalog)


@pytest.mark.parametrize("key", KEYS)
def test_no_line_parts_a_number_from_its_unit(reports, key):
    """Over every page: no line ends with a number whose unit, currency word or measure word opens the next
    line (the CJK wrap cut anywhere; column headers and Latin text broke at the space)."""
    _, pages, _ = reports[key]
    unit = re.compile(
        r"^(kVA|kWh|MWh|kW|W|Gb/s|GB/s|TB/s|Tb/s|TFLOPS|GB|TB|ms|ns|min|mm|kg|L/min|°C|%|USD|万|亿|美元|元|台|根|条)"
        r"(?![A-Za-z0-9])"
    )
    for n, page in enumerate(pages, start=1):
        lines = [ln.rstrip() for ln in page.splitlines()]
        for a, b in zip(lines, lines[1:], strict=False):
            assert not (re.search(r"\d[\s\u00a0]?$", a) and unit.match(b.lstrip())), (n, a, b)
            assert not (re.search(r"[万亿]美?$", a) and re.match(r"(美元|元)", b)), (n, a, b)


def page_fill(path: Path) -> list[tuple[float, str]]:
    """Per page: the share of the frame's height down to its lowest text line, and its first line."""
    out = []
    for page in PdfReader(str(path)).pages:
        h = float(page.mediabox.height)
        items: list[tuple[float, str]] = []

        def visit(t: str, cm: list, tm: list, *_: object, items: list = items) -> None:
            if t.strip():
                items.append((cm[5] + tm[5] * cm[3], t.strip()))

        page.extract_text(visitor_text=visit)
        body = [(y, t) for y, t in items if BOTTOM < y < h - TOP + 2]
        if not body:
            out.append((0.0, ""))
            continue
        low = min(y for y, _ in body)
        out.append(((h - TOP - low) / (h - TOP - BOTTOM), max(body)[1]))
    return out


@pytest.mark.parametrize("key", KEYS)
def test_no_page_under_30_percent_unless_it_ends_a_section(reports, key):
    pdf, _, _ = reports[key]
    fills = page_fill(pdf)
    heading = re.compile(r"^(\d+|[A-Z])\. \S")
    for n in range(1, len(fills) - 1):  # the cover and the last page are free
        fill, _ = fills[n]
        if fill < 0.30:
            assert heading.match(fills[n + 1][1]), f"page {n + 1} is {fill:.0%} full mid-section"


@pytest.mark.parametrize("key", KEYS)
def test_bom_repeats_its_header_and_chinese_counts_carry_measure_words(reports, key):
    _, pages, data = reports[key]
    lang = key[1]
    bom = section_pages(pages, lang, "sec_bom")
    text = "\n".join(bom)
    header = i18n.tr("col_unit_price", lang)
    assert all(header in p for p in bom), "a BOM page without the column headers"
    subtotals = len(re.findall(re.escape(i18n.tr("bom_subtotal", lang, category="")), text))
    assert subtotals == sum(1 for v in data["capex_by_category"].values() if v)
    if lang == "zh":
        servers = data["servers"]
        assert re.search(rf"\b{fmt.integer(servers)}[ \u00a0]台", text), "servers counted in 台"
        assert re.search(r"\d[ \u00a0]根", text), "cables counted in 根"
        assert " 个 " not in text.replace("\u00a0", " ").split(i18n.tr("cat_cables_optics", lang))[0]


@pytest.mark.skipif(
    shutil.which("pdffonts") is None, reason="pdffonts (Debian poppler-utils) is not installed"
)
@pytest.mark.parametrize("key", KEYS)
def test_new_drawings_embed_their_fonts(reports, key):
    """The one-line diagram and the tornadoes start their drawings in the embedded font (oracle: pdffonts)."""
    pdf, _, _ = reports[key]
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    rows = [ln.split() for ln in out.splitlines()[2:] if ln.strip()]
    assert rows and all(r[-5] == "yes" for r in rows), out
    assert not re.search(r"Helvetica|ZapfDingbats|Times-|Courier", out), out


@pytest.mark.parametrize("key", KEYS)
def test_per_rack_table_has_a_subtotal_per_row(reports, key):
    """The long per-rack table reads row by row: one subtotal line per row of racks, their rack counts adding
    up to every rack of analyze --json."""
    _, pages, data = reports[key]
    lang = key[1]
    text = flat(section_text(pages, lang, "sec_power"))
    en, zh = r"Subtotal row (\S+) \( ?(\d+) racks? ?\)", r"(\S+) 排小计 ?（ ?(\d+) 个机柜 ?）"
    pattern = en if lang == "en" else zh
    found = re.findall(pattern, text)
    rows = {str(r["row"]) for r in data["racks"]}
    assert {row for row, _ in found} == rows
    assert sum(int(n) for _, n in found) == len(data["racks"])
