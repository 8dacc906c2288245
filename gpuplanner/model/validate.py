"""Value checks on rows: types, ranges, vocabularies, references. Used by edits and by the file loader."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import Any

from gpuplanner.catalog.names import named, named_id
from gpuplanner.core.errors import ProjectFileError, ValidationError
from gpuplanner.model.bounds import bounds, format_bound
from gpuplanner.model.refs import REFERRING_TABLES, dangling_key
from gpuplanner.text import Msg

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
    ("workloads", "precision"): (
        "bf16",
        "fp16",
        "fp8",
        "fp4",
    ),  # fp4: inference workloads only (engine/workload.py)
    ("workloads", "recompute"): ("none", "selective", "full"),
    ("workloads", "architecture"): ("dense", "moe", "vit", "dit"),
    ("project", "language"): ("en", "zh"),
    ("site", "climate"): ("cold", "temperate", "hot", "auto"),
    ("site", "facility_model"): ("colocation", "build", "none"),
    ("site", "cloud_price_source"): ("list", "site"),
    ("site", "cloud_term"): ("on_demand", "reserved_1y", "reserved_3y"),
    ("site", "redundancy"): ("N", "N+1", "2N"),
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
    ("goal", "kind"): ("", "training", "inference"),
    ("goal", "precision"): ("bf16", "fp16", "fp8", "fp4"),  # fp4: serving goals only (model/goal.py)
    ("goal", "objective"): ("tco", "capex"),
    ("goal", "serving_mode"): ("aggregated", "disaggregated", "best"),
    ("goal", "serving_stack"): ("vllm", "trtllm"),  # engine/perf/serving_worker.py SERVING_STACKS (a test)
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
    """Per field: (name, allowed types, bool allowed, must be ≥ 1, choices, may be negative) — computed once.

    The numeric range itself is ``gpuplanner.model.bounds.bounds(table, name)``."""
    key = (table, cls)
    if key not in _SPECS:
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            allowed = _allowed_types(hints[f.name])
            lo, _hi = bounds(table, f.name, int if float not in allowed else float)
            out.append((f.name, allowed, bool in allowed, lo >= 1, _CHOICES.get((table, f.name)), lo < 0))
        _SPECS[key] = out
    return _SPECS[key]


_FAST: dict[tuple[str, type], list[tuple[str, frozenset[type], tuple[float, float] | None, Any]]] = {}


def _fast_specs(table: str, cls: type) -> list[tuple[str, frozenset[type], tuple[float, float] | None, Any]]:
    """Per field: (name, exact types that pass, (lo, hi) for numbers, choices) — validation's hot loop."""
    key = (table, cls)
    if key not in _FAST:
        out = []
        for name, allowed, _b, _p, choices, _n in field_specs(table, cls):
            numeric = int in allowed or float in allowed
            rng = bounds(table, name, float if float in allowed else int) if numeric else None
            out.append((name, frozenset(allowed), rng, choices or None))
        _FAST[key] = out
    return _FAST[key]


def validate_row(table: str, row: Any, project: Any = None) -> None:
    """Raises ValidationError naming the table, row and field of the first bad value."""
    for name, exact, rng, choices in _fast_specs(table, type(row)):
        value = getattr(row, name)
        if type(value) not in exact:
            _bad_type(table, row, name, value)
        # NaN fails the comparison too.
        if (
            rng is not None
            and type(value) is not bool
            and value is not None
            and not rng[0] <= value <= rng[1]
        ):
            _out_of_range(table, row, name, value, rng)
        if choices is not None and value not in choices:
            shown = ", ".join(c or '""' for c in choices)  # "" (not stated) shown, not lost between commas
            raise ValidationError(
                Msg("error.model.choice", {"table": table, "name": name, "choices": shown}),
                field=name,
                value=value,
            )
    if table == "site":  # positions (JSON data) and region code: model/site_limits.py
        from gpuplanner.model.site_limits import check_region, parse_positions

        parse_positions(getattr(row, "positions_json", "[]"))
        check_region(getattr(row, "region", ""))
    elif table == "goal":  # lists (comma-separated text), region code, rules across fields: model/goal.py
        from gpuplanner.model.goal import check_goal_row
        from gpuplanner.model.site_limits import check_region

        check_goal_row(row)
        check_region(row.region)
    elif table == "workloads":  # a serving workload's target percentiles: below 100
        from gpuplanner.model.goal import check_percentiles

        check_percentiles(table, row)
    if project is not None:
        check_references(table, row, project)


