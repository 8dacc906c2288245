"""Opening a project without freezing the window.

``open_project`` runs in a worker thread (it builds plain Python objects and touches no Qt object; its
SQLite connections live and die in that thread) while the window keeps painting and answering. When the
open takes longer than a moment (a large project, or a file another program holds locked, which is
waited for at most ``storage.projectfile.LOCK_WAIT_S``), a progress dialog says what is happening and
offers Cancel: the window then stays on the current project and the worker's result is dropped.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QWidget

from gpuplanner.model import Project
from gpuplanner.storage import open_project
from gpuplanner.ui.i18n import translate

SHOW_AFTER_MS = 400  # a quicker open shows no dialog at all
POLL_MS = 25
_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpuplanner-open")


_loading = [0]  # opens in progress (their nested event loop runs timers of code that waits for the file)


def loading() -> bool:
    """Whether a project is being read right now (``ui/smoke.py`` waits for it)."""
    return _loading[0] > 0


class OpenCancelled(Exception):
    """The user pressed Cancel while the file was being read."""


def load_project(parent: QWidget | None, path: str | Path) -> Project:
    """Reads ``path`` in the worker thread, keeping the window responsive; raises what ``open_project``
    raises (ProjectFileError for a bad file) or OpenCancelled."""
    future: Future[Project] = _pool.submit(open_project, path)
    if future.done():
        return future.result()
    loop = QEventLoop()
    dialog = QProgressDialog(
        translate("FileOpen", "Opening {name}…").format(name=Path(path).name),
        translate("FileOpen", "Cancel"),
        0,
        0,
        parent,
    )
    dialog.setWindowTitle(translate("FileOpen", "Opening project"))
    # The window keeps painting but takes no input meanwhile: no second open or edit of the old project.
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(SHOW_AFTER_MS)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    cancelled = []
    dialog.canceled.connect(lambda: (cancelled.append(True), loop.quit()))
    poll = QTimer()
    poll.setInterval(POLL_MS)
    poll.timeout.connect(lambda: loop.quit() if future.done() else None)
    poll.start()
    _loading[0] += 1
    try:
        while not future.done() and not cancelled:
            loop.exec()
    finally:
        _loading[0] -= 1
        poll.stop()
        dialog.canceled.disconnect()
        dialog.close()
        dialog.deleteLater()
    if cancelled and not future.done():
        raise OpenCancelled(str(path))
    return future.result()
