"""New project from a topology template (gpuplanner.topology): the generator's options as a form; the plan
is generated here (refusals shown in the dialog) and becomes the new project's first, undoable edit.

The compute fabric (InfiniBand or Ethernet with RoCE v2) is a choice of its own: it narrows the switch lists
to switches of that technology, so that "the same cluster on RoCE" is one choice, not a hunt through switch
model names.

When a project is open, "keep" carries its workloads, scenarios, teams, phases, site and cost settings and
project details over into the new one (the hardware is what changes), with each explicit DP adapted to the
new GPU count and a partition the new cluster lacks cleared — ``notes`` says what was adapted or left."""

from __future__ import annotations

import dataclasses
import json

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
from gpuplanner.commands import AddRows, Command, Compound, ReplaceRows, SetFields
from gpuplanner.core.errors import PlannerError
from gpuplanner.model import Project, ProjectInfo, Site, Workload
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import TEMPLATES, GenerateOptions
from gpuplanner.ui import field_labels
from gpuplanner.ui.entry_names import choice
from gpuplanner.ui.i18n import translate

# The leaf switch a fabric choice starts from: the 400G-class switch of each technology (as in the presets).
DEFAULT_LEAF = {"infiniband": "nvidia-quantum-2-qm9700", "ethernet": "nvidia-spectrum-4-sn5600"}
# The tables "keep" copies: everything but the hardware (racks, devices, links, fabrics) and its floor.
KEPT_TABLES = ("workloads", "scenarios", "teams", "phases")


def has_keepable(project: Project | None) -> bool:
    """True when the project holds something worth keeping beyond its hardware."""
    if project is None:
        return False
    if any(project.tables[t] for t in KEPT_TABLES) or project.site != Site():
        return True
    blank = ProjectInfo()  # (the language follows the UI in a new project: not a detail of its own)
    info = dataclasses.replace(
        project.info, name=blank.name, language=blank.language, created="", modified=""
    )
    return info != blank


def generator_options(project: Project | None) -> GenerateOptions:
    """The options the project's compute fabric was generated with (so that "the same SU on RoCE" is one
    change), else the defaults."""
    d = GenerateOptions()
    if project is None:
        return d
    for f in project.tables["fabrics"].values():
        if f.kind != "compute":
            continue
        try:
            params = json.loads(f.params_json or "{}")
        except ValueError:
            continue
        known = {k: v for k, v in params.items() if k in GenerateOptions.__dataclass_fields__}
        if known.get("template") in TEMPLATES:
            try:
                return d.with_(**known)
            except TypeError:
                return d
    return d


