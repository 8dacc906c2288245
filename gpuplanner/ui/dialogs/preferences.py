"""Preferences (Edit ▸ Preferences…, Ctrl+,): the UI language (follow the system, English, 简体中文) and how
large amounts are written (k / M / B, or 万 / 亿). Stored in QSettings (``language``, ``number_style``);
OK applies them at once by rebuilding the main window around the same document (``ui.rebuild``), so the open
project, its undo history, file path and unsaved state, the window geometry and dock layout all stay.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from gpuplanner.ui import i18n

# Each language is named in itself, so that someone who cannot read the current UI language finds theirs.
LANGUAGE_NAMES = {"en": "English", "zh": "简体中文"}


class PreferencesDialog(QDialog):
    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle(self.tr("Preferences"))
        self.language = QComboBox()
        system = LANGUAGE_NAMES[i18n.system_language()]
        self.language.addItem(self.tr("Follow the system ({language})").format(language=system), "")
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        current = i18n.normalise(str(settings.value(i18n.SETTINGS_LANGUAGE, "") or ""))
        self.language.setCurrentIndex(max(0, self.language.findData(current)))
        self.numbers = QComboBox()
        self.numbers.addItem(self.tr("Automatic: 万 / 亿 in Chinese, k / M / B in English"), "auto")
        self.numbers.addItem(self.tr("k / M / B (1.25 M USD)"), "western")
        self.numbers.addItem(self.tr("万 / 亿 (125.0 万美元, 3.42 亿元)"), "chinese")
        style = str(settings.value(i18n.SETTINGS_NUMBERS, "auto") or "auto")
        self.numbers.setCurrentIndex(max(0, self.numbers.findData(style)))
        note = QLabel(
            self.tr(
                "The window is rebuilt in the new language at once; the open project and its undo history "
                "stay. Reports are written in the project's language (Inspector ▸ Project ▸ language), "
                "which File ▸ Export report lets you change."
            )
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: #555")
        form = QFormLayout()
        form.addRow(self.tr("Language"), self.language)
        form.addRow(self.tr("Large amounts"), self.numbers)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.setMinimumWidth(460)

    def chosen(self) -> tuple[str, str]:
        """(language setting: "", "en" or "zh"; number style)."""
        return str(self.language.currentData()), str(self.numbers.currentData())
