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
from gpuplanner.ui import field_labels, fmt
from gpuplanner.ui.dialogs.row_dialog import RowDialog
from gpuplanner.ui.document import Document
from gpuplanner.ui.estimate_text import no_estimate_text, summary_text

# engine/perf/settings.py SETTINGS as the workload states them: the stack and the common ones first, the
# advanced ones (overlaps, recomputation details, optimizer, MoE, FP8, pipeline layout) after
RUN_SETTINGS = [
    "stack",
    "attention",
    "sequence_parallel",
    "grad_dtype",
    "optimizer",
    "optimizer_state",
    "tp_overlap",
    "tp_comm_overlap",
    "pp_overlap",
    "dp_overlap",
    "param_gather_overlap",
    "ep_overlap",
    "balanced_pipeline",
    "pipeline_layout",
    "recompute_norm_act",
    "mla_up_proj_recompute",
    "zero3_regather_on_recompute",
    "zero3_nics_per_node",
    "moe_dispatcher",
    "expert_tp",
    "fp8_recipe",
    "fp8_params",
]
SHAPE = ["architecture", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab", "experts", "top_k"]


class WorkloadDialog(RowDialog):
    table = "workloads"

    def __init__(self, doc: Document, parent: QWidget | None = None, kind: str | None = None) -> None:
        """`kind`: a new workload of that kind beside the others (e.g. "inference" for a serving one)."""
        current = None
        if kind is None:
            current = active_workload(doc.project) or next(
                iter(doc.project.tables["workloads"].values()), None
            )
        self.is_new = current is None
        name = self.tr("Serving") if kind == "inference" else self.tr("Training job")
        row = current or Workload(id=doc.project.new_id("workloads"), name=name, kind=kind or "training")
        groups = [
            (self.tr("Job"), ["name", "kind", "active", "model_id", "seq_len", "total_tokens"]),
            (self.tr("Model shape (when no catalog model is chosen)"), SHAPE),
            (self.tr("Parallelism"), ["tp", "pp", "dp", "cp", "ep", "vpp", "placement_order"]),
            (
                self.tr("Batch, precision, memory"),
                ["micro_batch", "global_batch", "precision", "zero_stage", "recompute"],
            ),
            (self.tr("Run settings (empty: the stack's value, then the default)"), RUN_SETTINGS),
            (
                self.tr("Partition and serving (kind: inference)"),
                [
                    "partition",
                    "prompt_len",
                    "output_len",
                    "kv_bytes",
                    "users",
                    "requests_per_s",
                    "ttft_target_s",
                    "ttft_percentile",
                    "tpot_target_s",
                    "tpot_percentile",
                    "think_time_s",
                    "serving_mode",
                    "serving_stack",
                    "kv_fraction",
                    "max_seqs",
                    "max_batched_tokens",
                    "chunked_prefill",
                    "gemm_allreduce_fusion",
                    "prompt_dataset",
                ],
            ),
        ]
        super().__init__(doc, row, groups, parent, columns=3)
        self.setWindowTitle(self.tr("Workload") if not self.is_new else self.tr("New workload"))
        self.labels["kv_fraction"].setToolTip(field_labels.kv_fraction_tip())
        self.labels["max_seqs"].setToolTip(field_labels.max_seqs_tip())
        self.labels["max_batched_tokens"].setToolTip(field_labels.max_batched_tokens_tip())
        self.labels["chunked_prefill"].setToolTip(field_labels.chunked_prefill_tip())
        self.labels["gemm_allreduce_fusion"].setToolTip(field_labels.gemm_allreduce_fusion_tip())
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
        mine = next((e for e in res.workloads if e.id == self.row.id), None)
        if mine is not None and mine.kind == "inference":  # a serving workload: its capacity, not training
            d = mine.to_json()
            if d.get("error"):
                self.status.setText(field_labels.plain_line(mine.error))
                return
            text = self.tr(
                "%Ln GPU(s): up to {users} concurrent users ({rate} requests/s), first token {ttft} s, "
                "{tpot} ms per token.",
                None,
                int(mine.gpus),
            ).format(
                users=fmt.number(d.get("max_concurrent_users") or 0),
                rate=fmt.number(d.get("max_requests_per_s") or 0, 1),
                ttft=fmt.number(d["ttft_s"], 2) if d.get("ttft_s") else "–",
                tpot=fmt.number(d["tpot_s"] * 1000, 1) if d.get("tpot_s") else "–",
            )
            if d.get("gpus_needed") is not None:
                text += " " + self.tr("The load asked for needs %Ln GPU(s).", None, int(d["gpus_needed"]))
            self.status.setText(text)
            return
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
