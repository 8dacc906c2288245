"""Plots (pyqtgraph): the workload's scaling curve, link utilisation per tier, rack power against budget,
cost over the years, and the sensitivity (tornado) of the cost per GPU-hour. Clicking a rack's bar selects the rack; clicking a histogram bar selects the
links of that tier and utilisation band.
"""

from __future__ import annotations

import html
from collections import Counter

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.analysis import Results
from gpuplanner.engine.facility.sensitivity import tornado
from gpuplanner.engine.perf.scaling import dp_scaling
from gpuplanner.ui import field_labels, fmt, theme
from gpuplanner.ui.canvas.annotations import rack_notes
from gpuplanner.ui.document import Document
from gpuplanner.ui.estimate_text import no_estimate_text

REDRAW_DELAY_MS = 80
# Tier colours: no greens, ambers or reds, which mean utilisation on the canvas.
TIER_PENS = ("#4472c4", "#7f6084", "#2f9fa8", "#8c8c8c", "#a5b8e0", "#5b4a99", "#b0b0b0", "#3a6f8f")


def _plot(title: str, left: str, bottom: str) -> pg.PlotWidget:
    w = pg.PlotWidget(background="w")
    w.setTitle(title, color="#222", size="10pt")
    if left:
        w.setLabel("left", left)
    w.setLabel("bottom", bottom)
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMenuEnabled(False)
    return w


