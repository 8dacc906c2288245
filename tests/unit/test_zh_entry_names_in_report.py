"""Every catalog entry a Chinese report can name has a Chinese name: its `name_zh` when that says what it is,
else the name the mechanism builds from its kind and figures (catalog/names.py); and the decision summary names
the servers and storage of the examples that way, as the bill of materials does, not by the English catalog
name ("4 台 DDN AI400X2 Lustre appliance (A³I), 200GbE")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.catalog.names import local_name
from gpuplanner.reports import new_context
from gpuplanner.reports.sections import exec_summary
from gpuplanner.storage import open_project

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"(?<![\w-])[a-z][a-z-]{2,}\b")  # "appliance", "switch", "managed"


def test_every_catalog_entry_has_a_chinese_name():
    catalog = default_catalog()
    assert len(catalog.entries) > 100
    for e in catalog.entries.values():
        if e.kind == "model":  # a model's name ("Llama 3 70B") is a proper noun in every language
            continue
        for with_figures in (True, False):
            zh = local_name(e, catalog, "zh", with_figures)
            assert CJK.search(zh) and not ENGLISH_WORD.search(zh), (e.id, zh)


def test_the_ddn_appliances_have_their_own_chinese_names():
    catalog = default_catalog()
    assert (
        local_name(catalog.entries["ddn-ai400x2"], catalog, "zh") == "DDN AI400X2 Lustre 全闪存储系统（A³I）"
    )
    eth = catalog.entries["ddn-ai400x2-eth"]
    assert local_name(eth, catalog, "zh") == "DDN AI400X2 Lustre 全闪存储系统（A³I，200GbE）"
    assert local_name(eth, catalog, "en") == "DDN AI400X2 Lustre appliance (A³I), 200GbE"


@pytest.mark.parametrize("example", sorted((ROOT / "examples").glob("*.gpuplan")), ids=lambda p: p.stem)
def test_the_decision_summary_names_devices_in_chinese(example):
    project = open_project(example)
    zh = dict(exec_summary.what_rows(new_context(project, "zh", warn=lambda m: None)))
    en = dict(exec_summary.what_rows(new_context(project, "en", warn=lambda m: None)))
    for label, value in zh.items():
        assert not ENGLISH_WORD.search(value), (label, value)
    if "存储" in zh:  # the superpod: its storage as the bill of materials names it
        assert zh["存储"].startswith("4 台 ") and "存储系统" in zh["存储"]
        assert zh["存储"] == "4 台 DDN AI400X2 Lustre 全闪存储系统（A³I，200GbE）"  # its copy has the name_zh
        assert en["Storage"] == "4 × DDN AI400X2 Lustre appliance (A³I), 200GbE"  # English unchanged