def _bad_type(table: str, row: Any, name: str, value: Any) -> None:
    """A value whose type is not one the field lists exactly: a subclass (numpy's float64) passes."""
    spec = next(s for s in field_specs(table, type(row)) if s[0] == name)
    allowed, bool_ok = spec[1], spec[2]
    if isinstance(value, allowed) and not (isinstance(value, bool) and not bool_ok):
        return
    raise ValidationError(
        Msg("error.model.type", {"table": table, "name": name, "types": _type_word(allowed), "value": value}),
        entry=getattr(row, "id", None),
        field=name,
        value=value,
    )


def _type_word(allowed: tuple[type, ...]) -> str:
    """The value-type word of a field's allowed types ("int" → "a whole number", int | None → "… or empty")."""
    names = [t.__name__ for t in allowed if t is not type(None)]
    base = "float" if "float" in names else (names[0] if names else "NoneType")
    return base + "_or_empty" if type(None) in allowed and names else base


def _out_of_range(table: str, row: Any, name: str, value: Any, rng: tuple[float, float]) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValidationError(
            Msg("error.model.not_finite", {"table": table, "name": name}),
            entry=getattr(row, "id", None),
            field=name,
            value=value,
        )
    lo, hi = rng
    raise ValidationError(
        Msg(
            "error.model.range",
            {"table": table, "name": name, "lo": format_bound(lo), "hi": format_bound(hi), "value": value},
        ),
        entry=getattr(row, "id", None),
        field=name,
        value=value,
    )


# The catalog kinds a device of each role may be (a leaf switch cannot become a server).
ROLE_KINDS: dict[str, tuple[str, ...]] = {
    "compute": ("server",),
    "leaf": ("switch",),
    "spine": ("switch",),
    "core": ("switch",),
    "storage": ("storage",),
    "storage-switch": ("switch",),
    "management": ("switch",),
    "other": ("server", "switch", "storage"),
}


def kinds_for_role(role: str) -> tuple[str, ...]:
    return ROLE_KINDS.get(role, ("server", "switch", "storage"))


_GROUPS: dict[int, tuple[Any, frozenset[str]]] = {}


def _group_names(entry: Any) -> frozenset[str]:
    """The port group names of a catalog entry (cached by identity; the entry is kept alive with it)."""
    hit = _GROUPS.get(id(entry))
    if hit is None or hit[0] is not entry:
        hit = (entry, frozenset(pg.name for pg in entry.port_groups))
        _GROUPS[id(entry)] = hit
    return hit[1]


def check_references(table: str, row: Any, project: Any, *, device_links: bool = True) -> None:
    """A row against the rows and catalog entries it names. ``device_links=False`` skips checking a device's
    links from the device's side (when every link is checked anyway, as on opening a file)."""
    fk = dangling_key(table, row, project.tables)  # the rows it names (model/refs.py)
    if fk is not None:
        label = getattr(row, "name", None) or row.id
        raise ValidationError(
            Msg("error.model.missing_ref", {"kind": table, "name": label, "target": fk.target}),
            field=fk.column,
            value=fk.value(row),
        )
    if table == "devices":
        _check_device(row, project, device_links)
    elif table == "links":
        for side in ("a", "b"):
            dev = project.devices[getattr(row, f"{side}_device")]  # there: the foreign key check above
            entry = project.catalog.entries.get(dev.type_id)
            group = getattr(row, f"{side}_group")
            if entry is not None and hasattr(entry, "port_group") and group not in _group_names(entry):
                raise ValidationError(
                    Msg(
                        "error.model.no_port_group",
                        {
                            "link": row.id,
                            "device": dev.name,
                            # in the message's language; no figures: the sentence has its own brackets
                            "type": named_id(project.catalog, dev.type_id, with_figures=False),
                            "group": group,
                        },
                    ),
                    field=f"{side}_group",
                    value=group,
                )
        if row.a_device == row.b_device:
            raise ValidationError(
                Msg("error.model.self_link", {"link": row.id}), field="b_device", value=row.b_device
            )
    if (
        table == "goal"
        and row.kind
        and getattr(project.catalog.entries.get(row.model_id), "kind", "") != "model"
    ):
        raise ValidationError(
            Msg("error.model.goal_model", {"model": row.model_id}),
            field="model_id",
            value=row.model_id,
            hint=Msg("error.model.goal_model.hint"),
        )
    if table == "racks" and row.type_id not in project.catalog:
        raise ValidationError(
            Msg("error.model.rack_unknown_type", {"name": row.name}), field="type_id", value=row.type_id
        )


def check_device_kind(row: Any, entry: Any, catalog: Any = None) -> None:
    """A device's model must be of a kind its role can be (a leaf is a switch, a compute node a server); the
    model is named in the message's language (``catalog``: for the figures a Chinese name gives)."""
    kinds = kinds_for_role(row.role)
    if entry.kind not in kinds:
        raise ValidationError(
            Msg(
                "error.model.role_kind",
                {
                    "name": row.name,
                    "role": row.role,
                    "kinds": kinds,
                    "kind": entry.kind,
                    "model": named(entry, catalog),
                },
            ),
            entry=row.id,
            field="type_id",
            value=row.type_id,
        )


