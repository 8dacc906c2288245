"""Editors for row fields, chosen from the field's type, name (units from the suffix) and vocabulary.

Used by the inspector and the dialogs: ``make_editor`` returns a widget and two functions (read the value,
set the value without emitting). Values are checked by the model when the command is pushed; a refused
value is reported by the caller, naming the field and the value.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSignalBlocker
from PySide6.QtGui import QDoubleValidator, QIntValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

from gpuplanner.engine.workload_settings import CHOICE_SETTINGS, ON_OFF, SERVING_SETTINGS
from gpuplanner.model import Project
from gpuplanner.model.bounds import bounds
from gpuplanner.model.validate import field_specs, kinds_for_role
from gpuplanner.text import Msg, error_line, shown
from gpuplanner.ui import fmt
from gpuplanner.ui.entry_names import choice
from gpuplanner.ui.i18n import current_language, translate

UNITS = (
    ("_usd_per_kwh", "USD/kWh"),
    ("_usd_per_gpu_hour", "USD/GPU·h"),
    ("_usd_per_gpu_year", "USD/GPU·yr"),
    ("_usd_per_year", "USD/yr"),
    ("_pct_per_year", "%/yr"),
    ("_usd_per_kw_month", "USD/kW·month"),
    ("_usd_per_mw", "USD/MW"),
    ("_pct", "%"),
    ("_fte", "FTE"),
    ("_min", "min"),
    ("_kw_available", "kW"),
    ("_usd", "USD"),
    ("_kw", "kW"),
    ("_w", "W"),
    ("_gbps", "Gb/s"),
    ("_gbyte_per_s", "GB/s"),
    ("_m", "m"),
    ("_c", "°C"),
    ("_years", "yr"),
)
NONE_TEXT = "—"


def unit_of(name: str) -> str:
    """The unit a field's name ends in, in the UI language ("yr" → "年"; SI symbols stay)."""
    for suffix, unit in UNITS:
        if name.endswith(suffix):
            return translate("units", unit)
    return ""


def label_of(name: str) -> str:
    """ "power_budget_kw" → "power budget (kW)" (the words translatable, the unit from the suffix; the words
    are listed for lupdate in ``ui.vocabulary``)."""
    base, unit = name, ""
    for suffix, u in UNITS:
        if name.endswith(suffix) and len(name) > len(suffix):
            base, unit = name[: -len(suffix)], translate("units", u)
            break
    words = base.replace("_", " ")
    text = translate("fields", words)
    if text == words:  # no translation (the English UI): the English display form of the field's name
        text = ENGLISH_LABELS.get(base, words)
    return f"{text} ({unit})" if unit else text


_FIELD_REF = re.compile(r"(?:\b[a-z_]+ )?field '([a-z][a-z0-9_]*)'")
_FIELD_REF_ZH = re.compile(
    r"(?:[\u4e00-\u9fff]+的)?字段“([a-z][a-z0-9_]*)”"
)  # "机柜的字段“x”" (text/errors_model.py)


def plain_error(exc: BaseException) -> str:
    """An error's one line in the window's language (rendered now from its message id and values: an error
    keeps its English ``str`` for the CLI and the log), with field names as the UI labels them ("links field
    'b_group'" → "“port group B”"), so that a message names what the user sees, not the file's column."""
    return _plain(error_line(exc, current_language(), label=label_of))


def _plain(text: str) -> str:
    text = _FIELD_REF.sub(lambda m: "“" + label_of(m.group(1)) + "”", text)
    text = _FIELD_REF_ZH.sub(lambda m: "“" + label_of(m.group(1)) + "”", text)
    text = re.sub(r"(“[^”]+”)：\1", r"\1", text)  # "“x”：“x”应在 …" → "“x”应在 …"
    return re.sub(r"(“[^”]+”): \1 ", r"\1 ", text)  # "“x”: “x” must be …" → "“x” must be …"


def plain_line(line: str | Msg) -> str:
    """A refusal the engine keeps as data (a result's ``workload_error``, a workload entry's ``error``: an
    error's line as ``text.ErrorLine``, or English text when it was raised without a message id) in the
    window's language, field names as the UI labels them."""
    return _plain(shown(line, current_language(), label=label_of)) if line else ""


