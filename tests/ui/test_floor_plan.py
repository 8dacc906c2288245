"""The floor plan, driven with the mouse: a rack dragged to another row changes its cable runs (length and
medium) and the load of the cooling units of both rows; undo restores all of it. Drops onto a taken slot are
refused with a message; phases filter what the plan shows; units get their rating in the side panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gpuplanner.commands import AddRows
from gpuplanner.model import AisleRow, FloorItem
from gpuplanner.storage import open_project
from gpuplanner.ui.floor import layout as fl
from gpuplanner.ui.floor.scene import PX_PER_M
from tests.ui.conftest import small_project

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def floor_window(make_window, project):
    w = make_window(project)
    w.tabs.setCurrentWidget(w.floor)
    QApplication.processEvents()
    return w


def drag_on_floor(w, start_m: tuple[float, float], end_m: tuple[float, float], steps: int = 8) -> None:
    view = w.floor.view
    vp = view.viewport()
    a = view.mapFromScene(QPointF(start_m[0] * PX_PER_M, start_m[1] * PX_PER_M))
    b = view.mapFromScene(QPointF(end_m[0] * PX_PER_M, end_m[1] * PX_PER_M))
    assert vp.rect().contains(a) and vp.rect().contains(b), "drag points must be on screen"
    QTest.mouseMove(vp, a)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for k in range(1, steps + 1):
        QTest.mouseMove(vp, a + (b - a) * k / steps)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)
    QApplication.processEvents()  # the drop is applied on the next turn of the event loop
    QApplication.processEvents()


def centre_m(w, rack_id: str) -> tuple[float, float]:
    box = fl.floor_layout(w.doc.project).racks[rack_id]
    return box.x_m + box.w_m / 2, box.y_m + box.d_m / 2


@pytest.fixture
def cluster_with_far_row():
    """The six-DGX cluster, an empty row 60 m down the hall, and an in-row cooler on each row."""
    p = small_project()
    AddRows(
        "aisle_rows", [AisleRow("R01", y_m=0.0), AisleRow("R01N", y_m=3.0), AisleRow("R09", y_m=60.0)]
    ).apply(p)
    AddRows(
        "floor_items",
        [
            FloorItem("fi1", "IRC-A", "in-row", x_m=-1.0, y_m=0.0, capacity_kw=60.0, row="R01"),
            FloorItem("fi2", "IRC-B", "in-row", x_m=-1.0, y_m=60.0, capacity_kw=5.0, row="R09"),
        ],
    ).apply(p)
    return p


def test_drag_rack_to_far_row_changes_cables_and_cooling_and_undo_restores(make_window, cluster_with_far_row):
    w = floor_window(make_window, cluster_with_far_row)
    floor, doc = w.floor, w.doc
    assert set(floor.scene.racks) == set(doc.project.racks)
    before_cables = floor.rack_cables("r2")
    before_loads = dict(doc.results.floor_loads)
    assert before_cables["media"] == {"fiber-mmf": 8} and before_cables["longest_m"] < 20
    assert before_loads["fi2"][0] == 0.0  # nothing in R09 yet
    # Zoom so that both rows are on screen, then drag R01-02 (one DGX, ~10 kW) to row R09.
    floor.view.fit()
    start = centre_m(w, "r2")
    drag_on_floor(w, start, (start[0], 60.0 + 0.6))

    rack = doc.project.racks["r2"]
    assert rack.row == "R09"
    # The status bar says what the move did to the rack's cables.
    note = floor.last_cable_note  # the media in words, not the engine's slugs ("fiber-smf")
    assert "single-mode fibre × 8" in note and "multimode fibre × 8" in note and "fiber-" not in note
    after_cables = floor.rack_cables("r2")
    assert after_cables["longest_m"] > 55  # 60 m further down the hall
    assert after_cables["media"] == {"fiber-smf": 8}  # past multimode reach: single-mode optics now
    after_loads = doc.results.floor_loads
    moved_kw = before_loads["fi1"][0] - after_loads["fi1"][0]
    assert moved_kw > 5  # the DGX's heat left row R01's cooler …
    assert after_loads["fi2"][0] == pytest.approx(moved_kw)  # … and landed on row R09's
    assert floor.scene.units["fi2"].overloaded  # 10 kW on a 5 kW cooler: flagged on the plan …
    assert "floor-unit-overloaded" in {f.rule for f in doc.results.findings}  # … and in the findings
    # The other racks did not move: the rows were pinned in the same undo step.
    assert fl.floor_layout(doc.project).racks["r1"].y_m == 0.0

    doc.undo_stack.undo()
    QApplication.processEvents()
    assert doc.project.racks["r2"].row == "R01"
    assert floor.rack_cables("r2") == before_cables
    assert doc.results.floor_loads == before_loads
    assert not floor.scene.units["fi2"].overloaded
    doc.undo_stack.redo()
    assert doc.project.racks["r2"].row == "R09"


def test_drop_on_a_taken_slot_is_refused_and_nothing_changes(make_window, cluster_with_far_row):
    w = floor_window(make_window, cluster_with_far_row)
    floor, doc = w.floor, w.doc
    messages: list[str] = []
    floor.message.connect(messages.append)
    floor.view.fit()
    from gpuplanner.ui.canvas.view import PlannerView  # noqa: F401  (the topology view stays untouched)

    count = doc.undo_stack.count()
    drag_on_floor(w, centre_m(w, "r2"), centre_m(w, "r1"))
    assert doc.project.racks["r2"].position == 2 and doc.undo_stack.count() == count
    assert messages and "R01-01" in messages[-1]  # names the rack in the way
    assert floor.scene.racks["r2"].pos() == floor.scene.racks["r2"].home  # snapped back


def test_drag_along_the_row_moves_the_slot(make_window, cluster_with_far_row):
    w = floor_window(make_window, cluster_with_far_row)
    floor, doc = w.floor, w.doc
    floor.view.fit()
    x, y = centre_m(w, "r2")
    before = floor.rack_cables("r2")["total_m"]
    drag_on_floor(w, (x, y), (x + 6 * 0.6, y))  # six slots further along
    assert doc.project.racks["r2"].position == 8 and doc.project.racks["r2"].row == "R01"
    assert floor.rack_cables("r2")["total_m"] != before  # runs to the leaves got longer


def test_phase_filter_and_unit_rating(make_window):
    project = open_project(EXAMPLES / "phased-pilot-to-su.gpuplan")
    w = floor_window(make_window, project)
    floor, doc = w.floor, w.doc
    picker = w.phase_picker
    assert picker.combo.count() == 4  # all + three phases
    everything = set(floor.scene.racks)
    n_links = len(w.scene.layer.ids)
    picker.combo.setCurrentIndex(1)  # the pilot
    pilot = set(floor.scene.racks)
    assert pilot and pilot < everything
    assert all(doc.project.racks[r].phase_id in ("", "ph1") for r in pilot)
    assert "fi2" not in floor.scene.units  # the rear doors come with phase 3
    # The topology canvas shows the same phase: later racks, devices and links are hidden.
    shown_racks = {r for r, item in w.scene.rack_items.items() if item.isVisible()}
    assert shown_racks == pilot
    hidden_devices = [d for d, item in w.scene.device_items.items() if not item.isVisible()]
    assert hidden_devices and all(doc.project.devices[d].phase_id not in ("", "ph1") for d in hidden_devices)
    off = w.scene.layer.phase_off
    assert 0 < off.sum() < n_links
    assert all(doc.project.links[w.scene.layer.ids[i]].phase_id not in ("", "ph1") for i in off.nonzero()[0])
    # The figures follow: the results are the pilot's (16 GPUs, its kW and capex), said so in the panel.
    assert doc.results.fabric.gpus == 16
    assert w.results_panel.phase_note.isVisible() and "Pilot" in w.results_panel.phase_note.text()
    assert "Pilot" in w.status_gpus.text()
    pilot_capex = doc.results.cost.capex_usd
    picker.combo.setCurrentIndex(0)
    assert doc.results.fabric.gpus == doc.project.gpu_count() == 304
    assert doc.results.cost.capex_usd > pilot_capex
    assert not w.results_panel.phase_note.isVisible()
    assert set(floor.scene.racks) == everything
    assert not w.scene.layer.phase_off.any()
    assert all(item.isVisible() for item in w.scene.rack_items.values())

    # Rate the CRAH below its load: it turns red on the plan and a finding names it.
    tile = floor.scene.units["fi1"]
    tile.setSelected(True)
    QApplication.processEvents()
    assert floor.unit_form.isVisible()
    load = doc.results.floor_loads["fi1"][0]
    floor.unit_capacity.setValue(load / 2)
    floor.unit_capacity.editingFinished.emit()
    QApplication.processEvents()  # the plan is rebuilt on the next turn of the event loop
    assert doc.project.tables["floor_items"]["fi1"].capacity_kw == pytest.approx(load / 2, abs=0.1)
    assert floor.scene.units["fi1"].overloaded
    assert any(f.rule == "floor-unit-overloaded" and "fi1" in f.items for f in doc.results.findings)
    doc.undo_stack.undo()
    QApplication.processEvents()
    assert not floor.scene.units["fi1"].overloaded


def test_add_row_unit_and_delete(make_window, cluster_with_far_row):
    w = floor_window(make_window, cluster_with_far_row)
    floor, doc = w.floor, w.doc
    rows_before = len(fl.row_positions(doc.project))
    floor.add_row_button.click()
    QApplication.processEvents()
    assert len(fl.row_positions(doc.project)) == rows_before + 1
    floor.add_unit("cdu")
    QApplication.processEvents()
    new = [u for u in doc.project.tables["floor_items"].values() if u.kind == "cdu"]
    assert len(new) == 1 and new[0].capacity_kw == 0.0  # not rated until the user says so
    assert new[0].id in floor.scene.units
    floor.scene.clearSelection()
    floor.scene.units[new[0].id].setSelected(True)
    floor.view.setFocus()
    QTest.keyClick(floor.view, Qt.Key.Key_Delete)
    assert new[0].id not in doc.project.tables["floor_items"]
    doc.undo_stack.undo()
    assert new[0].id in doc.project.tables["floor_items"]


def test_row_aisle_and_containment(make_window, cluster_with_far_row):
    w = floor_window(make_window, cluster_with_far_row)
    floor, doc = w.floor, w.doc
    floor._fill_row_pick("R01N")
    floor.row_aisle.setCurrentIndex(floor.row_aisle.findData("hot"))
    floor.row_aisle.activated.emit(floor.row_aisle.currentIndex())
    floor.row_contained.setChecked(True)
    QApplication.processEvents()
    row = doc.project.tables["aisle_rows"]["R01N"]
    assert (row.aisle, row.contained, row.y_m) == ("hot", True, 3.0)
    assert "contained" in floor.scene.row_labels["R01N"].text()
