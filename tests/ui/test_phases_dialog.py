"""Phases and teams dialog: add a phase, put a rack (with its devices and links) in it, set a team's quota;
one OK is one undo step; bad cells keep the dialog open with a message naming the row and field."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QTableWidgetItem

from gpuplanner.engine.phases import analyze_phases
from gpuplanner.storage import open_project
from gpuplanner.ui.dialogs.phases_dialog import PhasesTeamsDialog
from tests.ui.conftest import small_project

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_new_phase_with_a_rack_and_a_team_quota(make_window, qtbot):
    w = make_window(small_project())
    doc = w.doc
    dlg = PhasesTeamsDialog(doc, ["r2"], w)
    qtbot.addWidget(dlg)
    dlg.add_phase()
    dlg.add_phase()
    dlg.phases.item(0, 1).setText("Pilot")
    dlg.phases.item(1, 1).setText("Scale")
    # The assignment list is filled from the phases in the project: reopen after the phases exist.
    dlg.accept()
    assert [p.name for p in sorted(doc.project.tables["phases"].values(), key=lambda p: p.order)] == [
        "Pilot",
        "Scale",
    ]
    scale = next(p for p in doc.project.tables["phases"].values() if p.name == "Scale")

    dlg = PhasesTeamsDialog(doc, ["r2"], w)
    qtbot.addWidget(dlg)
    dlg.assign_combo.setCurrentIndex(dlg.assign_combo.findData(scale.id))
    dlg.add_team()
    dlg.teams.setItem(0, 2, QTableWidgetItem("100000"))  # more than the cluster has
    dlg.accept()
    rack = doc.project.racks["r2"]
    assert rack.phase_id == scale.id
    in_rack = [d for d in doc.project.devices.values() if d.rack_id == "r2"]
    assert in_rack and all(d.phase_id == scale.id for d in in_rack)
    # Links of the moved server join the later phase of their two ends (its leaf stays in the first).
    for d in in_rack:
        assert all(doc.project.links[i].phase_id == scale.id for i in doc.project.links_of(d.id))
    # Each phase still analyses on its own (no link without its devices in the pilot).
    phases, _ = analyze_phases(doc.project)
    pilot_devices = len(phases[0].results.compiled.devices.ids)
    assert 0 < pilot_devices < len(phases[1].results.compiled.devices.ids) == len(doc.project.devices)
    # The quota larger than the cluster is a finding.
    assert any(
        f.rule == "quota-exceeds-cluster" and "100" in f.message("en") for f in doc.results.findings
    ), [f.message("en") for f in doc.results.findings]

    doc.undo_stack.undo()  # one step takes the whole dialog back
    assert doc.project.racks["r2"].phase_id == ""
    assert not doc.project.tables["teams"]


def test_bad_cells_keep_the_dialog_and_the_project(make_window, qtbot):
    project = open_project(EXAMPLES / "phased-pilot-to-su.gpuplan")
    w = make_window(project)
    doc = w.doc
    before = dict(doc.project.tables["teams"])
    count = doc.undo_stack.count()
    dlg = PhasesTeamsDialog(doc, [], w)
    qtbot.addWidget(dlg)
    assert dlg.phases.rowCount() == 3 and dlg.teams.rowCount() == len(before)
    dlg.teams.setItem(0, 3, QTableWidgetItem("lots"))
    dlg.accept()
    assert "lots" in dlg.error.text() and "row 1" in dlg.error.text()
    assert dlg.result() == 0  # still open
    dlg.teams.setItem(0, 3, QTableWidgetItem("8"))
    dlg.phases.item(1, 1).setText("")
    dlg.accept()
    assert "name" in dlg.error.text()
    assert doc.undo_stack.count() == count and doc.project.tables["teams"] == before


def test_deleting_a_phase_moves_its_rows_to_the_first(make_window, qtbot):
    project = open_project(EXAMPLES / "phased-pilot-to-su.gpuplan")
    w = make_window(project)
    doc = w.doc
    dlg = PhasesTeamsDialog(doc, [], w)
    qtbot.addWidget(dlg)
    dlg.phases.selectRow(2)  # "Scale"
    dlg._remove_rows(dlg.phases)
    dlg.accept()
    assert "ph3" not in doc.project.tables["phases"]
    for table in ("racks", "devices", "links", "floor_items"):
        assert all(r.phase_id != "ph3" for r in doc.project.tables[table].values())
    assert doc.results is not None and not any(
        f.severity == "error" for f in doc.results.findings if "phase" in f.rule
    )
