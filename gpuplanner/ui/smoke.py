"""A hidden start-up self-test for packaged builds, switched on by an environment variable.

``GPUPLANNER_SMOKE_QUIT_MS=5000 QT_QPA_PLATFORM=offscreen gpuplanner examples/cluster-256-h100.gpuplan``
starts the window as usual, and once it has shown the project prints::

    smoke: opened <project name> with <N> GPUs
    smoke: language <ui language>, status bar "<the GPU count as the status bar shows it>"
    smoke: analysis ready in <ms> ms            (or: smoke: analysis failed: <why>)

then closes the window. It waits for the first analysis at most that many milliseconds after start. Exit
code: 0 when the project opened and its analysis came back, 1 otherwise. A modal dialog (a file that cannot
be opened, a recovery offer) would wait for a click forever: it is a failure, printed as
``smoke: dialog <title>: <text>``, and the process ends at once with code 1 (nothing is written or removed).
tests/packaging/test_bundle.py and the start-time figures in packaging/README.md use it; users never see it.
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QThread, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from gpuplanner.ui import file_open, i18n

ENV_SMOKE = "GPUPLANNER_SMOKE_QUIT_MS"


def _say(line: str) -> None:
    print(f"smoke: {line}", flush=True)


def _fail_on_modal_dialog() -> None:
    dialog = QApplication.activeModalWidget()
    if dialog is None or file_open.loading():  # the open's progress dialog is no question to the user
        return
    text = dialog.text() if isinstance(dialog, QMessageBox) else ""
    _say(f"dialog {dialog.windowTitle()}: {text}".rstrip(": "))
    sys.stderr.flush()
    os._exit(1)  # leaving the dialog's nested event loop would only lead back into app.exec()


def install(app: QApplication, window, path: str | None) -> bool:
    """Arms the self-test when ``$GPUPLANNER_SMOKE_QUIT_MS`` is set; returns whether it did. Call it once the
    window is shown and before the file is opened, so that a dialog on the way is caught."""
    raw = os.environ.get(ENV_SMOKE)
    if not raw:
        return False
    try:
        limit_ms = max(0, int(raw))
    except ValueError:
        print(f"gpuplanner: {ENV_SMOKE} must be milliseconds, not {raw!r}", file=sys.stderr)
        return False
    state = {"shown": False, "analysis": None, "done": False}

    def finish() -> None:
        if state["done"]:
            return
        state["done"] = True
        ok = state["shown"] and state["analysis"] == "ready"
        if state["analysis"] is None:
            _say(f"no analysis within {limit_ms} ms")
        window.close()  # the project is unmodified, so this does not ask
        app.exit(0 if ok else 1)

    def maybe_finish() -> None:
        if state["shown"] and state["analysis"] is not None:
            QTimer.singleShot(0, finish)  # one more event-loop turn so the results are painted

    def shown() -> None:
        if (
            QThread.currentThread().loopLevel() > 1
            or QApplication.activeModalWidget() is not None
            or file_open.loading()  # the file is still being read (its progress loop runs this timer)
        ):
            QTimer.singleShot(50, shown)  # not yet in app.exec(): a dialog's own event loop is running
            return
        doc = window.doc
        if path and doc.path is None and not doc.project.devices:  # a shipped example opens untitled
            _say(f"could not open {path}")
            app.exit(1)
            return
        name = doc.project.info.name or "Untitled"
        _say(f"opened {name} with {doc.project.gpu_count()} GPUs")
        status = getattr(window, "status_gpus", None)  # translated: shows that the .qm was found and loaded
        _say(f'language {i18n.current_language()}, status bar "{status.text() if status else ""}"')
        state["shown"] = True
        if doc.results is not None and state["analysis"] is None:
            state["analysis"] = "ready"
            _say(f"analysis ready in {doc.last_analysis_ms:.0f} ms")
        maybe_finish()

    def ready(_res: object) -> None:
        if state["shown"] and state["analysis"] is None:  # before that, shown() reads doc.results
            state["analysis"] = "ready"
            _say(f"analysis ready in {window.doc.last_analysis_ms:.0f} ms")
            maybe_finish()

    def failed(message: str) -> None:
        if state["analysis"] is None:
            state["analysis"] = "failed"
            _say(f"analysis failed: {message}")
            maybe_finish()

    watch = QTimer(app)
    watch.timeout.connect(_fail_on_modal_dialog)
    watch.start(200)
    window.doc.resultsReady.connect(ready)
    window.doc.analysisFailed.connect(failed)
    QTimer.singleShot(0, shown)  # the first event-loop turn: the window is shown with the file open
    QTimer.singleShot(limit_ms, finish)
    return True