# English labels for fields whose name reads like code ("target pue", "type id"); the translations are keyed on
# the plain words (``ui.vocabulary``), so this table changes only what the English UI shows.
ENGLISH_LABELS = {
    "a_device": "device A",
    "b_device": "device B",
    "a_group": "port group A",
    "b_group": "port group B",
    "ambient_temp": "ambient temperature",
    "cable_id": "cable",
    "cooling_id": "cooling",
    "fabric_id": "fabric",
    "model_id": "model",
    "phase_id": "phase",
    "rack_id": "rack",
    "type_id": "model",
    "tp": "tensor parallel (TP)",
    "pp": "pipeline parallel (PP)",
    "dp": "data parallel (DP)",
    "cp": "context parallel (CP)",
    "ep": "expert parallel (EP)",
    "vpp": "virtual pipeline stages (VPP)",
    "ffn_hidden": "FFN hidden size",
    "hidden": "hidden size",
    "kv_heads": "KV heads",
    "kv_bytes": "KV-cache bytes per value",
    "kv_fraction": "KV-cache memory share",
    "max_seqs": "max sequences at once",
    "max_batched_tokens": "max tokens per engine step",
    "top_k": "experts per token (top-k)",
    "seq_len": "sequence length (tokens)",
    "prompt_len": "prompt length (tokens)",
    "output_len": "output length (tokens)",
    "micro_batch": "micro batch (sequences)",
    "global_batch": "global batch (sequences)",
    "heads": "attention heads",
    "vocab": "vocabulary size",
    "placement_order": "rank placement order",
    # the workload's run settings and serving fields: their unit in the label, as the goal dialog's
    "stack": "software stack",
    "attention": "attention kernel",
    "sequence_parallel": "sequence parallelism",
    "optimizer_state": "optimizer state dtype",
    "param_gather_overlap": "parameter all-gather overlap",
    "balanced_pipeline": "balanced pipeline stages",
    "pipeline_layout": "pipeline stage layout",
    "users": "concurrent users",
    "requests_per_s": "request rate (requests/s)",
    "ttft_target_s": "time to first token target (s)",
    "ttft_percentile": "first-token target percentile",
    "tpot_target_s": "time per output token target (s)",
    "tpot_percentile": "per-token target percentile",
    "think_time_s": "think time (s)",
    "serving_mode": "serving mode (prefill/decode)",
    "infer_batch": "inference batch",
    "total_tokens": "training tokens",
    "tp_overlap": "TP communication overlap",
    "tp_comm_overlap": "TP comm overlap (userbuffers)",
    "pp_overlap": "PP send overlap",
    "dp_overlap": "DP gradient overlap",
    "ep_overlap": "EP all-to-all overlap",
    "grad_dtype": "gradient dtype",
    "zero3_regather_on_recompute": "ZeRO-3 regather on recompute",
    "zero3_nics_per_node": "ZeRO-3 NICs per node",
    "moe_dispatcher": "MoE dispatcher",
    "expert_tp": "experts split over TP",
    "fp8_params": "FP8 parameters",
    "recompute_norm_act": "recompute norm/activation",
    "mla_up_proj_recompute": "recompute MLA up-projections",
    "fp8_recipe": "FP8 recipe",
    "serving_stack": "serving stack (KV-cache rule)",
    "prompt_dataset": "prompt lengths as in",
    "zero_stage": "ZeRO stage",
    "measured_mfu": "measured MFU",
    "measured_busbw": "measured bus bandwidth",
    "gpu_guaranteed": "guaranteed GPUs",
    "gpu_burst": "burst GPUs",
    "largest_job_gpus": "largest job (GPUs)",
    "target_pue": "target PUE",
    "tco": "TCO period",
    "usd_exchange_rate": "units of the currency per US dollar",
    "utility": "utility feed available",
    "cloud": "cloud price",
    "colo": "colocation price",
    "build": "build cost",
    "staff_min": "minimum staff",
    "ups_runtime": "UPS runtime",
    "facility_model": "facility",
    "support_years_in_price": "support years in the price",
    "staff": "staff cost",
    "software": "software licences",
    "u_position": "U position",
    "logo_path": "logo file",
    "overrides_json": "overrides (JSON)",
    "params_json": "parameters (JSON)",
    "deadline_days": "deadline (days)",
    "ttft_s_max": "time to first token ≤ (s)",
    "tpot_s_max": "time per output token ≤ (s)",
    "facility_kw_max": "facility power ≤ (kW)",
    "rack_kw_max": "rack power ≤ (kW)",
    "racks_max": "racks ≤",
    "capex_usd_max": "capex budget ≤ (USD)",
    "tco_usd_max": "TCO budget ≤ (USD)",
    "oversubs": "oversubscriptions tried",
    "objective": "cost to minimise",
    "max_servers": "at most servers",
    "floor_x": "floor x",
    "floor_y": "floor y",
}


