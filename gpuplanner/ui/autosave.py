"""Never lose work: a recovery copy of the open project every minute and soon after large edits, written
with the atomic ``save_project`` from a snapshot in a worker thread; removed on save, on close and when the
user discards. Each window session has a random id (``storage/session.py``): its copy is
``recovery-<session>.gpuplan`` and it holds ``session-<session>.lock`` while it runs. A copy whose session
is gone (its lock is free) means a crash: the next start offers it, and no later session writes over it.
(Copies of older versions, named by process id, are still found and offered.)
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from gpuplanner.core.safeio import atomic_write, read_regular
from gpuplanner.model import ChangeSet
from gpuplanner.storage import open_project, save_project
from gpuplanner.storage.session import (
    SessionLock,
    new_session_id,
    remove_stale_lock,
    session_alive,
    valid_session_id,
)
from gpuplanner.ui.document import Document, snapshot_project

INTERVAL_MS = 60_000
LARGE_EDIT_ROWS = 100
LARGE_EDIT_DELAY_MS = 2_000


def default_recovery_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".gpuplanner") / "recovery"


@dataclass(frozen=True)
class Recovery:
    path: Path
    meta_path: Path
    original: str  # the file the user was editing ("" = never saved)
    name: str
    saved_at: str
    pid: int
    session: str = ""  # "" for a copy of an older version (named by pid)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists but not ours
    return True


def _read_meta(meta_path: Path) -> Recovery | None:
    try:
        meta = json.loads(read_regular(meta_path, 1 << 20).decode("utf-8"))
        if not isinstance(meta, dict):
            return None
        session = meta.get("session", "")
        return Recovery(
            path=meta_path.with_suffix(".gpuplan"),
            meta_path=meta_path,
            original=str(meta.get("original", "")),
            name=str(meta.get("name", "")),
            saved_at=str(meta.get("saved_at", "")),
            pid=int(meta.get("pid", 0)),
            session=session if valid_session_id(session) else "",
        )
    except (OSError, ValueError, TypeError, RecursionError):
        return None


def _gone(folder: Path, rec: Recovery) -> bool:
    if rec.session:
        return rec.meta_path.name == f"recovery-{rec.session}.json" and not session_alive(folder, rec.session)
    return not _alive(rec.pid)  # an older version's copy, named by pid


def find_recoveries(folder: Path) -> list[Recovery]:
    """Recovery copies of sessions that are no longer running (newest first)."""
    out = []
    for meta_path in sorted(folder.glob("recovery-*.json")):
        rec = _read_meta(meta_path)
        if rec is not None and rec.path.is_file() and _gone(folder, rec):
            out.append(rec)
    return sorted(out, key=lambda r: r.saved_at, reverse=True)


def remove_recovery(rec: Recovery) -> None:
    for p in (rec.path, rec.meta_path):
        p.unlink(missing_ok=True)
    if rec.session:
        remove_stale_lock(rec.meta_path.parent, rec.session)


class AutoSaver(QObject):
    def __init__(self, doc: Document, folder: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.folder = folder or default_recovery_dir()
        self.session = new_session_id()
        self.lock = SessionLock(self.folder, self.session)
        self.lock.acquire()  # held while this session runs: its copies are not offered to others
        self.dirty = False
        self.restored_unsaved = False
        self.saves = 0
        self.last_error = ""
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.save_now)
        self.timer.start()
        self.soon = QTimer(self)
        self.soon.setSingleShot(True)
        self.soon.setInterval(LARGE_EDIT_DELAY_MS)
        self.soon.timeout.connect(self.save_now)
        doc.changed.connect(self._on_changed)

    @property
    def path(self) -> Path:
        return self.folder / f"recovery-{self.session}.gpuplan"

    @property
    def meta_path(self) -> Path:
        return self.path.with_suffix(".json")

    def _on_changed(self, cs: ChangeSet) -> None:
        self.dirty = True
        rows = sum(len(tc.added) + len(tc.removed) + len(tc.updated) for tc in cs.tables.values())
        if rows >= LARGE_EDIT_ROWS:
            self.soon.start()

    def save_now(self, wait: bool = False) -> None:
        """Write the recovery copy (in a worker thread; ``wait`` joins it, for tests and on request)."""
        if not (self.dirty or self.restored_unsaved) or (
            self.doc.is_modified() is False and not self.restored_unsaved
        ):
            return
        if self._thread is not None and self._thread.is_alive():
            self.soon.start()  # one save at a time; try again shortly
            return
        snap = snapshot_project(self.doc.project)
        meta = {
            "original": str(self.doc.path or ""),
            "name": snap.info.name,
            "saved_at": datetime.now().isoformat(timespec="seconds"),
            "pid": os.getpid(),
            "session": self.session,
        }
        self.dirty = False
        self._thread = threading.Thread(
            target=self._write, args=(snap, meta), daemon=True, name="gpuplanner-autosave"
        )
        self._thread.start()
        if wait:
            self._thread.join()

    def _write(self, snap, meta: dict) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.lock.acquire()  # the folder may have been made (or removed) since the start
            with self._lock:
                save_project(snap, self.path)
                atomic_write(self.meta_path, json.dumps(meta))
            self.saves += 1
            self.last_error = ""
        except Exception as exc:  # a full disk must not take the window down; the next tick retries
            self.last_error = f"{type(exc).__name__}: {exc}"
            self.dirty = True

    def take_over(self, other: AutoSaver) -> None:
        """Continue ``other``'s session (a window rebuilt around the same document): same recovery file,
        same lock; this saver's own fresh session is dropped."""
        self.lock.release()
        self.session, self.lock = other.session, other.lock
        other.lock = SessionLock(other.folder, new_session_id())  # never acquired

    def end_session(self) -> None:
        """The window closes normally: free the lock (and its file)."""
        self.lock.release()

    def discard(self) -> None:
        """The work is saved or deliberately dropped: no recovery copy is needed any more."""
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            for p in (self.path, self.meta_path):
                p.unlink(missing_ok=True)
        self.dirty = False
        self.restored_unsaved = False

    def restore(self, rec: Recovery) -> None:
        """Open a crashed session's copy (raises ProjectFileError when it is unreadable)."""
        project = open_project(rec.path)
        original = Path(rec.original) if rec.original else None
        self.doc.replace_project(project, original)
        self.restored_unsaved = True
        self.dirty = True
        self.save_now(wait=True)
        remove_recovery(rec)
