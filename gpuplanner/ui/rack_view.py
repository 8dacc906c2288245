"""Rack elevation: a front view of the racks of one row (the selected rack's), each device in its U slots
with its name, model and kW, and each rack's totals (kW at load and maximum against budget, U used, cooling),
like NetBox's elevations. Printable (QPrinter, with the print dialog) and exportable to PDF.

The drawing scales for a projector or a small dock: Ctrl+wheel zooms about the pointer, "Fit height" makes
the tallest rack fill the view's height (and keeps it so when the dock is resized, until the next zoom).
The zoom is remembered for the session (``RackElevation.session_zoom``); clicks are mapped back through it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QMouseEvent,
    QPageLayout,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.model import Device, Project, Rack
from gpuplanner.ui import theme
from gpuplanner.ui.canvas.annotations import fmt_kw, rack_notes
from gpuplanner.ui.canvas.geometry import device_ru, rack_ru
from gpuplanner.ui.document import Document
from gpuplanner.ui.entry_names import entry_name

COL_W, GAP, U_H, HEAD_H, MARGIN = 240.0, 32.0, 15.0, 74.0, 24.0
ZOOM_MIN, ZOOM_MAX, ZOOM_STEP = 0.1, 5.0, 1.2


def px_font(px: int, bold: bool = False) -> QFont:
    """Fonts in pixels, so that the drawing scales the same on screen and on a 1,200 dpi printer."""
    f = QFont()
    f.setPixelSize(px)
    f.setBold(bold)
    return f


def elide_lines(p: QPainter, lines: list[str], width: float) -> str:
    """The lines, each shortened with … to fit ``width`` in the painter's current font."""
    fm = p.fontMetrics()
    return "\n".join(fm.elidedText(t, Qt.TextElideMode.ElideRight, int(width)) for t in lines)


@dataclass
class Slot:
    device: Device
    rect: QRectF
    kw: float


class ElevationCanvas(QWidget):
    clicked = Signal(str)

    def __init__(self, view: RackElevation) -> None:
        super().__init__()
        self.view = view
        self.slots: list[Slot] = []

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        return self.view.scaled_size()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt API)
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("white"))
        p.scale(self.view.zoom, self.view.zoom)
        self.slots = self.view.draw(p)  # in drawing coordinates (unscaled)
        p.end()

    def slot_at(self, pos: QPointF) -> Slot | None:
        """The device drawn under ``pos`` (widget pixels, at the current zoom)."""
        z = self.view.zoom
        here = QPointF(pos.x() / z, pos.y() / z)
        return next((s for s in self.slots if s.rect.contains(here)), None)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt API)
        slot = self.slot_at(event.position())
        if slot is not None:
            self.clicked.emit(slot.device.id)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt API)
        if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            event.ignore()  # the scroll area scrolls
            return
        steps = event.angleDelta().y() / 120
        if steps:
            self.view.zoom_at(self.view.zoom * ZOOM_STEP**steps, event.position())
        event.accept()


class _Scroll(QScrollArea):
    """The elevation's scroll area: tells the view when its height changes (for "Fit height")."""

    resized = Signal()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.resized.emit()


