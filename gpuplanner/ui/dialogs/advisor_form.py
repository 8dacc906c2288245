"""The advisor's goal form: what to train or serve (the training and serving groups) and the site's limits and
budget, scrolled when the window is short. It owns the controls; `goal` reads them over a base goal (the fields the
form does not show come from it) and `fill` sets them from a goal."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from gpuplanner.advisor import Goal
from gpuplanner.catalog import Catalog
from gpuplanner.ui.field_labels import (
    chunked_prefill_tip,
    gemm_allreduce_fusion_tip,
    kv_fraction_tip,
    max_batched_tokens_tip,
    max_seqs_tip,
)
from gpuplanner.ui.i18n import translate


def _spin(lo: float, hi: float, value: float, decimals: int = 0, suffix: str = "") -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(lo, hi)
    box.setDecimals(decimals)
    box.setValue(value)
    box.setSuffix(suffix)
    box.setGroupSeparatorShown(True)
    return box


class AdvisorGoalForm(QWidget):
    """The goal's fields, scrolled when the window is short."""

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer_lay = QVBoxLayout(self)
        outer_lay.setContentsMargins(0, 0, 0, 0)
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        form = QFormLayout()
        self.kind = QComboBox()
        self.kind.addItem(self.tr("Train a model"), "training")
        self.kind.addItem(self.tr("Serve a model"), "inference")
        self.kind.currentIndexChanged.connect(self._kind_changed)
        form.addRow(self.tr("Goal:"), self.kind)
        self.model = QComboBox()
        for m in sorted(catalog.of_kind("model"), key=lambda e: e.name):
            self.model.addItem(m.name, m.id)
        self.model.setCurrentIndex(max(self.model.findData("llama3-70b"), 0))
        form.addRow(self.tr("Model:"), self.model)
        self.precision = QComboBox()
        for value in ("bf16", "fp16", "fp8", "fp4"):  # model/validate.py's goal precisions
            self.precision.addItem(translate("choices", value), value)
        self.precision.setToolTip(
            self.tr(
                "The weights' precision (as estimate --precision); a serving goal's KV cache takes 1 byte with "
                "FP8/FP4 weights, else 2. FP4 is for serving goals only: the advisor then ranks only GPUs with "
                "FP4 tensor cores (B200, B300, GB200, GB300, MI355X) and names the others it leaves out."
            )
        )
        form.addRow(self.tr("Precision:"), self.precision)
        lay.addLayout(form)
        lay.addWidget(self._training_group())
        lay.addWidget(self._serving_group())
        lay.addWidget(self._limits_group())
        lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(box)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.serving_box.setVisible(True)  # the widest group decides the column's width
        scroll.setMinimumWidth(box.sizeHint().width() + scroll.verticalScrollBar().sizeHint().width() + 4)
        outer_lay.addWidget(scroll, 1)
        self._kind_changed()

    def _limits_group(self) -> QGroupBox:
        """The site's limits, the budget and which parts may be used."""
        limits = QGroupBox(self.tr("Site and budget"))
        form = QFormLayout(limits)
        self.facility = _spin(0, 1e6, 3000, 0, " kW")
        self.facility.setSpecialValueText(self.tr("no limit"))
        form.addRow(self.tr("Facility power ≤"), self.facility)
        self.rack_kw = _spin(0, 300, 45, 0, " kW")
        self.rack_kw.setSpecialValueText(self.tr("no limit"))
        form.addRow(self.tr("Rack power ≤"), self.rack_kw)
        self.racks = QSpinBox()
        self.racks.setRange(0, 100_000)
        self.racks.setSpecialValueText(self.tr("no limit"))
        form.addRow(self.tr("Racks ≤"), self.racks)
        self.capex = _spin(0, 1e12, 0, 0, " USD")
        self.capex.setSpecialValueText(self.tr("no limit"))
        form.addRow(self.tr("Capex budget ≤"), self.capex)
        self.region = QLineEdit()
        self.region.setPlaceholderText(self.tr("e.g. CN: leave out parts not sold there"))
        self.region.setMinimumWidth(  # the hint is read whole (en and zh)
            self.region.fontMetrics().horizontalAdvance(self.region.placeholderText()) + 16
        )
        form.addRow(self.tr("Customer region:"), self.region)
        self.vendors = QLineEdit()
        self.vendors.setPlaceholderText(self.tr("any; e.g. Huawei"))
        form.addRow(self.tr("GPU vendors:"), self.vendors)
        self.max_servers = QSpinBox()
        self.max_servers.setRange(1, 16384)
        self.max_servers.setValue(512)
        form.addRow(self.tr("At most servers:"), self.max_servers)
        return limits

    def _training_group(self) -> QGroupBox:
        self.training_box = QGroupBox(self.tr("Training"))
        form = QFormLayout(self.training_box)
        self.tokens = _spin(1, 1e6, 15000, 0, self.tr(" billion tokens"))
        form.addRow(self.tr("Tokens:"), self.tokens)
        self.deadline = _spin(0.1, 3650, 60, 1, self.tr(" days"))
        form.addRow(self.tr("Deadline:"), self.deadline)
        return self.training_box

    def _serving_group(self) -> QGroupBox:
        """The load, the targets and how it is served: the options of `estimate --inference` a goal states."""
        self.serving_box = QGroupBox(self.tr("Serving"))
        form = QFormLayout(self.serving_box)
        self.rate = _spin(0, 1e6, 20, 2, self.tr(" requests/s"))
        self.rate.setSpecialValueText(self.tr("not stated"))
        form.addRow(self.tr("Request rate:"), self.rate)
        self.users = _spin(0, 1e9, 0, 0, self.tr(" users"))
        self.users.setSpecialValueText(self.tr("not stated"))
        self.users.setToolTip(
            self.tr(
                "Concurrent users to serve, each waiting for its answer and then the think time before the "
                "next request (as estimate --users). With a request rate too, both must be served."
            )
        )
        form.addRow(self.tr("Concurrent users:"), self.users)
        self.think = _spin(0, 86_400, 0, 1, " s")
        self.think.setToolTip(self.tr("Seconds a user waits between an answer and the next request."))
        form.addRow(self.tr("Think time:"), self.think)
        self.prompt_len = QSpinBox()
        self.prompt_len.setRange(1, 1_000_000)
        self.prompt_len.setValue(2048)
        self.prompt_len.setSuffix(self.tr(" tokens"))
        self.prompt_len.setGroupSeparatorShown(True)
        form.addRow(self.tr("Prompt length:"), self.prompt_len)
        self.output_len = QSpinBox()
        self.output_len.setRange(1, 1_000_000)
        self.output_len.setValue(256)
        self.output_len.setSuffix(self.tr(" tokens"))
        self.output_len.setGroupSeparatorShown(True)
        form.addRow(self.tr("Output length:"), self.output_len)
        self.dataset = QComboBox()
        self.dataset.addItem(self.tr("all of the prompt length"), "")
        from gpuplanner.engine.perf.serving_prompts import dataset_names, prompt_lengths

        self._dataset_means = {name: prompt_lengths(name).mean for name in dataset_names()}
        for name in self._dataset_means:
            self.dataset.addItem(name, name)
        self.dataset.setToolTip(
            self.tr(
                "Prompt lengths vary as in this dataset (catalogs/validation/inference_datasets.yaml); the "
                "prompt length becomes its mean (as estimate --prompt-dataset)."
            )
        )
        self.dataset.currentIndexChanged.connect(self._dataset_changed)
        form.addRow(self.tr("Prompt lengths:"), self.dataset)
        self.ttft = _spin(0.01, 60, 1.0, 2, " s")
        self.ttft_pct = self._percentile()
        form.addRow(self.tr("Time to first token ≤"), self._target_row(self.ttft, self.ttft_pct))
        self.tpot = _spin(1, 1000, 50, 0, " ms")
        self.tpot_pct = self._percentile()
        form.addRow(self.tr("Time per output token ≤"), self._target_row(self.tpot, self.tpot_pct))
        self.mode = QComboBox()
        self.mode.addItem(self.tr("aggregated"), "aggregated")
        self.mode.addItem(self.tr("disaggregated"), "disaggregated")
        self.mode.addItem(self.tr("best of the two"), "best")
        self.mode.setToolTip(
            self.tr(
                "Aggregated: every replica prefills and decodes; disaggregated: prefill and decode workers "
                "apart; best: the larger capacity of the two (as estimate --inference --serving)."
            )
        )
        form.addRow(self.tr("Serving mode:"), self.mode)
        self.stack = QComboBox()
        self.stack.addItem(self.tr("vLLM rule"), "vllm")
        self.stack.addItem(self.tr("TensorRT-LLM rule"), "trtllm")
        self.stack.setToolTip(
            self.tr(
                "How the KV cache is sized: vLLM gives a share of the memory to weights, workspace and KV cache; "
                "TensorRT-LLM gives the KV cache a share of the memory left after them (as estimate "
                "--serving-stack)."
            )
        )
        form.addRow(self.tr("Serving stack:"), self.stack)
        self.kv_fraction = _spin(0, 1, 0, 2)
        self.kv_fraction.setSingleStep(0.01)
        self.kv_fraction.setSpecialValueText(self.tr("the stack's default"))
        self.kv_fraction.setToolTip(kv_fraction_tip())
        form.addRow(self.tr("KV-cache share:"), self.kv_fraction)
        self.max_seqs = QSpinBox()
        self.max_seqs.setRange(0, 10_000_000)
        self.max_seqs.setGroupSeparatorShown(True)
        self.max_seqs.setSpecialValueText(self.tr("the stack's default"))
        self.max_seqs.setToolTip(max_seqs_tip())
        form.addRow(self.tr("Sequences at once ≤:"), self.max_seqs)
        self.max_batched_tokens = QSpinBox()
        self.max_batched_tokens.setRange(0, 10_000_000)
        self.max_batched_tokens.setGroupSeparatorShown(True)
        self.max_batched_tokens.setSpecialValueText(self.tr("the engine's default"))
        self.max_batched_tokens.setToolTip(max_batched_tokens_tip())
        form.addRow(self.tr("Tokens per engine step ≤:"), self.max_batched_tokens)
        self.chunked_prefill = QCheckBox(self.tr("Prefill chunked into the decode steps"))
        self.chunked_prefill.setChecked(True)
        self.chunked_prefill.setToolTip(chunked_prefill_tip())
        form.addRow("", self.chunked_prefill)
        self.gemm_allreduce_fusion = QCheckBox(self.tr("All-reduce fused into the GEMM"))
        self.gemm_allreduce_fusion.setToolTip(gemm_allreduce_fusion_tip())
        form.addRow("", self.gemm_allreduce_fusion)
        return self.serving_box

    def _percentile(self) -> QDoubleSpinBox:
        box = _spin(0, 99.9, 0, 1)
        box.setPrefix("p")
        box.setSpecialValueText(self.tr("mean"))
        box.setToolTip(
            self.tr(
                "The percentile of requests the target holds for (MLPerf: 99); the lowest value: in the mean."
            )
        )
        return box

    def _target_row(self, target: QDoubleSpinBox, pct: QDoubleSpinBox) -> QWidget:
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(target, 3)
        lay.addWidget(QLabel(self.tr("at")), 0)
        lay.addWidget(pct, 2)
        return row

    def _dataset_changed(self) -> None:
        """A dataset's prompts have its mean length: the prompt length follows it (and is not edited apart)."""
        name = self.dataset.currentData()
        if name:
            self.prompt_len.setValue(round(self._dataset_means[name]))
        self.prompt_len.setEnabled(not name)

    def _kind_changed(self) -> None:
        training = self.kind.currentData() == "training"
        self.training_box.setVisible(training)
        self.serving_box.setVisible(not training)
        # FP4 is modelled for serving only (a training goal in fp4 is refused naming the field): not offered
        fp4 = self.precision.model().item(self.precision.findData("fp4"))  # type: ignore[attr-defined]
        fp4.setEnabled(not training)

    def fill(self, g: Goal) -> None:
        """The controls set from the goal ``g``."""
        self.kind.setCurrentIndex(max(self.kind.findData(g.kind), 0))
        i = self.model.findData(g.model_id)
        if i >= 0:
            self.model.setCurrentIndex(i)
        self.precision.setCurrentIndex(max(self.precision.findData(g.precision), 0))
        self.tokens.setValue(g.total_tokens / 1e9)
        self.deadline.setValue(g.deadline_days)
        if g.requests_per_s > 0 or g.users > 0:
            self.rate.setValue(g.requests_per_s)
        self.users.setValue(g.users)
        self.think.setValue(g.think_time_s)
        self.prompt_len.setValue(min(g.prompt_len, self.prompt_len.maximum()))
        self.output_len.setValue(min(g.output_len, self.output_len.maximum()))
        self.dataset.setCurrentIndex(max(self.dataset.findData(g.prompt_dataset), 0))
        self.ttft.setValue(g.ttft_s_max)
        self.ttft_pct.setValue(g.ttft_percentile)
        self.tpot.setValue(g.tpot_s_max * 1000.0)
        self.tpot_pct.setValue(g.tpot_percentile)
        self.mode.setCurrentIndex(max(self.mode.findData(g.serving_mode), 0))
        self.stack.setCurrentIndex(max(self.stack.findData(g.serving_stack), 0))
        self.kv_fraction.setValue(g.kv_fraction)
        self.max_seqs.setValue(min(g.max_seqs, self.max_seqs.maximum()))
        self.max_batched_tokens.setValue(min(g.max_batched_tokens, self.max_batched_tokens.maximum()))
        self.chunked_prefill.setChecked(g.chunked_prefill)
        self.gemm_allreduce_fusion.setChecked(g.gemm_allreduce_fusion)
        self.facility.setValue(g.facility_kw_max or 0)
        self.rack_kw.setValue(g.rack_kw_max or 0)
        self.racks.setValue(g.racks_max or 0)
        self.capex.setValue(g.capex_usd_max or 0)
        self.region.setText(g.region)
        self.vendors.setText(", ".join(g.vendors))
        self.max_servers.setValue(min(g.max_servers, self.max_servers.maximum()))

    def goal(self, base: Goal) -> Goal:
        """``base`` with the fields this form shows as the controls hold them (raises PlannerError, naming the
        field, for a goal that cannot be)."""

        def opt(box) -> float | None:
            return box.value() or None

        vendors = tuple(v.strip() for v in self.vendors.text().split(",") if v.strip())
        serving = self.kind.currentData() == "inference"
        return base.with_(
            kind=self.kind.currentData(),
            model_id=self.model.currentData(),
            precision=self.precision.currentData(),
            total_tokens=self.tokens.value() * 1e9,
            deadline_days=self.deadline.value(),
            requests_per_s=self.rate.value() if serving else 0.0,
            users=self.users.value() if serving else 0.0,
            think_time_s=self.think.value(),
            prompt_len=self.prompt_len.value(),
            output_len=self.output_len.value(),
            prompt_dataset=self.dataset.currentData() or "",
            ttft_s_max=self.ttft.value(),
            ttft_percentile=self.ttft_pct.value(),
            tpot_s_max=self.tpot.value() / 1000.0,
            tpot_percentile=self.tpot_pct.value(),
            serving_mode=self.mode.currentData(),
            serving_stack=self.stack.currentData(),
            kv_fraction=self.kv_fraction.value(),
            max_seqs=self.max_seqs.value(),
            max_batched_tokens=self.max_batched_tokens.value(),
            chunked_prefill=self.chunked_prefill.isChecked(),
            gemm_allreduce_fusion=self.gemm_allreduce_fusion.isChecked(),
            facility_kw_max=opt(self.facility),
            rack_kw_max=opt(self.rack_kw),
            racks_max=self.racks.value() or None,
            capex_usd_max=opt(self.capex),
            region=self.region.text().strip().upper(),
            vendors=vendors,
            max_servers=self.max_servers.value(),
        )
