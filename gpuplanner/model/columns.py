"""The row rules of ``model/validate.py`` checked a column at a time over a whole table (opening a file).

Each check answers only "all good?": types as a set of the column's value types, numeric ranges as one
numpy comparison, vocabularies as a set difference, references as set look-ups and the distinct (device
type, port group) pairs of the links. When a table fails, the caller runs the row-by-row rules, which name
the first bad row, field and value — so a bad file gets the same one clear message as before, and a good
one (nearly every file) is checked without a Python frame per row and field.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter, contains
from typing import Any

import numpy as np

from gpuplanner.model.validate import _fast_specs, _group_names


def columns_valid(table: str, cls: type, columns: dict[str, Sequence[Any]]) -> bool:
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


def references_valid(project: Any) -> bool:
    """True when every rack, device and link passes ``check_references`` (links checked from their own
    side, so the devices' view of their links adds nothing). Each rule is a set operation over a column
    (taken from the rows by ``map(attrgetter)``, in C)."""
    phases = project.tables["phases"]
    entries = project.catalog.entries
    racks, devices, links = project.racks, project.devices, project.links
    for table in ("racks", "devices", "links", "floor_items"):
        named = set(map(_PHASE, project.tables[table].values()))
        named.discard("")
        if not named <= phases.keys():
            return False
    if not all(t in project.catalog for t in set(map(_TYPE, racks.values()))):
        return False
    devs = list(devices.values())
    rack_of = list(map(_RACK, devs))
    if not set(rack_of) - {None} <= racks.keys():
        return False
    type_of_dev = list(map(_TYPE, devs))
    if not set(type_of_dev) <= entries.keys():
        return False
    rack_u = {rid: getattr(entries.get(r.type_id), "ru", None) for rid, r in racks.items()}
    for rid, u in zip(rack_of, map(_U, devs), strict=True):
        if rid is not None and u and (ru := rack_u[rid]) is not None and u > ru:
            return False
    lks = list(links.values())
    a_dev = list(map(_A_DEV, lks))
    b_dev = list(map(_B_DEV, lks))
    if not set(a_dev) <= devices.keys() or not set(b_dev) <= devices.keys():
        return False
    if any(map(str.__eq__, a_dev, b_dev)):
        return False
    # the port groups each link end may use: one set per device type, looked up per end without a tuple
    groups = {
        t: _group_names(e) if hasattr(e := entries[t], "port_group") else _ANY for t in set(type_of_dev)
    }
    allowed = dict(zip(map(_ID, devs), map(groups.__getitem__, type_of_dev), strict=True))
    return all(map(contains, map(allowed.__getitem__, a_dev), map(_A_GROUP, lks))) and all(
        map(contains, map(allowed.__getitem__, b_dev), map(_B_GROUP, lks))
    )


class _AnyGroup(frozenset[str]):
    """The port groups of a catalog entry that lists none: any name passes (as in ``check_references``)."""

    def __contains__(self, name: object) -> bool:
        return True


_ANY = _AnyGroup()
_ID, _PHASE, _TYPE, _RACK, _U = map(attrgetter, ("id", "phase_id", "type_id", "rack_id", "u_position"))
_A_DEV, _B_DEV, _A_GROUP, _B_GROUP = map(attrgetter, ("a_device", "b_device", "a_group", "b_group"))
