"""The floor plan draws what it used to only describe: every rack carries a label that fits its tile at the
default zoom (name and kW, the name, or its slot number — never cut text), and clicking a rack draws its
cable runs to the racks it connects to, each labelled with the longest run and the number of cables —
checked against a plain loop over the project's links and the engine's lengths."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gpuplanner.storage import open_project
from gpuplanner.ui import fmt
from gpuplanner.ui.floor.scene import LABEL_PX, _font, short_rack_name

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _floor(make_window):
    w = make_window(open_project(EXAMPLES / "phased-pilot-to-su.gpuplan"))
    w.resize(1600, 1000)
    w.tabs.setCurrentWidget(w.floor)
    QApplication.processEvents()
    w.floor.view.fit()
    QApplication.processEvents()
    return w


def test_short_names():
    assert short_rack_name("R03-07", "R03") == "07"
    assert short_rack_name("net-12", "B") == "12"
    assert short_rack_name("core", "B") == "core"


def test_every_rack_is_labelled_legibly_at_the_default_zoom(make_window):
    w = _floor(make_window)
    scale = w.floor.view.scale_now()
    for tile in w.floor.scene.racks.values():
        lines = tile.label_lines(scale)
        assert lines, f"{tile.name} has no label at the default zoom ({scale:.2f})"
        assert lines[0] in (tile.name, tile.short)
        # the text fits the tile along its depth, at a size readable on screen (≥ LABEL_PX px)
        font = _font(max(LABEL_PX / scale, LABEL_PX))
        assert font.pixelSize() * scale >= LABEL_PX - 1
        fm = QFontMetricsF(font)
        assert max(fm.horizontalAdvance(t) for t in lines) <= tile.rect().height()
    # zoomed far out the labels are left out rather than overlapping; zoomed in, name and kW
    some = next(iter(w.floor.scene.racks.values()))
    assert some.label_lines(0.02) == []
    assert some.label_lines(3.0) == [some.name, f"{fmt.number(some.kw_max)} kW"]


def test_clicking_a_rack_draws_its_cable_runs_with_lengths(make_window):
    w = _floor(make_window)
    floor, p, res = w.floor, w.doc.project, w.doc.results
    # the oracle: a loop over the project's links, lengths from the engine's compiled rows
    runs: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for lid, lk in p.links.items():
        ra, rb = p.devices[lk.a_device].rack_id, p.devices[lk.b_device].rack_id
        if ra and rb and ra != rb:
            length = float(res.compiled.links.length_m[res.compiled.links.row[lid]])
            runs[ra][rb] += [length] * lk.multiplicity
            runs[rb][ra] += [length] * lk.multiplicity
    rack_id = max(floor.scene.racks, key=lambda r: len(runs[r]))  # the rack with the most far racks
    assert len(runs[rack_id]) >= 2
    tile = floor.scene.racks[rack_id]
    pos = floor.view.mapFromScene(tile.sceneBoundingRect().center())
    assert floor.view.viewport().rect().contains(pos)
    QTest.mouseClick(floor.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    QApplication.processEvents()
    assert floor.scene.selected_ids() == [rack_id]
    item = floor.scene.runs
    assert item.isVisible()
    want = {}
    for other, lengths in runs[rack_id].items():
        if other in floor.scene.racks:
            want[other] = f"{fmt.number(max(lengths), 1)} m · × {fmt.number(len(lengths))}"
    got = {}
    for pt, text, _bad in item.ends:
        other = next(
            r
            for r, t in floor.scene.racks.items()
            if t.sceneBoundingRect().center().x() == pt.x()
            and abs(t.sceneBoundingRect().top() - pt.y()) < 1e-6
        )
        got[other] = text
    assert got == want
    # each path starts at the selected rack and ends at the far rack
    for pt, _text, _bad in item.ends:
        path = item.path(item.origin, pt)
        assert path.pointAtPercent(0) == item.origin and path.pointAtPercent(1) == pt
    # a click on empty floor clears the drawing
    corner = floor.view.mapFromScene(floor.scene.sceneRect().topLeft()) + QPoint(3, 3)
    QTest.mouseClick(floor.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, corner)
    QApplication.processEvents()
    assert not floor.scene.selected_ids() and not item.isVisible()
