"""The app-wide hook for unexpected errors in slots: printed and shown in the window's status bar, the
window and the work kept. Installed by the start-up code and again by a window rebuild (language switch)."""

from __future__ import annotations

import contextlib
import sys
import traceback
from typing import TYPE_CHECKING

from gpuplanner.ui.i18n import translate

if TYPE_CHECKING:
    from gpuplanner.ui.main_window import MainWindow


def install_excepthook(window: MainWindow) -> None:
    """An unexpected error in a slot is printed and shown in the status bar; the window and the user's
    work stay (and the autosave keeps running)."""

    def hook(etype, value, tb) -> None:
        traceback.print_exception(etype, value, tb)
        with contextlib.suppress(RuntimeError):
            window.statusBar().showMessage(
                translate("MainWindow", "Internal error: {e} — your work is kept; please report it").format(
                    e=f"{etype.__name__}: {value}"
                ),
                20000,
            )

    sys.excepthook = hook
