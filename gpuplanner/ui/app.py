"""Starting the desktop app: ``run_app(path)`` (what ``gpuplanner`` and ``gpuplanner FILE.gpuplan`` call).

Registers the bundled fonts (a CJK font, so that Chinese names render on machines without one), loads the
UI translation when there is one, offers to restore work left by a crashed session, and opens the file.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, QObject, QTranslator
from PySide6.QtGui import QFont, QFontDatabase, QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from gpuplanner.core.errors import PlannerError
from gpuplanner.ui import actions, autosave, field_labels, i18n, smoke
from gpuplanner.ui.excepthook import install_excepthook
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.main_window import MainWindow
from gpuplanner.ui.paths import examples_dir, resources_dir  # noqa: F401 (examples_dir: re-exported)


def register_fonts(app: QApplication) -> list[str]:
    """Add resources/fonts/*.ttf|ttc|otf to Qt, and put them after the default family as fallbacks."""
    families: list[str] = []
    folder = resources_dir() / "fonts"
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        if path.suffix.lower() in (".ttf", ".ttc", ".otf"):
            font_id = QFontDatabase.addApplicationFont(str(path))
            if font_id >= 0:
                families += [f for f in QFontDatabase.applicationFontFamilies(font_id) if f not in families]
    if families:
        font = QFont(app.font())
        font.setFamilies([app.font().family(), *families])
        app.setFont(font)
    return families


def install_translation(app: QApplication, lang: str | None = None) -> QTranslator | None:
    """Load the UI translation: ``lang`` when given, else Preferences ▸ Language, then $GPUPLANNER_LANG,
    then the system locale (``i18n.chosen_language``); also the number style of Preferences."""
    settings = i18n.default_settings()
    i18n.set_number_style(str(settings.value(i18n.SETTINGS_NUMBERS, "auto") or "auto"))
    return i18n.set_language(lang or i18n.chosen_language(settings))


def app_icon() -> QIcon:
    """The window/taskbar icon: resources/icons/gpuplanner-*.png (made by packaging/make_icons.py)."""
    icon = QIcon()
    for path in sorted((resources_dir() / "icons").glob("gpuplanner-*.png")):
        icon.addFile(str(path))
    return icon


def offer_recovery(window: MainWindow) -> bool:
    """After a crash, ask whether to restore the newest recovery copy (older ones are offered next start)."""
    recoveries = autosave.find_recoveries(window.autosaver.folder)
    if not recoveries:
        return False
    rec = recoveries[0]
    answer = QMessageBox.question(
        window,
        translate("MainWindow", "Restore unsaved work?"),
        translate(
            "MainWindow",
            "GPU Planner did not close properly. Restore the unsaved work on “{name}” ({file}), autosaved at {when}?",
        ).format(
            name=rec.name or translate("MainWindow", "Untitled"),
            file=rec.original or translate("MainWindow", "never saved"),
            when=rec.saved_at,
        ),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    if answer != QMessageBox.StandardButton.Yes:
        autosave.remove_recovery(rec)
        return False
    try:
        window.autosaver.restore(rec)
    except PlannerError as exc:
        QMessageBox.warning(
            window,
            translate("MainWindow", "Cannot restore"),
            f"{rec.path}\n\n{field_labels.plain_error(exc)}",
        )
        return False
    window.update_title()
    return True


class FileOpenFilter(QObject):
    """macOS opens a double-clicked .gpuplan by sending the running app a FileOpen event (not argv): open
    it in the main window (the current one: a language switch rebuilds the window)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.opened: list[str] = []

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.FileOpen:
            path = event.file()  # type: ignore[attr-defined]
            windows = [
                w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
            ]
            if path and windows:
                self.opened.append(path)
                windows[-1].open_file(path)
                return True
        return False


def run_app(path: str | None) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("gpuplanner")
    app.setApplicationName("GPU Planner")
    app.setWindowIcon(app_icon())
    register_fonts(app)  # type: ignore[arg-type]
    install_translation(app)  # type: ignore[arg-type]
    window = MainWindow()
    file_open = FileOpenFilter(app)
    app.installEventFilter(file_open)
    install_excepthook(window)
    window.show()
    smoke.install(app, window, path)  # only with $GPUPLANNER_SMOKE_QUIT_MS (packaged-build self-test)
    restored = offer_recovery(window)
    if path and not restored:
        window.open_file(path)
    window.view.zoom_to_fit()
    if not path and not restored:
        from gpuplanner.ui.welcome import show_welcome

        show_welcome(window)
    code = app.exec()
    actions.release_clipboard()
    return code