class RackElevation(QWidget):
    selectItems = Signal(list)  # noqa: N815 (Qt signal naming)
    # The zoom of this session: a new elevation (new window, language switch) starts from it.
    session_zoom: float = 1.0
    session_fit: bool = False

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.row_label = ""
        self.zoom = RackElevation.session_zoom
        self.fit = RackElevation.session_fit
        self.rows = QComboBox()
        self.rows.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.rows.activated.connect(lambda _i: self.show_row(self.rows.currentData()))
        print_button = QPushButton(self.tr("Print…"))
        print_button.clicked.connect(self.print_dialog)
        zoom_out, zoom_in = QToolButton(), QToolButton()
        zoom_out.setText("−")
        zoom_out.setToolTip(self.tr("Smaller (Ctrl+wheel)"))
        zoom_out.clicked.connect(lambda: self.set_zoom(self.zoom / ZOOM_STEP))
        zoom_in.setText("+")
        zoom_in.setToolTip(self.tr("Larger (Ctrl+wheel)"))
        zoom_in.clicked.connect(lambda: self.set_zoom(self.zoom * ZOOM_STEP))
        self.zoom_label = QLabel()
        self.fit_button = QPushButton(self.tr("Fit height"))
        self.fit_button.setCheckable(True)
        self.fit_button.setToolTip(
            self.tr("Scale the drawing so that the tallest rack fills the height of the view")
        )
        self.fit_button.clicked.connect(self._fit_clicked)
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Row:")))
        bar.addWidget(self.rows)
        bar.addStretch(1)
        bar.addWidget(zoom_out)
        bar.addWidget(self.zoom_label)
        bar.addWidget(zoom_in)
        bar.addWidget(self.fit_button)
        bar.addWidget(print_button)
        self.canvas = ElevationCanvas(self)
        self.canvas.clicked.connect(lambda did: self.selectItems.emit([did]))
        self.scroll = _Scroll()
        self.scroll.setWidget(self.canvas)
        self.scroll.setWidgetResizable(False)
        self.scroll.resized.connect(self._on_resized)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.scroll, 1)
        doc.selectionChanged.connect(self._on_selection)
        doc.changed.connect(lambda _cs: self.refresh())
        doc.resultsReady.connect(lambda _r: self.refresh())
        doc.projectReplaced.connect(lambda: self.show_row(""))
        self.show_row("")

    @property
    def project(self) -> Project:
        return self.doc.project

    def row_labels(self) -> list[str]:
        return sorted({r.row for r in self.project.racks.values()})

    def racks(self) -> list[Rack]:
        return sorted(
            (r for r in self.project.racks.values() if r.row == self.row_label),
            key=lambda r: (r.position, r.name),
        )

    def show_row(self, label: str | None) -> None:
        # racks per row in one pass (per row over every rack: 0.3 s at 131k GPUs, 5,167 racks)
        per_row = Counter(r.row for r in self.project.racks.values())
        labels = sorted(per_row)
        self.row_label = label if label in per_row else (labels[0] if labels else "")
        self.rows.blockSignals(True)
        self.rows.clear()
        for lab in labels:
            n = per_row[lab]
            self.rows.addItem(self.tr("{row} (%Ln rack(s))", None, n).format(row=lab), lab)
        self.rows.setCurrentIndex(labels.index(self.row_label) if self.row_label in labels else -1)
        self.rows.blockSignals(False)
        self.refresh()

    def refresh(self) -> None:
        if self.fit:
            self.zoom = self._fit_zoom()
        self.canvas.resize(self.scaled_size())
        self.canvas.update()
        self.zoom_label.setText(f"{self.zoom * 100:.0f} %")
        self.fit_button.setChecked(self.fit)

    # -- zoom -------------------------------------------------------------------------------------------
    def scaled_size(self) -> QSize:
        size = self.content_size().size()
        return QSize(round(size.width() * self.zoom), round(size.height() * self.zoom))

    def _remember(self) -> None:
        RackElevation.session_zoom, RackElevation.session_fit = self.zoom, self.fit

    def set_zoom(self, zoom: float) -> None:
        """A zoom of the user's (it ends "Fit height")."""
        self.fit = False
        self.zoom = min(max(zoom, ZOOM_MIN), ZOOM_MAX)
        self._remember()
        self.refresh()

    def zoom_at(self, zoom: float, pos: QPointF) -> None:
        """Zoom keeping the drawing point under ``pos`` (canvas pixels) where it is on the screen."""
        old = self.zoom
        bars = self.scroll.horizontalScrollBar(), self.scroll.verticalScrollBar()
        on_screen = (pos.x() - bars[0].value(), pos.y() - bars[1].value())
        self.set_zoom(zoom)
        k = self.zoom / old
        bars[0].setValue(round(pos.x() * k - on_screen[0]))
        bars[1].setValue(round(pos.y() * k - on_screen[1]))

    def fit_height(self) -> None:
        """The tallest rack, its header and the margins fill the view's height."""
        self.fit = True
        self._remember()
        self.refresh()
        self.refresh()  # again: the first fit may have added or removed the horizontal scroll bar

    def _fit_clicked(self, checked: bool) -> None:
        if checked:
            self.fit_height()
        else:
            self.set_zoom(self.zoom)

    def _fit_zoom(self) -> float:
        height = self.scroll.viewport().height()
        content = self.content_size()
        bar = self.scroll.horizontalScrollBar()
        wide = content.width() * height / content.height() > self.scroll.viewport().width()
        if wide and not bar.isVisible():
            height -= bar.sizeHint().height()  # the bar the fitted drawing will need
        return min(max(height / content.height(), ZOOM_MIN), ZOOM_MAX)

    def _on_resized(self) -> None:
        if self.fit:
            self.refresh()

    def _on_selection(self, ids: list[str]) -> None:
        p = self.project
        for i in ids:
            rack = p.racks.get(i) or (
                p.racks.get(p.devices[i].rack_id) if i in p.devices and p.devices[i].rack_id else None
            )
            if rack is not None:
                if rack.row != self.row_label:
                    self.show_row(rack.row)
                return

    def content_size(self) -> QRectF:
        racks = self.racks()
        tallest = max((rack_ru(self.project, r) for r in racks), default=42)
        return QRectF(0, 0, 2 * MARGIN + len(racks) * (COL_W + GAP), 2 * MARGIN + HEAD_H + tallest * U_H + 10)

    # -- drawing (screen and printer) -------------------------------------------------------------------
    def draw(self, p: QPainter) -> list[Slot]:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        res = self.doc.results
        notes = rack_notes(res) if res is not None else {}
        load = {}
        if res is not None:
            load = {did: res.power.device_load_w[i] / 1000 for did, i in res.compiled.devices.row.items()}
        slots: list[Slot] = []
        x = MARGIN
        for rack in self.racks():
            slots += self._rack(p, rack, x, notes.get(rack.id), load)
            x += COL_W + GAP
        if not self.project.racks:
            p.setFont(px_font(13))
            p.setPen(QColor(90, 90, 90))
            p.drawText(
                QRectF(0, 0, 600, 80),
                Qt.AlignmentFlag.AlignCenter,
                self.tr("No racks yet: drop a rack from the catalog onto the canvas."),
            )
        return slots

    def _rack(self, p: QPainter, rack: Rack, x: float, note, load: dict[str, float]) -> list[Slot]:
        ru = rack_ru(self.project, rack)
        devs = sorted(
            (d for d in self.project.devices.values() if d.rack_id == rack.id),
            key=lambda d: d.u_position or 0,
        )
        used = sum(device_ru(self.project, d) for d in devs)
        status = note.status if note else theme.RACK_OK
        color = theme.RACK_STATUS_COLORS[status]
        head = QRectF(x, MARGIN, COL_W, HEAD_H - 8)
        p.setPen(QPen(color, 1.5))
        p.setBrush(QColor(color.red(), color.green(), color.blue(), 30))
        p.drawRect(head)
        p.setFont(px_font(13, bold=True))
        p.setPen(QColor(20, 20, 20))
        p.drawText(
            head.adjusted(6, 3, -6, 0), Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft, rack.name
        )
        p.setFont(px_font(11))
        lines = [self.tr("{used} of {ru} U used").format(used=used, ru=ru)]
        if note is not None and self.doc.results is not None:
            i = self.doc.results.compiled.racks.row[rack.id]
            pw = self.doc.results.power
            lines = [
                self.tr("{load} kW at load, {peak} kW max").format(
                    load=fmt_kw(pw.rack_kw_load[i]), peak=fmt_kw(pw.rack_kw_max[i])
                ),
                self.tr("budget {budget} kW · {used} of {ru} U used").format(
                    budget=fmt_kw(pw.rack_budget_kw[i]), used=used, ru=ru
                ),
            ]
            method = self.doc.results.thermal.table.methods[int(self.doc.results.thermal.rack_cooling[i])]
            lines.append(self.tr("cooling: {m}").format(m=theme.cooling_method_name(method)))
        p.setPen(color if status != theme.RACK_OK else QColor(50, 50, 50))
        p.drawText(
            head.adjusted(6, 20, -6, 0),
            Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft,
            elide_lines(p, lines, head.width() - 12),
        )
        top = MARGIN + HEAD_H
        frame = QRectF(x + 22, top, COL_W - 22, ru * U_H)
        p.setPen(QPen(QColor(60, 60, 60), 1.2))
        p.setBrush(theme.RACK_FILL)
        p.drawRect(frame)
        p.setPen(QColor(140, 140, 140))
        p.setFont(px_font(9))
        for u in range(1, ru + 1):
            y = top + (ru - u) * U_H
            p.drawText(
                QRectF(x, y, 19, U_H), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(u)
            )
            p.drawLine(frame.left(), y, frame.left() + 4, y)
        return [self._device(p, d, frame, ru, load.get(d.id, 0.0)) for d in devs if d.u_position]

    def _device(self, p: QPainter, d: Device, frame: QRectF, ru: int, kw: float) -> Slot:
        n = device_ru(self.project, d)
        y = frame.top() + (ru - (d.u_position + n - 1)) * U_H
        r = QRectF(frame.left() + 3, y + 1, frame.width() - 6, n * U_H - 2)
        p.setPen(QPen(theme.ROLE_BORDER, 1))
        p.setBrush(theme.role_color(d.role))
        p.drawRect(r)
        entry = self.project.catalog.entries.get(d.type_id)
        model = entry_name(self.project.catalog, entry) if entry else d.type_id
        lines = [f"{d.name} · {fmt_kw(kw)} kW"] if n == 1 else [d.name, model, f"{fmt_kw(kw)} kW"]
        p.setPen(QColor(20, 20, 20))
        p.setFont(px_font(11 if n > 1 else 10))
        text = elide_lines(p, lines, r.width() - 8)
        p.drawText(r.adjusted(4, 0, -4, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        return Slot(d, r, kw)

    # -- printing ---------------------------------------------------------------------------------------
    def print_to(self, printer: QPrinter) -> None:
        """The row on one landscape page, scaled to fit."""
        printer.setPageOrientation(QPageLayout.Orientation.Landscape)
        p = QPainter(printer)
        try:
            page = printer.pageRect(QPrinter.Unit.DevicePixel)
            size = self.content_size()
            s = min(page.width() / size.width(), page.height() / size.height())
            p.scale(s, s)
            self.draw(p)
        finally:
            p.end()

    def export_pdf(self, path: str) -> None:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(path)
        self.print_to(printer)

    def print_dialog(self) -> None:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dlg = QPrintDialog(printer, self)
        if dlg.exec():
            self.print_to(printer)
