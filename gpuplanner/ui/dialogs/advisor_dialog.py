"""Plan ▸ Design advisor…: the goal and the site's limits in a form (``advisor_form``), the search on worker
processes (with progress and Cancel), the Pareto front as a scatter of cost against time to train (or serving
headroom), a click on a point shows its figures, and "Open as project" makes it the window's project."""

from __future__ import annotations

import math
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.advisor import AdviceResult, Goal, advise
from gpuplanner.advisor.evaluate import build_project
from gpuplanner.advisor.goal import Candidate, goal_row, project_goal
from gpuplanner.advisor.run import left_out_by_reason
from gpuplanner.commands import SetFields
from gpuplanner.core.errors import PlannerError
from gpuplanner.topology.options import TEMPLATES
from gpuplanner.ui import field_labels, fmt, theme
from gpuplanner.ui.dialogs.advisor_form import AdvisorGoalForm
from gpuplanner.ui.dialogs.advisor_words import (  # noqa: F401  (left_out_lines, point_labels: imported from here)
    cooling_words,
    left_out_lines,
    list_text,
    point_labels,
    serving_layout,
    template_name,
    training_layout,
)
from gpuplanner.ui.entry_names import name_for_id
from gpuplanner.ui.i18n import current_language, translate

if TYPE_CHECKING:
    from gpuplanner.ui.main_window import MainWindow


NAME_WIDTH = 220  # px: the widest the server, fabric and cooling columns grow (wrapped beyond)


class _Bridge(QObject):
    progress = Signal(int, int)
    finished = Signal(object)  # AdviceResult, or the error text


