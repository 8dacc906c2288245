"""The main window's menu bar, toolbar and recent-files menu, from the actions ``actions.build`` made."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction

from gpuplanner.ui.i18n import translate

if TYPE_CHECKING:
    from gpuplanner.ui.main_window import MainWindow


def build_menus(w: MainWindow, a: dict[str, QAction]) -> None:
    mb = w.menuBar()
    f = mb.addMenu(translate("MainWindow", "&File"))
    for k in ("new", "template", "add_template", "open"):
        f.addAction(a[k])
    w.recent_menu = f.addMenu(translate("MainWindow", "Open &recent"))
    f.addAction(a["welcome"])
    for k in ("save", "save_as"):
        f.addAction(a[k])
    f.addSeparator()
    f.addAction(a["report"])
    f.addAction(a["print_racks"])
    f.addSeparator()
    f.addAction(a["quit"])
    e = mb.addMenu(translate("MainWindow", "&Edit"))
    edit_items = (
        "undo",
        "redo",
        None,
        "cut",
        "copy",
        "paste",
        "delete",
        None,
        "select_all",
        None,
        "preferences",
    )
    for k in edit_items:
        e.addSeparator() if k is None else e.addAction(a[k])
    v = mb.addMenu(translate("MainWindow", "&View"))
    for k in ("zoom_in", "zoom_out", "fit"):
        v.addAction(a[k])
    v.addSeparator()
    for k in ("collapse_sus", "collapse_rows", "collapse_group", "expand_all", "minimap"):
        v.addAction(a[k])
    v.addSeparator()
    v.addAction(a["large_text"])
    v.addSeparator()
    for dock in w.docks.values():
        v.addAction(dock.toggleViewAction())
    p = mb.addMenu(translate("MainWindow", "&Plan"))
    for k in ("workload", "serving", "site", "phases", "goal", "advisor", "link_tool", "arrange"):
        p.addAction(a[k])
    h = mb.addMenu(translate("MainWindow", "&Help"))
    h.addAction(a["about"])
    tb = w.addToolBar(translate("MainWindow", "Main"))
    tb.setObjectName("toolbar-main")
    for k in (
        "new",
        "open",
        "save",
        None,
        "undo",
        "redo",
        None,
        "delete",
        "link_tool",
        None,
        "fit",
        None,
        "workload",
        "site",
        "report",
    ):
        tb.addSeparator() if k is None else tb.addAction(a[k])
    refresh_recent(w)


def refresh_recent(w: MainWindow) -> None:
    menu = getattr(w, "recent_menu", None)
    if menu is None:
        return
    menu.clear()
    files = w.recent_files()
    for path in files:
        action = menu.addAction(Path(path).name)
        action.setToolTip(path)
        action.triggered.connect(lambda _c=False, p=path: w.open_file(p))
    menu.setEnabled(bool(files))
