"""Panels and dialogs: inspector edits (and refusals naming the field and value), results figures and
findings, plots that select on the canvas, the rack elevation (and its PDF), the site, workload and
template dialogs, the palette search, fonts, and the report action."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QPainter, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model.bounds import bounds
from gpuplanner.ui import actions
from gpuplanner.ui.app import register_fonts, resources_dir
from gpuplanner.ui.canvas.geometry import rack_ru
from gpuplanner.ui.dialogs.site_dialog import SiteDialog
from gpuplanner.ui.dialogs.template_dialog import TemplateDialog
from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
from gpuplanner.ui.rack_view import RackElevation
from gpuplanner.ui.results_panel import money


def test_inspector_edits_a_rack_with_units(window):
    w = window
    rack = next(iter(w.doc.project.racks.values()))
    w.scene.select_ids([rack.id])
    ed = w.inspector.editors[("racks", rack.id, "power_budget_kw")]
    assert ed.widget.toolTip() == "kW", "an optional figure: empty means the rack type's budget; unit shown"
    ed.set(64.0)
    assert w.inspector.commit("racks", rack.id, "power_budget_kw")
    assert w.doc.project.racks[rack.id].power_budget_kw == 64.0
    assert "64" in w.scene.rack_items[rack.id].kw_text
    assert w.doc.undo_stack.undoText().startswith("Set power budget")


def test_inspector_refusal_names_field_and_value(window):
    w = window
    link = next(iter(w.doc.project.links.values()))
    w.scene.select_ids([link.id])
    ed = w.inspector.editors[("links", link.id, "multiplicity")]
    ed.set(0)  # the spin box holds the model's range: 0 cables cannot even be typed
    assert ed.get() == 1
    # a value inside the field's range that the device's rack refuses: U above the rack's top
    dev = next(d for d in w.doc.project.devices.values() if d.rack_id)
    rack_u = w.doc.project.catalog.get(w.doc.project.racks[dev.rack_id].type_id).ru
    w.scene.select_ids([dev.id])
    ed = w.inspector.editors[("devices", dev.id, "u_position")]
    ed.set(rack_u + 1)
    assert not w.inspector.commit("devices", dev.id, "u_position")
    text = w.inspector.error.text()
    assert "U position" in text and str(rack_u + 1) in text and "above the top" in text
    assert w.doc.project.devices[dev.id].u_position == dev.u_position
    assert ed.get() == dev.u_position, "the editor shows the model's value again"


def test_nothing_selected_edits_project_and_site(window):
    w = window
    w.scene.select_ids([])
    ed = w.inspector.editors[("site", "site", "electricity_usd_per_kwh")]
    before = w.doc.results.cost.tco_usd
    ed.set(0.25)
    assert w.inspector.commit("site", "site", "electricity_usd_per_kwh")
    assert w.doc.results.cost.tco_usd > before
    assert w.results_panel.values["tco"].text().startswith(money(w.doc.results.cost.tco_usd).split(" ")[0])


def test_results_panel_shows_engine_figures_and_findings(window):
    w = window
    res = analyze_project(w.doc.project)
    v = w.results_panel.values
    assert v["gpus"].text() == f"{res.fabric.gpus:,}"
    assert v["mfu"].text() == f"{res.workload.estimate.mfu * 100:.1f} %"
    assert v["pue"].text() == f"{res.thermal.pue:.2f}"
    tree = w.results_panel.tree
    assert tree.topLevelItemCount() == len(res.findings)
    with_items = next(i for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).data(0, 256))
    item = tree.topLevelItem(with_items)
    w.results_panel._clicked(item, 0)  # noqa: SLF001
    ids = set(item.data(0, 256))
    assert ids & set(w.scene.selected_ids()) or not (
        ids & (set(w.scene.device_items) | set(w.scene.rack_items))
    )


def test_plots_select_racks_and_links_on_the_canvas(window):
    w = window
    plots = w.plots
    plots.refresh(everything=True)
    rid = plots.select_rack(1)
    assert w.scene.selected_ids() == [rid]
    res = w.doc.results
    tier = "node-leaf"
    util = res.link_util[np.array(res.fabric.link_tier) == tier]
    b = int(np.clip(np.digitize(util[0], plots.bin_edges(res)) - 1, 0, 9))
    ids = plots.select_links(tier, b)
    assert ids and set(ids) == set(w.scene.selected_ids())


def test_rack_elevation_follows_selection_and_prints(window, tmp_path: Path):
    w = window
    p = w.doc.project
    server = next(d for d in p.devices.values() if d.role == "compute")
    w.scene.select_ids([server.id])
    view = w.rack_view
    assert view.row_label == p.racks[server.rack_id].row
    img = QImage(view.content_size().size().toSize(), QImage.Format.Format_ARGB32)
    painter = QPainter(img)
    slots = view.draw(painter)
    painter.end()
    assert server.id in {s.device.id for s in slots}
    pdf = tmp_path / "racks.pdf"
    view.export_pdf(str(pdf))
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 1000


def test_site_dialog_applies_and_refuses(window):
    w = window
    dlg = SiteDialog(w.doc, w)
    dlg.editors["tco_years"].set(7)
    assert dlg.apply()
    assert w.doc.project.site.tco_years == 7 and w.doc.results.cost.tco_years == 7
    # the spin box holds the model's range (gpuplanner.model.bounds): 0 or 10⁹ years cannot be entered
    lo, hi = bounds("site", "tco_years", int)
    dlg.editors["tco_years"].set(0)
    assert dlg.editors["tco_years"].get() == lo == 1
    dlg.editors["tco_years"].set(10**9)
    assert dlg.editors["tco_years"].get() == hi
    assert dlg.apply()
    assert w.doc.project.site.tco_years == hi


def test_workload_dialog_adds_a_workload_when_there_is_none(make_window):
    from tests.ui.conftest import small_project

    p = small_project()
    p.tables["workloads"].clear()
    w = make_window(p)
    assert w.doc.results.workload is None
    dlg = WorkloadDialog(w.doc, w)
    assert dlg.is_new
    dlg.editors["model_id"].set("llama3-8b")
    dlg.editors["tp"].set(8)
    dlg.editors["dp"].set(6)
    dlg.editors["global_batch"].set(96)
    assert dlg.apply(), dlg.error.text()
    assert len(w.doc.project.tables["workloads"]) == 1 and not dlg.is_new
    assert w.doc.results.workload is not None
    assert "MFU" in dlg.status.text()
    w.doc.undo_stack.undo()
    assert not w.doc.project.tables["workloads"]


def test_template_dialog_generates_an_undoable_project(window, monkeypatch):
    w = window
    dlg = TemplateDialog(w.doc.project.catalog, w)
    dlg.servers.setValue(8)
    dlg.su_size.setValue(8)
    dlg.name.setText("Pilot")
    dlg.generate()
    assert dlg.project is not None and dlg.result() == 1
    monkeypatch.setattr(TemplateDialog, "exec", lambda self: 1)
    monkeypatch.setattr("gpuplanner.ui.dialogs.template_dialog.TemplateDialog.__init__", _reuse(dlg))
    actions._new_from_template(w)  # noqa: SLF001
    p = w.doc.project
    assert p.info.name == "Pilot" and sum(d.role == "compute" for d in p.devices.values()) == 8
    assert w.doc.undo_stack.count() == 1 and w.is_modified()


def _reuse(dlg):
    def init(self, catalog, parent=None, current=None):
        self.__dict__.update(dlg.__dict__)

    return init


def test_template_dialog_shows_the_generator_refusal(window):
    dlg = TemplateDialog(window.doc.project.catalog, window)
    dlg.servers.setValue(64)
    dlg.su_size.setValue(64)
    dlg.generate()
    assert dlg.project is None and "Cannot generate" in dlg.error.text()


def test_palette_search_filters_entries(window):
    pal = window.palette
    pal.search.setText("dgx h100")
    shown = [
        pal.tree.topLevelItem(g).child(k).text(0)
        for g in range(pal.tree.topLevelItemCount())
        for k in range(pal.tree.topLevelItem(g).childCount())
        if not pal.tree.topLevelItem(g).child(k).isHidden()
    ]
    assert shown and all("DGX H100" in s for s in shown)


def test_cjk_font_is_registered(qapp):
    if not list((resources_dir() / "fonts").glob("*.tt[cf]")):
        pytest.skip("no bundled font")
    families = register_fonts(qapp)
    assert families and families[0] in qapp.font().families()


def test_report_action_follows_the_report_package(window):
    action = window.actions["report"]
    assert action.isEnabled() == (actions.report_builder() is not None)


def test_export_report_writes_the_pdf(window, tmp_path: Path, monkeypatch):
    if actions.report_builder() is None:
        pytest.skip("gpuplanner.reports is not in this build")
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialog

    from gpuplanner.ui.dialogs.report_dialog import ReportDialog

    target = tmp_path / "proposal"  # ".pdf" is added
    chosen = {}

    def run(dlg: ReportDialog) -> int:
        """What a user does in the dialog: type the file name, click "Simplified Chinese", Export."""
        assert dlg.language() == "en", "the project's language is the default"
        dlg.show()
        dlg.path_edit.setText(str(target))
        QTest.mouseClick(dlg.radios["zh"], Qt.MouseButton.LeftButton)
        chosen["lang"] = dlg.language()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ReportDialog, "exec", run)
    actions._export_report(window)  # noqa: SLF001
    assert chosen["lang"] == "zh"
    pdf = target.with_name("proposal.pdf")
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert "Report written" in window.statusBar().currentMessage()
    pytest.importorskip("pypdf")
    from pypdf import PdfReader

    text = "".join(page.extract_text() or "" for page in PdfReader(pdf).pages[:3])
    assert sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff") > 50, "the report is written in Chinese"


def test_palette_tooltip_gives_the_catalog_description_in_the_ui_language(window, monkeypatch):
    from gpuplanner.ui import palette as palette_module

    entry = window.doc.project.catalog.entries["nvidia-dgx-a100"]
    assert entry.description.get("zh") and entry.description.get("en")
    monkeypatch.setattr(palette_module, "current_language", lambda: "en")
    assert entry.description["en"] in window.palette.tooltip(entry)
    monkeypatch.setattr(palette_module, "current_language", lambda: "zh")
    tip = window.palette.tooltip(entry)
    assert entry.description["zh"] in tip and entry.description["en"] not in tip


def test_findings_and_bottleneck_follow_the_ui_language(window, monkeypatch):
    from gpuplanner.ui import results_panel as rp

    panel = window.results_panel
    monkeypatch.setattr(rp, "current_language", lambda: "zh")
    panel.show_results(window.doc.results)
    first = panel.tree.topLevelItem(0).text(0)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in first), first
    assert "占单步时间" in panel.note.text()
    monkeypatch.setattr(rp, "current_language", lambda: "en")
    panel.show_results(window.doc.results)
    assert "of step time" in panel.note.text()


def test_field_labels_read_as_words_in_english_and_translate_in_chinese(qapp):
    from gpuplanner.ui import i18n
    from gpuplanner.ui.field_labels import label_of

    assert label_of("target_pue") == "target PUE"
    assert label_of("tco_years") == "TCO period (yr)"
    assert label_of("type_id") == "model"
    assert label_of("power_budget_kw") == "power budget (kW)"  # plain names stay as they are
    # the drawing's position, not to be taken for the floor plan's "floor x (m)" shown below it
    assert (label_of("x"), label_of("y"), label_of("floor_x_m")) == ("canvas x", "canvas y", "floor x (m)")
    i18n.set_language("zh")
    try:
        zh = label_of("target_pue")
        assert zh != "target PUE" and any("\u4e00" <= ch <= "\u9fff" for ch in zh)
        assert (label_of("x"), label_of("y")) == ("画布 X", "画布 Y")
    finally:
        i18n.set_language("en")


def _show_racks(w):
    w.resize(1500, 950)
    w.docks["racks"].raise_()
    QApplication.processEvents()
    p = w.doc.project
    server = next(d for d in p.devices.values() if d.role == "compute")
    w.scene.select_ids([server.id])
    QApplication.processEvents()
    view = w.rack_view
    view.canvas.repaint()
    return view


def _click_device(w, view, device_id: str) -> None:
    """Click the middle of the device where it is drawn at the current zoom; the selection follows."""
    view.canvas.repaint()
    (slot,) = [s for s in view.canvas.slots if s.device.id == device_id]
    c = slot.rect.center()
    pos = QPoint(round(c.x() * view.zoom), round(c.y() * view.zoom))
    w.scene.select_ids([])
    QTest.mouseClick(view.canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    QApplication.processEvents()
    assert w.scene.selected_ids() == [device_id]


@pytest.fixture
def _session_zoom():
    yield
    RackElevation.session_zoom, RackElevation.session_fit = 1.0, False


def test_rack_elevation_fit_height_and_clicks_after_zoom(window, _session_zoom):
    w = window
    view = _show_racks(w)
    rack = view.racks()[0]
    assert rack_ru(w.doc.project, rack) == 48
    vp = view.scroll.viewport()
    assert view.canvas.height() > vp.height()  # at 100 % only the top of a 48U rack shows in the dock
    view.fit_button.click()
    QApplication.processEvents()
    assert view.fit and view.zoom < 1
    assert 0.9 * vp.height() <= view.canvas.height() <= vp.height()
    devices = [d.id for d in w.doc.project.devices.values() if d.rack_id == rack.id and d.u_position]
    _click_device(w, view, devices[-1])
    # Ctrl+wheel zooms in about the pointer (fit ends); clicks still find the device under them
    before = view.zoom
    event = QWheelEvent(
        QPointF(60, 60),
        QPointF(60, 60),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ControlModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.canvas, event)
    assert view.zoom == pytest.approx(before * 1.44) and not view.fit
    _click_device(w, view, devices[0])
    # remembered for the session: a new elevation (e.g. after a language switch) starts at this zoom
    assert RackElevation(w.doc).zoom == pytest.approx(view.zoom)


def test_sensitivity_tab_draws_the_tornado_of_the_engine(window):
    from gpuplanner.engine.facility.sensitivity import tornado

    w = window
    plots = w.plots
    plots.refresh(everything=True)
    res = w.doc.results
    bars = plots.tornado_bars(res)
    expected = tornado(res.cost.inputs)
    assert [b[0] for b in bars] == [s.driver for s in expected]
    r = res.cost.usd_exchange_rate
    assert bars[0][1] == expected[0].low.usd_per_gpu_hour * r
    # the utilisation bar: fewer busy hours cost more per GPU-hour
    util = next(b for b in bars if b[0] == "utilization")
    assert util[1] > res.cost.usd_per_gpu_hour * r > util[2]
    ticks = plots.tornado.getAxis("left")._tickLevels  # noqa: SLF001
    assert ticks and len(ticks[0]) == len(bars)
