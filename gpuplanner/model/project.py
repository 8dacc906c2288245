"""The Project: tables of frozen rows keyed by id, with a ChangeSet emitted once per batch of mutations.

Only ``gpuplanner.commands`` should call the mutation methods (``insert``/``replace``/``delete``): that keeps
every edit undoable. Readers use the tables and the query helpers.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from operator import attrgetter
from typing import Any, TypeVar

from gpuplanner.catalog import Catalog, CatalogEntry
from gpuplanner.catalog.loader import default_catalog
from gpuplanner.core.errors import ValidationError
from gpuplanner.core.events import Emitter
from gpuplanner.core.ids import IdAllocator
from gpuplanner.model.changes import ChangeSet
from gpuplanner.model.link_table import LinkColumns, LinkTable, link_columns_of
from gpuplanner.model.refs import ForeignKey, keys_to, referring_ids
from gpuplanner.model.rows import (
    DEVICE_ROLES,
    FABRIC_KINDS,
    ID_PREFIX,
    ROW_TYPES,
    SINGLETON_TABLES,
    TABLE_OF,
    DesignGoal,
    Device,
    Link,
    ProjectInfo,
    Rack,
    Site,
)
from gpuplanner.model.validate import check_rack_contents, validate_row
from gpuplanner.text import Msg

R = TypeVar("R")  # a row class of ROW_TYPES

_ABSENT = object()  # journal marker: the row did not exist before


class Project:
    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog: Catalog = catalog if catalog is not None else default_catalog()
        self.tables: dict[str, dict[str, Any]] = {name: {} for name in ROW_TYPES}
        # the links are kept a column at a time (model/link_table.py): a mapping like the others' dicts
        self.tables["links"] = LinkTable()  # type: ignore[assignment]
        self.tables["project"]["project"] = ProjectInfo()
        self.tables["site"]["site"] = Site()
        self.tables["goal"]["goal"] = DesignGoal()
        self.changed: Emitter[ChangeSet] = Emitter()
        self._ids = {t: IdAllocator(p) for t, p in ID_PREFIX.items()}
        # device id → ids of its links; None while it is to be built from the links (after a bulk load)
        self._link_index: dict[str, set[str]] | None = {}
        # ids loaded in bulk (load_rows) that the table's id allocator has not looked at yet
        self._unobserved: dict[str, list[list[str]]] = {}
        self._pending: ChangeSet | None = None
        self._depth = 0
        # (table, id, row before or _ABSENT) per mutation inside a batch: a batch that raises is rolled back.
        self._journal: list[tuple[str, str, Any]] = []

    # -- reading ----------------------------------------------------------------------------------------
    @property
    def info(self) -> ProjectInfo:
        info: ProjectInfo = self.tables["project"]["project"]
        return info

    @property
    def site(self) -> Site:
        site: Site = self.tables["site"]["site"]
        return site

    @property
    def goal(self) -> DesignGoal:
        """The design goal (``kind`` "" while none is set)."""
        goal: DesignGoal = self.tables["goal"]["goal"]
        return goal

    @property
    def racks(self) -> dict[str, Rack]:
        return self.tables["racks"]

    @property
    def devices(self) -> dict[str, Device]:
        return self.tables["devices"]

    @property
    def links(self) -> LinkTable:
        links: LinkTable = self.tables["links"]  # type: ignore[assignment]
        return links

    def link_columns(self) -> LinkColumns:
        """Every field of the links as read-only columns in table order (numpy arrays for numbers, tuples
        for text; ``length_m`` NaN = automatic), built once per state of the links table."""
        return link_columns_of(self.tables["links"])

    def links_by_device(self) -> dict[str, set[str]]:
        """A copy of the device id → link ids index (for a copy of the project: ``copy.set_link_index``)."""
        return {dev: set(lids) for dev, lids in self._links_by_device.items()}

    def set_link_index(self, index: dict[str, set[str]] | None) -> None:
        """Gives this project its device → link ids index (the caller's own copy, matching the links
        table); None: built from the links when first asked."""
        self._link_index = index

    def rows_of(self, cls: type[R]) -> dict[str, R]:
        """The table of ``cls`` rows, typed: ``project.rows_of(Workload)`` is ``tables["workloads"]``."""
        rows: dict[str, R] = self.tables[TABLE_OF[cls]]
        return rows

    def row(self, table: str, row_id: str) -> Any:
        try:
            return self.tables[table][row_id]
        except KeyError:
            raise ValidationError(
                Msg("error.model.no_row", {"row": row_id, "table": table}), entry=row_id
            ) from None

    def links_of(self, device_id: str) -> set[str]:
        return set(self._links_by_device.get(device_id, ()))

    def devices_in_rack(self, rack_id: str) -> list[Device]:
        return [d for d in self.devices.values() if d.rack_id == rack_id]

    def entry(self, type_id: str) -> CatalogEntry:
        return self.catalog.get(type_id)

    def gpu_count(self) -> int:
        total = 0
        for d in self.devices.values():
            e = self.catalog.entries.get(d.type_id)
            total += getattr(e, "gpu_count", 0) or 0
        return total

    def new_id(self, table: str) -> str:
        if table in self._unobserved:
            self._observe_loaded(table)
        return self._ids[table].next()

    def used_type_ids(self) -> set[str]:
        used = {d.type_id for d in self.devices.values()} | {r.type_id for r in self.racks.values()}
        used |= {r.cooling_id for r in self.racks.values() if r.cooling_id}
        used |= set(self.link_columns().cable_id)
        used |= {w.model_id for w in self.tables["workloads"].values() if w.model_id}
        if self.goal.kind:
            used.add(self.goal.model_id)
        # What the used entries refer to (a server's GPU and NICs, a rack's PDU).
        for tid in list(used):
            e = self.catalog.entries.get(tid)
            if e is None:
                continue
            for ref in (e.raw.get("gpu"), e.raw.get("pdu")):
                if ref:
                    used.add(ref)
            for pg in e.raw.get("port_groups", ()) or ():
                if pg.get("nic"):
                    used.add(pg["nic"])
        return {u for u in used if u}

    # -- batching ---------------------------------------------------------------------------------------
    @contextmanager
    def batch(self) -> Iterator[ChangeSet]:
        """Groups mutations so that they emit one ChangeSet at the end of the outermost batch.

        A batch is all-or-nothing: when an exception leaves it, every mutation made inside it is undone (so a
        command that fails half-way leaves the project exactly as it was) and the exception goes on; the
        outermost batch then emits nothing."""
        if self._depth == 0:
            self._pending = ChangeSet()
            self._journal = []
        pending = self._pending
        assert pending is not None  # the outermost batch made it
        mark = len(self._journal)
        self._depth += 1
        failed = False
        try:
            yield pending
        except BaseException:
            failed = True
            self._rollback(mark)
            raise
        finally:
            self._depth -= 1
            if self._depth == 0:
                cs, self._pending = self._pending, None
                self._journal = []
                if not failed and cs is not None and not cs.is_empty():
                    self.changed.emit(cs)

    def _rollback(self, mark: int) -> None:
        while len(self._journal) > mark:
            table, rid, before = self._journal.pop()
            rows = self.tables[table]
            now = rows.pop(rid, None)
            if table == "links" and now is not None:
                self._unindex_link(now)
            if before is not _ABSENT:
                rows[rid] = before
                if table == "links":
                    self._index_link(before)

    def _log(self, table: str, rid: str, before: Any) -> None:
        if self._depth:
            self._journal.append((table, rid, before))

    # -- mutations (for gpuplanner.commands) ------------------------------------------------------------
    def insert(self, table: str, row: Any) -> None:
        rows = self.tables[table]
        if table in SINGLETON_TABLES:
            raise ValidationError(Msg("error.model.singleton", {"table": table}))
        if row.id in rows:
            raise ValidationError(
                Msg("error.model.id_exists", {"row": row.id, "table": table}), entry=row.id, field="id"
            )
        validate_row(table, row, self)
        with self.batch() as cs:
            self._log(table, row.id, _ABSENT)
            rows[row.id] = row
            if table in self._ids:
                self._ids[table].observe(row.id)
            if table == "links":
                self._index_link(row)
            cs.note_added(table, row.id)

    def replace(self, table: str, row: Any) -> set[str]:
        rows = self.tables[table]
        old = rows.get(row.id)
        if old is None:
            raise ValidationError(Msg("error.model.no_row", {"row": row.id, "table": table}), entry=row.id)
        validate_row(table, row, self)
        changed = {f.name for f in dataclasses.fields(row) if getattr(old, f.name) != getattr(row, f.name)}
        if not changed:
            return changed
        if table == "racks" and "type_id" in changed:
            check_rack_contents(row, self)
        with self.batch() as cs:
            self._log(table, row.id, old)
            if table == "links":
                self._unindex_link(old)
                self._index_link(row)
            rows[row.id] = row
            cs.note_updated(table, row.id, changed)
        return changed

    def delete(self, table: str, row_id: str) -> Any:
        if table in SINGLETON_TABLES:
            raise ValidationError(Msg("error.model.cannot_delete", {"table": table}))
        rows = self.tables[table]
        if row_id not in rows:
            raise ValidationError(Msg("error.model.no_row", {"row": row_id, "table": table}), entry=row_id)
        self._check_unreferenced(table, row_id)
        with self.batch() as cs:
            self._log(table, row_id, rows[row_id])
            old = rows.pop(row_id)
            if table == "links":
                self._unindex_link(old)
            cs.note_removed(table, row_id)
        return old

    def referrers(self, fk: ForeignKey, ids: Iterable[str]) -> list[str]:
        """Ids of the rows of ``fk.table`` whose ``fk.column`` names one of ``ids``: in table order, or
        sorted when the link index answers (a device's links, without a scan of every link)."""
        wanted = set(ids)
        if fk.table == "links" and fk.column in ("a_device", "b_device"):
            index = self._links_by_device
            if not any(d in index for d in wanted):
                return []
            links, end = self.links, attrgetter(fk.column)
            return sorted({lid for d in wanted for lid in index.get(d, ()) if end(links[lid]) in wanted})
        return referring_ids(fk, self.tables[fk.table].values(), wanted)

    def _check_unreferenced(self, table: str, row_id: str) -> None:
        """A row others refer to (model/refs.py) cannot go first (commands remove or re-point the referrers
        in the same step): a dangling reference would make the project fail to reopen."""
        fks = keys_to(table)
        if not fks:  # nothing names rows of this table (links: every RemoveRows of a device ends here)
            return
        referring: dict[str, None] = {}  # ordered, each id once (a link names a device at both ends)
        for fk in fks:
            referring.update(dict.fromkeys(self.referrers(fk, (row_id,))))
        who = list(referring)
        if who:
            more = Msg("error.model.and_more", {"n": len(who) - 5}) if len(who) > 5 else ""
            raise ValidationError(
                Msg(
                    "error.model.still_referred",
                    {"table": table, "row": row_id, "who": ", ".join(who[:5]), "more": more},
                ),
                entry=row_id,
                value=row_id,
            )

    @property
    def _links_by_device(self) -> dict[str, set[str]]:
        """Device id → ids of its links. Built on first use after a bulk load (opening a file need not
        index 40,000 links before anyone asks for a device's links), kept up to date by every edit after."""
        if self._link_index is None:
            self._link_index = _index_links(self.tables["links"])
        return self._link_index

    @_links_by_device.setter
    def _links_by_device(self, index: dict[str, set[str]]) -> None:
        self._link_index = index

    def _index_link(self, link: Link) -> None:
        if self._link_index is None:
            return  # built from the links as they are when first asked
        self._link_index.setdefault(link.a_device, set()).add(link.id)
        self._link_index.setdefault(link.b_device, set()).add(link.id)

    def _unindex_link(self, link: Link) -> None:
        index = self._link_index
        if index is None:
            return
        for dev in (link.a_device, link.b_device):
            s = index.get(dev)
            if s is not None:
                s.discard(link.id)
                if not s:
                    del index[dev]

    # -- whole-document helpers -------------------------------------------------------------------------
    def snapshot(self) -> dict[str, dict[str, Any]]:
        """A cheap copy of every table (rows are immutable), for comparisons in tests and undo checks."""
        return {t: dict(rows.items()) for t, rows in self.tables.items()}

    def load_rows(self, table: str, rows: list[Any], ids: list[str] | None = None) -> None:
        """Bulk load without validation order issues (used by storage after its own validation). ``ids``,
        when given, are the rows' ids in order (the file loader has them as a column already)."""
        if ids is None:
            ids = list(map(_ROW_ID, rows))
        target = self.tables[table]
        if isinstance(target, LinkTable):
            target.extend_rows(rows, ids)
        else:
            target.update(zip(ids, rows, strict=True))
        if table in self._ids:  # the allocator observes the highest of these ids when it is first asked
            self._unobserved.setdefault(table, []).append(ids)
        if table == "links":
            if self._link_index is not None and not self._link_index:
                self._link_index = None  # nothing indexed yet: built from every link when first asked
            elif self._link_index is not None:
                for dev, lids in _index_rows(rows).items():
                    self._link_index.setdefault(dev, set()).update(lids)

    def load_link_columns(self, columns: Mapping[str, list[Any]]) -> None:
        """Bulk load of links given a column at a time (one list per ``Link`` field, values already checked
        by the caller — storage's column checks); the lists are handed over to the table."""
        table = self.tables["links"]
        ids = columns["id"]
        if isinstance(table, LinkTable):
            table.extend_columns(columns)
        else:
            self.load_rows("links", LinkColumns.from_lists(columns).rows(), list(ids))
            return
        self._unobserved.setdefault("links", []).append(list(ids))
        if self._link_index is not None and not self._link_index:
            self._link_index = None
        elif self._link_index is not None:
            for lid, a, b in zip(ids, columns["a_device"], columns["b_device"], strict=True):
                self._link_index.setdefault(a, set()).add(lid)
                self._link_index.setdefault(b, set()).add(lid)

    def _observe_loaded(self, table: str) -> None:
        """The id allocator of ``table`` sees the highest numbered id of its form among the bulk-loaded
        ids (done on the first new id, not on opening: one regular expression over every id)."""
        alloc = self._ids[table]
        for ids in self._unobserved.pop(table, ()):
            nums = re.findall(rf"(?m)^{re.escape(alloc.prefix)}([0-9]+)$", "\n".join(ids))
            if nums:
                alloc.observe(f"{alloc.prefix}{max(map(int, nums))}")


def _index_links(table: Mapping[str, Link]) -> dict[str, set[str]]:
    """Device id → ids of its links: one C call per link end (a map over a defaultdict), not a Python frame."""
    if isinstance(table, LinkTable):
        return table.device_index()
    return _index_rows(table.values())


def _index_rows(links: Iterable[Link]) -> dict[str, set[str]]:
    rows = list(links)
    ids = list(map(_ROW_ID, rows))
    grouped: collections.defaultdict[str, set[str]] = collections.defaultdict(set)
    ends = map(grouped.__getitem__, itertools.chain(map(_A_DEVICE, rows), map(_B_DEVICE, rows)))
    collections.deque(map(set.add, ends, itertools.chain(ids, ids)), maxlen=0)
    return dict(grouped)


_ROW_ID, _A_DEVICE, _B_DEVICE = attrgetter("id"), attrgetter("a_device"), attrgetter("b_device")

__all__ = ["DEVICE_ROLES", "FABRIC_KINDS", "Project"]
