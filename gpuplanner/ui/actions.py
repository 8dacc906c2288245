"""Menus, toolbar and the actions behind them (with the usual shortcuts), for the main window."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox

from gpuplanner.core.errors import PlannerError
from gpuplanner.ui import field_labels
from gpuplanner.ui.edit_actions import copy, delete, paste, release_clipboard, select_all
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.menus import build_menus, refresh_recent

if TYPE_CHECKING:
    from gpuplanner.ui.main_window import MainWindow

# re-exported: the window and the app call these through this module
__all__ = [
    "build",
    "copy",
    "delete",
    "paste",
    "refresh_recent",
    "release_clipboard",
    "select_all",
    "set_large_text",
]


def build(w: MainWindow) -> dict[str, QAction]:
    a: dict[str, QAction] = {}

    def act(key: str, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, w)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        a[key] = action
        return action

    SK = QKeySequence.StandardKey
    act("new", translate("MainWindow", "&New"), w.new_project, SK.New)
    act(
        "template",
        translate("MainWindow", "New from &template…"),
        lambda: _new_from_template(w),
        "Ctrl+Shift+N",
    )
    act(
        "add_template",
        translate("MainWindow", "&Add from template…"),
        lambda: _add_from_template(w),
        tip=translate(
            "MainWindow", "Add a pod (servers, fabrics, racks) to this project, in its own partition"
        ),
    )
    act("open", translate("MainWindow", "&Open…"), w.open_dialog, SK.Open)
    act(
        "welcome",
        translate("MainWindow", "&Welcome…"),
        lambda: _welcome(w),
        tip=translate("MainWindow", "Recent projects, templates and the example projects"),
    )
    act("save", translate("MainWindow", "&Save"), w.save, SK.Save)
    act("save_as", translate("MainWindow", "Save &as…"), w.save_as, SK.SaveAs)
    act("report", translate("MainWindow", "&Export report (PDF)…"), lambda: _export_report(w), "Ctrl+E")
    act("print_racks", translate("MainWindow", "&Print rack elevation…"), w.rack_view.print_dialog, SK.Print)
    quit_ = act("quit", translate("MainWindow", "&Quit"), w.close, SK.Quit)
    # Some platform themes (the generic one, Windows) bind no key or only Key_Exit to Quit: Ctrl+Q everywhere.
    quit_keys = [k for k in QKeySequence.keyBindings(SK.Quit) if not k.isEmpty()]
    if QKeySequence("Ctrl+Q") not in quit_keys:
        quit_keys.append(QKeySequence("Ctrl+Q"))
    quit_.setShortcuts(quit_keys)
    undo = w.doc.create_undo_action(w, translate("MainWindow", "&Undo"))
    undo.setShortcut(QKeySequence(SK.Undo))
    redo = w.doc.create_redo_action(w, translate("MainWindow", "&Redo"))
    # Ctrl+Y as well as the platform's redo (Ctrl+Shift+Z on Linux): users of both conventions reach it.
    redo_keys = QKeySequence.keyBindings(SK.Redo)
    for extra in ("Ctrl+Y", "Ctrl+Shift+Z"):
        if QKeySequence(extra) not in redo_keys:
            redo_keys.append(QKeySequence(extra))
    redo.setShortcuts(redo_keys)
    # The menu says what will be undone; the toolbar button keeps a short, fixed label (with the whole text
    # in its tooltip) so that the toolbar does not shift under the pointer after every edit.
    for action, short in ((undo, translate("MainWindow", "Undo")), (redo, translate("MainWindow", "Redo"))):
        action.setIconText(short)
        action.changed.connect(lambda act=action: _full_text_tooltip(act))
        _full_text_tooltip(action)
    a["undo"], a["redo"] = undo, redo
    act("cut", translate("MainWindow", "Cu&t"), lambda: (copy(w), delete(w)), SK.Cut)
    act("copy", translate("MainWindow", "&Copy"), lambda: copy(w), SK.Copy)
    act("paste", translate("MainWindow", "&Paste"), lambda: paste(w), SK.Paste)
    act("delete", translate("MainWindow", "&Delete"), lambda: delete(w), SK.Delete)
    act("select_all", translate("MainWindow", "Select &all"), lambda: select_all(w), SK.SelectAll)
    prefs = act("preferences", translate("MainWindow", "&Preferences…"), lambda: _preferences(w), "Ctrl+,")
    prefs.setMenuRole(QAction.MenuRole.PreferencesRole)
    act("zoom_in", translate("MainWindow", "Zoom &in"), lambda: w.view.zoom_by(1.25), SK.ZoomIn)
    act("zoom_out", translate("MainWindow", "Zoom &out"), lambda: w.view.zoom_by(0.8), SK.ZoomOut)
    act("fit", translate("MainWindow", "Zoom to &fit"), w.view.zoom_to_fit, "Ctrl+0")
    act(
        "collapse_sus",
        translate("MainWindow", "Collapse all &scalable units"),
        lambda: w.scene.collapse_all("su"),
        "Ctrl+Alt+G",
        translate(
            "MainWindow",
            "Show each scalable unit or pod as one block with its GPUs, kW, busiest uplink and findings",
        ),
    )
    act(
        "collapse_rows",
        translate("MainWindow", "Collapse all &rows"),
        lambda: w.scene.collapse_all("row"),
        tip=translate("MainWindow", "Show each row of racks as one block with its totals"),
    )
    act(
        "collapse_group",
        translate("MainWindow", "&Collapse the selection's group"),
        lambda: w.scene.collapse(w.scene.groups_of(w.scene.selected_ids())),
        "Ctrl+G",
        translate(
            "MainWindow",
            "Collapse the scalable units of the selected racks and devices (double-click a block to expand it)",
        ),
    )
    act("expand_all", translate("MainWindow", "&Expand all groups"), w.scene.expand_all, "Ctrl+Shift+G")
    minimap = act(
        "minimap",
        translate("MainWindow", "&Minimap"),
        lambda: w.view.minimap.setVisible(a["minimap"].isChecked()),
        "Ctrl+M",
    )
    minimap.setCheckable(True)
    minimap.setChecked(True)
    act(
        "arrange",
        translate("MainWindow", "&Arrange in tiers"),
        lambda: _arrange(w),
        "Ctrl+Shift+R",
        translate(
            "MainWindow", "Switches in tiers by role above the racks, racks in lines by row (one undo step)"
        ),
    )
    large = act(
        "large_text",
        translate("MainWindow", "&Larger text (projector)"),
        lambda: set_large_text(w, a["large_text"].isChecked()),
        "Ctrl+Shift+L",
        translate("MainWindow", "Larger text in panels, menus and dialogs, for a projector or a large room"),
    )
    large.setCheckable(True)
    large.setChecked(w.settings.value(LARGE_TEXT_SETTING, False, type=bool))
    set_large_text(w, large.isChecked())
    link = act(
        "link_tool",
        translate("MainWindow", "Draw &links"),
        lambda: setattr(w.view, "link_tool", a["link_tool"].isChecked()),
        "L",
        translate(
            "MainWindow",
            "Drag from one device to another to link them (or drag from a port-group pad at any time)",
        ),
    )
    link.setCheckable(True)
    act("workload", translate("MainWindow", "&Workload…"), lambda: _workload(w), "Ctrl+Shift+W")
    act(
        "serving",
        translate("MainWindow", "New s&erving workload…"),
        lambda: _serving(w),
        tip=translate(
            "MainWindow", "A serving workload beside the others: users, TTFT/TPOT targets, its partition"
        ),
    )
    # Ctrl+Shift+S is Save as (the platform's key): the site dialog takes Ctrl+Alt+S.
    act("site", translate("MainWindow", "&Site and costs…"), lambda: _site(w), "Ctrl+Alt+S")
    act("phases", translate("MainWindow", "&Phases and teams…"), lambda: _phases(w), "Ctrl+Shift+P")
    act(
        "advisor",
        translate("MainWindow", "Design &advisor…"),
        lambda: _advisor(w),
        "Ctrl+Shift+A",
        translate("MainWindow", "From a goal and the site's limits to the best cluster designs"),
    )
    act(
        "goal",
        translate("MainWindow", "Design &goal…"),
        lambda: _goal(w),
        tip=translate("MainWindow", "What the customer wants and the site's limits, kept in the project"),
    )
    act("about", translate("MainWindow", "&About GPU Planner"), lambda: _about(w))
    _report_availability(w, a["report"])
    build_menus(w, a)
    return a


def _arrange(w: MainWindow) -> None:
    from gpuplanner.ui.canvas.arrange import arrange_command

    cmd = arrange_command(w.doc.project, translate("MainWindow", "Arrange in tiers"))
    if cmd is None:
        w.statusBar().showMessage(translate("MainWindow", "Everything is already in its tier."), 6000)
        return
    if w.view.push(cmd):
        w.view.zoom_to_fit()


LARGE_TEXT_SETTING = "large_text"
LARGE_TEXT_SCALE = 1.35
_BASE_POINT_SIZE = "gpuplanner_base_point_size"  # app property: the font size before any scaling


def set_large_text(w: MainWindow, on: bool) -> None:
    """Scale the application font (panels, menus, dialogs follow; the canvas and floor plan zoom anyway)
    and remember the choice."""
    app = QApplication.instance()
    if app is None:
        return
    base = app.property(_BASE_POINT_SIZE)
    if base is None:
        base = app.font().pointSizeF()
        app.setProperty(_BASE_POINT_SIZE, base)
    font = app.font()
    size = float(base) * (LARGE_TEXT_SCALE if on else 1.0)
    if abs(font.pointSizeF() - size) > 1e-6:
        font.setPointSizeF(size)
        app.setFont(font)
        # A widget with a style sheet keeps the font it was polished with: polish it again.
        for widget in QApplication.allWidgets():
            sheet = widget.styleSheet()
            if sheet:
                widget.setStyleSheet("")
                widget.setStyleSheet(sheet)
    if bool(w.settings.value(LARGE_TEXT_SETTING, False, type=bool)) != on:
        w.settings.setValue(LARGE_TEXT_SETTING, on)


def _full_text_tooltip(action: QAction) -> None:
    try:
        tip = action.text().replace("&", "")
        if action.toolTip() != tip:
            action.setToolTip(tip)
    except RuntimeError:  # the undo stack announces a change while the window is being destroyed
        pass


def _about(w: MainWindow) -> None:
    text = translate(
        "MainWindow", "GPU Planner — plan GPU clusters offline: fabric, performance, power, cooling and cost."
    )
    QMessageBox.about(w, translate("MainWindow", "About GPU Planner"), text)


def _preferences(w: MainWindow) -> None:
    from gpuplanner.ui.dialogs.preferences import PreferencesDialog
    from gpuplanner.ui.rebuild import apply_preferences

    dlg = PreferencesDialog(w.settings, w)
    if dlg.exec():
        apply_preferences(w, *dlg.chosen())


# -- plan -----------------------------------------------------------------------------------------------
def _workload(w: MainWindow) -> None:
    from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog

    WorkloadDialog(w.doc, w).exec()


def _serving(w: MainWindow) -> None:
    from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog

    WorkloadDialog(w.doc, w, kind="inference").exec()


def _site(w: MainWindow) -> None:
    from gpuplanner.ui.dialogs.site_dialog import SiteDialog

    SiteDialog(w.doc, w).exec()


def _goal(w: MainWindow) -> None:
    from gpuplanner.ui.dialogs.goal_dialog import GoalDialog

    GoalDialog(w.doc, w).exec()


def _advisor(w: MainWindow) -> None:
    from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog

    AdvisorDialog(w).exec()


def _phases(w: MainWindow) -> None:
    from gpuplanner.ui.dialogs.phases_dialog import PhasesTeamsDialog

    PhasesTeamsDialog(w.doc, w.scene.selected_ids(), w).exec()


def _welcome(w: MainWindow) -> None:
    from gpuplanner.ui.welcome import show_welcome

    show_welcome(w)


def _new_from_template(w: MainWindow) -> None:
    from gpuplanner.model import Project
    from gpuplanner.ui.dialogs.template_dialog import TemplateDialog

    catalog = w.doc.project.catalog
    dlg = TemplateDialog(catalog, w, current=w.doc.project)
    if dlg.exec() and dlg.project is not None and w.new_project(Project(catalog)):
        cmd = dlg.command(w.doc.project)
        kept = ""
        if dlg.keeps():
            kept = " ".join(
                [translate("MainWindow", "Kept the workload, site and costs, teams and project details.")]
                + dlg.notes
            )
        w.view.push(cmd, kept)
        w.view.zoom_to_fit()


def _add_from_template(w: MainWindow) -> None:
    """A pod from a template added to the open project (its own server type, fabric and partition)."""
    from gpuplanner.ui.dialogs.template_dialog import TemplateDialog

    dlg = TemplateDialog(w.doc.project.catalog, w, into=w.doc.project)
    accepted = dlg.exec() and getattr(dlg, "plan", None) is not None
    if accepted and w.view.push(dlg.command(w.doc.project)):
        w.view.zoom_to_fit()


# -- report ---------------------------------------------------------------------------------------------
def report_builder():
    """``gpuplanner.reports.build_report`` when the report package is there, else None."""
    try:
        mod = importlib.import_module("gpuplanner.reports")
    except ImportError:
        return None
    return getattr(mod, "build_report", None)


def _report_availability(w: MainWindow, action: QAction) -> None:
    if report_builder() is None:
        action.setEnabled(False)
        action.setToolTip(
            translate(
                "MainWindow", "The PDF report is not part of this build (gpuplanner.reports is missing)"
            )
        )


def _export_report(w: MainWindow) -> None:
    build_report = report_builder()
    if build_report is None:
        return
    from gpuplanner.ui.dialogs.report_dialog import ReportDialog

    stem = w.doc.path.stem if w.doc.path else (w.doc.project.info.name or "proposal")
    folder = w.doc.path.parent if w.doc.path else Path(w._last_dir())  # noqa: SLF001
    lang = w.doc.project.info.language  # the default: the project's language; the dialog offers both
    dlg = ReportDialog(folder / f"{stem}.pdf", lang, w)
    if dlg.exec() != ReportDialog.DialogCode.Accepted:
        return
    path, lang = str(dlg.path()), dlg.language()
    warnings: list[str] = []
    try:
        out = build_report(
            w.doc.project,
            path,
            lang=lang,
            scenario=w.doc.scenario,
            warn=warnings.append,
        )
    except (PlannerError, OSError) as exc:
        QMessageBox.warning(
            w,
            translate("MainWindow", "Cannot write the report"),
            f"{path}\n\n{field_labels.plain_error(exc)}",
        )
        return
    msg = translate("MainWindow", "Report written to {path}").format(path=out)
    if warnings:
        msg += " — " + "; ".join(warnings)
    w.statusBar().showMessage(msg, 10000)