@dataclass
class Editor:
    widget: QWidget
    get: Callable[[], Any]
    set: Callable[[Any], None]
    changed: Any  # the signal to connect to "commit"


def references(project: Project, table: str, name: str, row: Any = None) -> list[tuple[str, Any]] | None:
    """(shown text, value) choices for a field that refers to something, or None. A device's model list
    holds only the kinds its role can be (``row``'s role; a switch for a leaf, a server for a node)."""
    cat = project.catalog

    def kinds(*ks: str) -> list[tuple[str, Any]]:
        return [choice(cat, e) for k in ks for e in cat.of_kind(k)]  # named in the UI language

    if table == "devices" and name == "type_id":
        return kinds(*(kinds_for_role(row.role) if row is not None else ("server", "switch", "storage")))
    if table == "racks" and name == "type_id":
        return kinds("rack")
    if table == "racks" and name == "cooling_id":
        return [(translate("fields", "automatic (cheapest that takes the load)"), "")] + kinds("cooling")
    if table == "devices" and name == "rack_id":
        return [(NONE_TEXT, None)] + [(r.name, r.id) for r in project.racks.values()]
    if name == "phase_id":
        phases = sorted(project.tables["phases"].values(), key=lambda p: (p.order, p.id))
        return [(translate("fields", "the first phase"), "")] + [(p.name, p.id) for p in phases]
    if name == "fabric_id":
        return [(NONE_TEXT, None)] + [(f.name, f.id) for f in project.tables["fabrics"].values()]
    if table == "links" and name == "cable_id":
        return [(translate("fields", "automatic"), "")] + kinds("cable")
    if table == "links" and name == "medium":
        media = sorted({getattr(e, "medium", "") for e in cat.of_kind("cable")} - {""})
        return [(translate("fields", "automatic"), "")] + [(m, m) for m in media]
    if table == "workloads" and name in RUN_SETTING_CHOICES:
        return run_setting_choices(name)
    if table == "workloads" and name in SERVING_SETTINGS:
        return serving_setting_choices(name)
    if table == "workloads" and name == "model_id":
        return [(translate("fields", "shape fields below"), "")] + kinds("model")
    return None


# the workload's run settings offered as lists ("" = not stated: the stack's value, then the default);
# pipeline_layout is free text
RUN_SETTING_CHOICES = ("stack", *CHOICE_SETTINGS, *ON_OFF)


def run_setting_choices(name: str) -> list[tuple[str, Any]]:
    """(shown text, value) of one run setting of a workload: not stated, then the values it takes."""
    from gpuplanner.engine.perf.settings import SETTINGS, load_stacks

    items = [(translate("fields", "not stated"), "")]
    if name == "stack":
        return items + [(f"{st.get('name', k)} ({k})", k) for k, st in load_stacks().items()]
    if name in ON_OFF:
        return items + [(translate("fields", "on"), "on"), (translate("fields", "off"), "off")]
    return items + [(translate("choices", str(v)), str(v)) for v in SETTINGS[name]]


# the serving stacks by the name of the software whose KV-cache rule each one is
SERVING_STACK_NAMES = {"vllm": "vLLM", "trtllm": "TensorRT-LLM"}


def serving_setting_choices(name: str) -> list[tuple[str, Any]]:
    """(shown text, value) of a serving setting of an inference workload: not stated (vllm; every prompt is
    the prompt length), then the serving stacks or the prompt-length datasets the engine knows."""
    from gpuplanner.engine.perf.serving_prompts import dataset_names
    from gpuplanner.engine.perf.serving_worker import SERVING_STACKS

    items = [(translate("fields", "not stated"), "")]
    if name == "serving_stack":
        return items + [(f"{SERVING_STACK_NAMES.get(k, k)} ({k})", k) for k in SERVING_STACKS]
    return items + [(k, k) for k in dataset_names()]


