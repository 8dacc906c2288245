"""Editors for row fields, chosen from the field's type, name (units from the suffix) and vocabulary.

Used by the inspector and the dialogs: ``make_editor`` returns a widget and two functions (read the value,
set the value without emitting). Values are checked by the model when the command is pushed; a refused
value is reported by the caller, naming the field and the value.
"""

from __future__ import annotations

import dataclasses
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
from gpuplanner.ui import fmt
from gpuplanner.ui.entry_names import choice
from gpuplanner.ui.field_labels import (
    chunked_prefill_tip,
    gemm_allreduce_fusion_tip,
    kv_fraction_tip,
    max_batched_tokens_tip,
    max_seqs_tip,
    unit_of,
)
from gpuplanner.ui.i18n import translate

NONE_TEXT = "—"


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
    from gpuplanner.engine.perf.serving_setup import SERVING_STACKS

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
        if name in BOOL_TIPS:  # a serving setting: what checked means, as estimate's option says it
            box.setToolTip(BOOL_TIPS[name]())
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


# yes/no serving settings of a workload and a goal: their tooltips
BOOL_TIPS = {"chunked_prefill": chunked_prefill_tip, "gemm_allreduce_fusion": gemm_allreduce_fusion_tip}

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
