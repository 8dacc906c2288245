"""The floor-plan tab: a phase filter, buttons to add rows and cooling/power units, the zoomable plan, the
details of the selection (a rack's cable runs and media, a unit's load against its rating, editable) and a
legend. Edits go through ``Document.push`` like every other edit, so Edit ▸ Undo takes a drop back.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.commands import Command, RemoveRows, SetFields
from gpuplanner.core.errors import PlannerError
from gpuplanner.model import ChangeSet
from gpuplanner.ui import field_labels
from gpuplanner.ui.document import Document
from gpuplanner.ui.floor import layout as fl
from gpuplanner.ui.floor.details import FloorWords
from gpuplanner.ui.floor.scene import (
    AISLE_COLORS,
    DENSITY_COLORS,
    OVERLOAD,
    PX_PER_M,
    FloorScene,
    RackTile,
    UnitTile,
    density_labels,
    tile_metres,
)
from gpuplanner.ui.floor.widgets import FloorGraphicsView, swatch

FLOOR_TABLES = {"racks", "aisle_rows", "floor_items", "site", "phases"}


class FloorPlanPanel(QWidget):
    message = Signal(str)
    racksSelected = Signal(list)  # noqa: N815 (Qt signal naming) — racks the user selected on the plan

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.phase_id: str | None = None
        self.scene = FloorScene(self._dropped)
        self.view = FloorGraphicsView(self.scene)
        self._dirty = True
        self._fit_pending = True
        self._pending_cables: dict[str, dict] = {}
        self.words = FloorWords(self)
        self.last_cable_note = ""
        self._rebuild_timer = QTimer(self)
        self._rebuild_timer.setSingleShot(True)
        self._rebuild_timer.setInterval(0)
        self._rebuild_timer.timeout.connect(self.rebuild)
        self._build_ui()
        doc.changed.connect(self._on_changed)
        doc.resultsReady.connect(self._on_results)
        doc.projectReplaced.connect(self._on_replaced)
        self.scene.selectionChanged.connect(self._show_details)

    # -- widgets ----------------------------------------------------------------------------------------
    def _build_ui(self) -> None:
        bar = QHBoxLayout()
        self.add_row_button = QPushButton(self.tr("Add row"))
        self.add_row_button.setToolTip(self.tr("Add an empty row of racks after the last one"))
        self.add_row_button.clicked.connect(self.add_row)
        bar.addWidget(self.add_row_button)
        self.add_unit_button = QToolButton()
        self.add_unit_button.setText(self.tr("Add unit"))
        self.add_unit_button.setToolTip(self.tr("Place a cooling or power unit on the floor"))
        self.add_unit_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.add_unit_button)
        for kind in fl.UNIT_KINDS:
            act = QAction(fl.unit_kind_name(kind), menu)
            act.triggered.connect(lambda _c=False, k=kind: self.add_unit(k))
            menu.addAction(act)
        self.add_unit_button.setMenu(menu)
        bar.addWidget(self.add_unit_button)
        fit = QPushButton(self.tr("Fit"))
        fit.setToolTip(self.tr("Show the whole hall"))
        fit.clicked.connect(self.view.fit)
        bar.addWidget(fit)
        self.summary = QLabel()
        bar.addWidget(self.summary, 1)

        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.unit_form = QWidget()
        form = QFormLayout(self.unit_form)
        form.setContentsMargins(0, 0, 0, 0)
        self.unit_name = QLineEdit()
        self.unit_name.editingFinished.connect(self._unit_name_edited)
        self.unit_capacity = QDoubleSpinBox()
        self.unit_capacity.setRange(0, 1_000_000)
        self.unit_capacity.setDecimals(1)
        self.unit_capacity.setSuffix(" kW")
        self.unit_capacity.setSpecialValueText(self.tr("not rated"))
        self.unit_capacity.editingFinished.connect(self._unit_capacity_edited)
        self.unit_row = QComboBox()
        self.unit_row.activated.connect(self._unit_row_edited)
        form.addRow(self.tr("Name"), self.unit_name)
        form.addRow(self.tr("Rated capacity"), self.unit_capacity)
        form.addRow(self.tr("Serves"), self.unit_row)
        self.unit_form.hide()
        self.row_box = QGroupBox(self.tr("Row"))
        row_form = QFormLayout(self.row_box)
        self.row_pick = QComboBox()
        self.row_pick.currentIndexChanged.connect(self._fill_row_form)
        self.row_aisle = QComboBox()
        self.row_aisle.addItem(self.tr("cold aisle"), "cold")
        self.row_aisle.addItem(self.tr("hot aisle"), "hot")
        self.row_aisle.activated.connect(self._row_edited)
        self.row_contained = QCheckBox(self.tr("aisle contained"))
        self.row_contained.toggled.connect(self._row_edited)
        row_form.addRow(self.tr("Row"), self.row_pick)
        row_form.addRow(self.tr("Rack fronts face"), self.row_aisle)
        row_form.addRow("", self.row_contained)
        side = QWidget()
        side_lay = QVBoxLayout(side)
        side_lay.addWidget(self.unit_form)
        side_lay.addWidget(self.details, 1)
        side_lay.addWidget(self.row_box)
        side.setMinimumWidth(240)
        side_lay.setSizeConstraint(QVBoxLayout.SizeConstraint.SetMinimumSize)  # never narrower than its form

        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(side)
        split.setStretchFactor(0, 1)
        split.setSizes([900, 280])

        legend = QHBoxLayout()
        legend.addWidget(QLabel(self.tr("Rack kW at maximum:")))
        for color, text in zip(DENSITY_COLORS, density_labels(), strict=True):
            legend.addWidget(swatch(color, text))
        legend.addStretch(1)
        # Aisles and units on a second line: one line would set the window's minimum width (too wide for a
        # 1,600 px screen with larger text, or in Chinese).
        legend2 = QHBoxLayout()
        legend2.addWidget(swatch(AISLE_COLORS["cold"], self.tr("cold aisle")))
        legend2.addWidget(swatch(AISLE_COLORS["hot"], self.tr("hot aisle")))
        legend2.addWidget(swatch(OVERLOAD.lighter(160), self.tr("unit over its rating")))
        legend2.addWidget(swatch(QColor("white"), self.tr("unit not rated"), dashed=True))
        legend2.addStretch(1)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(split, 1)
        lay.addLayout(legend)
        lay.addLayout(legend2)

    # -- keeping up with the document ------------------------------------------------------------------
    def _on_changed(self, cs: ChangeSet) -> None:
        if FLOOR_TABLES & set(cs.tables):
            self._dirty = True
            if self.isVisible():
                self._rebuild_timer.start()

    def _on_replaced(self) -> None:
        self._dirty = True
        self._fit_pending = True
        if self.isVisible():
            self._rebuild_timer.start()

    def _on_results(self, res: object) -> None:
        if self._pending_cables:
            self._report_cable_changes()
        if not self._dirty:
            self.scene.apply_results(self.doc.results)
            self._show_details()

    def _report_cable_changes(self) -> None:
        """After a rack moved: say how its cable runs changed (media and longest run), from the new results."""
        pending, self._pending_cables = self._pending_cables, {}
        notes = self.words.cable_changes(self.doc.project, self.doc.results, pending)
        if notes:
            self.last_cable_note = "; ".join(notes)
            self.message.emit(self.last_cable_note)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if self._dirty:
            self.rebuild()

    def rebuild(self) -> None:
        selected = self.scene.selected_ids()
        self.scene.rebuild(self.doc.project, fl.phase_allowed(self.doc.project, self.phase_id))
        self._dirty = False
        for i in selected:
            tile = self.scene.racks.get(i) or self.scene.units.get(i)
            if tile is not None:
                tile.setSelected(True)
        self.scene.apply_results(self.doc.results)
        if self._fit_pending and self.isVisible():
            self._fit_pending = False
            self.view.fit()
        self.scene.update_lod(self.view.scale_now())
        self._update_summary()
        self._fill_row_pick()
        self._show_details()

    def _update_summary(self) -> None:
        lay = self.scene.layout
        if lay is None:
            return
        over = sum(1 for u in self.scene.units.values() if u.overloaded)
        self.summary.setText(
            self.words.summary(len(self.scene.racks), len(lay.rows), len(self.scene.units), over)
        )

    # -- phases -----------------------------------------------------------------------------------------
    def set_phase(self, phase_id: str | None) -> None:
        """Show the floor at the end of ``phase_id`` (None = all phases); the picker is the main window's."""
        self.phase_id = phase_id or None
        if self.isVisible():
            self.rebuild()
        else:
            self._dirty = True

    # -- edits ------------------------------------------------------------------------------------------
    def _push(self, cmd: Command) -> bool:
        try:
            self.doc.push(cmd)
        except PlannerError as exc:
            self.message.emit(field_labels.plain_error(exc))
            return False
        return True

    def _dropped(self, tiles: list) -> None:
        project = self.doc.project
        plans = []
        for tile in sorted(tiles, key=lambda t: (t.pos().y(), t.pos().x())):
            x, y = tile_metres(tile)
            if isinstance(tile, RackTile):
                plans.append(fl.move_rack(project, tile.item_id, x, y))
            elif isinstance(tile, UnitTile):
                plans.append(fl.move_unit(project, tile.item_id, x, y))
        todo = [p for p in plans if p.command is not None]
        for tile in tiles:
            if isinstance(tile, RackTile):
                self._pending_cables[tile.item_id] = self.rack_cables(tile.item_id)
        refused = [p.message for p in plans if p.command is None and p.message]
        # Qt must finish the mouse release before the scene is rebuilt under it.
        QTimer.singleShot(0, lambda: self._apply_drop(todo, refused))

    def _apply_drop(self, todo: list, refused: list[str]) -> None:
        self.last_cable_note = ""
        if len(todo) > 1:
            self.doc.undo_stack.beginMacro(self.words.move_items(len(todo)))
        done = [p for p in todo if self._push(p.command)]
        if len(todo) > 1:
            self.doc.undo_stack.endMacro()
        if refused:
            self.message.emit(refused[0])
        elif done and not self.last_cable_note:  # (a synchronous solve may have reported the cables already)
            self.message.emit(done[-1].message)
        if not done:
            self._pending_cables = {}
            self.scene.snap_back()
        elif self._dirty:
            self.rebuild()

    def _new_item_point(self) -> tuple[float, float]:
        c = self.view.mapToScene(self.view.viewport().rect().center())
        return c.x() / PX_PER_M, c.y() / PX_PER_M

    def add_unit(self, kind: str) -> None:
        x, y = self._new_item_point()
        self._push(fl.add_unit(self.doc.project, kind, x, y, phase_id=self.phase_id or ""))
        self.message.emit(
            self.tr("Placed a new {kind}: enter its rated capacity on the right.").format(
                kind=fl.unit_kind_name(kind)
            )
        )

    def add_row(self) -> None:
        self._push(fl.add_row(self.doc.project))

    def delete_selected_units(self) -> None:
        ids = [i for i in self.scene.selected_ids() if i in self.scene.units]
        if ids:
            self._push(RemoveRows("floor_items", ids, text=self.words.delete_units(len(ids))))

    def _selected_unit(self):
        ids = [i for i in self.scene.selected_ids() if i in self.scene.units]
        if len(ids) != 1:
            return None
        return self.doc.project.tables["floor_items"].get(ids[0])

    def _unit_name_edited(self) -> None:
        u = self._selected_unit()
        name = self.unit_name.text().strip()
        if u is not None and name and name != u.name:
            self._push(
                SetFields(self.doc.project, "floor_items", u.id, text=self.tr("Rename unit"), name=name)
            )

    def _unit_capacity_edited(self) -> None:
        u = self._selected_unit()
        cap = float(self.unit_capacity.value())
        if u is not None and abs(cap - u.capacity_kw) > 1e-9:
            self._push(
                SetFields(
                    self.doc.project,
                    "floor_items",
                    u.id,
                    text=self.tr("Set the rating of {unit}").format(unit=u.name),
                    capacity_kw=cap,
                )
            )

    def _unit_row_edited(self, _index: int) -> None:
        u = self._selected_unit()
        row = self.unit_row.currentData() or ""
        if u is not None and row != u.row:
            self._push(
                SetFields(
                    self.doc.project,
                    "floor_items",
                    u.id,
                    text=self.tr("{unit} serves another row").format(unit=u.name),
                    row=row,
                )
            )

    # -- rows -------------------------------------------------------------------------------------------
    def _fill_row_pick(self, select: str | None = None) -> None:
        current = select or self.row_pick.currentData()
        self.row_pick.blockSignals(True)
        self.row_pick.clear()
        for band in self.scene.layout.rows if self.scene.layout else []:
            self.row_pick.addItem(band.label, band.label)
        self.row_pick.setCurrentIndex(max(self.row_pick.findData(current), 0))
        self.row_pick.blockSignals(False)
        self.row_box.setEnabled(self.row_pick.count() > 0)
        self._fill_row_form()

    def _band(self, label: str | None) -> fl.RowBand | None:
        lay = self.scene.layout
        return next((b for b in lay.rows if b.label == label), None) if lay else None

    def _fill_row_form(self, _index: int = 0) -> None:
        band = self._band(self.row_pick.currentData())
        if band is None:
            return
        self.row_aisle.blockSignals(True)
        self.row_contained.blockSignals(True)
        self.row_aisle.setCurrentIndex(max(self.row_aisle.findData(band.aisle), 0))
        self.row_contained.setChecked(band.contained)
        self.row_aisle.blockSignals(False)
        self.row_contained.blockSignals(False)

    def _row_edited(self, *_args) -> None:
        label = self.row_pick.currentData()
        band = self._band(label)
        if band is None:
            return
        aisle, contained = self.row_aisle.currentData(), self.row_contained.isChecked()
        if (aisle, contained) == (band.aisle, band.contained):
            return
        self._push(fl.set_row_aisle(self.doc.project, label, aisle, contained))

    # -- details of the selection -----------------------------------------------------------------------
    def _show_details(self) -> None:
        try:
            ids = self.scene.selected_ids()
        except RuntimeError:  # the scene is being destroyed with the window (it clears its selection)
            return
        unit = self._selected_unit()
        self.unit_form.setVisible(unit is not None)
        if unit is not None:
            self._fill_unit_form(unit)
            self.details.setText(self.scene.units[unit.id].tooltip().replace("\n", "<br>"))
            return
        racks = [i for i in ids if i in self.scene.racks]
        self.scene.show_runs(racks[0] if len(racks) == 1 else None, self.doc.results)
        if racks:  # the inspector and the rack elevation follow the plan's selection
            self.racksSelected.emit(racks)
        if len(racks) == 1:
            self.details.setText(self.rack_details(racks[0]))
            self._fill_row_pick(self.doc.project.racks[racks[0]].row)
        elif ids:
            self.details.setText(self.words.selected(len(ids)))
        else:
            self.details.setText(
                self.tr(
                    "Drag racks along and between rows; drag cooling and power units next to the racks they "
                    "serve. Select a rack to see its cable runs, a unit to edit its rating."
                )
            )

    def _fill_unit_form(self, unit) -> None:
        for w in (self.unit_name, self.unit_capacity, self.unit_row):
            w.blockSignals(True)
        self.unit_name.setText(unit.name)
        self.unit_capacity.setValue(unit.capacity_kw)
        self.unit_row.clear()
        self.unit_row.addItem(self.tr("the whole hall"), "")
        for band in self.scene.layout.rows if self.scene.layout else []:
            self.unit_row.addItem(self.tr("row {row}").format(row=band.label), band.label)
        self.unit_row.setCurrentIndex(max(self.unit_row.findData(unit.row), 0))
        for w in (self.unit_name, self.unit_capacity, self.unit_row):
            w.blockSignals(False)

    def rack_cables(self, rack_id: str) -> dict:
        """The runs that leave the rack: count, media, longest and total length, too long for any medium."""
        return fl.rack_cables(self.doc.results, rack_id)

    def rack_details(self, rack_id: str) -> str:
        tile = self.scene.racks.get(rack_id)
        kw = tile.kw_max if tile is not None else math.nan
        return self.words.rack_details(self.doc.project, self.doc.results, rack_id, kw)
