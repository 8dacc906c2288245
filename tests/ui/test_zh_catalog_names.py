"""The Chinese window names catalog entries in Chinese, as the report does (s11, ``catalog.names``): the catalog
tree, the rack's and the link's model lists, and the checks' messages (the rack type in the findings panel);
the English window is unchanged. The tree's search finds an entry by its English name, vendor, id and its
Chinese text in either language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QComboBox

from gpuplanner.catalog.names import local_name
from gpuplanner.storage import open_project
from gpuplanner.ui import i18n
from gpuplanner.ui.entry_names import entry_name
from gpuplanner.ui.palette import ID_ROLE

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
# English words the catalog's names use to say what a thing is or how it is built; a Chinese name keeps only
# the model name (a proper noun) and says the rest in Chinese (written here independently of the text tables)
DESCRIBING = re.compile(
    r"(?<![\w-])(server|switch|rack|racks|cable|cord|fib(?:er|re)|multimode|single-mode|copper|optical|"
    r"transceiver|active|density|standard|room|network|cabling|generic|white|box|chassis|modular|patch|"
    r"ports?|training|air-cooled|liquid-cooled|unmanaged|leaf|per|node|cluster|cabinet|duplex|high)(?![\w-])",
    re.IGNORECASE,
)


@pytest.fixture
def zh():
    i18n.set_language("zh")
    assert i18n.current_language() == "zh"
    yield
    i18n.set_language("en")


def _tree(pal) -> dict[str, list[tuple[str, str]]]:
    """Group title → [(label, catalog id)] of the entries shown."""
    out = {}
    for g in range(pal.tree.topLevelItemCount()):
        group = pal.tree.topLevelItem(g)
        out[group.text(0)] = [
            (group.child(k).text(0), group.child(k).data(0, ID_ROLE)) for k in range(group.childCount())
        ]
    return out


def _shown(pal) -> set[str]:
    ids = set()
    for g in range(pal.tree.topLevelItemCount()):
        group = pal.tree.topLevelItem(g)
        ids |= {
            group.child(k).data(0, ID_ROLE)
            for k in range(group.childCount())
            if not group.child(k).isHidden()
        }
    return ids


def test_the_chinese_catalog_tree_names_servers_switches_and_racks_in_chinese(window, zh):
    pal = window.palette
    pal.populate()
    cat = window.doc.project.catalog
    kinds = {"server": 0, "switch": 0, "rack": 0, "storage": 0, "gpu": 0}
    for _title, items in _tree(pal).items():
        for label, eid in items:
            e = cat.entries[eid]
            kinds[e.kind] += 1
            assert CJK.search(label), label
            assert label.startswith(local_name(e, cat, "zh")), label  # the report's name, then a figure
            if e.kind in ("server", "switch", "rack"):
                assert not DESCRIBING.search(label), label
    assert min(kinds.values()) >= 1, kinds
    labels = {eid: label for items in _tree(pal).values() for label, eid in items}
    assert labels["nvidia-dgx-h100"] == "GPU 服务器 DGX H100（8 × H100 SXM5 80GB） — 8U"
    assert labels["generic-48u-600x1200-hd"] == "机柜（48U，600 × 1,200 mm） — 40 kW"
    assert labels["nvidia-quantum-2-qm9700"].startswith("英伟达 Quantum-2 QM9700 NDR InfiniBand 交换机 — ")


def test_the_english_catalog_tree_is_unchanged(window):
    pal = window.palette
    pal.populate()
    labels = {eid: label for items in _tree(pal).values() for label, eid in items}
    assert labels["nvidia-dgx-h100"] == "NVIDIA DGX H100 — 8 GPU, 8U"
    assert labels["generic-48u-600x1200-hd"] == "48U rack, 600 × 1200 mm, high density (40 kW) — 48U, 40 kW"
    assert labels["nvidia-h100-sxm"].startswith("NVIDIA H100 SXM 80GB — 80 GB")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_search_finds_an_entry_by_english_name_vendor_id_and_chinese_text(window, lang):
    i18n.set_language(lang)
    try:
        pal = window.palette
        pal.populate()
        for query in (
            "DGX H100",  # the English name
            "nvidia-dgx-h100",  # the id
            "GPU 服务器 DGX H100",  # the Chinese name (built from the kind and figures)
            "服务器 h100 sxm5",  # Chinese and English words together
        ):
            pal.search.setText(query)
            assert "nvidia-dgx-h100" in _shown(pal), (lang, query)
        pal.search.setText("英伟达 QM9700")  # the catalog's name_zh
        assert _shown(pal) == {"nvidia-quantum-2-qm9700"}
        pal.search.setText("Supermicro")  # the vendor
        shown = _shown(pal)
        assert shown and all(window.doc.project.catalog.entries[i].vendor == "Supermicro" for i in shown)
        pal.search.setText("机柜 48U")
        assert {"generic-48u-600x1200-hd", "generic-48u-800x1200-network"} <= _shown(pal)
        pal.search.setText("")
        assert len(_shown(pal)) > 50
    finally:
        i18n.set_language("en")


def _combo(window, table: str, rid: str, name: str) -> QComboBox:
    window.scene.select_ids([rid])
    QApplication.processEvents()
    box = window.inspector.editors[(table, rid, name)].widget
    assert isinstance(box, QComboBox)
    return box


def test_the_rack_and_cable_model_lists_in_chinese(window, zh):
    p = window.doc.project
    rack = next(r for r in p.racks.values() if r.type_id == "generic-48u-600x1200-hd")
    box = _combo(window, "racks", rack.id, "type_id")
    assert box.currentText() == "机柜（48U，600 × 1,200 mm） (generic-48u-600x1200-hd)"
    for i in range(box.count()):
        assert CJK.search(box.itemText(i)) and not DESCRIBING.search(box.itemText(i)), box.itemText(i)
    # a link's cable list: every cable in Chinese words (its kind, speed and connector)
    link = next(iter(p.links.values()))
    window.inspector.show_ids([link.id])
    QApplication.processEvents()
    cables = window.inspector.editors[("links", link.id, "cable_id")].widget
    texts = [cables.itemText(i) for i in range(1, cables.count())]  # after "automatic"
    assert len(texts) >= 10
    for t in texts:
        assert CJK.search(t) and not DESCRIBING.search(t.split(" (")[0]), t
    # transceivers are not listed in the window; the name the window would use is Chinese too
    for e in p.catalog.of_kind("transceiver"):
        name = entry_name(p.catalog, e)
        assert CJK.search(name) and not DESCRIBING.search(name), name


def test_the_english_rack_list_is_unchanged(window):
    p = window.doc.project
    rack = next(r for r in p.racks.values() if r.type_id == "generic-48u-600x1200-hd")
    box = _combo(window, "racks", rack.id, "type_id")
    assert box.currentText() == "48U rack, 600 × 1200 mm, high density (40 kW) (generic-48u-600x1200-hd)"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_check_message_names_the_rack_type_in_the_window_language(make_window, lang):
    w = make_window(open_project(ROOT / "examples" / "cluster-256-h100.gpuplan"))
    i18n.set_language(lang)
    try:
        w.results_panel.show_results(w.doc.results)
        tree = w.results_panel.tree
        texts = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
        budget = [t for t in texts if "R01-01" in t and "42.0 kW" in t and "40.0 kW" in t]
        assert len(budget) == 1, texts
        if lang == "zh":
            assert budget[0] == (
                "8 个机柜（如 R01-01）的功率预算为 42.0 kW，高于机柜（48U，600 × 1,200 mm）的额定 40.0 kW。"
            )
            assert not re.search(r"[A-Za-z]{3,}", budget[0]), budget[0]
        else:
            assert "the rack type 48U rack, 600 × 1200 mm, high density (40 kW) is rated for" in budget[0]
    finally:
        i18n.set_language("en")
