"""The results panel: key figures (GPUs, step time, MFU, tokens/s, IT kW, facility kW, PUE, the utility feed
the site needs, racks and rows, capex, TCO), the cooling mix, and the findings with severity icons (wrapped to
the panel's width; the rule in the tooltip); clicking a finding selects the items it names on the canvas.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHeaderView,
    QLabel,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.engine.analysis import Results
from gpuplanner.text import finding as finding_text
from gpuplanner.ui import field_labels, fmt, theme
from gpuplanner.ui.document import Document
from gpuplanner.ui.estimate_text import band_text, no_estimate_text, refusal_text
from gpuplanner.ui.fmt import duration, money  # noqa: F401 (duration: re-exported for the dialogs)
from gpuplanner.ui.i18n import current_language

ITEMS_ROLE = Qt.ItemDataRole.UserRole


class WrapDelegate(QStyledItemDelegate):
    """Row heights for text wrapped at the column's width (QTreeView asks the delegate without a width, so
    wrapped text would get one line and be cut off)."""

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:  # noqa: N802 (Qt API)
        view = self.parent()
        depth, parent = 1, index.parent()  # the root is decorated: top-level items are indented once
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
        opt.rect = QRect(0, 0, max(80, view.header().sectionSize(0) - view.indentation() * depth), 10_000)
        style = view.style()
        return style.sizeFromContents(QStyle.ContentsType.CT_ItemViewItem, opt, QSize(), view)


class ResultsPanel(QWidget):
    selectItems = Signal(list)  # noqa: N815 (Qt signal naming) — model ids named by a finding

    KEYS = ("gpus", "step", "mfu", "tokens", "ttt", "it_kw", "fac_kw", "pue", "feed", "racks", "capex", "tco")

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.values: dict[str, QLabel] = {}
        self.names: dict[str, QLabel] = {}
        grid = QGridLayout()
        names = {
            "gpus": self.tr("GPUs"),
            "step": self.tr("Step time"),
            "mfu": self.tr("MFU"),
            "tokens": self.tr("Tokens/s"),
            "ttt": self.tr("Time to train"),
            "it_kw": self.tr("IT kW (load / max)"),
            "fac_kw": self.tr("Facility kW (load / max)"),
            "pue": self.tr("PUE"),
            "feed": self.tr("Utility feed needed"),
            "racks": self.tr("Racks / rows"),
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
            self.names[key] = name
            grid.addWidget(name, k // 2, (k % 2) * 2)
            grid.addWidget(value, k // 2, (k % 2) * 2 + 1)
        self.cooling = QLabel()  # which cooling takes how much of the IT load, and how much goes to liquid
        self.cooling.setWordWrap(True)
        self.cooling.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #555")
        self.workloads = QLabel()  # each workload on its own GPUs, and the site's limits against the plan
        self.workloads.setWordWrap(True)
        self.workloads.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tree = QTreeWidget()
        # One column, wrapped to the panel's width: a narrow dock must not cut a finding off mid-sentence
        # (the rule id is in the tooltip).
        self.tree.setHeaderLabels([self.tr("Finding")])
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setUniformRowHeights(False)
        self.tree.setWordWrap(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setItemDelegate(WrapDelegate(self.tree))
        # QTreeView keeps the row heights of the old width: lay the rows out again when the column changes
        self.tree.header().sectionResized.connect(lambda *_a: self.tree.scheduleDelayedItemsLayout())
        self.tree.itemClicked.connect(self._clicked)
        self.phase_note = QLabel()  # shown when the figures are for one phase of the build-out
        self.phase_note.setWordWrap(True)
        self.phase_note.setStyleSheet("color: #1e6efa; font-weight: bold")
        self.phase_note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.phase_note)
        layout.addLayout(grid)
        layout.addWidget(self.cooling)
        layout.addWidget(self.note)
        layout.addWidget(self.workloads)
        layout.addWidget(self.tree, 1)
        doc.resultsReady.connect(self.show_results)
        doc.analysisFailed.connect(self.show_failure)
        doc.projectReplaced.connect(self.clear)

    def clear(self) -> None:
        self._racks_shown = None
        for v in self.values.values():
            v.setText("–")
        self.tree.clear()
        self.note.clear()
        self.cooling.clear()
        self.workloads.clear()

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
        v["fac_kw"].setText(f"{fmt.number(th.facility_kw, 1)} / {fmt.number(th.facility_kw_max, 1)}")
        v["pue"].setText(fmt.number(th.pue, 2))
        self._feed(th)
        self._racks(res)
        self.cooling.setText(self._cooling_text(th))
        v["capex"].setText(money(cost.capex_usd, rate, cur))
        self.names["tco"].setText(self.tr("TCO, {n} years").format(n=cost.tco_years))
        v["tco"].setText(money(cost.tco_usd, rate, cur))
        notes = []
        if est is not None:
            notes.append(self.tr("Bottleneck: {b}").format(b=est.bottleneck_text(current_language())))
            band = band_text(res)  # the range of the published runs, as `estimate` and the report give it
            if band:
                notes.append(band)
            if not est.fits:
                notes.append(refusal_text(est.memory))
        else:
            notes.append(no_estimate_text(self.doc.project, res))
        self.note.setText("\n".join(notes))
        self.workloads.setText("\n".join(self._workload_lines(res) + self._limit_lines(res)))
        self._findings(res, current_language())  # the UI's language (the project's is the report's)

    def _workload_lines(self, res: Results) -> list[str]:
        out = []
        for e in res.workloads:
            d = e.to_json()
            where = self.tr("{name} ({partition}, {gpus} GPUs)").format(
                name=e.name, partition=e.partition or self.tr("all"), gpus=fmt.number(e.gpus)
            )
            if d.get("error"):
                out.append(
                    self.tr("{where}: not evaluated — {why}").format(
                        where=where, why=field_labels.plain_line(e.error)
                    )
                )
            elif e.kind in ("training", "fine-tuning"):
                days = d.get("time_to_train_days")
                out.append(
                    self.tr("{where}: {days} days to train, MFU {mfu}").format(
                        where=where,
                        days=fmt.number(days, 1) if days else "–",
                        mfu=fmt.percent(d["mfu"]) if d.get("mfu") else "–",
                    )
                )
            else:
                line = self.tr(
                    "{where}: up to {users} users ({rate} requests/s), first token {ttft} s, {tpot} ms per token"
                ).format(
                    where=where,
                    users=fmt.number(d.get("max_concurrent_users") or 0),
                    rate=fmt.number(d.get("max_requests_per_s") or 0, 1),
                    ttft=fmt.number(d["ttft_s"], 2) if d.get("ttft_s") else "–",
                    tpot=fmt.number(d["tpot_s"] * 1000, 1) if d.get("tpot_s") else "–",
                )
                if d.get("gpus_needed") is not None:
                    line += " " + self.tr("— the load asked for needs {n} GPUs").format(
                        n=fmt.number(d["gpus_needed"])
                    )
                out.append(line + self._settings(d))
        return out

    def _settings(self, d: dict) -> str:
        """The serving settings a workload states (its analysis names them only then), after its line."""
        said = []
        if d.get("max_seqs") is not None:
            said.append(self.tr("at most {n} sequences at once").format(n=fmt.number(d["max_seqs"])))
        if d.get("max_batched_tokens") is not None:
            said.append(self.tr("at most {n} tokens per step").format(n=fmt.number(d["max_batched_tokens"])))
        if d.get("chunked_prefill") is False:
            said.append(self.tr("prefill not chunked"))
        if d.get("gemm_allreduce_fusion"):
            said.append(self.tr("all-reduce fused into the GEMM"))
        if not said:
            return ""
        # the brackets and the separator in the UI's language (full-width in Chinese)
        return self.tr(" ({settings})").format(settings=self.tr("; ").join(said))

    def _limit_lines(self, res: Results) -> list[str]:
        names = {
            "it_power_kw": self.tr("IT power, kW (with the design margin)"),
            "facility_power_kw": self.tr("Utility feed, kW"),
            "rack_positions": self.tr("Rack positions"),
            "budget_capex": self.tr("Capex budget"),
            "budget_tco": self.tr("TCO budget"),
        }
        out = []
        for x in res.limits:
            if x["name"] not in names:
                continue
            verdict = self.tr("within") if x["within"] else self.tr("EXCEEDED")
            out.append(
                self.tr("{name}: {plan} of {limit} — {verdict}").format(
                    name=names[x["name"]],
                    plan=fmt.number(x["plan"]),
                    limit=fmt.number(x["limit"]),
                    verdict=verdict,
                )
            )
        return out

    def _feed(self, th) -> None:
        """The kW to ask the utility for: facility kW at maximum plus the site's headroom; against the
        stated feed when there is one (red when short)."""
        label = self.values["feed"]
        needed = fmt.number(th.feed_kw_needed, 0)
        headroom = self.doc.project.site.feed_headroom
        if th.utility_kw_available > 0:
            label.setText(
                self.tr("{needed} of {available} kW").format(
                    needed=needed, available=fmt.number(th.utility_kw_available, 0)
                )
            )
        else:
            label.setText(self.tr("{needed} kW").format(needed=needed))
        label.setStyleSheet(
            "font-weight: bold" + ("" if th.feed_ok else f"; color: {theme.ERROR_TEXT.name()}")
        )
        tip = self.tr(
            "Facility kW at maximum ({max} kW) plus {pct} % headroom (Site and costs ▸ feed headroom)."
        ).format(max=fmt.number(th.facility_kw_max, 1), pct=fmt.number(headroom * 100))
        if th.utility_kw_available <= 0:
            tip += "\n" + self.tr("No utility feed is stated for the site (Site and costs ▸ utility).")
        elif not th.feed_ok:
            tip += "\n" + self.tr("The stated utility feed is too small.")
        label.setToolTip(tip)
        self.names["feed"].setToolTip(tip)

    def _racks(self, res: Results) -> None:
        """Racks holding equipment, and the rows they stand in (each row's kW at maximum in the tooltip)."""
        racks = self.doc.project.racks
        kw = res.power.rack_kw_max
        ids = res.compiled.racks.ids
        by_row: dict[str, float] = {}
        used = 0
        for i in np.flatnonzero(kw > 0).tolist():
            rack = racks.get(ids[i])
            if rack is None:
                continue
            used += 1
            by_row[rack.row] = by_row.get(rack.row, 0.0) + float(kw[i])
        shown = (used, tuple(sorted(by_row.items())))
        if shown == getattr(self, "_racks_shown", None):
            return  # (an edit of a budget or of the workload: the same figures; 5,167 racks at 131k)
        self._racks_shown = shown
        self.values["racks"].setText(f"{fmt.number(used)} / {fmt.number(len(by_row))}")
        tip = "\n".join(
            self.tr("row {row}: {kw} kW at maximum").format(row=row or "–", kw=fmt.number(row_kw, 1))
            for row, row_kw in sorted(by_row.items())
        )
        self.values["racks"].setToolTip(tip)
        self.names["racks"].setToolTip(tip)

    def _cooling_text(self, th) -> str:
        mix = [
            self.tr("{method} {kw} kW").format(method=theme.cooling_method_name(m), kw=fmt.number(k, 1))
            for m, k in sorted(th.method_it_kw.items(), key=lambda mk: -mk[1])
            if k > 0
        ]
        if not mix:
            return ""
        return self.tr("Cooling (IT kW at load): {mix}; {liquid} kW to liquid, {air} kW to air").format(
            mix=" · ".join(mix), liquid=fmt.number(th.liquid_kw, 1), air=fmt.number(th.air_kw, 1)
        )

    def _findings(self, res: Results, lang: str) -> None:
        self.tree.clear()
        icons = {
            "error": self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical),
            "warning": self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning),
            "info": self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation),
        }
        for f in res.findings:
            message = finding_text(f.rule, "message", lang, f.params)  # the sentence: from the text package
            item = QTreeWidgetItem([message])
            item.setIcon(0, icons.get(f.severity, icons["info"]))
            item.setData(0, ITEMS_ROLE, list(f.items))
            fix = finding_text(f.rule, "fix", lang, f.params)
            tip = f"{message}\n{fix}" if fix else message
            item.setToolTip(0, self.tr("{text}\nrule: {rule}").format(text=tip, rule=f.rule))
            if fix:
                child = QTreeWidgetItem([fix])
                child.setData(0, ITEMS_ROLE, list(f.items))
                item.addChild(child)
            self.tree.addTopLevelItem(item)

    def _clicked(self, item: QTreeWidgetItem, _col: int) -> None:
        ids = item.data(0, ITEMS_ROLE) or []
        if ids:
            self.selectItems.emit(list(ids))