def _check_device(row: Any, project: Any, links: bool = True) -> None:
    """A device against what it refers to: its rack (and U slot in it), its catalog entry and the port
    groups its links use."""
    rack = project.racks[row.rack_id] if row.rack_id is not None else None  # checked: a foreign key
    entry = project.catalog.entries.get(row.type_id)
    if entry is None:
        raise ValidationError(
            Msg("error.edit.unknown_type", {"name": row.name}), field="type_id", value=row.type_id
        )
    # The role ↔ kind rule (check_device_kind) is applied where a model is chosen (the inspector's list, the
    # model-change command), not here: files and tests that pair a role with another kind must still open.
    if rack is not None and row.u_position is not None:
        rack_entry = project.catalog.entries.get(rack.type_id)
        rack_u = getattr(rack_entry, "ru", None)
        if rack_u is not None and row.u_position > rack_u:
            raise ValidationError(
                Msg(
                    "error.model.above_rack",
                    {"name": row.name, "u": row.u_position, "rack": rack.name, "rack_u": rack_u},
                ),
                entry=row.id,
                field="u_position",
                value=row.u_position,
            )
    bad = links_without_group(project, row.id, entry) if links else []
    if bad:
        shown = ", ".join(f"'{lid}' ({group})" for lid, group in bad[:5])
        more = Msg("error.edit.and_more", {"n": len(bad) - 5}) if len(bad) > 5 else ""
        raise ValidationError(
            Msg(
                "error.model.no_group_for_links",
                {"name": row.name, "model": named(entry, project.catalog), "links": shown, "more": more},
            ),
            entry=row.id,
            field="type_id",
            value=row.type_id,
        )


def links_without_group(project: Any, device_id: str, entry: Any) -> list[tuple[str, str]]:
    """(link id, port group) of the device's links whose port group ``entry`` lacks."""
    if not hasattr(entry, "port_group"):
        return []
    out = []
    for lid in sorted(project.links_of(device_id)):
        lk = project.links[lid]
        for side in ("a", "b"):
            if getattr(lk, f"{side}_device") == device_id:
                group = getattr(lk, f"{side}_group")
                if group not in _group_names(entry):
                    out.append((lid, group))
    return out


def check_rack_contents(row: Any, project: Any) -> None:
    """A rack's type against the devices in it (on an edit of the rack: a smaller rack must still hold them)."""
    entry = project.catalog.entries.get(row.type_id)
    rack_u = getattr(entry, "ru", None)
    if rack_u is None:
        return
    above = sorted(
        (d for d in project.devices.values() if d.rack_id == row.id and (d.u_position or 0) > rack_u),
        key=lambda d: d.u_position,
    )
    if above:
        names = ", ".join(f"'{d.name}' (U{d.u_position})" for d in above[:5])
        raise ValidationError(
            Msg(
                "error.model.rack_too_small",
                {
                    "name": row.name,
                    "model": named(entry, project.catalog),
                    "rack_u": rack_u,
                    "devices": names,
                },
            ),
            entry=row.id,
            field="type_id",
            value=row.type_id,
        )


def validate_project(project: Any) -> None:
    """Everything the file loader checks, on a project in memory: every row's values and references, and
    ids unique per table. Raises ValidationError naming the first bad row; a project that passes saves and
    reopens identically."""
    for table, rows in project.tables.items():
        for rid, row in rows.items():
            if getattr(row, "id", None) != rid:
                raise ValidationError(
                    Msg("error.model.stored_under", {"table": table, "row": rid, "id": row.id}), entry=rid
                )
            try:
                validate_row(table, row)
                if table in REFERRING_TABLES:
                    check_references(table, row, project, device_links=False)
            except ValidationError as exc:
                if exc.entry is None:
                    exc.entry = rid
                exc.set_message(
                    Msg("error.model.in_row", {"table": table, "row": rid, "message": exc.msg or exc.message})
                )
                raise


def check_savable(project: Any, file: Any) -> None:
    """Raises ProjectFileError (naming the file and the first bad row) when ``project`` would not reopen:
    the save refuses it and writes nothing, and the recovery copy likewise."""
    try:
        validate_project(project)
    except ValidationError as exc:
        raise ProjectFileError(
            Msg("error.model.not_saved", {"message": exc.msg or exc.message}),
            file=str(file),
            entry=exc.entry,
            field=exc.field,
            value=exc.value,
            hint=Msg("error.model.not_saved.hint"),
        ) from exc
