"""Edit ▸ select all, delete (asking first above ``ASK_BEFORE_DELETING`` items), copy, cut and paste of
canvas items through the clipboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from gpuplanner.ui.canvas import interactions
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.plurals import counts

if TYPE_CHECKING:
    from gpuplanner.ui.main_window import MainWindow


def select_all(w: MainWindow) -> None:
    """Devices and racks, at every zoom (the overview keeps them as a pending selection); their links go
    with them on delete, so selecting tens of thousands of links as well would only slow the canvas."""
    p = w.doc.project
    w.scene.select_ids(list(p.devices) + list(p.racks))


ASK_BEFORE_DELETING = 20  # more selected items than this: the user confirms first


def delete(w: MainWindow) -> None:
    if w.tabs.currentWidget() is w.floor:  # on the floor plan, Delete removes the selected floor units
        w.floor.delete_selected_units()
        return
    ids = w.scene.selected_ids()
    n = len(ids)  # a named count: lupdate misses a translate() whose arguments hold a call
    if n > ASK_BEFORE_DELETING:
        answer = QMessageBox.question(
            w,
            translate("MainWindow", "Delete"),
            counts().delete_question(n),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
    cmd = interactions.delete_command(w.doc.project, ids)
    w.view.push(cmd)


def copy(w: MainWindow) -> None:
    ids = w.scene.selected_ids()
    if not ids:
        return
    mime = QMimeData()
    text = interactions.copy_text(w.doc.project, ids)
    mime.setData(interactions.CLIPBOARD_MIME, text.encode("utf-8"))
    QGuiApplication.clipboard().setMimeData(mime)


def release_clipboard() -> None:
    """Drop our items from the clipboard before Qt goes away (an offscreen QClipboard holding Python-made
    mime data crashes at exit)."""
    clip = QGuiApplication.clipboard()
    mime = clip.mimeData() if clip is not None else None
    if mime is not None and mime.hasFormat(interactions.CLIPBOARD_MIME):
        clip.clear()


def paste(w: MainWindow) -> None:
    mime = QGuiApplication.clipboard().mimeData()
    if mime is None or not mime.hasFormat(interactions.CLIPBOARD_MIME):
        w.statusBar().showMessage(
            translate("MainWindow", "Nothing to paste: copy racks, devices or links first"), 5000
        )
        return
    text = bytes(mime.data(interactions.CLIPBOARD_MIME).data()).decode("utf-8")
    cmd, new_ids = interactions.paste_command(w.doc.project, text)
    if w.view.push(
        cmd, "" if cmd else translate("MainWindow", "The clipboard does not hold GPU Planner items")
    ):
        w.scene.select_ids(new_ids)
