"""Floor-plan unit captions in the window's language: the shipped example's "Utility feed" and "Rear doors R03"
(names the units got without the user naming them) are painted in Chinese in the Chinese window, a name the
user typed is painted as typed, and the translation check sees painted captions (it walks the floor plan's
text items, which are not widgets).

Oracle for the Chinese words: the floor plan's own unit-kind names in the Chinese .ts ("市电进线", "背板换热器"),
read from the file, not from the code under test."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from PySide6.QtWidgets import QApplication

from gpuplanner.commands import ReplaceRows
from gpuplanner.storage import open_project
from gpuplanner.ui.floor import layout as fl
from tests.ui.test_translations import tool

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "phased-pilot-to-su.gpuplan"


def _zh(source: str) -> str:
    ts = (ROOT / "resources" / "translations" / "gpuplanner_zh.ts").read_text(encoding="utf-8")
    m = re.search(r"<source>" + re.escape(source) + r"</source>\s*<translation>([^<]+)</translation>", ts)
    assert m, source
    return m.group(1)


def _captions(w) -> dict[str, str]:
    """unit id → the first line of its painted caption, with the floor plan shown."""
    w.tabs.setCurrentWidget(w.floor)
    QApplication.processEvents()
    w.floor.rebuild()
    return {uid: tile.label.text().splitlines()[0] for uid, tile in w.floor.scene.units.items()}


def test_default_unit_names_are_painted_in_chinese(chinese, make_window):
    p = open_project(EXAMPLE)
    names = {u.id: u.name for u in p.tables["floor_items"].values()}
    assert {"Utility feed", "Rear doors R03"} <= set(names.values())  # the example as shipped
    w = make_window(p)
    caps = _captions(w)
    feed = next(i for i, n in names.items() if n == "Utility feed")
    doors = next(i for i, n in names.items() if n == "Rear doors R03")
    assert caps[feed] == _zh("utility feed")
    assert caps[doors] == f"{_zh('rear-door heat exchangers')} R03"
    assert not any(re.search(r"[A-Za-z]{3,}", c) for c in caps.values() if c != "CRAH-1"), caps
    # the tooltip's first line too
    assert w.floor.scene.units[feed].tooltip().splitlines()[0] == _zh("utility feed")
    # a name the user typed stays as typed; a dropped unit's name ("UTILITY-FEED-2") is a default name
    unit = p.tables["floor_items"][feed]
    w.doc.push(ReplaceRows("floor_items", [dataclasses.replace(unit, name="Feed A")]))
    assert _captions(w)[feed] == "Feed A"
    unit = p.tables["floor_items"][feed]
    assert fl.unit_caption(dataclasses.replace(unit, name="UTILITY-FEED-2")) == (f"{_zh('utility feed')} 2")


def test_english_window_paints_the_names_as_given(make_window):
    w = make_window(open_project(EXAMPLE))
    assert {"Utility feed", "Rear doors R03", "CRAH-1"} <= set(_captions(w).values())


def test_the_translation_check_sees_painted_floor_captions(make_window):
    """In the English window the walk finds the English captions among the painted texts: the check of the
    Chinese window (``--check``) would report them if they were not translated."""
    w = make_window(open_project(EXAMPLE))
    _captions(w)
    painted = {text for _kind, text in tool.painted_texts(w.floor)}
    assert {"Utility feed", "Rear doors R03"} <= painted
    left = tool.english_left(w.floor, tool.translated_sources())
    assert any("'Utility feed'" in x for x in left) and any("'Rear doors R03'" in x for x in left), left