def _with_note(plot: QWidget, note: QLabel) -> QWidget:
    """A plot with its legend underneath (inside a short plot a legend would cover the data)."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(plot, 1)
    lay.addWidget(note)
    note.setWordWrap(True)
    return box


def legend_html(entries: list[tuple[str, str]]) -> str:
    """Coloured squares and names, for a legend below a plot."""
    return " &nbsp; ".join(
        f'<span style="color:{color}">&#9632;</span>&nbsp;{html.escape(text)}' for color, text in entries
    )


class PlotsPanel(QWidget):
    selectItems = Signal(list)  # noqa: N815 (Qt signal naming)

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.res: Results | None = None
        self.tabs = QTabWidget()
        self.scaling = _plot(self.tr("Throughput"), "", self.tr("GPUs (same layout, batch per replica)"))
        self.efficiency = _plot(
            self.tr("Scaling efficiency, % of the smallest size per GPU"), "", self.tr("GPUs")
        )
        self.hist = _plot(
            self.tr("Link utilisation over a training step"), self.tr("links"), self.tr("utilisation (%)")
        )
        self.power = _plot(
            self.tr("Rack power at load (bars) against budget (red marks)"), self.tr("kW"), self.tr("rack")
        )
        self.tco = _plot(self.tr("Cost over the years"), "", self.tr("years"))
        self.tornado = _plot(self.tr("Cost per GPU-hour: each input moved down and up"), "", "")
        self.tornado_legend = QLabel()
        self.scaling_note = QLabel()
        scaling_tab = QWidget()
        lay = QVBoxLayout(scaling_tab)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.scaling, 1)
        row.addWidget(self.efficiency, 1)
        lay.addLayout(row, 1)
        lay.addWidget(self.scaling_note)
        self.hist_legend = QLabel()
        self.tco_legend = QLabel()
        self.tabs.addTab(scaling_tab, self.tr("Scaling"))
        self.tabs.addTab(_with_note(self.hist, self.hist_legend), self.tr("Link utilisation"))
        self.tabs.addTab(self.power, self.tr("Rack power"))
        self.tabs.addTab(_with_note(self.tco, self.tco_legend), self.tr("TCO"))
        self.tabs.addTab(_with_note(self.tornado, self.tornado_legend), self.tr("Sensitivity"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        self.hist_bars: list[tuple[str, int, float, float]] = []  # (tier, bin, x0, x1)
        self._dirty: set[int] = set()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        self.tabs.currentChanged.connect(lambda _i: self.refresh())
        self.hist.scene().sigMouseClicked.connect(self._hist_clicked)
        self.power.scene().sigMouseClicked.connect(self._power_clicked)
        doc.resultsReady.connect(self.show_results)
        doc.projectReplaced.connect(self.clear)

    def clear(self) -> None:
        for w in (self.scaling, self.efficiency, self.hist, self.power, self.tco, self.tornado):
            w.clear()
        self.res = None

    def show_results(self, res: Results) -> None:
        """Remember the results; redraw the visible plot a little later, so that the canvas's annotations
        are painted first (redrawing pyqtgraph items costs tens of milliseconds)."""
        self.res = res
        self._dirty = set(range(self.tabs.count()))
        self._timer.start()

    def refresh(self, everything: bool = False) -> None:
        if self.res is None or not (self.isVisible() or everything):
            return
        draw = (self._scaling, self._histogram, self._power, self._tco, self._tornado)
        tabs = set(self._dirty) if everything else {self.tabs.currentIndex()} & self._dirty
        for k in sorted(tabs):
            draw[k](self.res)
            self._dirty.discard(k)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.refresh()

    # -- scaling ----------------------------------------------------------------------------------------
    def _scaling(self, res: Results) -> None:
        self.scaling.clear()
        self.efficiency.clear()
        w = res.workload
        if w is None:
            self.scaling_note.setText(no_estimate_text(self.doc.project, res))
            return
        try:
            s = dp_scaling(w.shape, w.config, w.cluster, max(res.fabric.gpus, w.estimate.n_gpus))
        except PlannerError as exc:
            self.scaling_note.setText(field_labels.plain_error(exc))
            return
        n = np.log2(s["n_gpus"].astype(float))  # doubling sizes, evenly spaced, labelled with GPU counts
        ticks = [[(float(x), fmt.number(int(g))) for x, g in zip(n, s["n_gpus"], strict=True)]]
        for plot in (self.scaling, self.efficiency):
            plot.getAxis("bottom").setTicks(ticks)
        tps = s["tokens_per_s"]
        millions = float(np.nanmax(tps)) >= 1e6
        self.scaling.setTitle(
            self.tr("Throughput, million tokens/s") if millions else self.tr("Throughput, thousand tokens/s"),
            color="#222",
            size="10pt",
        )
        self.scaling.plot(
            n,
            tps / (1e6 if millions else 1e3),
            pen=pg.mkPen("#4472c4", width=2),
            symbol="o",
            symbolBrush="#4472c4",
        )
        self.efficiency.plot(
            n, s["efficiency"] * 100, pen=pg.mkPen("#70ad47", width=2), symbol="o", symbolBrush="#70ad47"
        )
        self.efficiency.setYRange(0, 105)
        here = pg.InfiniteLine(
            pos=np.log2(w.estimate.n_gpus),
            angle=90,
            pen=pg.mkPen("#c00000", style=pg.QtCore.Qt.PenStyle.DashLine),
        )
        self.scaling.addItem(here)
        self.scaling_note.setText(
            self.tr(
                "%Ln GPU(s) today: {tps} tokens/s, MFU {mfu} % (red line). Layout tp={tp} pp={pp} cp={cp}.",
                None,
                int(w.estimate.n_gpus),
            ).format(
                tps=fmt.number(w.estimate.tokens_per_s),
                mfu=fmt.number(w.estimate.mfu * 100, 1),
                tp=w.config.tp,
                pp=w.config.pp,
                cp=w.config.cp,
            )
        )

    # -- link utilisation histogram ---------------------------------------------------------------------
    def bin_edges(self, res: Results) -> np.ndarray:
        """Ten bins from 0 to the busiest link rounded up to 10 % (so that low loads are not one bar)."""
        top = float(np.nanmax(res.link_util)) if len(res.link_util) else 0.0
        return np.linspace(0.0, min(1.0, max(0.1, np.ceil(top * 10) / 10)), 11)

    def _histogram(self, res: Results) -> None:
        self.hist.clear()
        self.hist_bars = []
        tiers = np.array(res.fabric.link_tier)
        names = [t for t, _n in Counter(tiers.tolist()).most_common()]
        if not names:
            return
        edges = self.bin_edges(res)
        step = (edges[1] - edges[0]) * 100
        entries = []
        width = step / (len(names) + 1)
        for k, tier in enumerate(names):
            counts, _ = np.histogram(np.clip(res.link_util[tiers == tier], 0, 1), bins=edges)
            x = edges[:-1] * 100 + width * (k + 0.5)
            bars = pg.BarGraphItem(x=x, height=counts, width=width, brush=TIER_PENS[k % len(TIER_PENS)])
            self.hist.addItem(bars)
            entries.append((TIER_PENS[k % len(TIER_PENS)], tier))
            for b, x0 in enumerate(x):
                self.hist_bars.append((tier, b, x0 - width / 2, x0 + width / 2))
        self.hist_legend.setText(
            legend_html(entries) + " &nbsp; " + html.escape(self.tr("(click a bar to select those links)"))
        )

    def _hist_clicked(self, ev) -> None:
        if self.res is None:
            return
        p = self.hist.getPlotItem().vb.mapSceneToView(ev.scenePos())
        for tier, b, x0, x1 in self.hist_bars:
            if x0 <= p.x() <= x1:
                self.select_links(tier, b)
                return

    def select_links(self, tier: str, bin_index: int) -> list[str]:
        res = self.res
        if res is None:
            return []
        util = np.clip(res.link_util, 0, 1)
        edges = self.bin_edges(res)
        b = np.clip(np.digitize(util, edges) - 1, 0, len(edges) - 2)
        rows = np.flatnonzero((np.array(res.fabric.link_tier) == tier) & (b == bin_index))
        ids = [res.compiled.links.ids[i] for i in rows]
        if ids:
            self.selectItems.emit(ids)
        return ids

    # -- rack power -------------------------------------------------------------------------------------
    def _power(self, res: Results) -> None:
        self.power.clear()
        pw = res.power
        n = len(pw.rack_kw_load)
        if not n:
            return
        notes = rack_notes(res)
        ids = res.compiled.racks.ids
        brushes = [
            theme.RACK_STATUS_COLORS[notes[i].status] if notes[i].status else pg.mkColor("#7fa7d9")
            for i in ids
        ]
        x = np.arange(n, dtype=float)
        self.power.addItem(pg.BarGraphItem(x=x, height=pw.rack_kw_load, width=0.8, brushes=brushes))
        budget = np.nan_to_num(pw.rack_budget_kw, nan=0.0)
        self.power.plot(
            x,
            budget,
            pen=None,
            symbol="_",
            symbolSize=14,
            symbolPen=pg.mkPen("#c00000", width=2),
            name=self.tr("budget"),
        )
        axis = self.power.getAxis("bottom")
        if n <= 60:
            every = max(1, -(-n // 16))  # at most ~16 names, so that they do not run into each other
            axis.setTicks([[(i, res.compiled.racks.names[i]) for i in range(0, n, every)]])
        else:
            axis.setTicks(None)

    def _power_clicked(self, ev) -> None:
        if self.res is None:
            return
        p: QPointF = self.power.getPlotItem().vb.mapSceneToView(ev.scenePos())
        i = round(p.x())
        n = len(self.res.compiled.racks.ids)
        if 0 <= i < n and abs(p.x() - i) <= 0.4:
            self.select_rack(i)

    def select_rack(self, index: int) -> str:
        rid = self.res.compiled.racks.ids[index]  # type: ignore[union-attr]
        self.selectItems.emit([rid])
        return rid

    # -- TCO --------------------------------------------------------------------------------------------
    def _tco(self, res: Results) -> None:
        self.tco.clear()
        c = res.cost
        years = np.arange(0, c.tco_years + 1, dtype=float)
        rate = c.usd_exchange_rate
        if c.money is not None:  # the yearly schedule: maintenance starts after the support in the price
            flows = sum(c.money.opex_usd_by_year.values())
            own = (c.capex_usd + np.concatenate([[0.0], np.cumsum(flows)])) * rate
        else:
            own = (c.capex_usd + c.opex_usd_per_year * years) * rate
        cloud = c.cloud_usd_per_year * years * rate
        top = float(np.nanmax(np.concatenate([own, cloud]))) if len(years) else 0.0
        div, label = fmt.money_scale(top, c.currency)  # "USD (millions)", or 万元 / 亿元 in Chinese
        own, cloud = own / div, cloud / div
        self.tco.setLabel("left", label)
        self.tco.plot(years, own, pen=pg.mkPen("#4472c4", width=2), symbol="o", symbolBrush="#4472c4")
        self.tco.plot(
            years,
            cloud,
            pen=pg.mkPen("#ed7d31", width=2, style=pg.QtCore.Qt.PenStyle.DashLine),
            symbol="t",
            symbolBrush="#ed7d31",
        )
        cloud_text = self.tr("cloud at {p} USD/GPU·h, {u} % used").format(
            p=fmt.short(c.cloud_usd_per_gpu_hour),
            u=fmt.number(self.doc.project.site.expected_utilization * 100),
        )
        self.tco_legend.setText(
            legend_html([("#4472c4", self.tr("own: capex + opex")), ("#ed7d31", cloud_text)])
        )

    # -- sensitivity --------------------------------------------------------------------------------------
    def driver_label(self, driver: str) -> str:
        return {
            "electricity_price": self.tr("electricity price"),
            "utilization": self.tr("utilisation"),
            "gpu_price": self.tr("GPU price"),
            "cloud_price": self.tr("cloud price"),
            "pue": self.tr("PUE"),
            "discount_rate_pct": self.tr("discount rate"),
        }.get(driver, driver)

    def tornado_bars(self, res: Results) -> list[tuple[str, float, float]]:
        """(driver, $/GPU-hour low, high) in the project's currency, largest swing first."""
        c = res.cost
        if c.inputs is None or not np.isfinite(c.usd_per_gpu_hour):
            return []
        r = c.usd_exchange_rate
        return [
            (s.driver, s.low.usd_per_gpu_hour * r, s.high.usd_per_gpu_hour * r) for s in tornado(c.inputs)
        ]

    def _tornado(self, res: Results) -> None:
        self.tornado.clear()
        bars = self.tornado_bars(res)
        if not bars:
            self.tornado_legend.setText(self.tr("No cost per GPU-hour to vary (no GPUs or no utilisation)."))
            return
        base = res.cost.usd_per_gpu_hour * res.cost.usd_exchange_rate
        n = len(bars)
        ys = np.arange(n, 0, -1, dtype=float)  # the largest swing on top
        lo = np.array([min(b[1], b[2]) for b in bars])
        hi = np.array([max(b[1], b[2]) for b in bars])
        self.tornado.addItem(
            pg.BarGraphItem(x0=np.minimum(lo, base), x1=base, y=ys, height=0.6, brush="#4472c4", pen=None)
        )
        self.tornado.addItem(
            pg.BarGraphItem(x0=base, x1=np.maximum(hi, base), y=ys, height=0.6, brush="#ed7d31", pen=None)
        )
        self.tornado.addItem(pg.InfiniteLine(pos=base, angle=90, pen=pg.mkPen("#222", width=1)))
        ticks = [(float(y), self.driver_label(b[0])) for y, b in zip(ys, bars, strict=True)]
        self.tornado.getAxis("left").setTicks([ticks])
        self.tornado.setLabel("bottom", self.tr("{cur} per GPU-hour").format(cur=res.cost.currency))
        self.tornado_legend.setText(
            legend_html(
                [
                    ("#4472c4", self.tr("input lowered or raised: cheaper")),
                    ("#ed7d31", self.tr("dearer")),
                ]
            )
            + " &nbsp; "
            + html.escape(
                self.tr("base {v}; ranges in catalogs/assumptions/cost.yaml").format(v=fmt.number(base, 2))
            )
        )
