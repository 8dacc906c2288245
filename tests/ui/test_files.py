"""Files from the window: save, close, reopen and see the same annotations; closing with unsaved changes
asks (Save / Discard / Cancel); a bad file on open shows a message and keeps the current project; recent
files; autosave and recovery after a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from gpuplanner.commands import SetFields
from gpuplanner.ui import autosave
from gpuplanner.ui.app import offer_recovery
from tests.ui.conftest import small_project


def annotations(w) -> dict[str, object]:
    return {
        "racks": {w.doc.project.racks[r].name: item.kw_text for r, item in w.scene.rack_items.items()},
        "links": sorted(w.scene.layer.label_text(i) for i in w.scene.layer.ids),
        "devices": len(w.doc.project.devices),
    }


def test_save_close_reopen_shows_the_same(make_window, tmp_path: Path, monkeypatch):
    w = make_window(small_project())
    rack = next(iter(w.doc.project.racks.values()))
    w.doc.push(SetFields(w.doc.project, "racks", rack.id, power_budget_kw=55.0))
    before = annotations(w)
    assert "55" in w.scene.rack_items[rack.id].kw_text
    target = tmp_path / "saved.gpuplan"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    asked = []
    monkeypatch.setattr(
        QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.Cancel
    )
    assert w.save()
    assert target.exists() and not w.is_modified()
    assert "saved.gpuplan" in w.windowTitle()
    assert w.close() and not asked, "a saved project closes without asking"
    w2 = make_window()
    assert w2.open_file(target)
    assert annotations(w2) == before
    assert w2.recent_files()[0] == str(target.resolve())


def test_close_with_unsaved_changes_asks(make_window, monkeypatch):
    w = make_window(small_project())
    rack = next(iter(w.doc.project.racks.values()))
    w.doc.push(SetFields(w.doc.project, "racks", rack.id, name="renamed"))
    assert w.isWindowModified()
    answers = [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Discard]
    asked = []

    def question(*args, **kwargs):
        asked.append(args[2])
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", question)
    assert not w.close(), "Cancel keeps the window open"
    assert w.isVisible() and w.doc.project.racks[rack.id].name == "renamed"
    assert w.close(), "Discard closes"
    assert len(asked) == 2 and "unsaved changes" in asked[0]


def test_close_with_save_writes_the_file(make_window, tmp_path: Path, monkeypatch):
    w = make_window(small_project())
    w.doc.push(SetFields(w.doc.project, "project", "project", name="to be saved"))
    target = tmp_path / "on-close.gpuplan"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Save)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert w.close()
    assert target.exists()


def test_bad_file_shows_a_message_and_keeps_the_project(make_window, tmp_path: Path, monkeypatch):
    w = make_window(small_project())
    project, title = w.doc.project, w.windowTitle()
    bad = tmp_path / "broken.gpuplan"
    bad.write_bytes(os.urandom(3000))
    shown = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.Ok
    )
    assert not w.open_file(bad)
    assert shown and str(bad) in shown[0] and "unchanged" in shown[0]
    assert w.doc.project is project and w.windowTitle() == title
    assert not w.open_file(tmp_path / "missing.gpuplan")
    assert len(shown) == 2 and "missing.gpuplan" in shown[1]


def test_autosave_and_recovery_after_a_crash(make_window, tmp_path: Path, monkeypatch):
    w = make_window(small_project())
    w.doc.push(SetFields(w.doc.project, "project", "project", name="unsaved work"))
    w.autosaver.save_now(wait=True)
    rec_file = w.autosaver.path
    assert rec_file.exists() and w.autosaver.saves == 1
    assert w.autosaver.session in rec_file.name  # named by session, not by process id
    assert autosave.find_recoveries(w.autosaver.folder) == []  # its session runs: not offered
    # The process dies: the operating system frees the session's lock (the files stay).
    w.autosaver.lock.release(remove=False)
    crashed = rec_file
    found = autosave.find_recoveries(w.autosaver.folder)
    assert [r.path for r in found] == [crashed]
    # The next session runs with the same pid (as in a container): it must still find the copy, and its
    # own recovery file must be another one.
    w2 = make_window()
    assert w2.autosaver.path != crashed and w2.autosaver.session != w.autosaver.session
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    assert offer_recovery(w2)
    assert w2.doc.project.info.name == "unsaved work"
    assert w2.is_modified() and w2.isWindowModified()
    assert not crashed.exists(), "the restored copy is taken over by this session's recovery file"
    assert w2.autosaver.path.exists()
    assert not (w.autosaver.folder / f"session-{w.autosaver.session}.lock").exists()  # cleaned up


def test_recovery_copy_of_an_older_version_named_by_pid_is_still_offered(make_window, tmp_path: Path):
    w = make_window(small_project())
    w.doc.push(SetFields(w.doc.project, "project", "project", name="old work"))
    w.autosaver.save_now(wait=True)
    old = w.autosaver.path.with_name("recovery-99999999.gpuplan")
    w.autosaver.path.rename(old)
    meta = {"original": "", "name": "old work", "saved_at": "2026-01-01T00:00:00", "pid": 2**22 + 12345}
    old.with_suffix(".json").write_text(json.dumps(meta))
    w.autosaver.meta_path.unlink()
    assert [r.path for r in autosave.find_recoveries(w.autosaver.folder)] == [old]
    meta["pid"] = os.getpid()  # that process still runs: not a crash
    old.with_suffix(".json").write_text(json.dumps(meta))
    assert autosave.find_recoveries(w.autosaver.folder) == []


def test_a_running_session_keeps_its_copy_and_a_fifo_meta_does_not_hang(make_window, tmp_path: Path):
    w = make_window(small_project())
    w.doc.push(SetFields(w.doc.project, "project", "project", name="x"))
    w.autosaver.save_now(wait=True)
    if hasattr(os, "mkfifo"):
        os.mkfifo(w.autosaver.folder / "recovery-fifo.json")
    w2 = make_window()
    assert autosave.find_recoveries(w2.autosaver.folder) == []  # w's session is alive
    w2.autosaver.lock.release(remove=False)
    assert autosave.find_recoveries(w2.autosaver.folder) == []  # w2 wrote nothing


def test_saving_removes_the_recovery_file(make_window, tmp_path: Path):
    w = make_window(small_project())
    w.doc.push(SetFields(w.doc.project, "project", "project", name="x"))
    w.autosaver.save_now(wait=True)
    assert w.autosaver.path.exists()
    w.doc.path = tmp_path / "p.gpuplan"
    assert w.save()
    assert not w.autosaver.path.exists()


def test_a_file_open_event_opens_the_project(make_window):
    """macOS sends a FileOpen event when a .gpuplan is double-clicked in Finder."""
    from pathlib import Path

    from PySide6.QtGui import QFileOpenEvent
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.app import FileOpenFilter
    from gpuplanner.ui.main_window import MainWindow

    w = make_window()
    for other in QApplication.topLevelWidgets():  # windows of earlier tests not yet torn down
        if isinstance(other, MainWindow) and other is not w:
            other.hide()
    flt = FileOpenFilter()
    example = Path(__file__).resolve().parents[2] / "examples" / "cluster-256-h100.gpuplan"
    assert flt.eventFilter(QApplication.instance(), QFileOpenEvent(str(example)))
    assert w.doc.project.gpu_count() == 256
    assert w.doc.path is None  # a shipped example opens as an untitled copy
