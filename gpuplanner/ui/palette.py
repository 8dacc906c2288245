"""The catalog palette: entries grouped GPUs / servers / switches / storage / racks, searchable, dragged
onto the canvas (mime type ``interactions.CATALOG_MIME`` carrying the catalog id). Entries are named in the
UI language as the report names them (``ui.entry_names``); in Chinese a row leaves out the kind word its
group's title says ("DGX B200（8 × B200 …） — 10U" under 服务器), the tooltip gives the full name. The search
finds an entry by its id, vendor, English name or full Chinese name in either language."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtWidgets import QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.names import kind_word
from gpuplanner.catalog.types import CatalogEntry, GpuType, RackType, ServerType, StorageType, SwitchType
from gpuplanner.ui import fmt
from gpuplanner.ui.canvas.interactions import CATALOG_MIME
from gpuplanner.ui.entry_names import entry_name, search_text
from gpuplanner.ui.i18n import current_language

ID_ROLE = Qt.ItemDataRole.UserRole
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1  # what a search matches, lower case: made once per populate


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
            entries = list(self.catalog.of_kind(kind))
            shared = self.shared_kind_word(entries)
            for e in entries:
                item = QTreeWidgetItem([self.label(e, shared)])
                item.setData(0, ID_ROLE, e.id)
                item.setData(0, SEARCH_ROLE, f"{item.text(0)} {search_text(self.catalog, e)}".lower())
                item.setToolTip(0, self.tooltip(e))
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled
                )
                group.addChild(item)
            self.tree.addTopLevelItem(group)
            group.setExpanded(kind != "gpu")

    def shared_kind_word(self, entries: Sequence[CatalogEntry]) -> str:
        """The kind word every row of a group ends its kind with, which the group's title already says
        (Chinese: "服务器" when the group holds GPU and CPU servers, "GPU 服务器" when only GPU servers,
        "交换机" under InfiniBand and Ethernet switches); empty in English, whose labels are the names."""
        lang = current_language()
        if lang == "en" or not entries:
            return ""
        words = {kind_word(e, lang) for e in entries}
        shared = os.path.commonprefix([w[::-1] for w in words])[::-1]
        return shared.strip()

    def label(self, e: CatalogEntry, shared: str = "") -> str:
        if current_language() != "en":
            return self.local_label(e, shared)
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

    def tree_name(self, e: CatalogEntry, shared: str = "") -> str:
        """The entry's name as its row shows it: the name in the UI language without the leading kind word
        ``shared`` that the group's title says already, keeping the words that tell rows apart ("以太网"
        before an Ethernet switch among InfiniBand ones): "GPU 服务器 DGX B200（8 × B200 …）" → "DGX B200（8 ×
        B200 …）", "机柜（48U，600 × 1,200 mm）" → "48U，600 × 1,200 mm". The tooltip and the search keep the
        full name."""
        name = entry_name(self.catalog, e)
        kind = kind_word(e, current_language())
        if not shared or not kind.endswith(shared) or not name.startswith(kind):
            return name
        rest = name[len(kind) :].strip()
        if rest.startswith("（") and rest.endswith("）") and rest.count("（") == 1:  # figures only
            rest = rest[1:-1]
        if not rest:
            return name
        keep = kind[: len(kind) - len(shared)].strip()  # the word that tells this row from the others
        return f"{keep} {rest}" if keep else rest

    def local_label(self, e: CatalogEntry, shared: str = "") -> str:
        """The label in the UI language: the entry's name there (which holds the GPU count, memory, fabric
        ports or rack size already; without the kind word its group says) and the figures it lacks."""
        name = self.tree_name(e, shared)
        if isinstance(e, ServerType | StorageType):
            return self.tr("{name} — {ru}U").format(name=name, ru=e.ru)
        if isinstance(e, SwitchType):
            return self.tr("{name} — {ports} ports").format(name=name, ports=e.radix())
        if isinstance(e, RackType):
            return self.tr("{name} — {kw} kW").format(name=name, kw=fmt.short(e.power_budget_kw))
        return name

    def tooltip(self, e: CatalogEntry) -> str:
        lines = [f"{e.vendor} {e.model}", e.id]
        if current_language() != "en":  # the full name in the UI language: the row may leave out its kind
            lines.insert(0, entry_name(self.catalog, e))
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
                hay = item.data(0, SEARCH_ROLE) or ""
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
