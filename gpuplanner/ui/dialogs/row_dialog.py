"""A dialog that edits fields of one row in groups, with Apply/OK/Cancel; one command per Apply.

Refused values (the model's validation, naming the field and the value) are shown in the dialog, which stays
open with the user's input.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.commands import Command, SetFields
from gpuplanner.core.errors import PlannerError
from gpuplanner.ui import field_labels, fields
from gpuplanner.ui.document import Document

Groups = list[tuple[str, list[str]]]


class RowDialog(QDialog):
    table = ""

    def __init__(
        self, doc: Document, row: Any, groups: Groups, parent: QWidget | None = None, columns: int = 2
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        self.row = row
        self.editors: dict[str, fields.Editor] = {}
        self.labels: dict[str, QLabel] = {}
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        self.status = QLabel()
        self.status.setWordWrap(True)
        grid = QGridLayout()
        for k, (title, names) in enumerate(groups):
            box = QGroupBox(title)
            form = QFormLayout(box)
            for name in names:
                ed = self.make_editor(name, row)
                ed.set(getattr(row, name))
                self.editors[name] = ed
                label = QLabel(field_labels.label_of(name))
                self.labels[name] = label
                form.addRow(label, ed.widget)
            grid.addWidget(box, k // columns, k % columns)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Apply
            | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept_if_applied)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.apply)
        self.buttons = buttons
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.status)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def make_editor(self, name: str, row: Any) -> fields.Editor:
        """The editor of one field (a subclass may give a field its own)."""
        return fields.make_editor(self.doc.project, self.table, row, name)

    def values(self) -> dict[str, Any]:
        return {name: ed.get() for name, ed in self.editors.items()}

    def changes(self) -> dict[str, Any]:
        return {k: v for k, v in self.values().items() if not self.unchanged(k, v)}

    def unchanged(self, name: str, value: Any) -> bool:
        """Whether the editor still holds the row's value: a number box that shows it rounded to its decimals
        (a 0.0333 s target in a box of 3 decimals) is not an edit, so Apply does not round the file's value."""
        old = getattr(self.row, name)
        if value == old:
            return True
        w = self.editors[name].widget
        return (
            isinstance(w, QDoubleSpinBox)
            and isinstance(old, int | float)
            and not isinstance(old, bool)
            and w.minimum() <= old <= w.maximum()
            and round(float(old), w.decimals()) == value
        )

    def command(self, changes: dict[str, Any]) -> Command:
        return SetFields(self.doc.project, self.table, self.row.id, text=self.windowTitle(), **changes)

    def apply(self) -> bool:
        changes = self.changes()
        if not changes:
            return True
        try:
            self.doc.push(self.command(changes))
        except PlannerError as exc:
            self.error.setText(self.tr("Not applied: {why}").format(why=field_labels.plain_error(exc)))
            return False
        except (TypeError, ValueError) as exc:
            self.error.setText(self.tr("Not applied: {why}").format(why=exc))
            return False
        self.error.clear()
        self.row = self.doc.project.tables[self.table].get(
            self.row.id, dataclasses.replace(self.row, **changes)
        )
        return True

    def accept_if_applied(self) -> None:
        if self.apply():
            self.accept()
