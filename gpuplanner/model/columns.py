"""The row rules of ``model/validate.py`` checked a column at a time over a whole table (opening a file).

Each check answers only "all good?": types as a set of the column's value types, numeric ranges as one
numpy comparison, vocabularies as a set difference, references as set look-ups and the distinct (device
type, port group) pairs of the links. When a table fails, the caller runs the row-by-row rules, which name
the first bad row, field and value — so a bad file gets the same one clear message as before, and a good
one (nearly every file) is checked without a Python frame per row and field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from operator import attrgetter, contains, eq
from typing import Any

import numpy as np

from gpuplanner.core.errors import PlannerError
from gpuplanner.model.link_table import LinkTable
from gpuplanner.model.rows import ROW_TYPES, SINGLETON_TABLES
from gpuplanner.model.validate import _fast_specs, _group_names, validate_row


def columns_valid(table: str, cls: type, columns: Mapping[str, Sequence[Any]]) -> bool:
    """True when every value in ``columns`` (field name → the table's values, already of the row class's
    Python types) passes ``validate_row``'s type, range and choice rules. Fields not given are not checked
    (the row class's default applies to them, and defaults are valid)."""
    for name, exact, rng, choices in _fast_specs(table, cls):
        col = columns.get(name)
        if col is None:
            continue
        kinds = set(map(type, col))
        if not kinds <= exact:
            return False
        if rng is not None and kinds - _NOT_NUMBERS:
            # None and bool have no range; NaN fails both comparisons, as in validate_row
            nums = [v for v in col if v is not None and type(v) is not bool] if kinds & _NOT_NUMBERS else col
            arr = np.asarray(nums, dtype=np.float64)
            lo, hi = rng
            if not bool(np.all((arr >= lo) & (arr <= hi))):
                return False
        if choices is not None and not set(col) <= set(choices):
            return False
    return True


_NOT_NUMBERS = frozenset({type(None), bool})


def references_valid(project: Any, columns: Mapping[str, Mapping[str, Sequence[Any]]] | None = None) -> bool:
    """True when every rack, device and link passes ``check_references`` (links checked from their own
    side, so the devices' view of their links adds nothing). Each rule is a set operation over a column:
    ``columns[table][field]`` when given (the values of the rows in table order, as the file loader read
    them), else taken from the rows by ``map(attrgetter)``, in C."""
    given = columns or {}

    def col(table: str, name: str) -> Sequence[Any]:
        have = given.get(table, {}).get(name)
        return have if have is not None else list(map(attrgetter(name), project.tables[table].values()))

    phases = project.tables["phases"]
    entries = project.catalog.entries
    racks, devices = project.racks, project.devices
    for table in ("racks", "devices", "links", "floor_items"):
        named = set(col(table, "phase_id"))
        named.discard("")
        if not named <= phases.keys():
            return False
    if not all(t in project.catalog for t in set(col("racks", "type_id"))):
        return False
    fabrics = project.tables["fabrics"]
    for table in ("devices", "links"):
        if not set(col(table, "fabric_id")) - {None} <= fabrics.keys():
            return False
    rack_of = col("devices", "rack_id")
    if not set(rack_of) - {None} <= racks.keys():
        return False
    type_of_dev = col("devices", "type_id")
    if not set(type_of_dev) <= entries.keys():
        return False
    rack_u = {rid: getattr(entries.get(r.type_id), "ru", None) for rid, r in racks.items()}
    for rid, u in zip(rack_of, col("devices", "u_position"), strict=True):
        if rid is not None and u and (ru := rack_u[rid]) is not None and u > ru:
            return False
    a_dev, b_dev = col("links", "a_device"), col("links", "b_device")
    if not set(a_dev) <= devices.keys() or not set(b_dev) <= devices.keys():
        return False
    if any(map(eq, a_dev, b_dev)):
        return False
    # the port groups each link end may use: one set per device type, looked up per end without a tuple
    groups = {
        t: _group_names(e) if hasattr(e := entries[t], "port_group") else _ANY for t in set(type_of_dev)
    }
    allowed = dict(zip(col("devices", "id"), map(groups.__getitem__, type_of_dev), strict=True))
    return all(map(contains, map(allowed.__getitem__, a_dev), col("links", "a_group"))) and all(
        map(contains, map(allowed.__getitem__, b_dev), col("links", "b_group"))
    )


def project_valid_by_columns(project: Any) -> bool:
    """True when every row of ``project`` passes ``validate_row``, every referring row ``check_references``,
    each row is of its table's row class and stored under its own id, and each single-row table has one row —
    what ``validate_project`` and the save's checks decide row by row, decided a column at a time (the
    single-row tables row by row). False says only "look row by row": those checks name the first bad row."""
    columns: dict[str, Mapping[str, Sequence[Any]]] = {}
    for table, rows in project.tables.items():
        cls = ROW_TYPES[table]
        names = [f.name for f in dataclasses.fields(cls)]
        if table in SINGLETON_TABLES:
            if len(rows) != 1:
                return False
            for rid, row in rows.items():
                if type(row) is not cls or getattr(row, "id", None) != rid:
                    return False
                try:
                    validate_row(table, row)
                except PlannerError:
                    return False
            continue
        if isinstance(rows, LinkTable):  # rows of class Link under their own ids, by construction
            cols: dict[str, Sequence[Any]] = {name: rows.values_of(name) for name in names}
        else:
            values = list(rows.values())
            if not set(map(type, values)) <= {cls}:
                return False
            cols = {name: list(map(attrgetter(name), values)) for name in names}
            if list(rows) != cols["id"]:
                return False
        if not columns_valid(table, cls, cols):
            return False
        columns[table] = cols
    return references_valid(project, columns)


class _AnyGroup(frozenset[str]):
    """The port groups of a catalog entry that lists none: any name passes (as in ``check_references``)."""

    def __contains__(self, name: object) -> bool:
        return True


_ANY = _AnyGroup()