class TemplateDialog(QDialog):
    def __init__(
        self,
        catalog: Catalog,
        parent: QWidget | None = None,
        current: Project | None = None,
        into: Project | None = None,
    ) -> None:
        """`into`: add the generated pod to this project (its own partition, beside what is there) instead
        of starting a new project — "Add from template…"."""
        super().__init__(parent)
        self.into = into
        self.setWindowTitle(
            self.tr("Add a pod from a template")
            if into is not None
            else self.tr("New project from a template")
        )
        self.catalog = catalog
        if into is not None:
            current = None
        self.current = current if current is not None and (current.devices or has_keepable(current)) else None
        self.project: Project | None = None
        self.opts: GenerateOptions | None = None
        self.notes: list[str] = []
        d = generator_options(self.current)
        self._default_name = self.tr("New cluster")
        self.name = QLineEdit(self._default_name)
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
        self.storage.setChecked(d.storage_fabric)
        storages = self._entries("storage")
        self.storage_system = self._combo(storages, d.storage_system or (storages[0][1] if storages else ""))
        self.storage_units = self._spin(1, 1000, d.storage_units or 2)
        self.partition = QLineEdit()
        self.partition.setPlaceholderText(self.tr("e.g. infer"))
        self.partition.setToolTip(
            self.tr("The partition the pod's GPU servers belong to; their names start with it.")
        )
        self.fill = QCheckBox(self.tr("fill the site's free rack positions, each up to its kW"))
        self.management = QCheckBox(self.tr("management fabric"))
        self.management.setChecked(d.management_fabric)
        self.rack_kw.setValue(d.rack_budget_kw or 0.0)
        self.keep = QCheckBox(self.tr("Keep the workload, site and costs, teams and project details"))
        self.keep.setToolTip(
            self.tr(
                "Copies the open project's workloads, scenarios, teams, phases, site and cost settings and "
                "project details (customer, currency, language) into the new project. An explicit DP is "
                "adapted to the new GPU count. Racks, devices, links and the floor plan are new."
            )
        )
        self.keep.toggled.connect(self._keep_toggled)
        self.keep.setChecked(has_keepable(self.current))
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
            (self.tr("Storage system"), self.storage_system),
            (self.tr("Storage units"), self.storage_units),
            ("", self.management),
            ("", self.keep),
            (self.tr("Partition"), self.partition),
            ("", self.fill),
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
        form.setRowVisible(self.keep, self.current is not None)
        form.setRowVisible(self.partition, into is not None)
        form.setRowVisible(self.fill, into is not None)
        form.setRowVisible(self.name, into is None)
        for w in (self.storage_system, self.storage_units):
            w.setEnabled(self.storage.isChecked())
            self.storage.toggled.connect(w.setEnabled)

    def _keep_toggled(self, on: bool) -> None:
        """The name follows the choice while the user has not typed one."""
        if self.current is None:
            return
        mine = self.current.info.name
        if on and self.name.text() == self._default_name and mine:
            self.name.setText(mine)
        elif not on and self.name.text() == mine:
            self.name.setText(self._default_name)

    def keeps(self) -> bool:
        return self.current is not None and self.keep.isChecked()

    def _entries(self, kind: str) -> list[tuple[str, str]]:
        return [choice(self.catalog, e) for e in self.catalog.of_kind(kind)]

    def _technology(self, switch_id: str) -> str:
        entry = next((e for e in self.catalog.of_kind("switch") if e.id == switch_id), None)
        return getattr(entry, "technology", "") or "infiniband"

    def _fill_switches(self, leaf: str = "") -> None:
        """The switch lists for the chosen compute fabric; the leaf stays when it is of that technology,
        else it is DEFAULT_LEAF's (the catalog's first when that entry is missing)."""
        tech = self.fabric.currentData()
        entries = [e for e in self.catalog.of_kind("switch") if getattr(e, "technology", "") == tech]
        items = [choice(self.catalog, e) for e in entries]
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
            storage_system=self.storage_system.currentData() or "" if self.storage.isChecked() else "",
            storage_units=self.storage_units.value() if self.storage.isChecked() else 0,
            management_fabric=self.management.isChecked(),
            name=self.name.text(),
        )

    def generate(self) -> None:
        """Generate into a fresh project; stay open with the generator's reason when it refuses."""
        opts = self.options()
        project = Project(self.catalog) if self.into is None else self.into
        try:
            if self.into is not None:
                from gpuplanner.topology.compose import plan_pod

                self.plan = plan_pod(self.into, opts, self.partition.text().strip(), self.fill.isChecked())
            else:
                self.plan = generate(project, opts)
        except PlannerError as exc:
            self.error.setText(self.tr("Cannot generate: {why}").format(why=field_labels.plain_error(exc)))
            return
        self.project, self.opts = project, opts
        self.accept()

    def command(self, target: Project) -> Command:
        """The generated topology (and the project name, and what "keep" keeps) as one undoable edit of
        ``target``."""
        assert self.opts is not None
        text = self.tr("Generate {t} with %Ln server(s)", None, int(self.opts.servers)).format(
            t=self.opts.template
        )
        if self.into is not None:  # a pod added beside what is there: only the generated rows
            return self.plan.to_command(text)
        children: list[Command] = []
        if self.keeps():
            children += self._kept(target)
        children.append(self.plan.to_command(text))
        if self.opts.name and not self.keeps():  # (the kept details carry the name)
            children.append(SetFields(target, "project", "project", name=self.opts.name))
        return Compound(text, children)

    def _plan_gpus(self) -> int:
        entries = self.catalog.entries
        return sum(getattr(entries.get(d.type_id), "gpu_count", 0) or 0 for d in self.plan.devices)

    def _kept(self, target: Project) -> list[Command]:
        """Commands copying the kept tables of ``self.current`` into ``target``; fills ``self.notes``."""
        cur = self.current
        assert cur is not None
        self.notes = []
        info = dataclasses.replace(
            cur.info,
            name=self.opts.name or cur.info.name,
            created=target.info.created,
            modified=target.info.modified,
        )
        out: list[Command] = [ReplaceRows("project", [info]), ReplaceRows("site", [cur.site])]
        workloads = [self._adapt(w, cur.gpu_count()) for w in cur.tables["workloads"].values()]
        for table, rows in (
            ("phases", list(cur.tables["phases"].values())),
            ("workloads", workloads),
            ("scenarios", list(cur.tables["scenarios"].values())),
            ("teams", list(cur.tables["teams"].values())),
        ):
            if rows:
                out.append(AddRows(table, rows))
        return out

    def _adapt(self, w: Workload, old_gpus: int) -> Workload:
        """The workload on the new cluster: a partition it lacks is cleared; an explicit DP that filled the
        old cluster (or no longer fits) is set to fill the new one, keeping the global batch divisible."""
        new_gpus = self._plan_gpus()
        partitions = {d.partition for d in self.plan.devices}
        if w.partition and w.partition not in partitions:
            self.notes.append(
                self.tr(
                    "Workload “{w}”: partition “{p}” is not in the new cluster; it now runs on all GPUs."
                ).format(w=w.name, p=w.partition)
            )
            w = dataclasses.replace(w, partition="")
        model_par = max(1, w.tp * w.pp * w.cp)
        if w.dp <= 0 or new_gpus == old_gpus or w.kind != "training":
            return w
        used = model_par * w.dp
        if used != old_gpus and used <= new_gpus:
            return w
        dp = new_gpus // model_par
        while dp > 0 and w.global_batch % (dp * max(1, w.micro_batch)):
            dp -= 1
        if dp <= 0:
            self.notes.append(
                self.tr(
                    "Workload “{w}”: DP {dp} was left as it was; TP × PP × CP = {m} does not fit %Ln GPU(s).",
                    None,
                    int(new_gpus),
                ).format(w=w.name, dp=w.dp, m=model_par)
            )
            return w
        self.notes.append(
            self.tr("Workload “{w}”: DP {old} → {new} for %Ln GPU(s).", None, int(new_gpus)).format(
                w=w.name, old=w.dp, new=dp
            )
        )
        return dataclasses.replace(w, dp=dp)
