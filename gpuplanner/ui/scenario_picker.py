"""Scenarios in the window: a picker beside "Show phase" (the figures, canvas colours and results follow the
chosen scenario) and a compare dialog with two scenarios' main figures side by side and their difference —
the same figures as the report's scenario table."""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import Results, analyze_project
from gpuplanner.engine.scenarios import analyze_scenario
from gpuplanner.engine.summary import results_json
from gpuplanner.model import ChangeSet, Project
from gpuplanner.ui import field_labels, fmt
from gpuplanner.ui.document import Document, snapshot_project
from gpuplanner.ui.i18n import translate

BASE = ""  # the combo's data for the project as drawn (no scenario)


def scenario_names(doc: Document) -> list[str]:
    return sorted(sc.name for sc in doc.project.tables["scenarios"].values())


class ScenarioPicker(QWidget):
    scenarioChosen = Signal(object)  # noqa: N815 (Qt signal naming) — a scenario name, or None for the base

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 0, 4, 0)
        self.label = QLabel(self.tr("Scenario:"))
        lay.addWidget(self.label)
        self.combo = QComboBox()
        self.combo.setMinimumWidth(160)
        self.combo.currentIndexChanged.connect(self._chosen)
        lay.addWidget(self.combo)
        self.compare_button = QPushButton(self.tr("Compare…"))
        self.compare_button.setToolTip(self.tr("Two scenarios' figures side by side, with the difference"))
        self.compare_button.clicked.connect(self.compare)
        lay.addWidget(self.compare_button)
        doc.changed.connect(self._on_changed)
        doc.projectReplaced.connect(self.refill)
        self.refill()

    def _on_changed(self, cs: ChangeSet) -> None:
        if "scenarios" in cs.tables:
            self.refill()

    def refill(self) -> None:
        combo = self.combo
        current = self.doc.scenario or BASE
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(self.tr("Base (as drawn)"), BASE)
        for name in scenario_names(self.doc):
            combo.addItem(name, name)
        idx = combo.findData(current)
        combo.setCurrentIndex(max(idx, 0))
        combo.blockSignals(False)
        has = combo.count() > 1
        self.setEnabled(has)
        self.setToolTip("" if has else self.tr("The project has no scenarios (Plan ▸ Site and costs)"))
        if idx < 0 and self.doc.scenario is not None:  # the scenario shown was deleted: back to the base
            self._chosen(0)

    def set_scenario(self, name: str | None) -> None:
        idx = self.combo.findData(name or BASE)
        if idx >= 0:
            self.combo.setCurrentIndex(idx)

    def _chosen(self, _index: int) -> None:
        name = self.combo.currentData() or None
        self.doc.set_scenario(name)
        self.scenarioChosen.emit(name)

    def compare(self) -> None:
        names = scenario_names(self.doc)
        right = self.doc.scenario or (names[0] if names else None)
        CompareDialog(self.doc, None, right, self).exec()


# -- the compare dialog --------------------------------------------------------------------------------
Metric = tuple[str, Callable[[dict[str, Any]], float | None], Callable[[float], str]]


def _integer(v: float) -> str:
    return fmt.number(v, 0)


def _perf(key: str) -> Callable[[dict[str, Any]], float | None]:
    return lambda d: (d.get("performance") or {}).get(key)


def _count(severity: str) -> Callable[[dict[str, Any]], float]:
    return lambda d: float(sum(1 for f in d.get("findings", []) if f.get("severity") == severity))


def metrics(currency: str) -> list[Metric]:
    money = lambda v: fmt.money(v, 1.0, currency)  # noqa: E731 (figures are already in the currency)
    return [
        (translate("ScenarioCompare", "GPUs"), lambda d: d.get("gpus"), _integer),
        (
            translate("ScenarioCompare", "Switches"),
            lambda d: (d.get("fabric") or {}).get("switches"),
            _integer,
        ),
        (translate("ScenarioCompare", "Tokens/s"), _perf("tokens_per_s"), _integer),
        (translate("ScenarioCompare", "MFU"), _perf("mfu"), fmt.percent),
        (
            translate("ScenarioCompare", "Time to train (days)"),
            _perf("time_to_train_days"),
            lambda v: fmt.number(v, 1),
        ),
        (
            translate("ScenarioCompare", "IT kW at maximum"),
            lambda d: d.get("it_kw_max"),
            lambda v: fmt.number(v, 1),
        ),
        (
            translate("ScenarioCompare", "IT kW at the predicted load"),
            lambda d: d.get("it_kw_load"),
            lambda v: fmt.number(v, 1),
        ),
        (translate("ScenarioCompare", "PUE"), lambda d: d.get("pue"), lambda v: fmt.number(v, 2)),
        (
            translate("ScenarioCompare", "Facility kW at maximum"),
            lambda d: d.get("facility_kw_max"),
            lambda v: fmt.number(v, 1),
        ),
        (translate("ScenarioCompare", "Energy per year (MWh)"), lambda d: d.get("annual_mwh"), _integer),
        (translate("ScenarioCompare", "Capital cost"), lambda d: d.get("capex"), money),
        (translate("ScenarioCompare", "Operating cost per year"), lambda d: d.get("opex_per_year"), money),
        (translate("ScenarioCompare", "Total cost of ownership"), lambda d: d.get("tco"), money),
        (
            translate("ScenarioCompare", "Cost per GPU-hour"),
            lambda d: d.get("cost_per_gpu_hour"),
            lambda v: fmt.number(v, 2),
        ),
        (translate("ScenarioCompare", "Errors"), _count("error"), _integer),
        (translate("ScenarioCompare", "Warnings"), _count("warning"), _integer),
    ]


