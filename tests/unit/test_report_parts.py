"""Pieces of the report: number formats, font runs, escaping, the topology aggregation, the PNG rasteriser."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PIL import Image
from reportlab.graphics.shapes import Drawing, Group, Line, Rect, String

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project
from gpuplanner.reports import fmt
from gpuplanner.reports.drawings.raster import drawing_to_png
from gpuplanner.reports.drawings.topology_model import AGG_BLOCKS, MAX_BLOCKS, build_topology_model
from gpuplanner.reports.fonts import FontError, font_path, fonts_for, wrap_cjk_runs
from gpuplanner.topology import GenerateOptions, generate_into


def test_number_formats():
    assert fmt.integer(16384) == "16,384"
    assert fmt.kw(1412.76) == "1,412.8"
    assert fmt.pue(1.3054) == "1.31"
    assert fmt.money(61045212.4) == "61,045,212"
    assert fmt.pct(0.38686) == "38.7%"
    assert fmt.compact(2.0e12) == "2T" and fmt.compact(814126) == "814.1k"
    for missing in (None, math.nan, math.inf, "x", True):
        assert fmt.num(missing) == fmt.DASH
    assert fmt.integer(np.int64(7)) == "7" and fmt.kw(np.float32(2.25)) == "2.2"


def test_large_amounts_read_as_the_app_shows_them():
    # English: the results panel's "61.05 M USD"; Chinese: 万/亿 with the currency as a word
    assert fmt.money_words(61045212, "USD", "en") == "61.05 M USD"
    assert fmt.money_words(61045212, "USD", "en", with_currency=False) == "61.05 M"
    assert fmt.money_words(61045212, "USD", "zh") == "6,104.5 万美元"
    assert fmt.money_words(124031852, "CNY", "zh") == "1.24 亿元"
    assert fmt.money_words(80079696, "CNY", "zh") == "8,008.0 万元"
    assert fmt.money_words(125000, "GBP", "zh") == "12.5 万 GBP"
    assert fmt.money_words(950, "CNY", "zh") == "950 元"
    assert fmt.money_words(math.nan, "CNY", "zh") == fmt.DASH
    assert fmt.money_scale_zh(1.41e8, "CNY") == (1e8, "亿元")
    assert fmt.money_scale_zh(9.06e7, "USD") == (1e4, "万美元")
    assert fmt.axis_number(6000.0) == "6,000" and fmt.axis_number(0.5) == "0.5"


def test_chinese_wrap_never_starts_a_line_with_a_full_width_comma():
    from reportlab.platypus import Paragraph

    from gpuplanner.reports.styles import make_styles

    zh = fonts_for("zh")
    style = make_styles(zh, "zh").cell
    text = "增加并行文件系统（Lustre、GPFS、WEKA、BeeGFS），至少配置一台 NFS 存储。"
    starts = []
    for width in range(60, 260, 3):  # wherever the line happens to end
        p = Paragraph(text, style)
        p.wrap(width, 1000)
        starts += ["".join(words) for _, words in p.blPara.lines[1:]]  # one font: (space, [text]) lines
    assert len(starts) > 50
    assert not [s for s in starts if s.startswith(("，", "；", "："))]


def test_non_latin_runs_go_to_the_cjk_font_and_markup_stays_escaped():
    en = fonts_for("en")
    assert wrap_cjk_runs("A &amp; B “quoted” — 5 × 2", en) == "A &amp; B “quoted” — 5 × 2"  # all WinAnsi
    assert (
        wrap_cjk_runs("客户 Ltd ≥", en)
        == f'<font name="{en.cjk}">客户</font> Ltd <font name="{en.cjk}">≥</font>'
    )
    zh = fonts_for("zh")
    assert zh.body == zh.cjk and wrap_cjk_runs("客户", zh) == "客户"


def test_font_override_must_exist(monkeypatch, tmp_path):
    monkeypatch.setenv("GPUPLANNER_CJK_FONT", str(tmp_path / "none.ttc"))
    with pytest.raises(FontError, match="missing file"):
        font_path()
    monkeypatch.delenv("GPUPLANNER_CJK_FONT")
    assert font_path().name == "wqy-microhei.ttc"


@pytest.fixture(scope="module")
def fat_tree():
    p = Project()
    generate_into(
        p, GenerateOptions(template="fat-tree-3tier", servers=256, rack_budget_kw=42, management_fabric=True)
    )
    return p, analyze_project(p)


def test_topology_blocks_and_bundles_account_for_every_device_and_cable(fat_tree):
    p, res = fat_tree
    m = build_topology_model(p, res)
    per_row = np.bincount([b.row for b in m.blocks])
    assert per_row.max() <= MAX_BLOCKS
    for r, n in enumerate(per_row):
        if sum(b.count for b in m.blocks if b.row == r) > MAX_BLOCKS and m.rows[r] != "compute":
            assert n <= AGG_BLOCKS
    mgmt = {d.id for d in p.devices.values() if d.role == "management"}
    assert sum(b.count for b in m.blocks) == m.devices_drawn == len(p.devices) - len(mgmt)
    drawn = [lk for lk in p.links.values() if lk.a_device not in mgmt and lk.b_device not in mgmt]
    assert m.bundle_cables.sum() == sum(lk.multiplicity for lk in drawn)
    assert m.omitted_switches == len(mgmt) and m.omitted_cables == sum(
        lk.multiplicity for lk in p.links.values() if lk.a_device in mgmt or lk.b_device in mgmt
    )
    assert np.all(m.bundle_util >= 0)


def test_rasteriser_draws_shapes_text_and_rotation(tmp_path):
    d = Drawing(200, 100)
    d.add(Rect(10, 10, 50, 30, fillColor="#ff0000", strokeColor=None))
    d.add(Line(0, 90, 200, 90, strokeColor="#0000ff", strokeWidth=2))
    g = Group(String(0, 0, "客户 text", fontName="Helvetica", fontSize=10))
    g.transform = (0, 1, -1, 0, 150, 20)
    d.add(g)
    out = drawing_to_png(d, tmp_path / "d.png", dpi=72)
    img = Image.open(out).convert("RGB")
    assert img.size == (200, 100)
    assert img.getpixel((35, 75)) == (255, 0, 0)  # rectangle (y flipped: 100 - 25)
    assert img.getpixel((100, 10))[2] > 200 and img.getpixel((100, 10))[0] < 80  # the blue line
    column = [img.getpixel((x, y)) for x in range(140, 152) for y in range(20, 80)]
    assert any(sum(px) < 300 for px in column)  # rotated text ink in its column


def test_gpu_name_in_a_sentence_leaves_the_description_out():
    from types import SimpleNamespace as NS

    from gpuplanner.reports.sections.summary import gpu_name

    gpus = {
        "nvidia-gb200": NS(
            name="NVIDIA GB200 — one Blackwell GPU of the superchip"
        ),  # catalogs/gpu/nvidia-gb200.yaml
        "nvidia-h100-sxm": NS(name="NVIDIA H100 SXM 80GB"),
    }
    ctx = NS(results=NS(compiled=NS(gpu_types=gpus)))
    assert gpu_name(ctx) == "NVIDIA GB200, NVIDIA H100 SXM 80GB"
