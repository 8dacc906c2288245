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
    qtbot.waitUntil(lambda: not dlg.pending, timeout=60_000)  # solved off the UI thread
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


def test_compare_figures_equal_the_reports_scenario_table_and_reuse_the_windows_results(
    window, qtbot, monkeypatch
):
    """Oracle: the report's scenario table (``reports.scenario_figures``: what the PDF prints). The dialog
    shows the same figures for a settings-only scenario and for a device swap, in the same format; the plan
    as drawn is the window's own current results (no solve of the whole plan again), and a settings-only
    scenario builds on them."""
    from gpuplanner.engine.summary import results_json
    from gpuplanner.reports import scenario_figures
    from gpuplanner.ui import scenario_picker

    w = window
    _add_scenario(w, "Cheap power", {"site.electricity_usd_per_kwh": 0.02})
    server = next(d for d in w.doc.project.devices.values() if d.role == "compute").type_id
    assert server == "nvidia-dgx-h100"
    _add_scenario(w, "H200", {"swap.nvidia-dgx-h100": "nvidia-dgx-h200"})  # a swap: solved in full
    assert w.doc.current_results() is w.doc.results and not w.doc.results.scenario
    solves: list[object] = []
    real = scenario_picker.analyze_project
    monkeypatch.setattr(scenario_picker, "analyze_project", lambda *a, **k: solves.append(a) or real(*a, **k))
    report = {name: data for name, _desc, data in scenario_figures(w.doc.project, "en")}
    drawn = results_json(w.doc.project, analyze_project(w.doc.project))
    for right in ("Cheap power", "H200"):
        dlg = CompareDialog(w.doc, None, right, w)
        qtbot.addWidget(dlg)
        qtbot.waitUntil(lambda d=dlg: not d.pending, timeout=60_000)
        left_data, right_data = dlg.shown
        assert isinstance(report[right], dict) and isinstance(right_data, dict), report[right]
        for r, (label, get, show) in enumerate(scenario_picker.metrics(w.doc.project.info.currency)):
            want_a, want_b = get(drawn), get(report[right])
            assert get(left_data) == want_a and get(right_data) == want_b, (right, label)
            cells = [dlg.table.item(r, c).text() for c in (0, 1, 2)]
            assert cells[0] == label
            assert cells[1] == (show(want_a) if want_a is not None else "—"), (label, cells)
            assert cells[2] == (show(want_b) if want_b is not None else "—"), (label, cells)
        dlg.close()
    assert solves == []  # "as drawn" came from the window; the scenarios re-ran only their dirty stages
    assert report["H200"]["capex"] != drawn["capex"]  # the swap changes figures: the test can fail
