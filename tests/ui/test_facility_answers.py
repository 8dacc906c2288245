"""The facility planner's questions answered where they look: the results panel (facility kW at load and at
maximum, the utility feed to ask for, racks and rows, the cooling mix, findings readable in a narrow dock),
the site dialog (the same answer under the form), and the template dialog's compute-fabric choice (the same
cluster on RoCE without hunting through switch names)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project
from gpuplanner.ui import fmt
from gpuplanner.ui.dialogs.site_dialog import SiteDialog
from gpuplanner.ui.dialogs.template_dialog import TemplateDialog


def test_results_panel_gives_facility_kw_feed_rows_and_cooling(window):
    w = window
    res = analyze_project(w.doc.project)
    th = res.thermal
    v = w.results_panel.values
    assert v["fac_kw"].text() == f"{fmt.number(th.facility_kw, 1)} / {fmt.number(th.facility_kw_max, 1)}"
    assert v["feed"].text() == f"{fmt.number(th.feed_kw_needed, 0)} kW"
    assert "headroom" in v["feed"].toolTip()
    used = {
        w.doc.project.racks[rid].row
        for i, rid in enumerate(res.compiled.racks.ids)
        if res.power.rack_kw_max[i] > 0
    }
    n_racks = int((res.power.rack_kw_max > 0).sum())
    assert v["racks"].text() == f"{n_racks} / {len(used)}"
    assert all(f"row {row}:" in v["racks"].toolTip() for row in used)
    cooling = w.results_panel.cooling.text()
    assert cooling.startswith("Cooling (IT kW at load):") and "kW to liquid" in cooling
    assert w.results_panel.names["tco"].text() == f"TCO, {res.cost.tco_years} years"


def test_results_panel_marks_a_utility_feed_that_is_too_small(window):
    w = window
    site = w.doc.project.site
    dlg = SiteDialog(w.doc, w)
    dlg.editors["utility_kw_available"].set(10.0)
    assert dlg.apply()
    th = w.doc.results.thermal
    assert not th.feed_ok
    feed = w.results_panel.values["feed"]
    assert feed.text() == f"{fmt.number(th.feed_kw_needed, 0)} of 10 kW"
    assert "color" in feed.styleSheet() and "too small" in feed.toolTip()
    assert "is too small" in dlg.status.text()
    dlg.editors["utility_kw_available"].set(1_000_000.0)
    assert dlg.apply()
    assert "color" not in w.results_panel.values["feed"].styleSheet()
    assert "is enough" in dlg.status.text()
    assert site.feed_headroom == w.doc.project.site.feed_headroom


def test_site_dialog_answers_the_power_question_and_explains_zero(window):
    w = window
    dlg = SiteDialog(w.doc, w)
    th, pw = w.doc.results.thermal, w.doc.results.power
    text = dlg.status.text()
    assert f"IT {fmt.number(pw.it_kw_max, 1)} kW at maximum" in text
    assert f"needs {fmt.number(th.feed_kw_needed, 0)} kW" in text and "No utility feed is stated" in text
    assert "0 = not stated" in dlg.editors["utility_kw_available"].widget.toolTip()
    assert "20 %" in dlg.labels["feed_headroom"].toolTip()


def test_findings_wrap_to_a_narrow_panel(window):
    w = window
    panel = w.results_panel
    panel.tree.resize(220, 400)
    QApplication.processEvents()
    panel.tree.doItemsLayout()
    tree = panel.tree
    assert tree.columnCount() == 1
    one_line = tree.fontMetrics().height()
    long_items = [
        tree.topLevelItem(i)
        for i in range(tree.topLevelItemCount())
        if tree.fontMetrics().horizontalAdvance(tree.topLevelItem(i).text(0)) > tree.header().sectionSize(0)
    ]
    assert long_items, "the small project has a finding longer than 220 px"
    assert all(tree.visualItemRect(item).height() > 1.5 * one_line for item in long_items)
    assert "rule: " in long_items[0].toolTip(0)


def test_template_dialog_compute_fabric_narrows_the_switches(window):
    catalog = window.doc.project.catalog
    dlg = TemplateDialog(catalog, window)
    tech = {e.id: e.technology for e in catalog.of_kind("switch")}
    assert dlg.fabric.currentData() == "infiniband"
    assert {tech[dlg.leaf.itemData(i)] for i in range(dlg.leaf.count())} == {"infiniband"}
    dlg.fabric.setCurrentIndex(dlg.fabric.findData("ethernet"))
    leaves = [dlg.leaf.itemData(i) for i in range(dlg.leaf.count())]
    assert leaves and {tech[s] for s in leaves} == {"ethernet"}
    assert dlg.leaf.currentData() == "nvidia-spectrum-4-sn5600"
    spines = [dlg.spine.itemData(i) for i in range(dlg.spine.count())]
    assert spines[0] == "" and {tech[s] for s in spines[1:]} == {"ethernet"}
    dlg.servers.setValue(8)
    dlg.su_size.setValue(8)
    dlg.generate()
    assert dlg.project is not None, dlg.error.text()
    target = Project(catalog)
    dlg.command(target).apply(target)
    compute = next(f for f in target.tables["fabrics"].values() if f.kind == "compute")
    assert compute.technology == "ethernet"
    leaves = {d.type_id for d in target.devices.values() if d.role == "leaf"}
    assert leaves == {"nvidia-spectrum-4-sn5600"}


def test_floor_plan_rack_shows_its_cooling_and_selects_it_in_the_inspector(window):
    w = window
    w.tabs.setCurrentWidget(w.floor)
    QApplication.processEvents()
    rid = next(r.id for r in w.doc.project.racks.values() if w.doc.project.devices_in_rack(r.id))
    w.floor.scene.racks[rid].setSelected(True)
    QApplication.processEvents()
    details = w.floor.details.text()
    assert "cooling: " in details and "airflow" in details and "cable runs leave the rack" in details
    assert w.scene.selected_ids() == [rid]
    assert (w.doc.project.racks[rid].name in w.inspector.title.text()) and w.inspector.targets == [
        ("racks", rid)
    ]


def test_toolbar_undo_keeps_a_short_label(window):
    w = window
    undo = w.actions["undo"]
    w.scene.select_ids([next(iter(w.doc.project.devices))])
    w.actions["delete"].trigger()
    assert undo.text().startswith("&Undo ") or undo.text().startswith("Undo ")
    assert undo.iconText() == "Undo" and undo.toolTip() == undo.text().replace("&", "")


def test_larger_text_scales_the_panels_and_is_remembered(window):
    w = window
    app = QApplication.instance()
    base = app.font().pointSizeF()
    label = w.results_panel.values["gpus"]  # has a style sheet: it is polished again
    before = label.fontInfo().pointSizeF()
    try:
        w.actions["large_text"].trigger()
        QApplication.processEvents()
        assert app.font().pointSizeF() > 1.3 * base
        assert label.fontInfo().pointSizeF() > 1.2 * before
        assert w.settings.value("large_text", False, type=bool)
    finally:
        w.actions["large_text"].trigger()
        QApplication.processEvents()
    assert app.font().pointSizeF() == base and not w.settings.value("large_text", False, type=bool)
