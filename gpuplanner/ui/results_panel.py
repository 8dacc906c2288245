"""The results panel: key figures (GPUs, step time, MFU, tokens/s, IT kW, facility kW, PUE, capex, TCO) and
the findings with severity icons; clicking a finding selects the items it names on the canvas.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.engine.analysis import Results
from gpuplanner.ui import fmt
from gpuplanner.ui.document import Document
from gpuplanner.ui.fmt import duration, money  # noqa: F401 (duration: re-exported for the dialogs)
from gpuplanner.ui.i18n import current_language

ITEMS_ROLE = Qt.ItemDataRole.UserRole


class ResultsPanel(QWidget):
    selectItems = Signal(list)  # noqa: N815 (Qt signal naming) — model ids named by a finding

    KEYS = ("gpus", "step", "mfu", "tokens", "ttt", "it_kw", "fac_kw", "pue", "capex", "tco")

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.values: dict[str, QLabel] = {}
        grid = QGridLayout()
        names = {
            "gpus": self.tr("GPUs"),
            "step": self.tr("Step time"),
            "mfu": self.tr("MFU"),
            "tokens": self.tr("Tokens/s"),
            "ttt": self.tr("Time to train"),
            "it_kw": self.tr("IT kW (load / max)"),
            "fac_kw": self.tr("Facility kW"),
            "pue": self.tr("PUE"),
            "capex": self.tr("Capex"),
            "tco": self.tr("TCO"),
        }
        for k, key in enumerate(self.KEYS):
            name = QLabel(names[key])
            name.setStyleSheet("color: #555")
            value = QLabel("–")
            value.setStyleSheet("font-weight: bold")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[key] = value
            grid.addWidget(name, k // 2, (k % 2) * 2)
            grid.addWidget(value, k // 2, (k % 2) * 2 + 1)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #555")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Finding"), self.tr("Rule")])
        self.tree.setColumnWidth(0, 420)
        self.tree.setWordWrap(True)
        self.tree.itemClicked.connect(self._clicked)
        self.phase_note = QLabel()  # shown when the figures are for one phase of the build-out
        self.phase_note.setWordWrap(True)
        self.phase_note.setStyleSheet("color: #1e6efa; font-weight: bold")
        self.phase_note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.phase_note)
        layout.addLayout(grid)
        layout.addWidget(self.note)
        layout.addWidget(self.tree, 1)
        doc.resultsReady.connect(self.show_results)
        doc.analysisFailed.connect(self.show_failure)
        doc.projectReplaced.connect(self.clear)

    def clear(self) -> None:
        for v in self.values.values():
            v.setText("–")
        self.tree.clear()
        self.note.clear()

    def show_failure(self, message: str) -> None:
        self.note.setText(self.tr("Analysis failed: {msg}").format(msg=message))

    def show_results(self, res: Results) -> None:
        cost, th, pw = res.cost, res.thermal, res.power
        rate, cur = cost.usd_exchange_rate, cost.currency
        v = self.values
        v["gpus"].setText(fmt.number(res.fabric.gpus))
        phase = self.doc.analysed_phase()
        self.phase_note.setVisible(phase is not None)
        if phase is not None:
            self.phase_note.setText(
                self.tr(
                    "Figures for the cluster at the end of phase {n}, “{name}” (with the phases before)"
                ).format(n=phase.order, name=phase.name)
            )
        w = res.workload
        est = w.estimate if w is not None else None
        v["step"].setText(duration(est.step_time_s) if est else "–")
        v["mfu"].setText(fmt.percent(est.mfu) if est else "–")
        v["tokens"].setText(fmt.number(est.tokens_per_s) if est else "–")
        v["ttt"].setText(duration(est.time_to_train_s) if est and est.fits else "–")
        v["it_kw"].setText(f"{fmt.number(pw.it_kw_load, 1)} / {fmt.number(pw.it_kw_max, 1)}")
        v["fac_kw"].setText(fmt.number(th.facility_kw, 1))
        v["pue"].setText(f"{th.pue:.2f}")
        v["capex"].setText(money(cost.capex_usd, rate, cur))
        v["tco"].setText(
            self.tr("{money} over {n} years").format(money=money(cost.tco_usd, rate, cur), n=cost.tco_years)
        )
        notes = []
        if est is not None:
            notes.append(self.tr("Bottleneck: {b}").format(b=est.bottleneck_text(current_language())))
            if not est.fits:
                notes.append(est.refusal)
        elif res.workload_error:
            notes.append(self.tr("Workload not evaluated: {e}").format(e=res.workload_error))
        else:
            notes.append(self.tr("No active training workload: add one with Plan → Workload…"))
        self.note.setText("\n".join(notes))
        self._findings(res, current_language())  # the UI's language (the project's is the report's)

    def _findings(self, res: Results, lang: str) -> None:
        self.tree.clear()
        icons = {
            "error": self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical),
            "warning": self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning),
            "info": self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation),
        }
        for f in res.findings:
            item = QTreeWidgetItem([f.message(lang), f.rule])
            item.setIcon(0, icons.get(f.severity, icons["info"]))
            item.setData(0, ITEMS_ROLE, list(f.items))
            fix = f.fix(lang)
            item.setToolTip(0, f"{f.message(lang)}\n{fix}" if fix else f.message(lang))
            if fix:
                child = QTreeWidgetItem([fix, ""])
                child.setData(0, ITEMS_ROLE, list(f.items))
                item.addChild(child)
            self.tree.addTopLevelItem(item)

    def _clicked(self, item: QTreeWidgetItem, _col: int) -> None:
        ids = item.data(0, ITEMS_ROLE) or []
        if ids:
            self.selectItems.emit(list(ids))
