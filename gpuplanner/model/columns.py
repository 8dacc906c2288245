"""The row rules of ``model/validate.py`` checked a column at a time over a whole table (opening a file).

Each check answers only "all good?": types as a set of the column's value types, numeric ranges as one
numpy comparison, vocabularies as a set difference, references as set look-ups and the distinct (device
type, port group) pairs of the links. When a table fails, the caller runs the row-by-row rules, which name
the first bad row, field and value — so a bad file gets the same one clear message as before, and a good
one (nearly every file) is checked without a Python frame per row and field.
"""

from __future__ import annotations

from collections.abc import Sequence
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
        if not set(map(type, col)) <= exact:
            return False
        if rng is not None:
            nums = [v for v in col if v is not None and type(v) is not bool]
            if nums:
                arr = np.asarray(nums, dtype=np.float64)
                lo, hi = rng
                # NaN fails both comparisons, as in validate_row
                if not bool(np.all((arr >= lo) & (arr <= hi))):
                    return False
        if choices is not None and not set(col) <= set(choices):
            return False
    return True


def references_valid(project: Any) -> bool:
    """True when every rack, device and link passes ``check_references`` (links checked from their own
    side, so the devices' view of their links adds nothing)."""
    phases = project.tables["phases"]
    catalog = project.catalog
    racks, devices, links = project.racks, project.devices, project.links
    for table in ("racks", "devices", "links", "floor_items"):
        named = {r.phase_id for r in project.tables[table].values()}
        if any(ph and ph not in phases for ph in named):
            return False
    if any(t not in catalog for t in {r.type_id for r in racks.values()}):
        return False
    devs = list(devices.values())
    if not {d.rack_id for d in devs} - {None} <= racks.keys():
        return False
    if not {d.type_id for d in devs} <= catalog.entries.keys():
        return False
    rack_u = {rid: getattr(catalog.entries.get(r.type_id), "ru", None) for rid, r in racks.items()}
    placed = [(rack_u[d.rack_id], d.u_position) for d in devs if d.rack_id is not None and d.u_position]
    if any(ru is not None and u > ru for ru, u in placed):
        return False
    lks = list(links.values())
    a_dev = [lk.a_device for lk in lks]
    b_dev = [lk.b_device for lk in lks]
    if not set(a_dev) <= devices.keys() or not set(b_dev) <= devices.keys():
        return False
    if any(map(str.__eq__, a_dev, b_dev)):
        return False
    type_of = {d.id: d.type_id for d in devs}
    pairs = set(zip(map(type_of.__getitem__, a_dev), [lk.a_group for lk in lks], strict=True))
    pairs |= set(zip(map(type_of.__getitem__, b_dev), [lk.b_group for lk in lks], strict=True))
    for type_id, group in pairs:
        entry = catalog.entries.get(type_id)
        if entry is not None and hasattr(entry, "port_group") and group not in _group_names(entry):
            return False
    return True