def as_drawn_base(doc: Document) -> Results | None:
    """The window's own results when they are of the whole project as drawn (no scenario, no phase) and
    current: the compare builds on them instead of solving the plan again."""
    res = doc.current_results()
    return res if res is not None and not res.scenario and not res.phase else None


def figures(project: Project, scenario: str | None, base: Results | None = None) -> dict[str, Any] | str:
    """The scenario's figures as ``analyze --json`` gives them, or the one-line reason it cannot be analysed.
    ``base``: results of the project as drawn — used as they are for the base, and a settings-only scenario
    re-runs only the stages it dirties on them (engine/scenarios.py; equal to a full solve)."""
    try:
        if scenario is None:
            res = base if base is not None else analyze_project(project)
        else:
            res = analyze_scenario(project, scenario, base)
        return results_json(project, res)
    except PlannerError as exc:
        return field_labels.plain_error(exc)
    except (ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
        return f"{type(exc).__name__}: {exc}"


class _Solver(QObject):
    """Both sides of a compare solved on one worker thread; ``done`` is delivered on the UI thread (a queued
    connection: the signal is emitted from the worker)."""

    done = Signal(int, object, object)  # generation, left figures, right figures

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scenario-compare")

    def submit(
        self, generation: int, project: Project, names: tuple[str | None, str | None], base: Any
    ) -> None:
        def work() -> None:
            left = figures(project, names[0], base)
            right = left if names[1] == names[0] else figures(project, names[1], base)
            self.done.emit(generation, left, right)

        self._pool.submit(work)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)  # a solve under way ends on its own


def _finite(v: Any) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


class CompareDialog(QDialog):
    def __init__(self, doc: Document, left: str | None, right: str | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle(self.tr("Compare scenarios"))
        self.resize(720, 560)
        lay = QVBoxLayout(self)
        pick = QHBoxLayout()
        self.left = self._combo(left)
        self.right = self._combo(right)
        pick.addWidget(QLabel(self.tr("Compare")))
        pick.addWidget(self.left, 1)
        pick.addWidget(QLabel(self.tr("with")))
        pick.addWidget(self.right, 1)
        lay.addLayout(pick)
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setColumnCount(4)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the difference takes the rest
        lay.addWidget(self.table, 1)
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.generation = 0  # of the newest request; a slower, older answer is dropped
        self.pending = False
        self.shown: tuple[dict[str, Any] | str, dict[str, Any] | str] = ("", "")  # the figures on screen
        self.solver = _Solver(self)
        self.solver.done.connect(self._show)
        self.finished.connect(lambda _r: self.solver.close())
        self.left.currentIndexChanged.connect(self.refresh)
        self.right.currentIndexChanged.connect(self.refresh)
        self.refresh()

    def _combo(self, chosen: str | None) -> QComboBox:
        combo = QComboBox()
        combo.addItem(self.tr("Base (as drawn)"), BASE)
        for name in scenario_names(self.doc):
            combo.addItem(name, name)
        combo.setCurrentIndex(max(combo.findData(chosen or BASE), 0))
        return combo

    def refresh(self) -> None:
        """Solve both sides off the UI thread (the window's own results serve for "as drawn" when current)."""
        self.generation += 1
        self.pending = True
        names = (self.left.currentData() or None, self.right.currentData() or None)
        self.note.setText(self.tr("Analysing…"))
        self.solver.submit(
            self.generation, snapshot_project(self.doc.project), names, as_drawn_base(self.doc)
        )

    def _show(self, generation: int, a: dict[str, Any] | str, b: dict[str, Any] | str) -> None:
        if generation != self.generation:  # the choice changed while this pair was solved
            return
        self.pending = False
        self.shown = (a, b)
        rows = metrics(self.doc.project.info.currency)
        self.table.setColumnCount(4)
        self.table.setHorizontalHeaderLabels(
            [self.tr("Figure"), self.left.currentText(), self.right.currentText(), self.tr("Difference")]
        )
        self.table.setRowCount(len(rows))
        same = 0
        for r, (label, get, show) in enumerate(rows):
            va = _finite(get(a)) if isinstance(a, dict) else None
            vb = _finite(get(b)) if isinstance(b, dict) else None
            diff = "—"
            if va is not None and vb is not None:
                if abs(vb - va) <= 1e-9 * max(1.0, abs(va)):
                    diff, same = self.tr("same"), same + 1
                else:
                    sign = "+" if vb > va else "−"
                    rel = f" ({sign}{fmt.number(abs(vb - va) / abs(va) * 100, 1)} %)" if va else ""
                    diff = sign + show(abs(vb - va)) + rel
            for c, text in enumerate(
                (label, show(va) if va is not None else "—", show(vb) if vb is not None else "—", diff)
            ):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        errors = [f"{n}: {d}" for n, d in ((self.left.currentText(), a), (self.right.currentText(), b))]
        errors = [e for e, d in zip(errors, (a, b), strict=True) if isinstance(d, str)]
        note = self.tr("{same} of %Ln figure(s) are the same.", None, len(rows)).format(same=fmt.number(same))
        self.note.setText("\n".join([note, *errors]))
