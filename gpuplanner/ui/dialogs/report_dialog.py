"""File ▸ Export report: where the PDF goes and the language it is written in, chosen explicitly (the
project's language is the default; a Chinese proposal from an English UI, or the reverse, is one click)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

LANGUAGES = ("en", "zh")


class ReportDialog(QDialog):
    def __init__(self, path: Path, lang: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export report"))
        self.path_edit = QLineEdit(str(path))
        self.path_edit.setMinimumWidth(420)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.path_edit, 1)
        where.addWidget(browse)
        self.buttons_lang = QButtonGroup(self)
        self.radios = {
            "en": QRadioButton(self.tr("English")),
            "zh": QRadioButton(self.tr("Simplified Chinese (简体中文)")),
        }
        langs = QHBoxLayout()
        for radio in self.radios.values():
            self.buttons_lang.addButton(radio)
            langs.addWidget(radio)
        langs.addStretch(1)
        self.radios[lang if lang in self.radios else "en"].setChecked(True)
        form = QFormLayout()
        form.addRow(self.tr("File:"), where)
        form.addRow(self.tr("Language of the report:"), langs)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Save).setText(self.tr("Export the report"))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(buttons)

    def language(self) -> str:
        return next(k for k, r in self.radios.items() if r.isChecked())

    def path(self) -> Path:
        text = self.path_edit.text().strip()
        p = Path(text).expanduser()
        return p if p.suffix.lower() == ".pdf" else p.with_name(p.name + ".pdf")

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export report"), str(self.path()), self.tr("PDF documents (*.pdf)")
        )
        if path:
            self.path_edit.setText(path)

    def _accept(self) -> None:
        if self.path_edit.text().strip():
            self.accept()
