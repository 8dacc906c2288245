"""Phases and teams: the build-out phases (pilot → expansion → scale) with their scheduler, the teams with
their GPU quotas, and "put the selection in a phase". One OK is one undo step; a bad value keeps the dialog
open with a message naming the table, row and field.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.commands import AddRows, Command, Compound, RemoveRows, ReplaceRows
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.phases import ordered_phases
from gpuplanner.model import Phase, Project, Team
from gpuplanner.ui import field_labels
from gpuplanner.ui.document import Document
from gpuplanner.ui.i18n import translate

SCHEDULERS = ("", "slurm", "kubernetes", "volcano", "slurm+kubernetes")
PHASED_TABLES = ("racks", "devices", "links", "floor_items")


class InputError(ValueError):
    """A cell the dialog cannot take; the message names the table, row and column."""


class PhasesTeamsDialog(QDialog):
    def __init__(self, doc: Document, selected_ids: list[str] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.selected_ids = list(selected_ids or [])
        self.setWindowTitle(self.tr("Phases and teams"))
        self.resize(900, 620)
        lay = QVBoxLayout(self)

        box = QGroupBox(self.tr("Build-out phases (each adds to the ones before)"))
        bl = QVBoxLayout(box)
        self.phases = self._table(
            [self.tr("Order"), self.tr("Name"), self.tr("Description"), self.tr("Scheduler")]
        )
        bl.addWidget(self.phases)
        bl.addLayout(self._buttons(self.add_phase, self.phases))
        lay.addWidget(box)
        for ph in ordered_phases(doc.project):
            self.add_phase(ph)

        assign = QHBoxLayout()
        self.assign_combo = QComboBox()
        self.assign_label = QLabel(
            self.tr(
                "Put the %Ln selected item(s) (racks with their devices, and their links) in phase:",
                None,
                len(self.selected_ids),
            )
        )
        assign.addWidget(self.assign_label)
        assign.addWidget(self.assign_combo, 1)
        self.assign_combo.addItem(self.tr("(leave as they are)"), None)
        for ph in ordered_phases(doc.project):
            self.assign_combo.addItem(ph.name, ph.id)
        for w in (self.assign_label, self.assign_combo):
            w.setEnabled(bool(self.selected_ids))
        lay.addLayout(assign)

        box = QGroupBox(self.tr("Teams and GPU quotas"))
        bl = QVBoxLayout(box)
        self.teams = self._table(
            [
                self.tr("Name"),
                self.tr("Partition"),
                self.tr("Guaranteed GPUs"),
                self.tr("Burst GPUs"),
                self.tr("Priority"),
                self.tr("Largest job (GPUs)"),
            ]
        )
        bl.addWidget(self.teams)
        bl.addLayout(self._buttons(self.add_team, self.teams))
        lay.addWidget(box)
        for team in doc.project.tables["teams"].values():
            self.add_team(team)

        self.error = QLabel()
        self.error.setStyleSheet("color: #b00020")
        self.error.setWordWrap(True)
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    # -- widgets ----------------------------------------------------------------------------------------
    def _table(self, headers: list[str]) -> QTableWidget:
        t = QTableWidget(0, len(headers))
        t.setHorizontalHeaderLabels(headers)
        t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.verticalHeader().setVisible(False)
        return t

    def _buttons(self, add, table: QTableWidget) -> QHBoxLayout:
        row = QHBoxLayout()
        plus = QPushButton(self.tr("Add"))
        plus.clicked.connect(lambda: add(None))
        minus = QPushButton(self.tr("Remove selected"))
        minus.clicked.connect(lambda: self._remove_rows(table))
        row.addWidget(plus)
        row.addWidget(minus)
        row.addStretch(1)
        return row

    @staticmethod
    def _remove_rows(table: QTableWidget) -> None:
        for r in sorted({i.row() for i in table.selectedIndexes()}, reverse=True):
            table.removeRow(r)

    @staticmethod
    def _cell(table: QTableWidget, r: int, c: int, text: str, row_id: str | None = None) -> None:
        item = QTableWidgetItem(text)
        if row_id is not None:
            item.setData(Qt.ItemDataRole.UserRole, row_id)
        table.setItem(r, c, item)

    def add_phase(self, ph: Phase | None = None) -> None:
        t = self.phases
        r = t.rowCount()
        t.insertRow(r)
        order = ph.order if ph else r + 1
        self._cell(t, r, 0, str(order), ph.id if ph else "")
        self._cell(t, r, 1, ph.name if ph else self.tr("Phase {n}").format(n=order))
        self._cell(t, r, 2, ph.description if ph else "")
        combo = QComboBox()
        for s in SCHEDULERS:
            combo.addItem(translate("choices", s) if s else self.tr("as advised"), s)  # (Slurm, Kubernetes)
        combo.setCurrentIndex(max(combo.findData(ph.scheduler if ph else ""), 0))
        t.setCellWidget(r, 3, combo)

    def add_team(self, team: Team | None = None) -> None:
        t = self.teams
        r = t.rowCount()
        t.insertRow(r)
        values = (
            (
                team.name,
                team.partition,
                team.gpu_guaranteed,
                team.gpu_burst,
                team.priority,
                team.largest_job_gpus,
            )
            if team
            else (self.tr("Team {n}").format(n=r + 1), "", 0, 0, 1, 0)
        )
        for c, v in enumerate(values):
            self._cell(t, r, c, str(v), (team.id if team else "") if c == 0 else None)

    # -- reading the tables -----------------------------------------------------------------------------
    def _text(self, table: QTableWidget, r: int, c: int) -> str:
        item = table.item(r, c)
        return item.text().strip() if item is not None else ""

    def _int(self, table: QTableWidget, what: str, r: int, c: int, minimum: int = 0) -> int:
        text = self._text(table, r, c).replace(",", "")
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < minimum:
            col = table.horizontalHeaderItem(c).text()
            raise InputError(
                self.tr("{table}, row {r}, {col}: '{v}' is not a whole number ≥ {m}").format(
                    table=what, r=r + 1, col=col, v=text, m=minimum
                )
            )
        return value

    def phase_rows(self, project: Project) -> list[Phase]:
        out, names = [], set()
        what = self.tr("Phases")
        for r in range(self.phases.rowCount()):
            name = self._text(self.phases, r, 1)
            if not name:
                raise InputError(
                    self.tr("{table}, row {r}: a phase needs a name").format(table=what, r=r + 1)
                )
            if name in names:
                raise InputError(
                    self.tr("{table}, row {r}: two phases are named '{name}'").format(
                        table=what, r=r + 1, name=name
                    )
                )
            names.add(name)
            pid = self.phases.item(r, 0).data(Qt.ItemDataRole.UserRole) or ""
            combo = self.phases.cellWidget(r, 3)
            out.append(
                Phase(
                    id=pid or _fresh_id(project, "phases", "ph", {p.id for p in out}),
                    name=name,
                    order=self._int(self.phases, what, r, 0, minimum=1),
                    description=self._text(self.phases, r, 2),
                    scheduler=combo.currentData() if combo is not None else "",
                )
            )
        return out

    def team_rows(self, project: Project) -> list[Team]:
        out = []
        what = self.tr("Teams")
        for r in range(self.teams.rowCount()):
            name = self._text(self.teams, r, 0)
            if not name:
                raise InputError(self.tr("{table}, row {r}: a team needs a name").format(table=what, r=r + 1))
            tid = self.teams.item(r, 0).data(Qt.ItemDataRole.UserRole) or ""
            guaranteed = self._int(self.teams, what, r, 2)
            burst = self._int(self.teams, what, r, 3)
            out.append(
                Team(
                    id=tid or _fresh_id(project, "teams", "team", {t.id for t in out}),
                    name=name,
                    partition=self._text(self.teams, r, 1),
                    gpu_guaranteed=guaranteed,
                    gpu_burst=burst,
                    priority=self._int(self.teams, what, r, 4),
                    largest_job_gpus=self._int(self.teams, what, r, 5),
                )
            )
        return out

    # -- the command ------------------------------------------------------------------------------------
    def command(self) -> Command | None:
        """Everything the dialog changes, as one command (None when nothing changed); raises InputError."""
        project = self.doc.project
        phases = self.phase_rows(project)
        teams = self.team_rows(project)
        parts: list[Command] = []
        parts += _sync_table(project, "phases", phases)
        parts += _sync_table(project, "teams", teams)
        kept = {p.id for p in phases}
        removed = set(project.tables["phases"]) - kept
        target = self.assign_combo.currentData() if self.selected_ids else None
        # Rows of a deleted phase join the first phase ("" = the first): nothing may name a missing phase.
        moves = _phase_moves(project, removed, target, self.selected_ids)
        if moves:
            parts.insert(0, moves)  # before the phases go
        if not parts:
            return None
        return Compound(self.tr("Edit phases and teams"), parts)

    def accept(self) -> None:
        try:
            cmd = self.command()
            if cmd is not None:
                self.doc.push(cmd)
        except InputError as exc:
            self.error.setText(str(exc))
            return
        except PlannerError as exc:  # a model refusal: say it, keep the dialog open and the project unchanged
            self.error.setText(field_labels.plain_error(exc))
            return
        super().accept()


def _fresh_id(project: Project, table: str, prefix: str, taken: set[str]) -> str:
    n = 1
    while f"{prefix}{n}" in project.tables[table] or f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def _sync_table(project: Project, table: str, rows: list) -> list[Command]:
    old = project.tables[table]
    new_ids = {r.id for r in rows}
    out: list[Command] = []
    added = [r for r in rows if r.id not in old]
    changed = [r for r in rows if r.id in old and old[r.id] != r]
    gone = [i for i in old if i not in new_ids]
    if gone:
        out.append(RemoveRows(table, gone))
    if changed:
        out.append(ReplaceRows(table, changed))
    if added:
        out.append(AddRows(table, added))
    return out


def _phase_moves(
    project: Project, removed: set[str], target: str | None, selected: list[str]
) -> Command | None:
    """Rows whose phase must change: those of deleted phases (→ "" = the first phase), and the selection
    (→ ``target``) with the devices of selected racks. Each phase's subset must stay whole: a link belongs
    to the later phase of its two ends, and a device's rack is there no later than the device."""
    phases = ordered_phases(project)
    rank = {p.id: k for k, p in enumerate(phases)}
    rank[""] = 0
    new: dict[str, dict[str, str]] = {t: {} for t in PHASED_TABLES}  # table → id → new phase

    def phase_of(table: str, row) -> str:
        return new[table].get(row.id, "" if row.phase_id in removed else row.phase_id)

    for table in PHASED_TABLES:
        for row in project.tables[table].values():
            if row.phase_id in removed:
                new[table][row.id] = ""
    if target is not None:
        sel = set(selected)
        racks = {i for i in sel if i in project.racks}
        devices = {i for i in sel if i in project.devices}
        devices |= {d.id for d in project.devices.values() if d.rack_id in racks}
        for i in racks:
            new["racks"][i] = target
        for i in devices:
            new["devices"][i] = target
            rack = project.racks.get(project.devices[i].rack_id or "")
            if rack is not None and rank.get(phase_of("racks", rack), 0) > rank.get(target, 0):
                new["racks"][rack.id] = target  # the rack must stand by the device's phase
        for i in sel & set(project.tables["floor_items"]):
            new["floor_items"][i] = target
        links = {i for i in sel if i in project.links}
        for d in devices:
            links |= project.links_of(d)
        for i in links:
            lk = project.links[i]
            ends = [
                phase_of("devices", project.devices[lk.a_device]),
                phase_of("devices", project.devices[lk.b_device]),
            ]
            if i in sel:
                ends.append(target)
            new["links"][i] = max(ends, key=lambda ph: rank.get(ph, 0))
    commands: list[Command] = []
    for table in PHASED_TABLES:
        rows = [
            dataclasses.replace(project.tables[table][i], phase_id=ph)
            for i, ph in new[table].items()
            if project.tables[table][i].phase_id != ph
        ]
        if rows:
            commands.append(ReplaceRows(table, rows))
    return Compound("phases", commands) if commands else None
