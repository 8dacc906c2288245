"""Names of the bill of materials and the appendix in Chinese: the kind in Chinese words, the model name kept;
English unchanged (the catalog's ``name``). Checked on the 32-node (256-GPU) example and on every entry of the
bundled catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.catalog import load_catalog
from gpuplanner.catalog.names import local_name, short_model
from gpuplanner.reports import new_context
from gpuplanner.reports.sections.bom import lines_by_category
from gpuplanner.storage import open_project

ROOT = Path(__file__).resolve().parents[2]
# Chinese nouns that say what a thing is, written here independently of the text tables (a cooling entry is
# named by its method: 开放式风冷, 背板换热器, 冷板式液冷)
KIND_NOUNS = ("服务器", "交换机", "光模块", "跳线", "铜缆", "光缆", "机柜", "PDU", "母线", "电源架", "存储",
              "网卡", "冷却", "散热", "加速卡", "处理器", "人工", "安装", "软件", "液冷", "冷量分配",
              "风冷", "换热器")  # fmt: skip
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def example():
    project = open_project(ROOT / "examples" / "cluster-256-h100.gpuplan")
    return project, {lang: new_context(project, lang, warn=lambda m: None) for lang in ("en", "zh")}


def test_every_chinese_bom_row_names_its_kind_in_chinese(example):
    _, ctx = example
    lines = [ln for group in lines_by_category(ctx["zh"]).values() for ln in group]
    assert len(lines) >= 8
    for ln in lines:
        assert any(noun in ln.name for noun in KIND_NOUNS), ln.name
        assert CJK.search(ln.name), ln.name
    names = {ln.name for ln in lines}
    # the brief's examples, with the example's server and its GPU's model name
    assert "GPU 服务器 SYS-821GE-TNHR（8 × H100 SXM5 80GB）" in names
    assert "光模块 MMA4Z00-NS（2 × 400G OSFP，多模 (MMF)）" in names  # twin-port, 800G
    assert "光模块 MMA4Z00-NS400（400G OSFP，多模 (MMF)）" in names
    assert "多模光纤跳线 MFP7E10-Nxxx（400G，MPO-12）" in names


def test_the_english_bom_keeps_the_catalog_names(example):
    project, ctx = example
    cat = project.catalog
    en = [ln for group in lines_by_category(ctx["en"]).values() for ln in group]
    zh = [ln for group in lines_by_category(ctx["zh"]).values() for ln in group]
    assert [ln.item_id for ln in en] == [ln.item_id for ln in zh]
    for ln in en:
        if ln.item_id in cat.entries:
            assert ln.name == cat.entries[ln.item_id].name
        assert not CJK.search(ln.name), ln.name


def test_every_catalog_entry_has_a_chinese_name_with_its_kind():
    cat = load_catalog()
    for e in cat.entries.values():
        if e.kind == "model":
            continue
        zh = local_name(e, cat, "zh")
        assert any(noun in zh for noun in KIND_NOUNS), (e.id, zh)
        assert local_name(e, cat, "en") == e.name
        # brackets balanced, no English describing words left from the model ("per Blackwell GPU")
        assert zh.count("(") == zh.count(")") and zh.count("（") == zh.count("）"), zh
        if not e.name_zh or e.name_zh not in zh:
            assert not re.search(r"(?<![\w-])(per|node|cabinet|exchanger|pair|cluster)\b", zh), zh


def test_short_model_drops_english_descriptions_and_keeps_model_names():
    assert short_model("GB200 (per Blackwell GPU)") == "GB200"
    assert short_model("PowerEdge XE9680 (HGX H200)") == "PowerEdge XE9680 (HGX H200)"
    assert short_model("WEKApod node (per node of an 8-node cluster)") == "WEKApod"
    assert short_model("Starline Track Busway T5, 800 A, 415 V 3-phase") == "Starline Track Busway T5"
    assert short_model("B300 (HGX B300 SXM, Blackwell Ultra)") == "B300 (HGX B300 SXM, Blackwell Ultra)"
    assert short_model("GB200 NVL72-class MGX rack") == "GB200 NVL72-class MGX"
