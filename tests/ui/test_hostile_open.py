"""The window's open path on every file of the hostile corpus (tests/data/hostile/make_corpus.py): a bad file
gives one message naming the file and the reason, leaves the current project and the file as they were;
a hostile but valid file opens. And a file locked by another program neither freezes the window nor
hangs it: the window keeps answering while the open waits (bounded), then says "in use"."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from gpuplanner.storage import projectfile
from gpuplanner.ui import file_open
from tests.ui.conftest import small_project

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "data" / "hostile"))
import make_corpus  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile-ui")
    return folder, make_corpus.build(folder)


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_window_open_path_on_the_corpus(corpus, make_window, monkeypatch):
    folder, expectations = corpus
    w = make_window(small_project())
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.Ok
    )
    for name, expect in expectations.items():
        file = folder / name
        before, current = _sha(file), w.doc.project
        n = len(shown)
        t0 = time.monotonic()
        opened = w.open_file(file)
        assert time.monotonic() - t0 < 10, name
        assert _sha(file) == before, f"{name}: the file changed"
        if opened:
            assert expect in ("open", "either"), name
            assert len(shown) == n and w.doc.path == file
        else:
            assert expect in ("refuse", "either"), f"{name}: {shown[n:]}"
            assert len(shown) == n + 1, name
            message = shown[-1]
            assert str(file) in message and "unchanged" in message, message
            assert "Error:" not in message and "Traceback" not in message, message  # ours, not a bug's
            assert w.doc.project is current, f"{name}: the current project was replaced"


def test_a_locked_file_does_not_freeze_the_window(tmp_path, make_window, monkeypatch):
    """Another program holds an exclusive lock: the window keeps running its event loop while the open
    waits; after the bounded wait it says the file is in use, and the current project stays."""
    monkeypatch.setattr(projectfile, "LOCK_WAIT_S", 1.5)
    monkeypatch.setattr(file_open, "SHOW_AFTER_MS", 0)
    w = make_window(small_project())
    current = w.doc.project
    file = tmp_path / "locked.gpuplan"
    from gpuplanner.storage import save_project

    save_project(small_project(2), file)
    holder = sqlite3.connect(file, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(50)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.Ok
    )
    try:
        t0 = time.monotonic()
        assert not w.open_file(file)
        waited = time.monotonic() - t0
    finally:
        timer.stop()
        holder.execute("ROLLBACK")
        holder.close()
    assert 1.0 < waited < 8
    assert len(ticks) >= 10, "the event loop ran during the wait (a frozen window would tick 0–1 times)"
    assert shown and "in use by another program" in shown[0]
    assert w.doc.project is current
    assert w.open_file(file) and w.doc.project.gpu_count() == 16  # the lock gone, the file opens


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_at_once(tmp_path, make_window, monkeypatch):
    w = make_window(small_project())
    fifo = tmp_path / "p.gpuplan"
    os.mkfifo(fifo)
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.Ok
    )
    t0 = time.monotonic()
    assert not w.open_file(fifo)
    assert time.monotonic() - t0 < 3 and "named pipe" in shown[0]
