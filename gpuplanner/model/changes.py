"""ChangeSet: what one edit changed, table by table, so that views and the engine touch only that."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TableChange:
    added: set[str] = field(default_factory=set)
    updated: dict[str, set[str]] = field(default_factory=dict)  # id → changed field names
    removed: set[str] = field(default_factory=set)

    def is_empty(self) -> bool:
        return not (self.added or self.updated or self.removed)

    def fields(self) -> set[str]:
        out: set[str] = set()
        for f in self.updated.values():
            out |= f
        return out


@dataclass
class ChangeSet:
    tables: dict[str, TableChange] = field(default_factory=dict)

    def table(self, name: str) -> TableChange:
        return self.tables.setdefault(name, TableChange())

    def note_added(self, table: str, row_id: str) -> None:
        tc = self.table(table)
        if row_id in tc.removed:  # removed then re-added in one batch: an update
            tc.removed.discard(row_id)
            tc.updated.setdefault(row_id, set()).add("*")
        else:
            tc.added.add(row_id)

    def note_updated(self, table: str, row_id: str, fields: set[str]) -> None:
        tc = self.table(table)
        if row_id in tc.added:
            return
        tc.updated.setdefault(row_id, set()).update(fields)

    def note_removed(self, table: str, row_id: str) -> None:
        tc = self.table(table)
        if row_id in tc.added:
            tc.added.discard(row_id)
            return
        tc.updated.pop(row_id, None)
        tc.removed.add(row_id)

    def is_empty(self) -> bool:
        return all(tc.is_empty() for tc in self.tables.values())

    def touches(self, table: str, fields: set[str] | None = None) -> bool:
        tc = self.tables.get(table)
        if tc is None or tc.is_empty():
            return False
        if fields is None or tc.added or tc.removed:
            return True
        changed = tc.fields()
        return "*" in changed or bool(changed & fields)
