"""Every key bound in the main window, pressed as a real key sequence on the canvas, does what its menu
entry says: the dialog it names opens (dialogs answered "cancel"), the file dialog is asked, the zoom, the
selection, the clipboard, the collapse state or the project changes. A shortcut added without a check here
fails the completeness test, so no key goes untested."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtPrintSupport import QPrintDialog
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox

from tests.ui.test_groups import two_su_project


def _press(w, seq: QKeySequence) -> None:
    # a window an earlier test of this worker left open would keep the activation (and the key)
    for other in QApplication.topLevelWidgets():
        if other is not w and other.isVisible() and other.isWindow():
            other.hide()
    w.activateWindow()
    w.view.setFocus()
    # the first key after show is lost unless the window's activation has been delivered (slow when loaded)
    for _ in range(500):
        if QApplication.activeWindow() is w and QApplication.focusWidget() is w.view:
            break
        QTest.qWait(10)
    QTest.keySequence(w.view.viewport(), seq)
    QApplication.processEvents()


def _with_keys(w) -> dict[str, QAction]:
    return {k: a for k, a in w.actions.items() if any(not s.isEmpty() for s in a.shortcuts())}


def _dialogs(monkeypatch) -> list[str]:
    """Modal dialogs record their class and return "rejected" instead of blocking the test."""
    opened: list[str] = []

    def fake_exec(self):
        opened.append(type(self).__name__)
        return 0

    monkeypatch.setattr(QDialog, "exec", fake_exec)
    monkeypatch.setattr(QPrintDialog, "exec", fake_exec)
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: opened.append("save-file") or ("", "")
    )
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", lambda *a, **k: opened.append("open-file") or ("", "")
    )

    def question(parent, title, text, buttons=QMessageBox.StandardButton.Yes, *rest):
        sb = QMessageBox.StandardButton
        return sb.Discard if buttons & sb.Discard else sb.Yes  # drop unsaved changes; confirm a deletion

    monkeypatch.setattr(QMessageBox, "question", question)
    monkeypatch.setattr(QMessageBox, "about", lambda *a, **k: opened.append("about"))
    return opened


DIALOG_KEYS = {
    "template": "TemplateDialog",
    "open": "open-file",
    "save": "save-file",  # untitled: Save asks where
    "save_as": "save-file",
    "report": "ReportDialog",
    "print_racks": "QPrintDialog",
    "preferences": "PreferencesDialog",
    "workload": "WorkloadDialog",
    "site": "SiteDialog",
    "phases": "PhasesTeamsDialog",
    "advisor": "AdvisorDialog",
}
STATE_KEYS = {
    "new",
    "quit",
    "undo",
    "redo",
    "cut",
    "copy",
    "paste",
    "delete",
    "select_all",
    "zoom_in",
    "zoom_out",
    "fit",
    "collapse_sus",
    "collapse_rows",
    "collapse_group",
    "expand_all",
    "minimap",
    "arrange",
    "large_text",
    "link_tool",
}


def test_every_bound_key_is_checked_here(make_window):
    w = make_window()
    keyed = set(_with_keys(w))
    assert keyed == set(DIALOG_KEYS) | STATE_KEYS - {"collapse_rows"}, keyed ^ (set(DIALOG_KEYS) | STATE_KEYS)
    assert QKeySequence("Ctrl+Q") in w.actions["quit"].shortcuts()


def test_each_dialog_key_opens_its_dialog(make_window, monkeypatch):
    w = make_window(two_su_project())
    opened = _dialogs(monkeypatch)
    for key, dialog in DIALOG_KEYS.items():
        for seq in w.actions[key].shortcuts():
            if seq.isEmpty():
                continue
            opened.clear()
            _press(w, seq)
            assert opened == [dialog], f"{seq.toString()} ({key}) opened {opened}"


def test_each_editing_and_view_key_changes_what_it_says(make_window, monkeypatch):
    w = make_window(two_su_project())
    _dialogs(monkeypatch)
    p, sc, a = w.doc.project, w.scene, w.actions
    keys = {k: [s for s in act.shortcuts() if not s.isEmpty()] for k, act in a.items()}
    n_devices = len(p.devices)
    w.view.zoom_to_fit()
    # zoom in / out / fit
    s0 = w.view.scale_now()
    _press(w, keys["zoom_in"][0])
    assert w.view.scale_now() > s0 * 1.2
    _press(w, keys["zoom_out"][0])
    _press(w, keys["zoom_out"][0])
    assert w.view.scale_now() < s0
    _press(w, keys["fit"][0])
    assert abs(w.view.scale_now() - s0) < 0.02 * s0  # the fit again (scroll bars may come or go)
    # minimap, link tool, larger text: each toggles and toggles back
    for key, state in (
        ("minimap", lambda: w.view.minimap.isVisible()),
        ("link_tool", lambda: w.view.link_tool),
        ("large_text", lambda: QApplication.font().pointSizeF()),
    ):
        before = state()
        _press(w, keys[key][0])
        assert state() != before, key
        _press(w, keys[key][0])
        assert state() == before, key
    # groups: collapse all SUs, expand all, collapse the selection's group
    _press(w, keys["collapse_sus"][0])
    assert sorted(sc.collapsed) == ["su:su1", "su:su2"]
    _press(w, keys["expand_all"][0])
    assert sc.collapsed == []
    su2 = [d.id for d in p.devices.values() if d.group == "su2"]
    sc.select_ids(su2[:1])
    _press(w, keys["collapse_group"][0])
    assert sc.collapsed == ["su:su2"]
    _press(w, keys["expand_all"][0])
    # select all, copy, paste (adds a copy of every device), undo; cut removes, each redo key brings back
    _press(w, keys["select_all"][0])
    assert set(sc.selected_ids()) == set(p.devices) | set(p.racks)
    _press(w, keys["copy"][0])
    _press(w, keys["paste"][0])
    assert len(p.devices) == 2 * n_devices
    _press(w, keys["undo"][0])
    assert len(p.devices) == n_devices
    for redo in keys["redo"]:
        _press(w, redo)
        assert len(p.devices) == 2 * n_devices, f"redo by {redo.toString()}"
        _press(w, keys["undo"][0])
        assert len(p.devices) == n_devices
    _press(w, keys["select_all"][0])
    _press(w, keys["cut"][0])
    assert not p.devices
    _press(w, keys["undo"][0])
    assert len(p.devices) == n_devices
    _press(w, keys["select_all"][0])
    _press(w, keys["delete"][0])
    assert not p.devices
    _press(w, keys["undo"][0])
    # arrange: one undo step that moves things
    before = {d.id: (d.x, d.y) for d in p.devices.values()}
    depth = w.doc.undo_stack.index()
    _press(w, keys["arrange"][0])
    moved = {d.id: (d.x, d.y) for d in p.devices.values()} != before
    assert moved and w.doc.undo_stack.index() == depth + 1
    # new: an empty project (the unsaved-changes question answered "Discard")
    _press(w, keys["new"][0])
    assert not w.doc.project.devices
    # quit: every quit key closes the window
    for seq in keys["quit"]:
        w2 = make_window()
        assert w2.isVisible()
        _press(w2, seq)
        assert not w2.isVisible(), f"{seq.toString()} quits"
