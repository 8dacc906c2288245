"""The welcome screen: shown at start when no file is given and nothing was restored, and from File ▸ Welcome….

Recent projects (missing files greyed and marked), new projects from the template presets
(``topology.presets``), the bundled example projects, Open… and a blank project. Choosing one goes through the
main window (``open_file`` / ``new_project``), so the unsaved-changes question applies; the dialog closes
once the main window holds the choice. Enter opens the selected item, Esc closes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
)

from gpuplanner.topology.presets import PRESETS, Preset
from gpuplanner.ui import i18n
from gpuplanner.ui.paths import examples_dir
from gpuplanner.ui.vocabulary import FILE_FILTER

if TYPE_CHECKING:
    from gpuplanner.ui.main_window import MainWindow

KIND_ROLE = Qt.ItemDataRole.UserRole  # "recent" | "preset" | "example"
VALUE_ROLE = Qt.ItemDataRole.UserRole + 1  # the path or preset id
SUBTITLE_ROLE = Qt.ItemDataRole.UserRole + 2
MISSING_ROLE = Qt.ItemDataRole.UserRole + 3
EXAMPLE_ORDER = ("phased-pilot-to-su.gpuplan", "cluster-256-h100.gpuplan", "superpod-1024-h100.gpuplan")


@contextlib.contextmanager
def busy_cursor() -> Iterator[None]:
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        yield
    finally:
        QApplication.restoreOverrideCursor()


class CardDelegate(QStyledItemDelegate):
    """Two lines per item: a bold title and a wrapped, muted subtitle; missing files are greyed."""

    PAD = 8

    def _fonts(self, option: QStyleOptionViewItem) -> tuple[QFont, QFont]:
        title = QFont(option.font)
        title.setBold(True)
        return title, QFont(option.font)

    def _text_width(self, option: QStyleOptionViewItem) -> int:
        view = option.widget
        width = view.viewport().width() if isinstance(view, QAbstractItemView) else option.rect.width()
        return max(120, width - 2 * self.PAD)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802 (Qt API)
        title_font, sub_font = self._fonts(option)
        width = self._text_width(option)
        sub = index.data(SUBTITLE_ROLE) or ""
        sub_h = (
            QFontMetrics(sub_font).boundingRect(QRect(0, 0, width, 10_000), _WRAP, sub).height() if sub else 0
        )
        return QSize(width, self.PAD + QFontMetrics(title_font).height() + 3 + sub_h + self.PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        missing = bool(index.data(MISSING_ROLE))
        pal = option.palette
        if selected:
            main = sub_color = pal.color(QPalette.ColorRole.HighlightedText)
        elif missing:  # greyed, but still legible: the marker in the title says why
            main = sub_color = pal.color(QPalette.ColorRole.PlaceholderText)
        else:
            main = pal.color(QPalette.ColorRole.Text)
            sub_color = pal.color(QPalette.ColorRole.PlaceholderText)
        title_font, sub_font = self._fonts(option)
        r = option.rect.adjusted(self.PAD, self.PAD, -self.PAD, -self.PAD)
        title_h = QFontMetrics(title_font).height()
        painter.save()
        painter.setFont(title_font)
        painter.setPen(main)
        title = QFontMetrics(title_font).elidedText(
            str(index.data(Qt.ItemDataRole.DisplayRole) or ""), Qt.TextElideMode.ElideMiddle, r.width()
        )
        painter.drawText(QRect(r.left(), r.top(), r.width(), title_h), Qt.AlignmentFlag.AlignLeft, title)
        painter.setFont(sub_font)
        painter.setPen(sub_color)
        sub_rect = QRect(r.left(), r.top() + title_h + 3, r.width(), r.height() - title_h - 3)
        painter.drawText(sub_rect, _WRAP, str(index.data(SUBTITLE_ROLE) or ""))
        painter.restore()


_WRAP = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)


class WelcomeDialog(QDialog):
    def __init__(self, window: MainWindow, examples: Path | None = None) -> None:
        super().__init__(window)
        self.window_ = window
        self.setObjectName("welcome")
        self.setWindowTitle(self.tr("Welcome to GPU Planner"))
        self.setModal(True)
        if examples is None:
            examples = examples_dir()
        self.examples = examples
        self.recent_list = self._list("recent")
        self.template_list = self._list("templates")
        self.example_list = self._list("examples")
        self._fill_recent()
        self._fill_templates()
        self._fill_examples()
        self._layout()
        self.resize(1040, 640)
        first = self.recent_list if self._first_existing_recent() is not None else self.template_list
        first.setFocus()
        if first is self.recent_list:
            first.setCurrentItem(self._first_existing_recent())
        else:
            first.setCurrentRow(0)

    # -- building -------------------------------------------------------------------------------------
    def _list(self, name: str) -> QListWidget:
        lst = QListWidget()
        lst.setObjectName(f"welcome-{name}")
        lst.setItemDelegate(CardDelegate(lst))
        lst.setUniformItemSizes(False)
        lst.setResizeMode(QListWidget.ResizeMode.Adjust)
        lst.setWordWrap(True)
        lst.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        lst.itemActivated.connect(self.open_item)
        lst.currentItemChanged.connect(lambda cur, _prev, lst=lst: self._on_current(lst, cur))
        return lst

    def _item(
        self, lst: QListWidget, kind: str, value: str, title: str, subtitle: str, tip: str = ""
    ) -> QListWidgetItem:
        item = QListWidgetItem(title, lst)
        item.setData(KIND_ROLE, kind)
        item.setData(VALUE_ROLE, value)
        item.setData(SUBTITLE_ROLE, subtitle)
        item.setToolTip(tip or subtitle)
        return item

    def _fill_recent(self) -> None:
        self.recent_list.clear()
        for path in self.window_.recent_files():
            p = Path(path)
            if p.is_file():
                self._item(self.recent_list, "recent", path, p.name, str(p.parent), path)
            else:
                item = self._item(
                    self.recent_list,
                    "recent",
                    path,
                    self.tr("{name} (missing)").format(name=p.name),
                    self.tr("no longer in {folder}").format(folder=p.parent),
                    self.tr("{path} was moved or deleted").format(path=path),
                )
                item.setData(MISSING_ROLE, True)
        if not self.recent_list.count():
            item = QListWidgetItem(self.tr("No recent projects yet"), self.recent_list)
            item.setData(SUBTITLE_ROLE, self.tr("Projects you open or save appear here."))
            item.setFlags(Qt.ItemFlag.NoItemFlags)

    def preset_texts(self) -> dict[str, tuple[str, str]]:
        """The presets' names and descriptions as the UI shows them (here, so that lupdate finds them; the
        English text is that of ``topology.presets``)."""
        return {
            "pilot-1-node": (
                self.tr("1-node pilot"),
                self.tr(
                    "One 8-GPU HGX H100 server on a 25/100 GbE switch (2 × 100 GbE) in a standard 12 kW "
                    "rack, with a management network: the pilot phase."
                ),
            ),
            "roce-4-node": (
                self.tr("4-node RoCE cluster"),
                self.tr(
                    "Four 8-GPU HGX H100 servers, 8 × 400 GbE RoCE v2 each on one Spectrum-4 switch, "
                    "with BeeGFS storage and management networks."
                ),
            ),
            "ib-su-32-node": (
                self.tr("32-node InfiniBand SU"),
                self.tr(
                    "One scalable unit of 32 DGX H100 on a rail-optimised, non-blocking NDR InfiniBand "
                    "leaf-spine, with Lustre storage and management networks."
                ),
            ),
            "superpod-128-node": (
                self.tr("128-node SuperPOD-like"),
                self.tr(
                    "Four scalable units of 32 DGX H100 on a rail-optimised NDR InfiniBand leaf-spine, "
                    "six Lustre appliances on a 400 GbE storage fabric, management network."
                ),
            ),
            "fat-tree-1024-node": (
                self.tr("1,024-node 3-tier fat tree"),
                self.tr(
                    "1,024 DGX H100 (32 scalable units) on a non-blocking 3-tier NDR InfiniBand fat tree, "
                    "rail-optimised, with 48 Lustre appliances on a 200 GbE storage fabric and a management "
                    "network."
                ),
            ),
        }

    def _preset_text(self, preset: Preset) -> tuple[str, str]:
        lang = i18n.current_language()
        return self.preset_texts().get(preset.id, (preset.name(lang), preset.description(lang)))

    def _fill_templates(self) -> None:
        catalog = self.window_.doc.project.catalog
        locale = i18n.ui_locale()
        for preset in PRESETS:
            name, desc = self._preset_text(preset)
            gpus = self.tr("{n} GPUs").format(n=locale.toString(preset.gpus(catalog)))
            self._item(self.template_list, "preset", preset.id, f"{name} · {gpus}", desc)

    def example_texts(self) -> dict[str, tuple[str, str]]:
        return {
            "phased-pilot-to-su.gpuplan": (
                self.tr("Phased build-out: pilot → RoCE → InfiniBand"),
                self.tr("Three phases up to 304 GPUs, with teams, quotas and a floor plan."),
            ),
            "cluster-256-h100.gpuplan": (
                self.tr("256-GPU cluster (Chinese, CNY)"),
                self.tr("32 HGX H100 servers on NDR InfiniBand, a Llama 3 70B fine-tuning job."),
            ),
            "superpod-1024-h100.gpuplan": (
                self.tr("1,024 × H100 SuperPOD-like cluster"),
                self.tr("128 DGX H100 in 4 scalable units, Lustre storage, Llama 3 70B pre-training."),
            ),
        }

    def example_files(self) -> list[Path]:
        files = sorted(self.examples.glob("*.gpuplan")) if self.examples.is_dir() else []
        rank = {name: i for i, name in enumerate(EXAMPLE_ORDER)}
        return sorted(files, key=lambda f: (rank.get(f.name, len(rank)), f.name))

    def _fill_examples(self) -> None:
        texts = self.example_texts()
        for f in self.example_files():
            title, sub = texts.get(f.name, (f.stem, ""))
            self._item(self.example_list, "example", str(f), title, sub or f.name, str(f))
        if not self.example_list.count():
            item = QListWidgetItem(self.tr("No example projects found"), self.example_list)
            item.setData(SUBTITLE_ROLE, str(self.examples))
            item.setFlags(Qt.ItemFlag.NoItemFlags)

    def _heading(self, text: str) -> QLabel:
        label = QLabel(text)
        font = label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        label.setFont(font)
        return label

    def _layout(self) -> None:
        title = QLabel(self.tr("GPU Planner"))
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.9)
        font.setBold(True)
        title.setFont(font)
        subtitle = QLabel(
            self.tr(
                "Plan GPU clusters offline: fabric, performance, power, cooling and cost. "
                "Open a project, start from a template or explore an example."
            )
        )
        subtitle.setWordWrap(True)
        self.open_button = QPushButton(self.tr("&Open…"))
        self.blank_button = QPushButton(self.tr("&Blank project"))
        self.choose_button = QPushButton(self.tr("Open &selected"))
        self.close_button = QPushButton(self.tr("Close"))
        for b in (self.open_button, self.blank_button, self.choose_button, self.close_button):
            b.setAutoDefault(False)  # Enter belongs to the lists: it opens the selected item
        self.open_button.clicked.connect(self.open_dialog)
        self.blank_button.clicked.connect(self.blank_project)
        self.choose_button.clicked.connect(self.open_selected)
        self.close_button.clicked.connect(self.reject)
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(6)
        grid.addWidget(self._heading(self.tr("Recent projects")), 0, 0)
        grid.addWidget(self.recent_list, 1, 0)
        grid.addWidget(self._heading(self.tr("Example projects")), 2, 0)
        grid.addWidget(self.example_list, 3, 0)
        grid.addWidget(self._heading(self.tr("New from template")), 0, 1)
        grid.addWidget(self.template_list, 1, 1, 3, 1)
        grid.setColumnStretch(0, 5)
        grid.setColumnStretch(1, 6)
        grid.setRowStretch(1, 3)
        grid.setRowStretch(3, 2)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.blank_button)
        buttons.addStretch(1)
        buttons.addWidget(self.choose_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(22, 18, 22, 16)
        layout.addWidget(title)
        layout.addWidget(subtitle)
        layout.addSpacing(8)
        layout.addLayout(grid, 1)
        layout.addLayout(buttons)

    # -- choosing -------------------------------------------------------------------------------------
    def _on_current(self, lst: QListWidget, item: QListWidgetItem | None) -> None:
        """One selection across the three lists, so that 'Open selected' and Enter are unambiguous."""
        if item is None:
            return
        for other in (self.recent_list, self.template_list, self.example_list):
            if other is not lst:
                other.blockSignals(True)
                other.clearSelection()
                other.setCurrentItem(None)
                other.blockSignals(False)

    def selected_item(self) -> QListWidgetItem | None:
        for lst in (self.recent_list, self.template_list, self.example_list):
            item = lst.currentItem()
            if item is not None and item.isSelected():
                return item
        return None

    def open_selected(self) -> bool:
        item = self.selected_item()
        return self.open_item(item) if item is not None else False

    def open_item(self, item: QListWidgetItem) -> bool:
        kind, value = item.data(KIND_ROLE), item.data(VALUE_ROLE)
        if kind == "recent":
            done = self.open_recent(value)
        elif kind == "example":
            done = self.open_path(value)
        elif kind == "preset":
            done = self.new_from_preset(value)
        else:
            return False
        if done:
            self.accept()
        return done

    def open_recent(self, path: str) -> bool:
        p = Path(path)
        if not p.is_file():
            QMessageBox.warning(
                self,
                self.tr("Project not found"),
                self.tr(
                    "“{name}” is no longer in {folder}: it was moved, renamed or deleted.\n\n"
                    "The current project is unchanged."
                ).format(name=p.name, folder=p.parent),
            )
            return False
        return self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        with busy_cursor():
            return self.window_.open_file(path)

    def new_from_preset(self, preset_id: str) -> bool:
        preset = next(p for p in PRESETS if p.id == preset_id)
        name, _desc = self._preset_text(preset)
        w = self.window_
        with busy_cursor():  # the 1,024-node preset takes a moment to generate
            project = preset.build(w.doc.project.catalog, lang=i18n.current_language(), name=name)
        if w.is_modified():  # the unsaved-changes question comes first, without a busy cursor
            return w.new_project(project)
        with busy_cursor():  # the canvas of thousands of links takes a moment to build
            return w.new_project(project)

    def open_dialog(self) -> bool:
        recent = self.window_.recent_files()
        start = str(Path(recent[0]).parent) if recent else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open project"), start, self.window_.tr(FILE_FILTER)
        )
        if path and self.open_path(path):
            self.accept()
            return True
        return False

    def blank_project(self) -> bool:
        if self.window_.new_project():
            self.accept()
            return True
        return False

    def _first_existing_recent(self) -> QListWidgetItem | None:
        for i in range(self.recent_list.count()):
            item = self.recent_list.item(i)
            if item.data(KIND_ROLE) == "recent" and not item.data(MISSING_ROLE):
                return item
        return None


def show_welcome(window: MainWindow, examples: Path | None = None) -> WelcomeDialog:
    """Open the welcome dialog over the main window (window-modal, without a nested event loop)."""
    dlg = WelcomeDialog(window, examples)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.open()
    return dlg
