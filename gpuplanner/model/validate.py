"""Value checks on rows: types, ranges, vocabularies, references. Used by edits and by the file loader."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import Any

from gpuplanner.core.errors import ValidationError

_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("devices", "role"): (
        "compute",
        "leaf",
        "spine",
        "core",
        "storage",
        "storage-switch",
        "management",
        "other",
    ),
    ("fabrics", "kind"): ("compute", "storage", "management"),
    ("fabrics", "technology"): ("infiniband", "ethernet"),
    ("workloads", "kind"): ("training", "inference"),
    ("workloads", "precision"): ("bf16", "fp16", "fp8"),
    ("workloads", "recompute"): ("none", "selective", "full"),
    ("workloads", "architecture"): ("dense", "moe", "vit", "dit"),
    ("project", "language"): ("en", "zh"),
    ("site", "climate"): ("cold", "temperate", "hot"),
}
_POSITIVE = {
    ("links", "multiplicity"),
    ("workloads", "tp"),
    ("workloads", "pp"),
    ("workloads", "cp"),
    ("workloads", "ep"),
    ("workloads", "vpp"),
    ("workloads", "micro_batch"),
    ("workloads", "global_batch"),
    ("workloads", "layers"),
    ("workloads", "hidden"),
    ("workloads", "heads"),
    ("workloads", "seq_len"),
    ("racks", "position"),
    ("site", "tco_years"),
    ("project", "usd_exchange_rate"),
}


def _allowed_types(hint: Any) -> tuple[type, ...]:
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        out: list[type] = []
        for a in typing.get_args(hint):
            out.extend(_allowed_types(a))
        return tuple(out)
    if hint is type(None) or hint is None:
        return (type(None),)
    if hint is float:
        return (float, int)
    return (hint,)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def validate_row(table: str, row: Any, project: Any = None) -> None:
    """Raises ValidationError naming the table, row and field of the first bad value."""
    hints = _hints(type(row))
    for f in dataclasses.fields(row):
        value = getattr(row, f.name)
        allowed = _allowed_types(hints[f.name])
        ok = isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed)
        if not ok:
            raise ValidationError(
                f"{table} field '{f.name}' must be {' or '.join(t.__name__ for t in allowed)}, got {value!r}",
                entry=getattr(row, "id", None),
                field=f.name,
                value=value,
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ValidationError(
                f"{table} field '{f.name}' is not a finite number", field=f.name, value=value
            )
        if isinstance(value, int | float) and not isinstance(value, bool):
            if (table, f.name) in _POSITIVE and value < 1:
                raise ValidationError(f"{table} field '{f.name}' must be ≥ 1", field=f.name, value=value)
            if value < 0 and f.name not in ("x", "y", "ambient_temp_c"):
                raise ValidationError(
                    f"{table} field '{f.name}' must not be negative", field=f.name, value=value
                )
        choices = _CHOICES.get((table, f.name))
        if choices and value not in choices:
            raise ValidationError(
                f"{table} field '{f.name}' must be one of {', '.join(choices)}", field=f.name, value=value
            )
    if project is not None:
        _check_references(table, row, project)


def _check_references(table: str, row: Any, project: Any) -> None:
    if table == "devices":
        if row.rack_id is not None and row.rack_id not in project.racks:
            raise ValidationError(
                f"device '{row.name}' refers to a missing rack", field="rack_id", value=row.rack_id
            )
        if row.type_id not in project.catalog:
            raise ValidationError(
                f"device '{row.name}' has an unknown catalog type", field="type_id", value=row.type_id
            )
    elif table == "links":
        for side in ("a", "b"):
            dev_id = getattr(row, f"{side}_device")
            dev = project.devices.get(dev_id)
            if dev is None:
                raise ValidationError(
                    f"link '{row.id}' refers to a missing device", field=f"{side}_device", value=dev_id
                )
            entry = project.catalog.entries.get(dev.type_id)
            group = getattr(row, f"{side}_group")
            if entry is not None and hasattr(entry, "port_group") and entry.port_group(group) is None:
                raise ValidationError(
                    f"link '{row.id}': device '{dev.name}' ({dev.type_id}) has no port group '{group}'",
                    field=f"{side}_group",
                    value=group,
                )
        if row.a_device == row.b_device:
            raise ValidationError(
                f"link '{row.id}' joins a device to itself", field="b_device", value=row.b_device
            )
    elif table == "racks" and row.type_id not in project.catalog:
        raise ValidationError(
            f"rack '{row.name}' has an unknown catalog type", field="type_id", value=row.type_id
        )
