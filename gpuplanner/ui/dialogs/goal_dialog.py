"""Plan ▸ Design goal…: the project's goal for the design advisor — train a model on N tokens by a deadline,
or serve a request rate within latency targets — and the site's limits (facility and rack kW, racks,
budget, region) and what may be bought (servers, GPU vendors, cooling, fabric templates). Kept in the
project file; every Apply is one undoable command, and a refused value is shown naming the field."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox, QWidget

from gpuplanner.advisor.goal import goal_from_row
from gpuplanner.model.goal import GOAL_COOLING, GOAL_TEMPLATES
from gpuplanner.ui import field_labels, fields
from gpuplanner.ui.dialogs.row_dialog import RowDialog
from gpuplanner.ui.document import Document

LIMITS = ("facility_kw_max", "rack_kw_max", "racks_max", "capex_usd_max", "tco_usd_max")


class GoalDialog(RowDialog):
    table = "goal"

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        groups = [
            # precision is the goal's, training or serving (fp4: serving only, on GPUs with FP4 tensor cores)
            (self.tr("Goal"), ["kind", "model_id", "objective", "precision"]),
            (self.tr("Training"), ["total_tokens", "deadline_days", "global_batch"]),
            (
                self.tr("Serving"),
                [
                    "requests_per_s",
                    "users",
                    "think_time_s",
                    "prompt_len",
                    "output_len",
                    "prompt_dataset",
                    "ttft_s_max",
                    "ttft_percentile",
                    "tpot_s_max",
                    "tpot_percentile",
                    "serving_mode",
                    "serving_stack",
                    "kv_fraction",
                    "max_seqs",
                    "max_batched_tokens",
                    "chunked_prefill",
                    "gemm_allreduce_fusion",
                ],  # fmt: skip
            ),
            (
                self.tr("Site limits and budget"),
                ["facility_kw_max", "rack_kw_max", "racks_max", "capex_usd_max", "tco_usd_max", "region"],
            ),
            (
                self.tr("What may be bought and built"),
                ["servers", "vendors", "cooling", "templates", "oversubs", "max_servers"],
            ),
        ]
        super().__init__(doc, doc.project.goal, groups, parent, columns=2)
        self.setWindowTitle(self.tr("Design goal"))
        if not self.row.kind:  # no goal yet: the form proposes a training goal, set on Apply
            self.editors["kind"].set("training")
        for name, text in self.texts().items():
            self.labels[name].setText(text)
        for name, tip in self.hints().items():
            self.editors[name].widget.setToolTip(tip)
            self.labels[name].setToolTip(tip)
        for name in LIMITS:
            w = self.editors[name].widget
            if isinstance(w, QSpinBox | QDoubleSpinBox):
                w.setSpecialValueText(self.tr("no limit"))
        self.status.setText(
            self.tr("Plan ▸ Design advisor… searches this goal; gpuplanner advise FILE does the same.")
        )

    def make_editor(self, name: str, row: Any) -> fields.Editor:
        if name == "kind":
            items = [
                (self.tr("no goal"), ""),
                (self.tr("train a model"), "training"),
                (self.tr("serve a model"), "inference"),
            ]
            return _combo(items, row.kind)
        if name == "model_id":
            models = sorted(self.doc.project.catalog.of_kind("model"), key=lambda e: e.name)
            return _combo([(f"{m.name} ({m.id})", m.id) for m in models], row.model_id)
        if name == "objective":
            return _combo([(self.tr("TCO"), "tco"), (self.tr("capex"), "capex")], row.objective)
        if name == "serving_mode":
            items = [
                (self.tr("aggregated"), "aggregated"),
                (self.tr("disaggregated"), "disaggregated"),
                (self.tr("best of the two"), "best"),
            ]
            return _combo(items, row.serving_mode)
        if name == "serving_stack":
            return _combo(
                [(self.tr("vLLM rule"), "vllm"), (self.tr("TensorRT-LLM rule"), "trtllm")], row.serving_stack
            )
        if name == "prompt_dataset":
            from gpuplanner.engine.perf.serving_prompts import dataset_names

            items = [(self.tr("all of the prompt length"), "")] + [(n, n) for n in dataset_names()]
            return _combo(items, row.prompt_dataset)
        ed = fields.make_editor(self.doc.project, self.table, row, name)
        if name in ("ttft_s_max", "tpot_s_max") and isinstance(ed.widget, QDoubleSpinBox):
            ed.widget.setDecimals(3)
            ed.widget.setSuffix(" s")
        if name in ("ttft_percentile", "tpot_percentile") and isinstance(ed.widget, QDoubleSpinBox):
            ed.widget.setRange(0.0, 99.9)
            ed.widget.setDecimals(1)
            ed.widget.setSpecialValueText(self.tr("in the mean"))
        if name in ("users",) and isinstance(ed.widget, QDoubleSpinBox):
            ed.widget.setDecimals(0)
            ed.widget.setSpecialValueText(self.tr("not stated"))
        if name == "think_time_s" and isinstance(ed.widget, QDoubleSpinBox):
            ed.widget.setSuffix(" s")
        if name == "deadline_days" and isinstance(ed.widget, QDoubleSpinBox):
            ed.widget.setSuffix(" " + self.tr("days"))
        return ed

    def texts(self) -> dict[str, str]:
        return {
            "kind": self.tr("goal"),
            "model_id": self.tr("model"),
            "objective": self.tr("cost to minimise"),
            "total_tokens": self.tr("training tokens"),
            "deadline_days": self.tr("deadline"),
            "global_batch": self.tr("global batch (sequences)"),
            "precision": self.tr("precision"),
            "requests_per_s": self.tr("request rate (per s)"),
            "prompt_len": self.tr("prompt length (tokens)"),
            "output_len": self.tr("output length (tokens)"),
            "ttft_s_max": self.tr("time to first token ≤"),
            "tpot_s_max": self.tr("time per output token ≤"),
            "serving_mode": self.tr("serving mode"),
            "users": self.tr("concurrent users"),
            "think_time_s": self.tr("think time"),
            "prompt_dataset": self.tr("prompt lengths as"),
            "ttft_percentile": self.tr("… at percentile"),
            "tpot_percentile": self.tr("… at percentile"),
            "serving_stack": self.tr("serving stack"),
            "kv_fraction": self.tr("KV-cache share"),
            "max_seqs": self.tr("sequences at once ≤"),
            "max_batched_tokens": self.tr("tokens per engine step ≤"),
            "chunked_prefill": self.tr("prefill chunked into decode steps"),
            "gemm_allreduce_fusion": self.tr("all-reduce fused into the GEMM"),
            "facility_kw_max": self.tr("facility power ≤ (kW)"),
            "rack_kw_max": self.tr("rack power ≤ (kW)"),
            "racks_max": self.tr("racks ≤"),
            "capex_usd_max": self.tr("capex budget ≤ (USD)"),
            "tco_usd_max": self.tr("TCO budget ≤ (USD)"),
            "region": self.tr("customer region"),
            "servers": self.tr("servers allowed"),
            "vendors": self.tr("GPU vendors allowed"),
            "cooling": self.tr("cooling allowed"),
            "templates": self.tr("fabric templates"),
            "oversubs": self.tr("oversubscriptions tried"),
            "max_servers": self.tr("at most servers"),
        }

    def hints(self) -> dict[str, str]:
        return {
            "kind": self.tr("no goal: the advisor has nothing to search for this project."),
            "precision": self.tr(
                "FP4 is for serving goals only: the advisor then ranks only GPUs with FP4 tensor cores "
                "(B200, B300, GB200, GB300, MI355X) and names the others it leaves out."
            ),
            "serving_mode": self.tr(
                "Aggregated: every replica prefills and decodes; disaggregated: prefill and decode workers "
                "apart; best: the larger capacity of the two (as estimate --inference --serving)."
            ),
            "users": self.tr(
                "Concurrent users to serve, each waiting for its answer and then the think time before the "
                "next request (as estimate --users). With a request rate too, both must be served."
            ),
            "think_time_s": self.tr("Seconds a user waits between an answer and the next request."),
            "prompt_dataset": self.tr(
                "Prompt lengths vary as in this dataset (catalogs/validation/inference_datasets.yaml); the "
                "prompt length must be its mean (as estimate --prompt-dataset)."
            ),
            "ttft_percentile": self.tr(
                "The percentile of requests the target holds for (MLPerf: 99); the lowest value: in the mean."
            ),
            "tpot_percentile": self.tr(
                "The percentile of requests the target holds for (MLPerf: 99); the lowest value: in the mean."
            ),
            "serving_stack": self.tr(
                "How the KV cache is sized: vLLM gives a share of the memory to weights, workspace and KV cache; "
                "TensorRT-LLM gives the KV cache a share of the memory left after them (as estimate "
                "--serving-stack)."
            ),
            "kv_fraction": field_labels.kv_fraction_tip(),
            "max_seqs": field_labels.max_seqs_tip(),
            "max_batched_tokens": field_labels.max_batched_tokens_tip(),
            "chunked_prefill": field_labels.chunked_prefill_tip(),
            "gemm_allreduce_fusion": field_labels.gemm_allreduce_fusion_tip(),
            "region": self.tr("ISO country code (e.g. CN): parts export-restricted there are left out."),
            "servers": self.tr(
                "Catalog server ids, comma-separated; empty = every GPU server in the catalog."
            ),
            "vendors": self.tr("GPU vendors, comma-separated (e.g. Huawei); empty = any."),
            "cooling": self.tr("Comma-separated, from: {names}; empty = any.").format(
                names=", ".join(GOAL_COOLING)
            ),
            "templates": self.tr("Comma-separated, from: {names}.").format(names=", ".join(GOAL_TEMPLATES)),
            "oversubs": self.tr("Leaf oversubscription ratios, comma-separated: 1 = non-blocking, up to 8."),
            "max_servers": self.tr("The search's own ceiling on the server count."),
            "capex_usd_max": self.tr("In US dollars, as the catalog's prices; 0 = no limit."),
            "tco_usd_max": self.tr("In US dollars over the site's TCO years; 0 = no limit."),
        }

    def command(self, changes: dict[str, Any]):
        """The edit, once the goal it makes is one the advisor takes (a prompt dataset it knows, whose mean is the
        prompt length): refused naming the field and value otherwise, before anything changes."""
        row = dataclasses.replace(self.row, **changes)
        if row.kind:
            goal_from_row(row, self.tr("the goal"))
        return super().command(changes)


def _combo(items: list[tuple[str, Any]], current: Any) -> fields.Editor:
    combo = QComboBox()
    values = [v for _, v in items]
    for text, _v in items:
        combo.addItem(text)
    if current not in values:  # a model the catalog no longer has: kept, shown by its id
        combo.addItem(str(current))
        values.append(current)
    combo.setCurrentIndex(values.index(current))

    def set_(v: Any) -> None:
        combo.blockSignals(True)
        combo.setCurrentIndex(values.index(v) if v in values else -1)
        combo.blockSignals(False)

    return fields.Editor(combo, lambda: values[combo.currentIndex()], set_, combo.activated)
