"""The phase picker in the corner of the central tabs: the topology canvas and the floor plan show the
project as it stands at the end of the chosen phase (that phase and the ones before), or all of it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from gpuplanner.engine.phases import ordered_phases
from gpuplanner.model import ChangeSet
from gpuplanner.ui.document import Document


class PhasePicker(QWidget):
    phaseChosen = Signal(object)  # noqa: N815 (Qt signal naming) — a phase id, or None for all phases

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.phase_id: str | None = None
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 0, 4, 0)
        self.label = QLabel(self.tr("Show phase:"))
        lay.addWidget(self.label)
        self.combo = QComboBox()
        self.combo.setMinimumWidth(200)
        self.combo.currentIndexChanged.connect(self._chosen)
        lay.addWidget(self.combo)
        doc.changed.connect(self._on_changed)
        doc.projectReplaced.connect(self.refill)
        self.refill()

    def _on_changed(self, cs: ChangeSet) -> None:
        if "phases" in cs.tables:
            self.refill()

    def refill(self) -> None:
        combo = self.combo
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(self.tr("All phases"), "")
        for ph in ordered_phases(self.doc.project):
            combo.addItem(self.tr("{n}. {name} (and before)").format(n=ph.order, name=ph.name), ph.id)
        idx = combo.findData(self.phase_id or "")
        combo.setCurrentIndex(max(idx, 0))
        combo.blockSignals(False)
        self.setEnabled(combo.count() > 1)
        if idx < 0 and self.phase_id is not None:  # the phase shown was deleted: show everything
            self.phase_id = None
            self.phaseChosen.emit(None)

    def set_phase(self, phase_id: str | None) -> None:
        idx = self.combo.findData(phase_id or "")
        if idx >= 0:
            self.combo.setCurrentIndex(idx)

    def _chosen(self, _index: int) -> None:
        self.phase_id = self.combo.currentData() or None
        self.phaseChosen.emit(self.phase_id)