def make_editor(project: Project, table: str, row: Any, name: str) -> Editor:
    cls = type(row)
    spec = {s[0]: s for s in field_specs(table, cls)}[name]
    _, allowed, _, _, choices, _negative_ok = spec
    refs = references(project, table, name, row)
    if choices:
        refs = [(QCoreApplication.translate("choices", c), c) for c in choices]
    if refs is not None:
        return _combo(refs, getattr(row, name))
    optional = type(None) in allowed
    if bool in allowed:
        box = QCheckBox()
        return Editor(box, box.isChecked, lambda v: box.setChecked(bool(v)), box.toggled)
    if int in allowed and float not in allowed:
        rng = bounds(table, name, int)
        if optional:
            return _line(optional, int, name, rng)
        spin = _int_spin(name, rng)
        if name == "kv_bytes" and rng[0] == 0:
            spin.widget.setSpecialValueText(translate("fields", "as the precision (1 with fp8/fp4, else 2)"))
        if name == "max_seqs" and rng[0] == 0:
            spin.widget.setSpecialValueText(translate("fields", "the serving stack's default"))
            spin.widget.setToolTip(max_seqs_tip())
        if name == "max_batched_tokens" and rng[0] == 0:
            spin.widget.setSpecialValueText(translate("fields", "the engine's default"))
            spin.widget.setToolTip(max_batched_tokens_tip())
        return spin
    if float in allowed:
        rng = bounds(table, name, float)
        if optional:
            return _line(optional, float, name, rng)
        editor = _float_spin(name, rng)
        if name == "utility_kw_available" and rng[0] == 0:
            editor.widget.setSpecialValueText(_utility_not_stated(project))
        spin = editor.widget
        if name in ("ttft_percentile", "tpot_percentile") and isinstance(spin, QDoubleSpinBox):
            spin.setMaximum(min(rng[1], 99.99))  # 100 itself is refused (model/goal.py check_percentiles)
            spin.setSpecialValueText(translate("fields", "mean"))  # 0: the target holds in the mean
        if name == "kv_fraction" and isinstance(spin, QDoubleSpinBox):
            spin.setSingleStep(0.01)
            spin.setSpecialValueText(translate("fields", "the serving stack's default"))
            spin.setToolTip(kv_fraction_tip())
        if table == "workloads" and name in SERVING_ZERO_TEXTS and isinstance(spin, QDoubleSpinBox):
            _serving_number(spin, name)
        return editor
    edit = QLineEdit()
    return Editor(edit, edit.text, lambda v: edit.setText("" if v is None else str(v)), edit.editingFinished)


# a serving workload's numbers whose 0 means "not stated" (model/rows.py Workload; engine/workloads.py reads 0
# as no load stated, no target, no think time): what the box shows at 0, its unit and its decimals
SERVING_ZERO_TEXTS = {
    "users": (QT_TRANSLATE_NOOP("fields", "not stated"), "", 0),
    "requests_per_s": (QT_TRANSLATE_NOOP("fields", "not stated"), "", 2),  # the label says requests/s
    "ttft_target_s": (QT_TRANSLATE_NOOP("fields", "no target"), "s", 3),
    "tpot_target_s": (QT_TRANSLATE_NOOP("fields", "no target"), "s", 3),
    "think_time_s": (QT_TRANSLATE_NOOP("fields", "no think time"), "s", 2),
}


def _serving_number(spin: QDoubleSpinBox, name: str) -> None:
    """The special text at 0, the unit and the decimals of a serving workload's load, target or think time
    (targets to the millisecond: 0.035 s is not shown, and kept, as 0.04)."""
    text, unit, decimals = SERVING_ZERO_TEXTS[name]
    spin.setDecimals(decimals)
    spin.setSpecialValueText(translate("fields", text))
    if unit:
        spin.setSuffix(f" {unit}")


def kv_fraction_tip() -> str:
    """What a KV-cache share is (the workload's and the goal's kv_fraction, estimate --kv-fraction)."""
    return translate(
        "fields",
        "The serving stack's KV-cache share as the deployment sets it (as estimate --kv-fraction): vLLM "
        "--gpu-memory-utilization, a share of the whole GPU's memory; TensorRT-LLM free_gpu_memory_fraction, a "
        "share of the memory the weights and workspace leave. The lowest value: the stack's default.",
    )


def max_seqs_tip() -> str:
    """What a cap on sequences at once is (the workload's and the goal's max_seqs, estimate --max-seqs)."""
    return translate(
        "fields",
        "The most sequences one replica runs at once, as the deployment caps it (as estimate --max-seqs): vLLM "
        "--max-num-seqs, TensorRT-LLM max_batch_size. The lowest value: the stack's default (vLLM 1024 on GPUs "
        "of 70 GiB or more, else 256; TensorRT-LLM uncapped).",
    )


