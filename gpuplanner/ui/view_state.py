"""What the user is looking at, apart from the project itself: the selection, the phase the figures and
views show, and the scenario the figures are computed for. Windowless (a QObject with signals), so it is
tested without a window; the Document owns one and re-analyses when the phase or the scenario changes.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class ViewState(QObject):
    selectionChanged = Signal(list)  # ids (devices, racks, links)
    phaseChanged = Signal(object)  # phase id or None (the whole project)
    scenarioChanged = Signal(object)  # scenario name or None (the base case)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.selection: list[str] = []
        self.phase_id: str | None = None
        self.scenario: str | None = None

    def select(self, ids: list[str]) -> None:
        """The items selected on the canvas, the floor or the rack view (every view shows them)."""
        self.selection = list(ids)
        self.selectionChanged.emit(list(ids))

    def set_phase(self, phase_id: str | None) -> bool:
        """Show the project as it stands at the end of ``phase_id`` (None: all of it); whether it changed."""
        phase_id = phase_id or None
        if phase_id == self.phase_id:
            return False
        self.phase_id = phase_id
        self.phaseChanged.emit(phase_id)
        return True

    def set_scenario(self, name: str | None) -> bool:
        """Compute the figures for the scenario ``name`` (None: the base case); whether it changed."""
        name = name or None
        if name == self.scenario:
            return False
        self.scenario = name
        self.scenarioChanged.emit(name)
        return True
