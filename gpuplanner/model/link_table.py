"""The links table kept a column at a time: ``LinkTable`` (a mapping id → ``Link`` behind the same API as the
other tables' dicts) and ``LinkColumns`` (its public, read-only columns).

The links are by far the largest table (393,216 rows at 131k GPUs): a row object per link costs about 1 µs to
build and 100 bytes to keep, and reading a field of every row back costs a pass over the objects. So the table
holds one list per field, in table order; a row object is made when a row is read (and kept, so that the same
row is the same object), and opening a file fills the lists straight from SQLite. The engine and the canvas
read ``columns()``: numpy arrays for numbers, tuples for text, built once per state of the table.

The mapping behaves like the ``dict`` it replaces: insertion order, a replaced row keeps its place, a
deleted and re-inserted id goes to the end. Deleting marks the place (the id column holds ``None``) and the
places are compacted once half of them are dead. ``copy()`` is cheap: the copies share their lists until
one of them changes (the engine reads a snapshot of the project in a worker thread while the user edits).
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
from collections.abc import ItemsView, Iterable, Iterator, Mapping, MutableMapping, Sequence, ValuesView
from dataclasses import dataclass
from operator import attrgetter, is_
from typing import Any

import numpy as np
import numpy.typing as npt

from gpuplanner.model.rows import Link

LINK_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Link))
_NUMBER_FIELDS = ("multiplicity", "speed_gbps", "length_m")
_COMPACT_MIN_DEAD = 64  # dead places kept before the lists are compacted (and only when half are dead)


@dataclass(frozen=True, eq=False)
class LinkColumns:
    """Every field of the live links, in table order (read-only: tuples and non-writeable arrays).

    Text fields are tuples of the rows' own values; ``multiplicity`` is int64, ``speed_gbps`` float64 and
    ``length_m`` float64 with NaN where the row's ``length_m`` is None (automatic)."""

    id: tuple[str, ...]
    a_device: tuple[str, ...]
    a_group: tuple[str, ...]
    b_device: tuple[str, ...]
    b_group: tuple[str, ...]
    multiplicity: npt.NDArray[np.int64]
    speed_gbps: npt.NDArray[np.float64]
    medium: tuple[str, ...]
    cable_id: tuple[str, ...]
    length_m: npt.NDArray[np.float64]
    fabric_id: tuple[str | None, ...]
    phase_id: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.id)

    @classmethod
    def from_lists(cls, cols: Mapping[str, Sequence[Any]]) -> LinkColumns:
        """From one sequence per field (the values of valid rows, in order)."""
        n = len(cols["id"])
        out: dict[str, Any] = {}
        for name in LINK_FIELDS:
            col = cols[name]
            if name == "length_m":
                nones = col.count(None) if isinstance(col, list | tuple) else sum(v is None for v in col)
                if nones == n:
                    arr = np.full(n, np.nan)
                elif nones == 0:
                    arr = np.array(col, dtype=np.float64).reshape(n)
                else:
                    arr = np.fromiter((np.nan if v is None else v for v in col), np.float64, n)
            elif name == "multiplicity":
                arr = np.fromiter(col, np.int64, n)
            elif name == "speed_gbps":
                arr = np.fromiter(col, np.float64, n)
            else:
                out[name] = tuple(col)
                continue
            arr.flags.writeable = False
            out[name] = arr
        return cls(**out)

    @classmethod
    def from_rows(cls, rows: Sequence[Link]) -> LinkColumns:
        return cls.from_lists({name: list(map(attrgetter(name), rows)) for name in LINK_FIELDS})

    def take(self, rows: npt.NDArray[np.integer[Any]]) -> LinkColumns:
        """The columns of the links at positions ``rows`` (in that order)."""
        idx = rows.tolist()
        out: dict[str, Any] = {}
        for name in LINK_FIELDS:
            col = getattr(self, name)
            if isinstance(col, np.ndarray):
                arr = col[rows]
                arr.flags.writeable = False
                out[name] = arr
            else:
                out[name] = tuple(map(col.__getitem__, idx))
        return LinkColumns(**out)

    def value(self, name: str, i: int) -> Any:
        """Field ``name`` of the link at position ``i`` as the row holds it (None for an automatic length)."""
        v = getattr(self, name)[i]
        if name == "length_m":
            return None if np.isnan(v) else float(v)
        if name == "multiplicity":
            return int(v)
        if name == "speed_gbps":
            return float(v)
        return v

    def rows(self) -> list[Link]:
        """The links as row objects (equal to the table's rows)."""
        return _build_rows(
            len(self.id),
            {
                **{n: getattr(self, n) for n in LINK_FIELDS if n not in _NUMBER_FIELDS},
                "multiplicity": self.multiplicity.tolist(),
                "speed_gbps": self.speed_gbps.tolist(),
                "length_m": [None if v != v else v for v in self.length_m.tolist()],
            },
        )


