"""New project from a topology template (gpuplanner.topology): the generator's options as a form; the plan
is generated here (refusals shown in the dialog) and becomes the new project's first, undoable edit.

The compute fabric (InfiniBand or Ethernet with RoCE v2) is a choice of its own: it narrows the switch lists
to switches of that technology, so that "the same cluster on RoCE" is one choice, not a hunt through switch
model names."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.catalog import Catalog
from gpuplanner.commands import Command, Compound, SetFields
from gpuplanner.core.errors import PlannerError
from gpuplanner.model import Project
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import TEMPLATES, GenerateOptions
from gpuplanner.ui.i18n import translate

# The leaf switch a fabric choice starts from: the 400G-class switch of each technology (as in the presets).
DEFAULT_LEAF = {"infiniband": "nvidia-quantum-2-qm9700", "ethernet": "nvidia-spectrum-4-sn5600"}


class TemplateDialog(QDialog):
    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("New project from a template"))
        self.catalog = catalog
        self.project: Project | None = None
        self.opts: GenerateOptions | None = None
        d = GenerateOptions()
        self.name = QLineEdit(self.tr("New cluster"))
        self.template = self._combo(
            [(f"{k} — {translate('templates', v)}", k) for k, v in TEMPLATES.items()], d.template
        )
        self.server = self._combo(self._entries("server"), d.server)
        self.servers = self._spin(1, 100_000, d.servers)
        self.fabric = self._combo(
            [(self.tr("InfiniBand"), "infiniband"), (self.tr("Ethernet (RoCE v2)"), "ethernet")],
            self._technology(d.leaf_switch),
        )
        self.fabric.setToolTip(
            self.tr(
                "The GPU-to-GPU (compute) network. The storage and management networks are Ethernet "
                "either way."
            )
        )
        self.leaf = QComboBox()
        self.spine = QComboBox()
        self.core = QComboBox()
        self._fill_switches(d.leaf_switch)
        self.fabric.currentIndexChanged.connect(lambda _i: self._fill_switches())
        self.oversub = QDoubleSpinBox()
        self.oversub.setRange(1.0, 16.0)
        self.oversub.setValue(d.oversub)
        self.su_size = self._spin(1, 4096, d.su_size)
        self.rails = QCheckBox(self.tr("rail-optimised"))
        self.rails.setChecked(d.rails)
        self.planes = self._spin(1, 8, d.planes)
        self.rack = self._combo(self._entries("rack"), d.rack)
        self.rack_kw = QDoubleSpinBox()
        self.rack_kw.setRange(0.0, 500.0)
        self.rack_kw.setSpecialValueText(self.tr("the rack type's budget"))
        self.rack_kw.setSuffix(" kW")
        self.storage = QCheckBox(self.tr("storage fabric"))
        self.management = QCheckBox(self.tr("management fabric"))
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        form = QFormLayout()
        for label, w in (
            (self.tr("Project name"), self.name),
            (self.tr("Template"), self.template),
            (self.tr("Server"), self.server),
            (self.tr("Number of servers"), self.servers),
            (self.tr("Compute fabric"), self.fabric),
            (self.tr("Leaf switch"), self.leaf),
            (self.tr("Spine switch"), self.spine),
            (self.tr("Core switch"), self.core),
            (self.tr("Oversubscription (1 = non-blocking)"), self.oversub),
            (self.tr("Servers per scalable unit"), self.su_size),
            ("", self.rails),
            (self.tr("Planes"), self.planes),
            (self.tr("Rack"), self.rack),
            (self.tr("Rack power budget"), self.rack_kw),
            ("", self.storage),
            ("", self.management),
        ):
            form.addRow(label, w)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.generate)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def _entries(self, kind: str) -> list[tuple[str, str]]:
        return [(f"{e.name} ({e.id})", e.id) for e in self.catalog.of_kind(kind)]

    def _technology(self, switch_id: str) -> str:
        entry = next((e for e in self.catalog.of_kind("switch") if e.id == switch_id), None)
        return getattr(entry, "technology", "") or "infiniband"

    def _fill_switches(self, leaf: str = "") -> None:
        """The switch lists for the chosen compute fabric; the leaf stays when it is of that technology,
        else it is DEFAULT_LEAF's (the catalog's first when that entry is missing)."""
        tech = self.fabric.currentData()
        entries = [e for e in self.catalog.of_kind("switch") if getattr(e, "technology", "") == tech]
        items = [(f"{e.name} ({e.id})", e.id) for e in entries]
        if not leaf or leaf not in {e.id for e in entries}:
            leaf = DEFAULT_LEAF.get(tech, "")
        for box, first in (
            (self.leaf, []),
            (self.spine, [(self.tr("same as leaf"), "")]),
            (self.core, [(self.tr("same as spine"), "")]),
        ):
            box.clear()
            for text, value in first + items:
                box.addItem(text, value)
        self.leaf.setCurrentIndex(max(self.leaf.findData(leaf), 0))

    def _combo(self, items: list[tuple[str, str]], current: str) -> QComboBox:
        box = QComboBox()
        for text, value in items:
            box.addItem(text, value)
        i = box.findData(current)
        box.setCurrentIndex(max(i, 0))
        return box

    def _spin(self, lo: int, hi: int, value: int) -> QSpinBox:
        s = QSpinBox()
        s.setRange(lo, hi)
        s.setValue(value)
        return s

    def options(self) -> GenerateOptions:
        return GenerateOptions(
            template=self.template.currentData(),
            server=self.server.currentData(),
            servers=self.servers.value(),
            leaf_switch=self.leaf.currentData(),
            spine_switch=self.spine.currentData(),
            core_switch=self.core.currentData(),
            oversub=self.oversub.value(),
            su_size=self.su_size.value(),
            rails=self.rails.isChecked(),
            planes=self.planes.value(),
            rack=self.rack.currentData(),
            rack_budget_kw=self.rack_kw.value() or None,
            storage_fabric=self.storage.isChecked(),
            management_fabric=self.management.isChecked(),
            name=self.name.text(),
        )

    def generate(self) -> None:
        """Generate into a fresh project; stay open with the generator's reason when it refuses."""
        opts = self.options()
        project = Project(self.catalog)
        try:
            self.plan = generate(project, opts)
        except PlannerError as exc:
            self.error.setText(self.tr("Cannot generate: {why}").format(why=exc.one_line()))
            return
        self.project, self.opts = project, opts
        self.accept()

    def command(self, target: Project) -> Command:
        """The generated topology (and the project name) as one undoable edit of ``target``."""
        assert self.opts is not None
        text = self.tr("Generate {t} with {n} servers").format(t=self.opts.template, n=self.opts.servers)
        children = [self.plan.to_command(text)]
        if self.opts.name:
            children.append(SetFields(target, "project", "project", name=self.opts.name))
        return Compound(text, children)
