"""The main window: palette, canvas, inspector, results, plots and rack elevation docks; menus, toolbar and
status bar (actions in ``ui.actions``); files (new, open, save, recent, close asks), autosave and recovery.
Bad input never closes the window: a message names the file, field or value and the user's work stays.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
from collections import Counter
from operator import attrgetter
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from gpuplanner.core.errors import PlannerError
from gpuplanner.model import Project
from gpuplanner.ui import actions, field_labels, fmt, i18n
from gpuplanner.ui.autosave import AutoSaver
from gpuplanner.ui.canvas.scene import PlannerScene
from gpuplanner.ui.canvas.view import PlannerView
from gpuplanner.ui.document import Document
from gpuplanner.ui.file_open import OpenCancelled, load_project
from gpuplanner.ui.floor.view import FloorPlanPanel
from gpuplanner.ui.inspector import Inspector
from gpuplanner.ui.palette import Palette
from gpuplanner.ui.paths import examples_dir
from gpuplanner.ui.phase_picker import PhasePicker
from gpuplanner.ui.plots import PlotsPanel
from gpuplanner.ui.rack_view import RackElevation
from gpuplanner.ui.results_panel import ResultsPanel
from gpuplanner.ui.scenario_picker import ScenarioPicker

MAX_RECENT = 8


def is_bundled_example(path: str | Path) -> bool:
    try:
        return Path(path).resolve().parent == examples_dir().resolve()
    except OSError:
        return False


FILE_FILTER = "GPU Planner projects (*.gpuplan);;All files (*)"


class MainWindow(QMainWindow):
    def __init__(
        self,
        doc: Document | None = None,
        settings: QSettings | None = None,
        recovery_dir: Path | None = None,
    ) -> None:
        super().__init__()
        self.doc = doc or Document()
        self.settings = settings or QSettings("gpuplanner", "gpuplanner")
        self.scene = PlannerScene(self.doc)
        self.view = PlannerView(self.scene)
        self.floor = FloorPlanPanel(self.doc)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.view, self.tr("Topology"))
        self.tabs.addTab(self.floor, self.tr("Floor plan"))
        self.phase_picker = PhasePicker(self.doc)
        self.scenario_picker = ScenarioPicker(self.doc)
        corner = QWidget()
        corner_layout = QHBoxLayout(corner)
        corner_layout.setContentsMargins(0, 0, 0, 0)
        corner_layout.addWidget(self.scenario_picker)
        corner_layout.addWidget(self.phase_picker)
        self.tabs.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        self.setCentralWidget(self.tabs)
        self.palette = Palette(self.doc.project.catalog)
        self.inspector = Inspector(self.doc)
        self.results_panel = ResultsPanel(self.doc)
        self.plots = PlotsPanel(self.doc)
        self.rack_view = RackElevation(self.doc)
        self.docks: dict[str, QDockWidget] = {}
        # The inspector and results take the window's full height on the right (the plots end where
        # they begin): the inspector's form needs the rows, the plots the width less.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self._add_dock("palette", self.tr("Catalog"), self.palette, Qt.DockWidgetArea.LeftDockWidgetArea)
        self._add_dock(
            "inspector", self.tr("Inspector"), self.inspector, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self._add_dock(
            "results", self.tr("Results"), self.results_panel, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self._add_dock("plots", self.tr("Plots"), self.plots, Qt.DockWidgetArea.BottomDockWidgetArea)
        self._add_dock(
            "racks", self.tr("Rack elevation"), self.rack_view, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.tabifyDockWidget(self.docks["plots"], self.docks["racks"])
        self.docks["plots"].raise_()
        self.actions = actions.build(self)
        self._status_widgets()
        self.autosaver = AutoSaver(self.doc, recovery_dir)
        self._connect()
        self.update_title()
        self.resize(1500, 950)
        self.resizeDocks([self.docks["palette"]], [260], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["inspector"]], [380], Qt.Orientation.Horizontal)
        self.resizeDocks(
            [self.docks["inspector"], self.docks["results"]], [470, 400], Qt.Orientation.Vertical
        )
        self.resizeDocks([self.docks["plots"]], [250], Qt.Orientation.Vertical)

    def _add_dock(self, key: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{key}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[key] = dock

    def _status_widgets(self) -> None:
        self.status_analysis = QLabel()
        self.status_gpus = QLabel()
        self.status_zoom = QLabel()
        self.status_saved = QLabel()
        for w in (self.status_gpus, self.status_analysis, self.status_zoom, self.status_saved):
            self.statusBar().addPermanentWidget(w)

    def _connect(self) -> None:
        d = self.doc
        self._gpus: int | None = None  # the project's GPU count for the status bar (a 131k plan: 0.1 s)
        d.changed.connect(lambda cs: self._forget_gpus() if "devices" in cs.tables else None)
        d.projectReplaced.connect(self._forget_gpus)
        d.undo_stack.cleanChanged.connect(lambda _c: self.update_title())
        d.pathChanged.connect(lambda _p: self.update_title())
        d.changed.connect(lambda _cs: self.update_title())
        d.resultsReady.connect(self._on_results)
        d.analysisFailed.connect(
            lambda m: self.statusBar().showMessage(self.tr("Analysis failed: {m}").format(m=m), 10000)
        )
        d.editFailed.connect(lambda m: self.statusBar().showMessage(m, 15000))
        d.projectReplaced.connect(self._on_replaced)
        self.view.message.connect(lambda m: self.statusBar().showMessage(m, 8000))
        self.floor.message.connect(lambda m: self.statusBar().showMessage(m, 8000))
        self.floor.racksSelected.connect(self.scene.select_ids)
        self.phase_picker.phaseChosen.connect(self.floor.set_phase)
        self.phase_picker.phaseChosen.connect(self.scene.set_phase)
        self.phase_picker.phaseChosen.connect(self.doc.set_phase)  # the figures follow the phase shown
        self.view.scaleChanged.connect(
            lambda s: self.status_zoom.setText(self.tr("zoom {p} %").format(p=fmt.number(s * 100)))
        )
        self.palette.activated.connect(self.add_at_centre)
        self.results_panel.selectItems.connect(self.select_and_show)
        self.plots.selectItems.connect(self.select_and_show)
        self.rack_view.selectItems.connect(self.select_and_show)

    # -- status and title -------------------------------------------------------------------------------
    def is_modified(self) -> bool:
        try:
            return self.doc.is_modified() or self.autosaver.restored_unsaved
        except RuntimeError:  # the undo stack is already gone while the window is being destroyed
            return False

    def update_title(self) -> None:
        with contextlib.suppress(RuntimeError):  # signals still arriving while the window is destroyed
            self._update_title()

    def _update_title(self) -> None:
        name = self.doc.project.info.name or self.tr("Untitled")
        file = self.doc.path.name if self.doc.path else self.tr("not saved")
        self.setWindowTitle(self.tr("{name} — {file}[*] — GPU Planner").format(name=name, file=file))
        self.setWindowModified(self.is_modified())
        self.status_saved.setText(self.tr("● unsaved changes") if self.is_modified() else self.tr("saved"))
        self._gpu_status()

    def _gpu_status(self) -> None:
        phase, res = self.doc.analysed_phase(), self.doc.results
        if phase is not None and res is not None:
            self.status_gpus.setText(
                self.tr("%Ln GPU(s) at the end of phase “{phase}”", None, int(res.fabric.gpus)).format(
                    phase=phase.name
                )
            )
        else:
            if getattr(self, "_gpus", None) is None:  # (made by _connect, after the first title)
                self._gpus = gpu_total(self.doc.project)
            self.status_gpus.setText(self.tr("%Ln GPU(s)", None, self._gpus))

    def _forget_gpus(self) -> None:
        self._gpus = None

    def _on_results(self, _res: object) -> None:
        self.status_analysis.setText(
            self.tr("analysis {ms} ms").format(ms=fmt.number(self.doc.last_analysis_ms))
        )
        self._gpu_status()

    def _on_replaced(self) -> None:
        self.update_title()
        self.view.zoom_to_fit()
        freeze_loaded_objects(len(self.doc.project.links) + len(self.doc.project.devices))

    def select_and_show(self, ids: list[str]) -> None:
        self.scene.select_ids(ids)
        self.view.show_ids(ids)

    def add_at_centre(self, type_id: str) -> None:
        c = self.view.mapToScene(self.view.viewport().rect().center())
        from gpuplanner.ui.canvas import interactions

        cmd, note = interactions.drop_command(
            self.doc.project, type_id, c.x(), c.y(), self.scene.rack_at(c.x(), c.y())
        )
        self.view.push(cmd, note)

    # -- files ------------------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """True when it is fine to drop the current project (saved, discarded, or nothing to save)."""
        if not self.is_modified():
            return True
        answer = QMessageBox.question(
            self,
            self.tr("Unsaved changes"),
            self.tr("“{name}” has unsaved changes. Save them first?").format(name=self.doc.project.info.name),
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_project(self, project: Project | None = None) -> bool:
        if not self.maybe_save():
            return False
        self.autosaver.discard()
        project = project or Project(self.doc.project.catalog)
        if not project.devices and project.info.language != i18n.current_language():
            # a new project's report is in the UI language until the user chooses another
            info = dataclasses.replace(project.info, language=i18n.current_language())
            project.tables["project"]["project"] = info
        self.doc.replace_project(project, None)
        return True

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open project"), self._last_dir(), self.tr(FILE_FILTER)
        )
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path) -> bool:
        if not self.maybe_save():
            return False
        try:
            # Read off the UI thread (a progress dialog after a moment; a locked file waits a few seconds
            # at most), then swap the project in here; the current one stays on any error or on Cancel.
            project = load_project(self, path)
            self.doc.replace_project(project, Path(path))
        except OpenCancelled:
            self.statusBar().showMessage(self.tr("Opening cancelled; the current project is unchanged"), 5000)
            return False
        except PlannerError as exc:
            self._file_error(self.tr("Cannot open the project"), str(path), field_labels.plain_error(exc))
            return False
        except Exception as exc:  # never lose the window over an unexpected file problem
            self._file_error(self.tr("Cannot open the project"), str(path), f"{type(exc).__name__}: {exc}")
            return False
        self.autosaver.discard()
        if is_bundled_example(path):
            # a shipped example opens as an untitled copy: Ctrl+S asks where to save, the example stays as shipped
            self.doc.path = None
            self.doc.pathChanged.emit("")
            self.statusBar().showMessage(
                self.tr(
                    "{file} is an example: it opened as an untitled copy (Save as… keeps your changes)"
                ).format(file=Path(path).name),
                8000,
            )
            return True
        self.add_recent(str(path))
        return True

    def _file_error(self, title: str, path: str, why: str) -> None:
        QMessageBox.warning(
            self,
            title,
            self.tr("{path}\n\n{why}\n\nThe current project is unchanged.").format(path=path, why=why),
        )

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self) -> bool:
        start = str(
            self.doc.path or Path(self._last_dir()) / f"{self.doc.project.info.name or 'project'}.gpuplan"
        )
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save project as"), start, self.tr(FILE_FILTER))
        if not path:
            return False
        if not path.endswith(".gpuplan"):
            path += ".gpuplan"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.doc.save(path)
        except (PlannerError, OSError) as exc:
            why = field_labels.plain_error(exc)
            self._file_error(self.tr("Cannot save the project"), str(path), why)
            return False
        self.autosaver.discard()
        self.add_recent(str(path))
        self.update_title()
        self.statusBar().showMessage(self.tr("Saved {path}").format(path=path), 5000)
        return True

    # -- recent files -----------------------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        files = [path] + [p for p in self.recent_files() if p != path]
        self.settings.setValue("recent", files[:MAX_RECENT])
        actions.refresh_recent(self)

    def _last_dir(self) -> str:
        recent = self.recent_files()
        return str(Path(recent[0]).parent) if recent else str(Path.home())

    # -- closing ----------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        if self.maybe_save():
            self.autosaver.discard()
            self.autosaver.end_session()
            self.settings.setValue("geometry", self.saveGeometry())
            event.accept()
        else:
            event.ignore()


def gpu_total(project: Project) -> int:
    """``project.gpu_count()`` counted per device model (26,624 devices of a handful of models at 131k)."""
    per_type = Counter(map(attrgetter("type_id"), project.devices.values()))
    entries = project.catalog.entries
    return sum(n * int(getattr(entries.get(t), "gpu_count", 0) or 0) for t, n in per_type.items())


FREEZE_ABOVE = 50_000  # links and devices: a larger project's objects are kept out of the collector


def freeze_loaded_objects(n_rows: int) -> None:
    """Move the objects alive now — the opened project's rows (a 131k-GPU plan: 420,000 rows, over a million
    objects) — out of Python's cyclic garbage collector (``gc.freeze``): its full passes walked all of them,
    0.2-1 s each, stopping the UI thread (a frame) and the analysis thread (an edit) at random. Rows the user
    deletes are still freed (reference counting); what was frozen before is unfrozen first, so a project
    opened after a large one is collected as usual."""
    gc.unfreeze()
    if n_rows > FREEZE_ABOVE:
        gc.freeze()