def max_batched_tokens_tip() -> str:
    """What a token budget per engine step is (the workload's and the goal's max_batched_tokens, estimate
    --max-batched-tokens)."""
    return translate(
        "fields",
        "The most tokens one engine step carries, decode tokens plus prefill (chunk) tokens, as the deployment sets "
        "it (as estimate --max-batched-tokens): TensorRT-LLM max_num_tokens, vLLM --max-num-batched-tokens with "
        "chunked prefill on. The lowest value: the engine's default (8,192, vLLM V1's default on GPUs of 70 GiB or "
        "more).",
    )


def _utility_not_stated(project: Project) -> str:
    """What 0 kW means for the utility feed: not stated — the floor plan's utility-feed units count then."""
    feed = sum(it.capacity_kw for it in project.tables["floor_items"].values() if it.kind == "utility-feed")
    if feed > 0:
        return translate("fields", "not stated: the floor plan's utility feeds, {kw} kW").format(
            kw=fmt.number(feed, 0)
        )
    return translate("fields", "not stated")


def _combo(items: list[tuple[str, Any]], current: Any) -> Editor:
    combo = QComboBox()
    values = [v for _, v in items]
    for text, _v in items:
        combo.addItem(text)
    if current not in values:  # a value the lists do not know (a user catalog entry that is gone)
        combo.addItem(str(current))
        values.append(current)

    def get() -> Any:
        return values[combo.currentIndex()]

    def set_(v: Any) -> None:
        with QSignalBlocker(combo):
            combo.setCurrentIndex(values.index(v) if v in values else -1)

    set_(current)
    return Editor(combo, get, set_, combo.activated)


def _int_spin(name: str, rng: tuple[float, float]) -> Editor:
    """A spin box limited to the field's range in the model (``gpuplanner.model.bounds``)."""
    spin = QSpinBox()
    spin.setRange(int(rng[0]), int(rng[1]))
    spin.setGroupSeparatorShown(True)
    spin.setKeyboardTracking(False)
    unit = unit_of(name)
    if unit:
        spin.setSuffix(f" {unit}")

    def set_(v: Any) -> None:
        with QSignalBlocker(spin):
            spin.setValue(int(v))

    return Editor(spin, spin.value, set_, spin.editingFinished)


def float_decimals(name: str) -> int:
    """Decimals a number field shows: none for counts kept as floats (tokens), four for prices per kWh,
    factors and rates, else two."""
    if name.endswith("tokens"):
        return 0
    return 4 if name.endswith(("_per_kwh", "factor", "utilization", "headroom", "_rate")) else 2


def _float_spin(name: str, rng: tuple[float, float]) -> Editor:
    spin = QDoubleSpinBox()
    spin.setDecimals(float_decimals(name))
    spin.setRange(float(rng[0]), float(rng[1]))
    spin.setGroupSeparatorShown(True)  # "1,000,000,000,000 tokens", not "1000000000000.00"
    spin.setKeyboardTracking(False)
    unit = unit_of(name)
    if unit:
        spin.setSuffix(f" {unit}")

    def set_(v: Any) -> None:
        with QSignalBlocker(spin):
            spin.setValue(float(v))

    return Editor(spin, spin.value, set_, spin.editingFinished)


def _line(optional: bool, kind: type, name: str, rng: tuple[float, float] | None = None) -> Editor:
    edit = QLineEdit()
    edit.setPlaceholderText(translate("fields", "automatic") if optional else "")
    if rng is None:
        edit.setValidator(QIntValidator() if kind is int else QDoubleValidator())
    elif kind is int:
        edit.setValidator(QIntValidator(int(rng[0]), int(rng[1])))
    else:
        edit.setValidator(QDoubleValidator(float(rng[0]), float(rng[1]), 6))
    unit = unit_of(name)
    if unit:
        edit.setToolTip(unit)

    def get() -> Any:
        text = edit.text().strip().replace(",", "")
        if not text:
            return None
        try:
            return kind(text)
        except ValueError:
            return text  # the model refuses it with a message naming the field and value

    def set_(v: Any) -> None:
        with QSignalBlocker(edit):
            edit.setText("" if v is None else f"{v:g}" if isinstance(v, float) else str(v))

    return Editor(edit, get, set_, edit.editingFinished)


def editable_fields(row: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(row) if f.name != "id"]


def compact(widget: QWidget) -> None:
    """Long catalog names must not widen a form past its dock (a horizontal scroll bar hides fields)."""
    if isinstance(widget, QComboBox):
        widget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        widget.setMinimumContentsLength(8)
    widget.setSizePolicy(QSizePolicy.Policy.Ignored, widget.sizePolicy().verticalPolicy())
