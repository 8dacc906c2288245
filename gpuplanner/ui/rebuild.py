"""Rebuilding the main window around the same document, so that a new UI language (or number style) shows
everywhere at once — every menu, dock, tooltip and form is made again by the code that made it, in the new
language — while the user's work is untouched: the same ``Document`` (project, undo stack, file path,
unsaved state, results), the same autosaver state and recovery file, recent files (QSettings), window
geometry, dock layout, zoom and the visible part of the canvas. The old window goes without asking about
unsaved changes (nothing is lost: the document lives on in the new window).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF

from gpuplanner.ui import i18n
from gpuplanner.ui.excepthook import install_excepthook

if TYPE_CHECKING:  # the window is rebuilt as type(old): no import of main_window at run time
    from gpuplanner.ui.main_window import MainWindow

_windows: list[MainWindow] = []  # keeps the current rebuilt window alive (it has no parent)


def rebuild_window(old: MainWindow) -> MainWindow:
    doc = old.doc
    geometry, state = old.saveGeometry(), old.saveState()
    scale = old.view.transform().m11()
    centre: QPointF = old.view.mapToScene(old.view.viewport().rect().center())
    was_visible, was_maximized = old.isVisible(), old.isMaximized()
    saver = old.autosaver
    saver.timer.stop()
    saver.soon.stop()
    if saver._thread is not None:  # noqa: SLF001 (a write in progress finishes before the new saver starts)
        saver._thread.join()  # noqa: SLF001
    doc.disconnect_views()  # the old window's panels must not react to edits any more
    folder = Path(saver.folder)
    new = type(old)(doc=doc, settings=old.settings, recovery_dir=folder)
    if new.scene.collapsed != old.scene.collapsed:  # (a large plan's new scene starts all collapsed)
        new.scene.expand_all()
        new.scene.collapse(old.scene.collapsed)
    new.autosaver.take_over(saver)  # the same session: its recovery file and lock go on
    new.autosaver.dirty = saver.dirty
    new.autosaver.restored_unsaved = saver.restored_unsaved
    new.autosaver.saves = saver.saves
    new.restoreGeometry(geometry)
    new.restoreState(state)
    if doc.results is not None:
        doc.resultsReady.emit(doc.results)  # fill the new panels without re-running the analysis
    new.update_title()
    if was_visible:
        new.showMaximized() if was_maximized else new.show()
    new.view.set_zoom(scale, centre)
    old.hide()
    old.deleteLater()  # not close(): closeEvent would ask about unsaved changes and drop the recovery copy
    # the running app's hook names the new window
    if getattr(sys.excepthook, "__qualname__", "") == "install_excepthook.<locals>.hook":
        install_excepthook(new)
    _windows[:] = [new]
    return new


def apply_preferences(window: MainWindow, language: str, number_style: str) -> MainWindow:
    """Store the choices and, when they change what is shown, switch the translator and rebuild the window.
    Returns the window now showing the document (``window`` itself when nothing changed)."""
    s = window.settings
    s.setValue(i18n.SETTINGS_LANGUAGE, language)
    s.setValue(i18n.SETTINGS_NUMBERS, number_style)
    lang = i18n.chosen_language(s)
    if (lang, number_style) == (i18n.current_language(), i18n.number_style()):
        return window
    i18n.set_number_style(number_style)
    i18n.set_language(lang)
    return rebuild_window(window)
