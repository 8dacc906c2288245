"""Editing several selected rows of one table at once (the inspector's form for a multi-selection): swap the
switch model of eight leaves, set the cooling of six racks. Only the fields all the rows can take one value
of are shown (not names, canvas or floor positions, U slots or a link's ends). A field whose values differ
shows "(mixed)" and is left as it is unless edited; an edit sets it on every row as one undo step.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QVBoxLayout

from gpuplanner.commands import edit_rows
from gpuplanner.core.errors import PlannerError
from gpuplanner.model import ChangeSet
from gpuplanner.model.bounds import bounds
from gpuplanner.model.validate import field_specs, kinds_for_role
from gpuplanner.ui import field_labels, fields
from gpuplanner.ui.entry_names import choice
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.plurals import counts


class Inspector(Protocol):
    """What the multi-row form uses of the inspector that hosts it (the inspector imports this module, so
    this one names the inspector's shape instead of importing it back)."""

    doc: Any  # the Document
    title: QLabel
    error: QLabel
    body_layout: QVBoxLayout

    @property
    def project(self) -> Any: ...

    def show_ids(self, ids: list[str]) -> None: ...

    def show_outcome(self, cmd: Any) -> None: ...


# Fields that identify or place one row: one value for all of them makes no sense (or collides).
NOT_SHARED = {
    "name",
    "x",
    "y",
    "u_position",
    "rack_id",
    "position",
    "floor_x_m",
    "floor_y_m",
    "a_device",
    "b_device",
    "a_group",
    "b_group",
}
_MIXED = object()  # a value no list holds: a combo shows its placeholder


class MultiEdit:
    """The inspector's form for several rows of one table."""

    def __init__(self, inspector: Inspector) -> None:
        self.ins = inspector
        self.table = ""
        self.ids: list[str] = []
        self.editors: dict[str, fields.Editor] = {}
        self.optional: dict[str, bool] = {}

    def active(self) -> bool:
        return bool(self.ids)

    def clear(self) -> None:
        self.table, self.ids = "", []
        self.editors.clear()

    def _title(self, table: str, n: int) -> str:
        return counts().selected_of_table(table, n)

    def show(self, rows: list[tuple[str, str]]) -> None:
        """Build the shared form for ``rows`` ((table, id) pairs); of several tables: say so, no form."""
        ins = self.ins
        tables = {t for t, _ in rows}
        if len(tables) != 1:
            ins.title.setText(counts().items_of_several_kinds(len(rows)))
            return
        self.table, self.ids = rows[0][0], [i for _, i in rows]
        ins.title.setText(self._title(self.table, len(self.ids)))
        p = ins.project
        first = p.tables[self.table][self.ids[0]]
        specs = {s[0]: s for s in field_specs(self.table, type(first))}
        box = QGroupBox()
        form = QFormLayout(box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name in fields.editable_fields(first):
            if name in NOT_SHARED or name not in specs:
                continue
            ed = self._editor(first, name, specs[name])
            self.editors[name] = ed
            self._show_values(name)
            signal = ed.widget.clicked if isinstance(ed.widget, QCheckBox) else ed.changed
            signal.connect(lambda *_a, n=name: self.commit(n))
            fields.compact(ed.widget)
            form.addRow(field_labels.label_of(name), ed.widget)
        ins.body_layout.addWidget(box)
        box.setVisible(ins.body.isVisible())  # now, not by the layout's queued show
        ins.body_layout.addStretch(1)

    def _editor(self, first: Any, name: str, spec: tuple) -> fields.Editor:
        """Lists and check boxes as for one row; numbers in a line edit, which can show "(mixed)"."""
        _, allowed, _, _, choices, _ = spec
        self.optional[name] = type(None) in allowed
        numeric = (int in allowed or float in allowed) and bool not in allowed
        if self.table == "devices" and name == "type_id":
            return self._model_list(first)
        refs = fields.references(self.ins.project, self.table, name, first)
        if numeric and not choices and refs is None:
            kind = float if float in allowed else int
            rng = bounds(self.table, name, kind)
            return fields._line(self.optional[name], kind, name, rng)  # noqa: SLF001 (same package)
        return fields.make_editor(self.ins.project, self.table, first, name)

    def _model_list(self, first: Any) -> fields.Editor:
        """The models every selected device's role can take (switches for eight leaves; nothing fits a
        leaf and a compute node at once)."""
        p = self.ins.project
        roles = {p.devices[i].role for i in self.ids if i in p.devices}
        kinds = [k for k in ("server", "switch", "storage") if all(k in kinds_for_role(r) for r in roles)]
        items = [choice(p.catalog, e) for k in kinds for e in p.catalog.of_kind(k)]
        return fields._combo(items, first.type_id)  # noqa: SLF001 (same package)

    def _values(self, name: str) -> set[Any]:
        rows = self.ins.project.tables[self.table]
        return {getattr(rows[i], name) for i in self.ids if i in rows}

    def _show_values(self, name: str) -> None:
        ed, values = self.editors[name], self._values(name)
        mixed = len(values) > 1
        value = _MIXED if mixed else next(iter(values), None)
        w = ed.widget
        if isinstance(w, QComboBox):
            w.setPlaceholderText(translate("Inspector", "(mixed)"))
            ed.set(value)
        elif isinstance(w, QCheckBox):
            with QSignalBlocker(w):
                w.setTristate(mixed)
                w.setCheckState(
                    Qt.CheckState.PartiallyChecked
                    if mixed
                    else Qt.CheckState.Checked
                    if value
                    else Qt.CheckState.Unchecked
                )
        elif isinstance(w, QLineEdit):
            ed.set(None if mixed else value)
            auto = translate("fields", "automatic") if self.optional.get(name) else ""
            w.setPlaceholderText(translate("Inspector", "(mixed)") if mixed else auto)
            w.setModified(False)
        else:  # a spin box (not made here, but keep it right)
            ed.set(next(iter(values)))

    def commit(self, name: str) -> bool:
        """Set ``name`` on every selected row that differs, as one command; a "(mixed)" field the user did
        not edit is left alone."""
        ed = self.editors.get(name)
        if ed is None:
            return False
        w = ed.widget
        if isinstance(w, QComboBox) and w.currentIndex() < 0:
            return False
        if isinstance(w, QLineEdit):
            if not w.isModified():
                return False
            w.setModified(False)
        if isinstance(w, QCheckBox):
            w.setTristate(False)
        value = ed.get()
        if value is None and isinstance(w, QLineEdit) and not self.optional.get(name):
            return False  # emptied a number that must have one: nothing to set
        p = self.ins.project
        rows = [p.tables[self.table][i] for i in self.ids if i in p.tables[self.table]]
        changed = [dataclasses.replace(r, **{name: value}) for r in rows if getattr(r, name) != value]
        if not changed:
            return False
        label = field_labels.label_of(name)
        text = counts().set_field_of(len(changed)).format(field=label)
        try:
            cmd = edit_rows(p, self.table, changed, text=text)  # a device's links follow a new model
            self.ins.doc.push(cmd)
        except PlannerError as exc:
            self.ins.error.setText(
                translate("Inspector", "{field} = {value!r} refused: {why}").format(
                    field=label, value=value, why=field_labels.plain_error(exc)
                )
            )
            self._show_values(name)
            return False
        self.ins.error.clear()
        self.ins.show_outcome(cmd)
        return True

    def on_changed(self, cs: ChangeSet) -> None:
        tc = cs.tables.get(self.table)
        if tc is None:
            return
        ids = set(self.ids)
        if ids & set(tc.removed):
            rest = [(self.table, i) for i in self.ids if i in self.ins.project.tables[self.table]]
            self.ins.show_ids([i for _, i in rest])
            return
        if ids & set(tc.updated):
            for name in self.editors:
                self._show_values(name)