class AdvisorDialog(QDialog):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle(self.tr("Design advisor"))
        self.resize(1100, 720)
        self.result: AdviceResult | None = None
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self.bridge = _Bridge()
        self.bridge.progress.connect(self._on_progress)
        self.bridge.finished.connect(self._on_finished)
        top = QHBoxLayout(self)
        top.addWidget(self._form(), 0)
        right = QVBoxLayout()
        top.addLayout(right, 1)
        self.plot = pg.PlotWidget(background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.scatter = pg.ScatterPlotItem(size=12, pen=pg.mkPen("k"), brush=pg.mkBrush(40, 120, 200, 200))
        self.scatter.sigClicked.connect(self._clicked)
        self._labels: list[pg.TextItem] = []
        self.plot.addItem(self.scatter)
        right.addWidget(self.plot, 3)
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._row_chosen)
        right.addWidget(self.table, 2)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        right.addWidget(self.details)
        self.summary = QLabel(self.tr("State the goal and the limits, then Search."))
        self.summary.setWordWrap(True)
        right.addWidget(self.summary)
        self.fill_from_project()

    # -- the project's goal -------------------------------------------------------------------------------
    def base_goal(self) -> Goal:
        """The project's goal (the fields this form does not show come from it), or the defaults."""
        try:
            return project_goal(self.window_.doc.project) or Goal()
        except PlannerError:
            return Goal()

    def fill_from_project(self) -> None:
        """The form pre-filled from the project's goal, when it has one."""
        if not self.window_.doc.project.goal.kind:
            return
        self.form.fill(self.base_goal())

    def edit_goal(self) -> None:
        """The whole goal (servers, cooling, fabrics, budget …) in the Goal dialog; the form follows it."""
        from gpuplanner.ui.dialogs.goal_dialog import GoalDialog

        GoalDialog(self.window_.doc, self).exec()
        self.fill_from_project()

    def keep_goal(self) -> bool:
        """The form's goal into the project (one undoable edit)."""
        try:
            row = goal_row(self.goal())
            names = [n for n in row.__slots__ if n != "id"]
            cmd = SetFields(
                self.window_.doc.project,
                "goal",
                "goal",
                text=self.tr("Set the design goal"),
                **{n: getattr(row, n) for n in names},
            )
            self.window_.doc.push(cmd)
        except PlannerError as exc:
            self.summary.setText(self.tr("Not kept: {why}").format(why=field_labels.plain_error(exc)))
            return False
        self.summary.setText(self.tr("The project's goal is now the one in this form."))
        return True

    # -- the form and its buttons -----------------------------------------------------------------------
    def _form(self) -> QWidget:
        """The goal's fields (scrolled when the window is short) over the search and goal buttons."""
        outer = QWidget()
        lay = QVBoxLayout(outer)
        lay.setContentsMargins(0, 0, 0, 0)
        self.form = AdvisorGoalForm(self.window_.doc.project.catalog)
        lay.addWidget(self.form, 1)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        lay.addWidget(self.progress)
        buttons = QHBoxLayout()
        self.search_button = QPushButton(self.tr("Search"))
        self.search_button.setDefault(True)
        self.search_button.clicked.connect(self.search)
        self.cancel_button = QPushButton(self.tr("Cancel search"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self._cancel.set)
        self.open_button = QPushButton(self.tr("Open as project"))
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_chosen)
        for b in (self.search_button, self.cancel_button, self.open_button):
            buttons.addWidget(b)
        lay.addLayout(buttons)
        goal_buttons = QHBoxLayout()
        self.goal_button = QPushButton(self.tr("Whole goal…"))
        self.goal_button.setToolTip(
            self.tr("The project's goal: servers, cooling, fabrics, budgets and more")
        )
        self.goal_button.clicked.connect(self.edit_goal)
        self.keep_button = QPushButton(self.tr("Keep as the project's goal"))
        self.keep_button.clicked.connect(self.keep_goal)
        goal_buttons.addWidget(self.goal_button)
        goal_buttons.addWidget(self.keep_button)
        lay.addLayout(goal_buttons)
        return outer

    def goal(self) -> Goal:
        """The form's goal over the project's (the fields the form does not show come from it)."""
        return self.form.goal(self.base_goal())

    # -- the search -------------------------------------------------------------------------------------
    def search(self, executor=None) -> None:
        try:
            goal = self.goal()
        except PlannerError as exc:
            self.summary.setText(self.tr("Not searched: {why}").format(why=field_labels.plain_error(exc)))
            return
        self._cancel.clear()
        self.search_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setVisible(True)
        self.progress.setRange(0, 0)
        self.summary.setText(self.tr("Searching…"))
        catalog = self.window_.doc.project.catalog

        def work() -> None:
            try:
                ex = executor or ProcessPoolExecutor(
                    mp_context=get_context("spawn")
                )  # no fork of a Qt process
                try:
                    res = advise(
                        goal,
                        executor=ex,
                        progress=lambda d, t, _w: self.bridge.progress.emit(d, t),
                        cancel=self._cancel,
                        catalog=catalog,
                    )
                finally:
                    if executor is None:
                        ex.shutdown(wait=False, cancel_futures=True)
                self.bridge.finished.emit(res)
            except PlannerError as exc:
                self.bridge.finished.emit(field_labels.plain_error(exc))
            except Exception as exc:  # noqa: BLE001 — a failed search must not take the window down
                self.bridge.finished.emit(f"{type(exc).__name__}: {exc}")

        self._thread = threading.Thread(target=work, name="advisor", daemon=True)
        self._thread.start()

    def wait(self, timeout: float = 300.0) -> None:
        """Block until the search thread has finished (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _on_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _on_finished(self, res: Any) -> None:
        self.search_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setVisible(False)
        if isinstance(res, str):
            self.summary.setText(self.tr("The search failed: {why}").format(why=res))
            return
        self.result = res
        self.show_front(res)

    def show_front(self, res: AdviceResult) -> None:
        g = res.goal
        training = g.kind == "training"
        cur = self.window_.doc.project.info.currency
        rate = self.window_.doc.project.info.usd_exchange_rate or 1.0
        tcos = [d["tco_usd"] * rate for d in res.front]
        div, unit = fmt.money_scale(max(tcos, default=0.0), cur)  # "USD (millions)", 万美元 / 亿元 in Chinese
        xs = [t / div for t in tcos]
        ys = [d["time_to_train_days"] if training else d["headroom"] for d in res.front]
        self.scatter.setData(
            [{"pos": (x, y), "data": i} for i, (x, y) in enumerate(zip(xs, ys, strict=True))]
        )
        for label in self._labels:  # each point numbered as its row in the table below
            self.plot.removeItem(label)
        self._labels = []
        for text, (x, y) in point_labels(xs, ys):
            label = pg.TextItem(text, color=(20, 20, 20), anchor=(-0.3, 1.1))
            label.setPos(x, y)
            self.plot.addItem(label)
            self._labels.append(label)
        self._fit_view(xs, ys)
        self.plot.setLabel("bottom", self.tr("TCO, {unit}").format(unit=unit))
        self.plot.setLabel(
            "left", self.tr("Time to train (days)") if training else self.tr("Serving headroom (×)")
        )
        with_users = not training and g.users > 0  # the users each design serves, beside its rate
        headers = [
            self.tr("Servers"),
            self.tr("GPUs"),
            self.tr("Fabric"),
            self.tr("Cooling"),
            self.tr("Days") if training else self.tr("Requests/s"),
            *([self.tr("Users")] if with_users else []),
            self.tr("Facility kW"),
            self.tr("Capex"),
            self.tr("TCO"),
            self.tr("Binding limit"),
        ]
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(res.front))
        lang = current_language()
        for r, d in enumerate(res.front):
            perf = d["time_to_train_days"] if training else d["requests_per_s_max"]
            cells = [
                f"{fmt.number(d['servers'])} × {self.entry_name(d['server'])}",
                fmt.number(d["gpus"]),
                f"{template_name(d['fabric'])} {d['oversub']:g}:1",
                cooling_words(d["cooling"], lang),
                fmt.number(perf, 1) if perf is not None and math.isfinite(perf) else "—",
                *([fmt.number(d.get("users_max") or 0.0)] if with_users else []),
                fmt.number(d["facility_kw_max"]),
                fmt.money(d["capex_usd"], rate, cur),
                fmt.money(d["tco_usd"], rate, cur),
                self.limit_name(d["binding"]),
            ]
            tips = {  # the whole names, and the catalog's and the goal's ids as a goal file or `advise` name them
                0: f"{cells[0]}\n{d['servers']} × {d['server']}",
                2: self.fabric_tip(d),
                3: list_text([theme.cooling_method_name(m) for m in d["cooling"]], lang),
            }
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c in tips:
                    item.setToolTip(tips[c])
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        for c in (
            0,
            2,
            3,
        ):  # a long server name ("… (8 × B200, Neptune liquid 5U)") wraps
            self.table.setColumnWidth(c, min(self.table.columnWidth(c), NAME_WIDTH))
        self.table.resizeRowsToContents()
        pruned = sum(res.pruned.values())
        text = self.tr(
            "%Ln design(s) on the front; {cands} candidates, {pruned} pruned by bounds, {ev} planned and "
            "analysed in {s} s.",
            None,
            len(res.front),
        ).format(
            cands=fmt.number(res.candidates),
            pruned=fmt.number(pruned),
            ev=fmt.number(res.evaluated),
            s=fmt.number(res.seconds, 1),
        )
        if res.cancelled:
            text += " " + self.tr("Cancelled: the front holds what was analysed so far.")
        if not res.front:
            text += " " + self.tr("No design meets every limit: relax one.")
        left = left_out_lines(res, current_language(), self.entry_name)
        self.summary.setText("\n".join([text, *left]))
        self.summary.setToolTip(  # the ids, as the goal file and `advise` name them
            "\n".join(f"{w}: {', '.join(srv)}" for w, srv in left_out_by_reason(res, current_language()))
        )
        if res.front:
            self.table.selectRow(0)

    def _fit_view(self, xs: list[float], ys: list[float]) -> None:
        """Both axes around the front, with room: a front whose designs share one value on an axis (the same
        time to train, say) would otherwise auto-range to a sliver and print ticks to the 13th digit."""
        self.plot.enableAutoRange()
        for axis, vals in (("x", xs), ("y", ys)):
            v = [x for x in vals if math.isfinite(x)]
            if not v:
                continue
            lo, hi = min(v), max(v)
            pad = max((hi - lo) * 0.1, abs(hi) * 0.05, 1e-3)
            if axis == "x":
                self.plot.setXRange(lo - pad, hi + pad, padding=0)
            else:
                self.plot.setYRange(lo - pad, hi + pad, padding=0)

    def limit_name(self, name: str) -> str:
        names = {
            "facility_kw": self.tr("facility power"),
            "rack_kw": self.tr("rack power"),
            "racks": self.tr("rack count"),
            "capex_usd": self.tr("capex budget"),
            "tco_usd": self.tr("TCO budget"),
            "deadline_days": self.tr("deadline"),
            "requests_per_s": self.tr("request rate"),
            "users": self.tr("concurrent users"),
            "cooling": self.tr("cooling"),
        }
        return names.get(name, name)

    def entry_name(self, entry_id: str) -> str:
        """A catalog entry's name in the UI language, as the main window's catalog tree and the report name
        it (its id when unknown)."""
        return name_for_id(self.window_.doc.project.catalog, entry_id) or entry_id

    def fabric_tip(self, d: dict[str, Any]) -> str:
        desc = TEMPLATES.get(d["fabric"])
        head = f"{d['fabric']} {d['oversub']:g}:1"
        return f"{head} — {translate('templates', desc)}" if desc else head

    def limit_value(self, name: str, value: Any) -> str:
        """A limit's figure with its unit, with the decimals it needs (the goal's "600 kW", the plan's "23.2 kW")
        and the locale's separators."""
        if name == "cooling":
            return cooling_words(list(value), current_language())
        if not isinstance(value, int | float) or not math.isfinite(value):
            return "—"
        info = self.window_.doc.project.info
        if name in ("facility_kw", "rack_kw"):
            return self.tr("{n} kW").format(n=fmt.short(value, 1))
        if name in ("capex_usd", "tco_usd"):
            return fmt.money(value, info.usd_exchange_rate or 1.0, info.currency)
        if name == "deadline_days":
            return self.tr("{n} days").format(n=fmt.short(value, 1))
        if name == "requests_per_s":
            return self.tr("{n} requests/s").format(n=fmt.short(value, 1))
        return fmt.number(value)

    def limit_text(self, lim: dict[str, Any]) -> str:
        """One limit against the plan: "facility power 23.2 kW (at most 600.0 kW)"."""
        args = {
            "name": self.limit_name(lim["name"]),
            "plan": self.limit_value(lim["name"], lim["plan"]),
            "limit": self.limit_value(lim["name"], lim["limit"]),
        }
        if lim["name"] == "cooling":
            return self.tr("{name} {plan} (allowed: {limit})").format(**args)
        if lim.get("at_least"):
            return self.tr("{name} {plan} (at least {limit})").format(**args)
        return self.tr("{name} {plan} (at most {limit})").format(**args)

    def details_text(self, d: dict[str, Any]) -> str:
        """The chosen design in a line: server and switch by name, the rack budget, its training or serving
        layout, and each limit against the plan."""
        lang = current_language()
        budget = d.get("rack_budget_kw")
        kw = (  # 0 or None: the goal states no rack budget
            self.tr("rack budget {kw}").format(kw=self.tr("{n} kW").format(n=fmt.short(budget, 1)))
            if budget
            else self.tr("rack budget: no limit")
        )
        s = d.get("serving")
        if s is not None:
            lay = serving_layout(s, lang) or "—"
            mode = translate("choices", s.get("mode") or "aggregated")
            head = self.tr("{srv}: {gpus} GPUs, switch {sw}, {kw}, serving ({mode}): {lay}.").format(
                srv=self.entry_name(d["server"]),
                gpus=fmt.number(d["gpus"]),
                sw=self.entry_name(d["switch"]),
                kw=kw,
                mode=mode,
                lay=lay,
            )
        else:
            lay = training_layout(d.get("layout") or {}, lang) or "—"
            head = self.tr("{srv}: {gpus} GPUs, switch {sw}, {kw}, layout {lay}.").format(
                srv=self.entry_name(d["server"]),
                gpus=fmt.number(d["gpus"]),
                sw=self.entry_name(d["switch"]),
                kw=kw,
                lay=lay,
            )
        if not d["limits"]:
            return head
        lims = self.tr("; ").join(self.limit_text(lim) for lim in d["limits"])
        return self.tr("{head} Limits: {lims}").format(head=head, lims=lims)

    def _clicked(self, _item, points, _ev=None) -> None:
        if len(points):
            self.table.selectRow(int(points[0].data()))

    def chosen(self) -> dict[str, Any] | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows or self.result is None:
            return None
        return self.result.front[rows[0].row()]

    def _row_chosen(self) -> None:
        d = self.chosen()
        self.open_button.setEnabled(d is not None)
        if self.result is not None and len(self.scatter.points()) == len(self.result.front):
            sel = self.table.selectionModel().selectedRows()
            picked = sel[0].row() if sel else -1
            self.scatter.setBrush(  # the chosen design's point stands out
                [
                    pg.mkBrush(230, 120, 30, 240) if k == picked else pg.mkBrush(40, 120, 200, 200)
                    for k in range(len(self.result.front))
                ]
            )
        if d is None:
            self.details.clear()
            return
        self.details.setText(self.details_text(d))
        self.details.setToolTip(  # the ids, as a goal file or `advise --json` names them
            f"{d['server']} · {d['switch']}" + (f" · {d['cooling_id']}" if d.get("cooling_id") else "")
        )

    def open_chosen(self) -> bool:
        d = self.chosen()
        if d is None or self.result is None:
            return False
        cand = Candidate(**d["candidate"])
        project = build_project(self.result.goal, cand, d.get("layout"), self.window_.doc.project.catalog)
        if self.window_.new_project(project):
            self.accept()
            return True
        return False

    def reject(self) -> None:
        self._cancel.set()
        super().reject()
