"""Row labels on the floor plan never lie under (or over) a rack, a unit or a unit's label, at any zoom: the
label keeps its size on screen, so where it fits is chosen again when the zoom changes. The rectangles are
compared on screen, through Qt's own device transform of each item (which knows that the labels ignore the
zoom) — not through the scene's placement arithmetic."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from gpuplanner.commands import AddRows
from gpuplanner.model import AisleRow, FloorItem
from gpuplanner.storage import open_project
from tests.ui.conftest import small_project

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def on_screen(view, item) -> QRectF:
    return item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())


def overlaps(w) -> list[str]:
    view, scene = w.floor.view, w.floor.scene
    things = [(f"rack {t.name}", t) for t in scene.racks.values()]
    things += [(f"unit {t.unit.name}", t) for t in scene.units.values()]
    things += [(f"label of {t.unit.name}", t.label) for t in scene.units.values() if t.label.isVisible()]
    labels = [(name, it) for name, it in scene.row_labels.items() if it.isVisible()]
    out = []
    for name, label in labels:
        r = on_screen(view, label)
        out += [
            f"row {name} label {label.text()!r} over {what}"
            for what, it in things
            if r.intersects(on_screen(view, it))
        ]
    for i, (a, la) in enumerate(labels):
        for b, lb in labels[i + 1 :]:
            if on_screen(view, la).intersects(on_screen(view, lb)):
                out.append(f"row labels {a} and {b} overlap")
    return out


def show_floor(make_window, project, qtbot):
    w = make_window(project)
    w.resize(1400, 900)
    w.tabs.setCurrentWidget(w.floor)
    QApplication.processEvents()
    w.floor.view.fit()
    QApplication.processEvents()
    return w


def zoom_to(w, scale: float) -> None:
    view = w.floor.view
    view.resetTransform()
    view.scale(scale, scale)
    view.scene().update_lod(view.scale_now())
    QApplication.processEvents()


def test_row_labels_clear_of_units_and_racks_on_the_phased_example(make_window, qtbot):
    """The shipped three-phase example: its utility feed stands in the first aisle, where the row label was
    drawn under it."""
    w = show_floor(make_window, open_project(EXAMPLES / "phased-pilot-to-su.gpuplan"), qtbot)
    scene = w.floor.scene
    assert len(scene.row_labels) == 6 and scene.units
    for scale in (w.floor.view.scale_now(), 0.35, 0.8, 1.5, 3.0):
        zoom_to(w, scale)
        shown = [it for it in scene.row_labels.values() if it.isVisible()]
        assert shown, scale
        assert not overlaps(w), (scale, overlaps(w))
        for band in scene.layout.rows:  # each label names its row and sits in its aisle or strip
            item = scene.row_labels[band.label]
            assert band.label in item.text() and band.label in item.toolTip()


def test_a_unit_dropped_where_the_label_was_pushes_the_label_aside(make_window, qtbot):
    p = small_project()
    AddRows("aisle_rows", [AisleRow("R01", y_m=0.0)]).apply(p)
    w = show_floor(make_window, p, qtbot)
    scene = w.floor.scene
    label = scene.row_labels["R01"]
    spot = label.pos()
    from gpuplanner.ui.floor.scene import PX_PER_M

    unit = FloorItem(
        "fiX", "CRAH-X", "crah", x_m=spot.x() / PX_PER_M, y_m=spot.y() / PX_PER_M, capacity_kw=60.0, row="R01"
    )
    w.doc.push(AddRows("floor_items", [unit]))
    QApplication.processEvents()
    w.floor.rebuild()
    QApplication.processEvents()
    assert "fiX" in scene.units
    assert not overlaps(w), overlaps(w)
    assert scene.row_labels["R01"].pos() != spot  # moved, not hidden
    assert scene.row_labels["R01"].isVisible()


@pytest.mark.parametrize("lang", ["zh"])
def test_chinese_row_labels_clear_too(make_window, qtbot, lang):
    from gpuplanner.ui import i18n

    i18n.set_language(lang)
    try:
        w = show_floor(make_window, open_project(EXAMPLES / "phased-pilot-to-su.gpuplan"), qtbot)
        assert all("列" in it.text() or it.text() == n for n, it in w.floor.scene.row_labels.items())
        for scale in (w.floor.view.scale_now(), 1.0):
            zoom_to(w, scale)
            assert not overlaps(w), overlaps(w)
    finally:
        i18n.set_language("en")
