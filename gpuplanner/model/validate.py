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
    ("workloads", "kind"): ("training", "fine-tuning", "inference"),
    ("workloads", "serving_mode"): ("aggregated", "disaggregated", "best"),
    ("workloads", "precision"): ("bf16", "fp16", "fp8"),
    ("workloads", "recompute"): ("none", "selective", "full"),
    ("workloads", "architecture"): ("dense", "moe", "vit", "dit"),
    ("project", "language"): ("en", "zh"),
    ("site", "climate"): ("cold", "temperate", "hot"),
    ("aisle_rows", "aisle"): ("cold", "hot"),
    ("floor_items", "kind"): (
        "crah",
        "in-row",
        "rear-door",
        "cdu",
        "immersion-tank",
        "pdu",
        "busway",
        "utility-feed",
    ),
    ("phases", "scheduler"): ("", "slurm", "kubernetes", "volcano", "slurm+kubernetes"),
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
    ("phases", "order"),
    ("teams", "priority"),
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


_SPECS: dict[
    tuple[str, type], list[tuple[str, tuple[type, ...], bool, bool, tuple[str, ...] | None, bool]]
] = {}


def field_specs(
    table: str, cls: type
) -> list[tuple[str, tuple[type, ...], bool, bool, tuple[str, ...] | None, bool]]:
    """Per field: (name, allowed types, bool allowed, must be ≥ 1, choices, may be negative) — computed once."""
    key = (table, cls)
    if key not in _SPECS:
        hints = typing.get_type_hints(cls)
        _SPECS[key] = [
            (
                f.name,
                _allowed_types(hints[f.name]),
                bool in _allowed_types(hints[f.name]),
                (table, f.name) in _POSITIVE,
                _CHOICES.get((table, f.name)),
                f.name in ("x", "y", "ambient_temp_c", "x_m", "y_m", "floor_x_m", "floor_y_m"),
            )
            for f in dataclasses.fields(cls)
        ]
    return _SPECS[key]


def validate_row(table: str, row: Any, project: Any = None) -> None:
    """Raises ValidationError naming the table, row and field of the first bad value."""
    for name, allowed, bool_ok, positive, choices, negative_ok in field_specs(table, type(row)):
        value = getattr(row, name)
        if not isinstance(value, allowed) or (isinstance(value, bool) and not bool_ok):
            raise ValidationError(
                f"{table} field '{name}' must be {' or '.join(t.__name__ for t in allowed)}, got {value!r}",
                entry=getattr(row, "id", None),
                field=name,
                value=value,
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ValidationError(f"{table} field '{name}' is not a finite number", field=name, value=value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if positive and value < 1:
                raise ValidationError(f"{table} field '{name}' must be ≥ 1", field=name, value=value)
            if value < 0 and not negative_ok:
                raise ValidationError(f"{table} field '{name}' must not be negative", field=name, value=value)
        if choices and value not in choices:
            raise ValidationError(
                f"{table} field '{name}' must be one of {', '.join(choices)}", field=name, value=value
            )
    if table == "site":  # positions (JSON data) and region code: model/site_limits.py
        from gpuplanner.model.site_limits import check_region, parse_positions

        parse_positions(getattr(row, "positions_json", "[]"))
        check_region(getattr(row, "region", ""))
    if project is not None:
        check_references(table, row, project)


def check_references(table: str, row: Any, project: Any) -> None:
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
    if (
        table in ("racks", "devices", "links", "floor_items")
        and row.phase_id
        and row.phase_id not in project.tables["phases"]
    ):
        raise ValidationError(
            f"{table} row '{row.id}' names a missing phase", field="phase_id", value=row.phase_id
        )
    if table == "racks" and row.type_id not in project.catalog:
        raise ValidationError(
            f"rack '{row.name}' has an unknown catalog type", field="type_id", value=row.type_id
        )
