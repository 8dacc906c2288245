"""The catalog palette: entries grouped GPUs / servers / switches / storage / racks, searchable, dragged
onto the canvas (mime type ``interactions.CATALOG_MIME`` carrying the catalog id). Entries are named in the
UI language as the report names them (``ui.entry_names``); the search finds an entry by its id, vendor,
English name or Chinese name in either language."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtWidgets import QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.types import CatalogEntry, GpuType, RackType, ServerType, StorageType, SwitchType
from gpuplanner.ui import fmt
from gpuplanner.ui.canvas.interactions import CATALOG_MIME
from gpuplanner.ui.entry_names import entry_name, search_text
from gpuplanner.ui.i18n import current_language

ID_ROLE = Qt.ItemDataRole.UserRole


class CatalogTree(QTreeWidget):
    def mimeTypes(self) -> list[str]:  # noqa: N802 (Qt API)
        return [CATALOG_MIME]

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData:  # noqa: N802 (Qt API)
        mime = QMimeData()
        ids = [i.data(0, ID_ROLE) for i in items if i.data(0, ID_ROLE)]
        if ids:
            mime.setData(CATALOG_MIME, ids[0].encode("utf-8"))
            mime.setText(ids[0])
        return mime


class Palette(QWidget):
    activated = Signal(str)  # catalog id (double click: add at the centre of the canvas)

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search the catalog (name, vendor, id)…"))
        self.search.setClearButtonEnabled(True)
        self.tree = CatalogTree()
        self.tree.setHeaderHidden(True)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QTreeWidget.DragDropMode.DragOnly)
        self.tree.setRootIsDecorated(True)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.search)
        layout.addWidget(self.tree)
        self.search.textChanged.connect(self.filter)
        self.populate()

    def groups(self) -> list[tuple[str, str]]:
        return [
            ("gpu", self.tr("GPUs")),
            ("server", self.tr("Servers")),
            ("switch", self.tr("Switches")),
            ("storage", self.tr("Storage")),
            ("rack", self.tr("Racks")),
        ]

    def populate(self) -> None:
        self.tree.clear()
        for kind, title in self.groups():
            group = QTreeWidgetItem([title])
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            for e in self.catalog.of_kind(kind):
                item = QTreeWidgetItem([self.label(e)])
                item.setData(0, ID_ROLE, e.id)
                item.setToolTip(0, self.tooltip(e))
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled
                )
                group.addChild(item)
            self.tree.addTopLevelItem(group)
            group.setExpanded(kind != "gpu")

    def label(self, e: CatalogEntry) -> str:
        if current_language() != "en":
            return self.local_label(e)
        if isinstance(e, GpuType):
            return self.tr("{name} — {mem} GB").format(name=e.name, mem=fmt.short(e.mem_gb))
        if isinstance(e, ServerType):
            return self.tr("{name} — {n} GPU, {ru}U").format(name=e.name, n=e.gpu_count, ru=e.ru)
        if isinstance(e, SwitchType):
            return self.tr("{name} — {ports} ports").format(name=e.name, ports=e.radix())
        if isinstance(e, StorageType):
            return self.tr("{name} — {ru}U").format(name=e.name, ru=e.ru)
        if isinstance(e, RackType):
            return self.tr("{name} — {ru}U, {kw} kW").format(
                name=e.name, ru=e.ru, kw=fmt.short(e.power_budget_kw)
            )
        return e.name

    def local_label(self, e: CatalogEntry) -> str:
        """The label in the UI language: the entry's name there (which holds the GPU count, memory, fabric
        ports or rack size already) and the figures it lacks."""
        name = entry_name(self.catalog, e)
        if isinstance(e, ServerType | StorageType):
            return self.tr("{name} — {ru}U").format(name=name, ru=e.ru)
        if isinstance(e, SwitchType):
            return self.tr("{name} — {ports} ports").format(name=name, ports=e.radix())
        if isinstance(e, RackType):
            return self.tr("{name} — {kw} kW").format(name=name, kw=fmt.short(e.power_budget_kw))
        return name

    def tooltip(self, e: CatalogEntry) -> str:
        lines = [f"{e.vendor} {e.model}", e.id]
        if isinstance(e, GpuType):
            lines.append(
                self.tr("BF16 dense {tf} TFLOPS, TDP {w} W").format(
                    tf=fmt.short(e.bf16_dense_tflops), w=fmt.short(e.tdp_w)
                )
            )
            lines.append(self.tr("dropping a GPU adds a server that carries it"))
        elif hasattr(e, "power_max_w"):
            lines.append(
                self.tr("{ru}U, up to {w} W").format(ru=getattr(e, "ru", 1), w=fmt.number(e.power_max_w))
            )
            for pg in getattr(e, "port_groups", ()):
                lines.append(f"  {pg.name}: {pg.count} × {pg.speed_gbps:g}G {pg.type}")
        if e.estimate:
            lines.append(self.tr("figures marked as estimates"))
        desc = e.describe(current_language())  # the catalog's Chinese description when the UI is in Chinese
        if desc:
            lines.append(desc)
        return "\n".join(lines)

    def filter(self, text: str) -> None:
        words = text.lower().split()
        for g in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(g)
            shown = 0
            for k in range(group.childCount()):
                item = group.child(k)
                e = self.catalog.entries.get(item.data(0, ID_ROLE))
                hay = f"{item.text(0)} {search_text(self.catalog, e) if e else ''}".lower()
                hide = not all(w in hay for w in words)
                item.setHidden(hide)
                shown += not hide
            group.setHidden(shown == 0)
            if words:
                group.setExpanded(True)

    def _double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        type_id = item.data(0, ID_ROLE)
        if type_id:
            self.activated.emit(type_id)
