"""The inspector: every field of the selected rack, device or link (or, with nothing selected, of the
project and the site), editable with units; each edit is one SetFields command. Refused values are shown
under the form, naming the field and the value, and the editor goes back to the model's value.

Several rows of one table selected: the fields they share are edited together (``inspector_multi``), one
undo step per edit; a field whose values differ shows "(mixed)" and is left alone unless edited.

The form has the room: a scroll area at least ``MIN_ROWS`` rows high, and the selection's figures below it
in a section that folds away (folded or not stays so for the session).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.commands import SetFields
from gpuplanner.core.errors import PlannerError
from gpuplanner.model import ChangeSet
from gpuplanner.ui import field_labels, fields, fmt
from gpuplanner.ui.canvas import annotations as notes
from gpuplanner.ui.document import Document
from gpuplanner.ui.inspector_multi import MultiEdit

READ_ONLY = {("links", "a_device"), ("links", "b_device")}
MIN_ROWS = 8  # form rows the inspector always has room for


class Inspector(QWidget):
    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.targets: list[tuple[str, str]] = []  # (table, row id) shown
        self.editors: dict[tuple[str, str, str], fields.Editor] = {}
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        self.note = QLabel()  # what an edit changed besides the field (links moved to new port groups)
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.hide()
        self.figures = QLabel()
        self.figures.setWordWrap(True)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.figures.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary = QToolButton()
        self.summary.setText(self.tr("Figures"))
        self.summary.setToolTip(self.tr("The selection's figures from the last analysis; click to fold"))
        self.summary.setCheckable(True)
        self.summary.setChecked(True)
        self.summary.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.summary.setAutoRaise(True)
        self.summary.toggled.connect(self._fold_summary)
        self._fold_summary(True)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(self.body)
        self._size_form()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.error)
        layout.addWidget(self.note)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.figures)
        self.multi = MultiEdit(self)
        doc.selectionChanged.connect(self.show_ids)
        doc.changed.connect(self._on_changed)
        doc.resultsReady.connect(lambda _r: self._show_figures())
        doc.projectReplaced.connect(lambda: self.show_ids([]))
        self.show_ids([])

    @property
    def project(self):
        return self.doc.project

    # -- layout -----------------------------------------------------------------------------------------
    def _size_form(self) -> None:
        """A minimum height of MIN_ROWS form rows, from the font in use (larger text → taller)."""
        row_h = max(QComboBox().sizeHint().height(), QLineEdit().sizeHint().height()) + 6
        self.scroll.setMinimumHeight(MIN_ROWS * row_h + 3 * row_h // 2)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt API)
        if event.type() == QEvent.Type.FontChange:
            self._size_form()
        super().changeEvent(event)

    def _fold_summary(self, shown: bool) -> None:
        self.summary.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.figures.setVisible(shown and bool(self.figures.text()))

    # -- what to show -----------------------------------------------------------------------------------
    def show_ids(self, ids: list[str]) -> None:
        self.error.clear()
        self.note.clear()
        self.note.hide()
        p = self.project
        rows = [(t, i) for i in ids for t in ("racks", "devices", "links") if i in p.tables[t]]
        if len(rows) == 1:
            table, rid = rows[0]
            self.title.setText(
                self.tr("<b>{name}</b> — {what}").format(name=self._name(table, rid), what=self._what(table))
            )
            self._build([(table, rid, "")])
        elif rows:
            self._build([], multi=rows)
        else:
            self.title.setText(self.tr("<b>Project and site</b> — nothing selected"))
            self._build([("project", "project", self.tr("Project")), ("site", "site", self.tr("Site"))])
        self._show_figures()

    def _what(self, table: str) -> str:
        return {"racks": self.tr("rack"), "devices": self.tr("device"), "links": self.tr("link")}[table]

    def _name(self, table: str, rid: str) -> str:
        row = self.project.tables[table][rid]
        if table == "links":
            d = self.project.devices
            return f"{d[row.a_device].name} ↔ {d[row.b_device].name}"
        return row.name

    def _clear(self) -> None:
        while self.body_layout.count():
            w = self.body_layout.takeAt(0).widget()
            if w is not None:
                w.hide()  # deleteLater runs later: hidden now, so that old and new forms never overlap
                w.setParent(None)
                w.deleteLater()

    def _build(self, targets: list[tuple[str, str, str]], multi: list[tuple[str, str]] | None = None) -> None:
        self._clear()
        self.multi.clear()
        self.editors.clear()
        self.targets = [(t, i) for t, i, _ in targets]
        if multi:
            self.multi.show(multi)
            return
        for table, rid, heading in targets:
            box = QGroupBox(heading)
            form = QFormLayout(box)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            row = self.project.tables[table][rid]
            for name in fields.editable_fields(row):
                form.addRow(field_labels.label_of(name), self._editor(table, rid, row, name))
            self.body_layout.addWidget(box)
            box.setVisible(self.body.isVisible())  # now, not by the layout's queued show (no empty frame)
        self.body_layout.addStretch(1)

    def _editor(self, table: str, rid: str, row: Any, name: str) -> QWidget:
        if (table, name) in READ_ONLY:
            dev = self.project.devices.get(getattr(row, name))
            return QLabel(dev.name if dev else str(getattr(row, name)))
        if table == "links" and name in ("a_group", "b_group"):
            ed = self._group_editor(row, name)
        else:
            ed = fields.make_editor(self.project, table, row, name)
        ed.set(getattr(row, name))
        ed.changed.connect(lambda *_a, t=table, i=rid, n=name: self.commit(t, i, n))
        self.editors[(table, rid, name)] = ed
        fields.compact(ed.widget)
        return ed.widget

    def _group_editor(self, row: Any, name: str) -> fields.Editor:
        dev = self.project.devices[row.a_device if name == "a_group" else row.b_device]
        entry = self.project.catalog.entries.get(dev.type_id)
        items = [
            (f"{pg.name} ({pg.count} × {pg.speed_gbps:g}G {pg.type})", pg.name)
            for pg in getattr(entry, "port_groups", ())
        ]
        return fields._combo(items, getattr(row, name))  # noqa: SLF001 (same package)

    # -- editing ----------------------------------------------------------------------------------------
    def commit(self, table: str, rid: str, name: str) -> bool:
        ed = self.editors.get((table, rid, name))
        if ed is None or rid not in self.project.tables[table]:
            return False
        row = self.project.tables[table][rid]
        value = ed.get()
        if value == getattr(row, name):
            return False
        try:
            cmd = SetFields(
                self.project,
                table,
                rid,
                text=self.tr("Set {field}").format(field=field_labels.label_of(name)),
                **{name: value},
            )
            self.doc.push(cmd)  # a new device model moves its links in the same step (commands.devices)
        except PlannerError as exc:
            self.error.setText(
                self.tr("{field} = {value!r} refused: {why}").format(
                    field=field_labels.label_of(name), value=value, why=field_labels.plain_error(exc)
                )
            )
            ed.set(getattr(row, name))
            return False
        self.error.clear()
        self.show_outcome(cmd)
        return True

    def show_outcome(self, cmd: Any) -> None:
        """Say what an edit changed besides its field: links moved to the new model's port groups, and port
        groups that now carry more cables than they have ports."""
        remapped = getattr(cmd, "remapped", None) or []
        overfull = getattr(cmd, "overfull", None) or []
        lines = []
        if remapped:
            moves = Counter((r.old_group, r.new_group) for r in remapped)
            parts = [
                self.tr("{n} × {old} → {new}").format(n=fmt.number(n), old=old, new=new)
                for (old, new), n in sorted(moves.items())
            ]
            lines.append(
                self.tr(
                    "%Ln link end(s) moved to the new model's port groups: {moves}.", None, len(remapped)
                ).format(moves="; ".join(parts))
            )
        if overfull:
            parts = [
                self.tr("{device} {group}: {cables} cables on {ports} ports").format(
                    device=o.device, group=o.group, cables=o.cables, ports=o.ports
                )
                for o in overfull[:6]
            ]
            lines.append(self.tr("More cables than ports: {list}.").format(list="; ".join(parts)))
        self.note.setText("\n".join(lines))
        self.note.setVisible(bool(lines))

    def _on_changed(self, cs: ChangeSet) -> None:
        if self.multi.active():
            self.multi.on_changed(cs)
            return
        for table, rid in self.targets:
            tc = cs.tables.get(table)
            if tc is None:
                continue
            if rid in tc.removed:
                self.show_ids([])
                return
            if rid in tc.updated:
                row = self.project.tables[table][rid]
                for (t, i, name), ed in self.editors.items():
                    if (t, i) == (table, rid):
                        ed.set(getattr(row, name))

    def _show_figures(self) -> None:
        res = self.doc.results
        if len(self.targets) != 1 or self.targets[0][0] not in ("devices", "racks", "links"):
            self.figures.clear()
            self.summary.hide()
            self.figures.hide()
            return
        table, rid = self.targets[0]
        if table == "devices":
            text = notes.device_tooltip(self.project, res, rid)
        elif table == "links":
            text = notes.link_tooltip(self.project, res, rid, notes.busiest_kinds(res) if res else {})
        else:
            text = notes.rack_tooltip(res, rid) if res is not None else ""
        self.figures.setText(text)
        self.summary.setVisible(bool(text))
        self._fold_summary(self.summary.isChecked())
