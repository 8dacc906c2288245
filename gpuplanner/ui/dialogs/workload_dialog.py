"""The workload: model (from the catalog or by shape), parallelism, batch, precision, recomputation and
tokens. Applying edits the active workload (SetFields) or adds one (AddRows); the estimate below follows
the engine's results live.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtWidgets import QWidget

from gpuplanner.commands import AddRows, Command, SetFields
from gpuplanner.engine.analysis import Results, active_workload
from gpuplanner.model import Workload
from gpuplanner.ui.dialogs.row_dialog import RowDialog
from gpuplanner.ui.document import Document
from gpuplanner.ui.estimate_text import no_estimate_text, summary_text

SHAPE = ["architecture", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab", "experts", "top_k"]


class WorkloadDialog(RowDialog):
    table = "workloads"

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        current = active_workload(doc.project) or next(iter(doc.project.tables["workloads"].values()), None)
        self.is_new = current is None
        row = current or Workload(id=doc.project.new_id("workloads"), name=self.tr("Training job"))
        groups = [
            (self.tr("Job"), ["name", "kind", "active", "model_id", "seq_len", "total_tokens"]),
            (self.tr("Model shape (when no catalog model is chosen)"), SHAPE),
            (self.tr("Parallelism"), ["tp", "pp", "dp", "cp", "ep", "vpp", "placement_order"]),
            (
                self.tr("Batch, precision, memory"),
                ["micro_batch", "global_batch", "precision", "zero_stage", "recompute"],
            ),
        ]
        super().__init__(doc, row, groups, parent)
        self.setWindowTitle(self.tr("Workload") if not self.is_new else self.tr("New workload"))
        self.editors["model_id"].changed.connect(lambda *_a: self._shape_enabled())
        self._shape_enabled()
        doc.resultsReady.connect(self.show_estimate)
        if doc.results is not None:
            self.show_estimate(doc.results)

    def _shape_enabled(self) -> None:
        custom = not self.editors["model_id"].get()
        for name in SHAPE:
            self.editors[name].widget.setEnabled(custom)

    def command(self, changes: dict[str, Any]) -> Command:
        if self.is_new:
            return AddRows(
                "workloads", [dataclasses.replace(self.row, **changes)], text=self.tr("Add workload")
            )
        return SetFields(self.doc.project, "workloads", self.row.id, text=self.tr("Edit workload"), **changes)

    def changes(self) -> dict[str, Any]:
        return self.values() if self.is_new else super().changes()

    def apply(self) -> bool:
        ok = super().apply()
        if ok and self.is_new and self.row.id in self.doc.project.tables["workloads"]:
            self.is_new = False
            self.setWindowTitle(self.tr("Workload"))
        return ok

    def show_estimate(self, res: Results) -> None:
        w = res.workload
        if w is None:
            self.status.setText(
                no_estimate_text(self.doc.project, res)
                if self.doc.project.tables["workloads"]
                else self.tr("Not evaluated yet (apply to see the estimate).")
            )
            return
        text = summary_text(res)
        self.status.setText(text)
