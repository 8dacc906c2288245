"""The open document: project + undo stack + its file (``FileService``) + the latest analysis results, as Qt
signals; what the user looks at (selection, phase, scenario) is its ``ViewState``.

Every edit is a ``gpuplanner.commands`` command pushed through ``Document.push`` (wrapped in a QUndoCommand,
merged for drags). After each ChangeSet the engine runner re-analyses, debounced (~30 ms), in one worker
thread on an immutable snapshot of the tables; a newer request supersedes an older one. Tests use
``synchronous=True`` to get results at once.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction, QUndoCommand, QUndoStack

from gpuplanner.commands import Command
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import Results
from gpuplanner.engine.runner import ALL_STAGES, EngineRunner, Outcome, dirty_stages
from gpuplanner.model import ChangeSet, Project
from gpuplanner.model.link_table import LinkTable
from gpuplanner.ui.field_labels import plain_error, plain_line
from gpuplanner.ui.file_service import FileService
from gpuplanner.ui.view_state import ViewState

DEBOUNCE_MS = 30


class _QtCommand(QUndoCommand):
    """A model command on the QUndoStack. The model work is done by ``Document`` before the stack moves
    (push, undo, redo), so that a command that fails leaves the stack where it was; ``skip`` tells the
    wrapper that its next redo()/undo() call from the stack is only the bookkeeping."""

    def __init__(self, doc: Document, command: Command) -> None:
        super().__init__(command.text)
        self.doc = doc
        self.command = command
        self.skip = True  # already applied by Document.push

    def redo(self) -> None:
        if self.skip:
            self.skip = False
            return
        self.doc._stack_moved_by_qt(self, undo=False)  # noqa: SLF001 (QUndoView / setIndex)

    def undo(self) -> None:
        if self.skip:
            self.skip = False
            return
        self.doc._stack_moved_by_qt(self, undo=True)  # noqa: SLF001

    def id(self) -> int:
        return 1 if self.command.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt API)
        return isinstance(other, _QtCommand) and self.command.merge(other.command)


class ProjectSnapshot(Project):
    """A copy the worker can read while the UI edits (rows are immutable: copying the table dicts is enough).

    Its link index (device → link ids) is made from its own links table when something first asks for it, in
    the thread that asks (the engine does not): copying it took 0.2–0.3 s of the UI thread per edit at 131k
    GPUs (393,216 links), and rebuilding it there 240 ms at 16k. A snapshot never allocates ids."""

    @property
    def _links_by_device(self) -> dict[str, set[str]]:
        index = self.__dict__.get("_snapshot_index")
        if index is None:
            links = self.tables["links"]
            if isinstance(links, LinkTable):
                index = links.device_index()  # from the link columns (model/link_table.py)
            else:  # a plain dict of rows put there by a caller
                index = {}
                for lid, lk in links.items():
                    index.setdefault(lk.a_device, set()).add(lid)
                    index.setdefault(lk.b_device, set()).add(lid)
            self.__dict__["_snapshot_index"] = index
        return index

    @_links_by_device.setter
    def _links_by_device(self, value: dict[str, set[str]]) -> None:
        self.__dict__["_snapshot_index"] = value or None  # (Project.__init__ sets an empty one: made lazily)


def snapshot_project(project: Project) -> Project:
    """A copy of ``project`` for the engine worker and the autosave writer (``ProjectSnapshot``)."""
    copy = ProjectSnapshot(project.catalog)
    # dict.copy / LinkTable.copy: the links' columns are shared until one side changes
    copy.tables = {table: rows.copy() for table, rows in project.tables.items()}
    return copy


class Document(QObject):
    changed = Signal(object)  # ChangeSet
    resultsReady = Signal(object)  # Results
    analysisFailed = Signal(str)
    projectReplaced = Signal()
    pathChanged = Signal(str)
    _outcomeQueued = Signal(object)  # engine Outcome, emitted on the worker thread
    editFailed = Signal(str)  # an undo or redo that could not be done (the model and the stack are unchanged)

    def __init__(
        self, project: Project | None = None, *, synchronous: bool = False, parent: QObject | None = None
    ):
        super().__init__(parent)
        self.synchronous = synchronous
        self.undo_stack = QUndoStack(self)
        self.files = FileService()
        self.view = ViewState(self)  # selection, phase (the figures are for the project at its end), scenario
        self.view.phaseChanged.connect(lambda _phase: self.request_analysis())
        self.view.scenarioChanged.connect(lambda _name: self.request_analysis())
        self.results: Results | None = None
        self.last_analysis_ms = 0.0
        self._dirty: set[str] = set()  # stages dirtied by the edits not yet submitted to the runner
        # The one bridge from the engine worker: the runner calls back on its thread, the signal queues the
        # outcome to this object's thread.
        self._outcomeQueued.connect(self._on_outcome)
        self._runner = EngineRunner(self._outcomeQueued.emit, force_sync=synchronous)
        self.destroyed.connect(self._runner.close)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._start_analysis)
        self.resultsReady.connect(self._store_results)
        self.project = project or Project()
        self.project.changed.connect(self._on_changed)

    # what the views and older callers read from the document itself
    @property
    def path(self) -> Path | None:
        return self.files.path

    @path.setter
    def path(self, value: Path | None) -> None:
        self.files.path = value

    @property
    def scenario(self) -> str | None:
        return self.view.scenario

    @property
    def phase_id(self) -> str | None:
        return self.view.phase_id

    @property
    def selectionChanged(self):  # noqa: N802 (the Qt signal's name)
        return self.view.selectionChanged

    def disconnect_views(self) -> None:
        """Drop every connection that windows and panels made to this document's signals (before a new
        window is built around it, e.g. when the UI language changes); the document's own stay."""
        signals = (
            self.changed,
            self.resultsReady,
            self.analysisFailed,
            self.projectReplaced,
            self.pathChanged,
            self.selectionChanged,
            self.editFailed,
            self.undo_stack.cleanChanged,
        )
        for signal in signals:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect()
        self.resultsReady.connect(self._store_results)

    # -- editing ----------------------------------------------------------------------------------------
    def push(self, command: Command) -> None:
        """Apply a command (raising PlannerError, with nothing changed, if it is refused) and record it."""
        with self.project.batch():  # all-or-nothing: a failure rolls every change of the command back
            command.apply(self.project)
        self.undo_stack.push(_QtCommand(self, command))

    def undo(self) -> bool:
        """Undo the last command. If its revert fails, the model is rolled back, the stack stays where it is
        and ``editFailed`` says why; returns whether the step was undone."""
        qc = self._command_at(self.undo_stack.index() - 1)
        if qc is None:
            return False
        if not self._step(qc.command.revert, qc.text(), undo=True):
            return False
        qc.skip = True
        self.undo_stack.undo()
        return True

    def redo(self) -> bool:
        """Redo the next command, as ``undo`` does: all or nothing, the stack moving only on success."""
        qc = self._command_at(self.undo_stack.index())
        if qc is None:
            return False
        if not self._step(qc.command.apply, qc.text(), undo=False):
            return False
        qc.skip = True
        self.undo_stack.redo()
        return True

    def create_undo_action(self, parent: QObject, text: str) -> QAction:
        """QUndoStack's undo action (its text follows the stack), triggering ``Document.undo``."""
        return self._rewire(self.undo_stack.createUndoAction(parent, text), self.undo)

    def create_redo_action(self, parent: QObject, text: str) -> QAction:
        return self._rewire(self.undo_stack.createRedoAction(parent, text), self.redo)

    @staticmethod
    def _rewire(action: QAction, slot) -> QAction:
        action.triggered.disconnect()  # the stack's own undo()/redo(): they would move it even on failure
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _command_at(self, index: int) -> _QtCommand | None:
        if not 0 <= index < self.undo_stack.count():
            return None
        qc = self.undo_stack.command(index)
        return qc if isinstance(qc, _QtCommand) else None

    def _step(self, step, text: str, *, undo: bool) -> bool:
        try:
            with self.project.batch():
                step(self.project)
        except Exception as exc:  # noqa: BLE001 — a bug in a command must not cost the user's work either
            why = plain_error(exc) if isinstance(exc, PlannerError) else f"{type(exc).__name__}: {exc}"
            message = (
                self.tr("Cannot undo “{what}”: {why}. Nothing was changed.")
                if undo
                else self.tr("Cannot redo “{what}”: {why}. Nothing was changed.")
            )
            self.editFailed.emit(message.format(what=text, why=why))
            return False
        return True

    def _stack_moved_by_qt(self, qc: _QtCommand, *, undo: bool) -> None:
        """The stack was moved directly (QUndoStack.undo/redo/setIndex, e.g. by a QUndoView): do the model
        step; when it fails, put the stack back (a queued call: the stack is busy now) without touching the
        model again."""
        step = qc.command.revert if undo else qc.command.apply
        if self._step(step, qc.text(), undo=undo):
            return

        def restore() -> None:
            qc.skip = True
            if undo:
                self.undo_stack.redo()
            else:
                self.undo_stack.undo()

        QTimer.singleShot(0, restore)

    def _on_changed(self, cs: ChangeSet) -> None:
        self.changed.emit(cs)
        dirty = dirty_stages(cs)  # none when the edit only moved boxes on the canvas (a drag solves nothing)
        if dirty:
            self._dirty |= dirty
            self.request_analysis(everything=False)

    # -- files ------------------------------------------------------------------------------------------
    def replace_project(self, project: Project, path: Path | None) -> None:
        self.project.changed.disconnect(self._on_changed)
        self.project = project
        self.project.changed.connect(self._on_changed)
        self.undo_stack.clear()
        self.path = path
        self.results = None
        self.projectReplaced.emit()
        self.pathChanged.emit(str(path or ""))
        self.request_analysis()

    def open(self, path: str | Path) -> None:
        project = self.files.open(path)  # raises ProjectFileError; the current project stays as it was
        self.replace_project(project, Path(path))

    def save(self, path: str | Path | None = None) -> Path:
        target = self.files.save(self.project, path)
        self.undo_stack.setClean()
        self.pathChanged.emit(str(target))
        return target

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    # -- analysis ---------------------------------------------------------------------------------------
    def request_analysis(self, *, everything: bool = True) -> None:
        """Solve now when the engine is idle (an edit's figures should not wait for a debounce); edits that
        arrive while a solve runs are coalesced by the debounce timer into one more solve."""
        if everything:  # a new project, scenario or phase: nothing upstream can be reused
            self._dirty |= ALL_STAGES
        if self.synchronous or (self._runner.idle() and not self._timer.isActive()):
            self._start_analysis()
        else:
            self._timer.start()

    def set_scenario(self, name: str | None) -> None:
        if not self.view.set_scenario(name):  # the same again: the figures are redone all the same
            self.request_analysis()

    def set_phase(self, phase_id: str | None) -> None:
        """Figures for the project at the end of ``phase_id`` (None: the whole project)."""
        if not self.view.set_phase(phase_id):
            self.request_analysis()

    def analysed_phase(self):
        """The phase the current figures are for, or None for the whole project."""
        return self.project.tables["phases"].get(self.phase_id or "")

    def _start_analysis(self) -> None:
        snap = snapshot_project(self.project)
        phase = self.analysed_phase()  # a filter the engine applies at compile time (no subset copy)
        stages, self._dirty = frozenset(self._dirty), set()
        self._runner.submit(
            snap,
            scenario=self.scenario,
            phase=phase.id if phase is not None else None,
            stages=stages or ALL_STAGES,
        )

    def _on_outcome(self, out: Outcome) -> None:
        """On the UI thread (the runner's callback is queued here by ``_outcomeQueued``)."""
        if out.generation != self._runner.generation:  # a newer request was submitted meanwhile
            return
        if out.results is None:
            self.analysisFailed.emit(plain_line(out.error))  # in the window's language
            return
        self.last_analysis_ms = out.elapsed_ms
        self.resultsReady.emit(out.results)

    def close_engine(self) -> None:
        """Stop the engine worker (cancels a running solve); the document stays usable for editing."""
        self._runner.close()

    def current_results(self) -> Results | None:
        """The figures shown, when they are of the project as it is now: no edit waits for a solve and none
        is being solved (else None)."""
        if self._dirty or self._timer.isActive() or not self._runner.idle():
            return None
        return self.results

    def _store_results(self, res: Results) -> None:
        self.results = res
