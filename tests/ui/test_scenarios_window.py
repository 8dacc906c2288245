"""Scenarios in the window: the picker beside "Show phase" switches the figures to a scenario, and the
compare dialog puts two scenarios' figures side by side with the difference (checked against analyze)."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QApplication

from gpuplanner.commands import AddRows
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model.rows import Scenario
from gpuplanner.ui.scenario_picker import CompareDialog


def _add_scenario(w, name: str, overrides: dict) -> None:
    p = w.doc.project
    sc = Scenario(id=p.new_id("scenarios"), name=name, overrides_json=json.dumps(overrides))
    w.doc.push(AddRows("scenarios", [sc]))


def test_picker_lists_scenarios_and_switches_the_figures(window):
    w = window
    picker = w.scenario_picker
    assert not picker.isEnabled()  # no scenario yet
    _add_scenario(w, "Cheap power", {"site.electricity_usd_per_kwh": 0.02})
    assert picker.isEnabled() and picker.combo.count() == 2
    base_energy = w.doc.results.thermal.energy_usd_per_year
    picker.combo.setCurrentIndex(picker.combo.findData("Cheap power"))
    QApplication.processEvents()
    assert w.doc.scenario == "Cheap power"
    want = analyze_project(w.doc.project, scenario="Cheap power").thermal.energy_usd_per_year
    assert w.doc.results.thermal.energy_usd_per_year == want
    assert want < base_energy * 0.5  # 0.02 against the default 0.10 USD/kWh
    picker.combo.setCurrentIndex(0)
    QApplication.processEvents()
    assert w.doc.scenario is None and w.doc.results.thermal.energy_usd_per_year == base_energy


def test_compare_dialog_shows_the_difference(window, qtbot):
    w = window
    _add_scenario(w, "Cheap power", {"site.electricity_usd_per_kwh": 0.02})
    dlg = CompareDialog(w.doc, None, "Cheap power", w)
    qtbot.addWidget(dlg)
    rows = {
        dlg.table.item(r, 0).text(): [dlg.table.item(r, c).text() for c in (1, 2, 3)]
        for r in range(dlg.table.rowCount())
    }
    assert rows["GPUs"][2] == "same"
    assert rows["Energy per year (MWh)"][2] == "same"  # the same energy, a cheaper price
    assert rows["Operating cost per year"][2].startswith("−")
    assert rows["Total cost of ownership"][2].startswith("−")
    assert "figures are the same" in dlg.note.text()


def test_scenario_switch_by_keyboard_on_the_picker(window, qtbot):
    """Real input: the picker takes the focus with a click and the arrow keys step through the scenarios."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    w = window
    _add_scenario(w, "Cheap power", {"site.electricity_usd_per_kwh": 0.02})
    combo = w.scenario_picker.combo
    base_energy = w.doc.results.thermal.energy_usd_per_year
    w.activateWindow()
    combo.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is combo, timeout=2000)
    QTest.keyClick(combo, Qt.Key.Key_Down)
    QApplication.processEvents()
    assert combo.currentData() == "Cheap power" and w.doc.scenario == "Cheap power"
    want = analyze_project(w.doc.project, scenario="Cheap power").thermal.energy_usd_per_year
    assert w.doc.results.thermal.energy_usd_per_year == want != base_energy
    QTest.keyClick(combo, Qt.Key.Key_Up)
    QApplication.processEvents()
    assert w.doc.scenario is None and w.doc.results.thermal.energy_usd_per_year == base_energy
