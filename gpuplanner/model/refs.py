"""The project's foreign keys, declared once: which column of which table names a row of another table,
and what deleting that row does to the rows naming it.

Validation (``model.validate.check_references``), the delete guard (``Project.delete``) and the delete
cascades (``commands.RemoveRows``) all read this table, so a new reference column is declared here and
nowhere else. Columns that name catalog entries (``type_id``, ``cooling_id``, ``cable_id``, ``model_id``)
are not foreign keys between tables: the validator checks them against the catalog.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from typing import Any, Literal

OnDelete = Literal["cascade", "set_null", "restrict"]


@dataclass(frozen=True)
class ForeignKey:
    table: str  # the referring table
    column: str  # its column holding the referenced row's id
    target: str  # the referenced table
    # What deleting a referenced row does to the rows naming it: "cascade" deletes them too, "set_null" sets
    # the column (and `also_clear`) to None, "restrict" refuses the delete until they are re-pointed.
    on_delete: OnDelete
    empty: Any = None  # the column's value for "refers to nothing" (None, or "" for a phase: the first)
    also_clear: tuple[str, ...] = ()  # set_null: fields that lose their meaning with the reference

    def value(self, row: Any) -> Any:
        return getattr(row, self.column)

    def refers(self, row: Any) -> bool:
        """True when the row names a target row (its column is not the empty value)."""
        return bool(self.value(row) != self.empty)


FOREIGN_KEYS: tuple[ForeignKey, ...] = (
    # A phase that rows still name cannot go; the phases dialog moves them to another phase first.
    ForeignKey("racks", "phase_id", "phases", "restrict", empty=""),
    # A device taken out of its rack keeps standing, unracked (and loses its U slot).
    ForeignKey("devices", "rack_id", "racks", "set_null", also_clear=("u_position",)),
    ForeignKey("devices", "phase_id", "phases", "restrict", empty=""),
    # A switch's or link's fabric: deleting the fabric leaves them in none (the generators fill it; a
    # file of format 3 whose fabric id named no fabric row has it cleared by the migration to format 4).
    ForeignKey("devices", "fabric_id", "fabrics", "set_null"),
    # A link cannot exist without both its devices.
    ForeignKey("links", "a_device", "devices", "cascade"),
    ForeignKey("links", "b_device", "devices", "cascade"),
    ForeignKey("links", "phase_id", "phases", "restrict", empty=""),
    ForeignKey("links", "fabric_id", "fabrics", "set_null"),
    ForeignKey("floor_items", "phase_id", "phases", "restrict", empty=""),
)
# The tables holding foreign keys, in the order their references are checked.
REFERRING_TABLES: tuple[str, ...] = tuple(dict.fromkeys(fk.table for fk in FOREIGN_KEYS))


@cache
def keys_of(table: str) -> tuple[ForeignKey, ...]:
    """The foreign keys of ``table``'s own columns."""
    return tuple(fk for fk in FOREIGN_KEYS if fk.table == table)


@cache
def keys_to(table: str) -> tuple[ForeignKey, ...]:
    """The foreign keys that name rows of ``table``."""
    return tuple(fk for fk in FOREIGN_KEYS if fk.target == table)


def dangling_key(table: str, row: Any, tables: Mapping[str, Mapping[str, Any]]) -> ForeignKey | None:
    """The first declared foreign key of ``row`` whose target row does not exist, or None."""
    for fk in keys_of(table):
        if fk.refers(row) and fk.value(row) not in tables[fk.target]:
            return fk
    return None


def referring_ids(fk: ForeignKey, rows: Iterable[Any], ids: set[str]) -> list[str]:
    """Ids of ``rows`` (of ``fk.table``, in their order) whose ``fk.column`` names one of ``ids``."""
    get, empty = attrgetter(fk.column), fk.empty  # one C call per row: this scans whole tables
    return [r.id for r in rows if (v := get(r)) != empty and v in ids]