def _build_rows(n: int, cols: Mapping[str, Sequence[Any]]) -> list[Link]:
    """Link rows from columns, every field given: each slot filled over the whole column by ``map`` in C (no
    ``__init__`` call per row); equal to ``Link(**fields)``."""
    rows: list[Link] = list(map(object.__new__, itertools.repeat(Link, n)))
    for name in LINK_FIELDS:
        collections.deque(map(getattr(Link, name).__set__, rows, cols[name]), maxlen=0)
    return rows


class LinkTable(MutableMapping[str, Link]):
    """Link id → ``Link``, stored a column at a time (see the module docstring)."""

    def __init__(self, rows: Iterable[Link] = ()) -> None:
        self._cols: dict[str, list[Any]] = {name: [] for name in LINK_FIELDS}
        self._pos: dict[str, int] | None = {}  # id → place; None: to be built from the id column
        self._rows: list[Link | None] | None = []  # the row objects made so far, by place; None: none yet
        self._dead = 0  # places whose row was deleted (their id is None)
        self._shared = False  # the lists are shared with a copy: copied before the first change
        self._pos_shared = False  # the id → place dict likewise (a replaced row leaves it as it is)
        self._box: list[LinkColumns | None] = [None]  # columns(), shared by copies of the same state
        for row in rows:
            self[row.id] = row

    # -- reading ------------------------------------------------------------------------------------------
    def _positions(self) -> dict[str, int]:
        pos = self._pos
        if pos is None:
            ids = self._cols["id"]
            pos = dict(zip(ids, range(len(ids)), strict=True))
            if self._dead:
                pos.pop(None, None)  # type: ignore[call-overload]
            self._pos = pos
        return pos

    def __getitem__(self, key: str) -> Link:
        p = self._positions()[key]
        rows = self._rows
        if rows is None:
            rows = self._rows = [None] * len(self._cols["id"])
        row = rows[p]
        if row is None:
            row = rows[p] = Link(*(self._cols[name][p] for name in LINK_FIELDS))
        return row

    def __contains__(self, key: object) -> bool:
        return key in self._positions()

    def __len__(self) -> int:
        return len(self._cols["id"]) - self._dead

    def __iter__(self) -> Iterator[str]:
        return iter(self._live_ids())

    def _live_ids(self) -> list[str]:
        if self._dead:
            self._compact()
        return list(self._cols["id"])

    def values(self) -> ValuesView[Link]:
        return _Values(self)

    def items(self) -> ItemsView[str, Link]:
        return _Items(self)

    def all_rows(self) -> list[Link]:
        """Every row object in table order (made in bulk the first time)."""
        if self._dead:
            self._compact()
        rows = self._rows
        n = len(self._cols["id"])
        if rows is None or any(map(is_, rows, itertools.repeat(None))):
            made = _build_rows(n, self._cols)
            if rows is not None:  # keep the rows already handed out: the same row stays the same object
                made = [old if old is not None else new for old, new in zip(rows, made, strict=True)]
            self._rows = rows = made  # type: ignore[assignment]
        return list(rows)  # type: ignore[arg-type]

    def columns(self) -> LinkColumns:
        """The live links' columns, built once per state of the table (and shared by its copies)."""
        box = self._box
        cols = box[0]
        if cols is None:
            if self._dead:
                self._compact()
            cols = box[0] = LinkColumns.from_lists(self._cols)
        return cols

    def values_of(self, name: str) -> tuple[Any, ...]:
        """The values of field ``name`` of the live links in table order, as the rows hold them."""
        if self._dead:
            self._compact()
        return tuple(self._cols[name])

    def device_index(self) -> dict[str, set[str]]:
        """Device id → ids of its links, from the id and end columns (one C call per link end)."""
        if self._dead:
            self._compact()
        ids = self._cols["id"]
        grouped: collections.defaultdict[str, set[str]] = collections.defaultdict(set)
        ends = map(grouped.__getitem__, itertools.chain(self._cols["a_device"], self._cols["b_device"]))
        collections.deque(map(set.add, ends, itertools.chain(ids, ids)), maxlen=0)
        return dict(grouped)

    def copy(self) -> LinkTable:
        """A copy sharing the lists until either changes (rows are immutable)."""
        other = LinkTable.__new__(LinkTable)
        other._cols = self._cols
        other._pos = self._pos
        other._rows = self._rows
        other._dead = self._dead
        other._box = self._box
        self._shared = other._shared = True
        self._pos_shared = other._pos_shared = True
        return other

    def __repr__(self) -> str:
        return f"LinkTable({len(self)} links)"

    # -- changing -----------------------------------------------------------------------------------------
    def _own(self, positions: bool = True) -> None:
        """Before a change: private lists (when shared with a copy), a private id → place dict when the
        change moves ids (``positions``), and no cached columns."""
        if self._shared:
            self._cols = {name: list(col) for name, col in self._cols.items()}
            self._rows = None if self._rows is None else list(self._rows)
            self._shared = False
        if positions and self._pos_shared:
            self._pos = None if self._pos is None else dict(self._pos)
            self._pos_shared = False
        self._box = [None]

    def __setitem__(self, key: str, row: Link) -> None:
        if type(row) is not Link or row.id != key:
            raise ValueError(f"links: a Link row stored under its own id, not {row!r} under {key!r}")
        p = self._positions().get(key)
        self._own(positions=p is None)
        pos = self._positions()
        cols = self._cols
        if p is None:
            pos[key] = len(cols["id"])
            for name in LINK_FIELDS:
                cols[name].append(getattr(row, name))
            if self._rows is not None:
                self._rows.append(row)
        else:
            for name in LINK_FIELDS:
                cols[name][p] = getattr(row, name)
            if self._rows is not None:
                self._rows[p] = row

    def __delitem__(self, key: str) -> None:
        p = self._positions()[key]  # KeyError as a dict gives
        self._own()
        del self._positions()[key]
        self._cols["id"][p] = None
        if self._rows is not None:
            self._rows[p] = None
        self._dead += 1
        if self._dead >= _COMPACT_MIN_DEAD and 2 * self._dead >= len(self._cols["id"]):
            self._compact()

    def clear(self) -> None:
        self._cols = {name: [] for name in LINK_FIELDS}
        self._pos, self._rows, self._dead, self._shared, self._box = {}, [], 0, False, [None]
        self._pos_shared = False

    def _compact(self) -> None:
        """Drops the dead places (new lists: a copy sharing the old ones keeps them as they were)."""
        alive = [i is not None for i in self._cols["id"]]
        self._cols = {name: list(itertools.compress(col, alive)) for name, col in self._cols.items()}
        if self._rows is not None:
            self._rows = list(itertools.compress(self._rows, alive))
        self._pos, self._dead, self._shared, self._pos_shared = None, 0, False, False

    def extend_rows(self, rows: Sequence[Link], ids: Sequence[str]) -> None:
        """Appends rows in bulk (their ids given in order); ids already present are replaced in place."""
        if self._positions().keys() & set(ids):
            for rid, row in zip(ids, rows, strict=True):
                self[rid] = row
            return
        self._own()
        n0 = len(self._cols["id"])
        for name in LINK_FIELDS:
            self._cols[name].extend(ids if name == "id" else map(attrgetter(name), rows))
        if self._rows is not None:
            self._rows.extend(rows)
        if self._pos is not None:
            self._pos.update(zip(ids, range(n0, n0 + len(ids)), strict=True))

    def extend_columns(self, cols: Mapping[str, list[Any]]) -> None:
        """Appends the links given as one list per field (every field, values of valid rows, ids new to the
        table). An empty table takes the lists themselves: the caller hands them over."""
        n = len(cols["id"])
        if any(len(cols[name]) != n for name in LINK_FIELDS):
            raise ValueError("links: columns of different lengths")
        if not len(self):
            self._cols = {name: cols[name] for name in LINK_FIELDS}
            self._pos, self._rows, self._dead, self._shared, self._box = None, None, 0, False, [None]
            self._pos_shared = False
            return
        if self._positions().keys() & set(cols["id"]):
            raise ValueError("links: ids already in the table")
        self._own()
        n0 = len(self._cols["id"])
        for name in LINK_FIELDS:
            self._cols[name].extend(cols[name])
        if self._rows is not None:
            self._rows.extend([None] * n)
        if self._pos is not None:
            self._pos.update(zip(cols["id"], range(n0, n0 + n), strict=True))


class _Values(ValuesView[Link]):
    _mapping: LinkTable

    def __iter__(self) -> Iterator[Link]:
        return iter(self._mapping.all_rows())


class _Items(ItemsView[str, Link]):
    _mapping: LinkTable

    def __iter__(self) -> Iterator[tuple[str, Link]]:
        rows = self._mapping.all_rows()
        return zip(self._mapping._live_ids(), rows, strict=True)  # noqa: SLF001


def link_columns_of(links: Mapping[str, Link]) -> LinkColumns:
    """The columns of a links table: its own cached ones, or built from the rows of a plain mapping."""
    if isinstance(links, LinkTable):
        return links.columns()
    return LinkColumns.from_rows(list(links.values()))
