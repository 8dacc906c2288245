"""What compile reads from the links table itself: the model's link columns (``Project.link_columns``, numpy
arrays and tuples kept by the model) turned into the arrays compile works on, and the cache of them a runner
keeps between compiles.

Nothing here reads a row object: the model holds the links a column at a time, so the ends become device
rows with one ``map`` over a dict per end, the port-group names integer codes, and the numbers are the
model's own arrays (copied: the caller owns what it gets).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gpuplanner.engine.codes import codes_of_pair
from gpuplanner.model.link_table import LinkColumns


@dataclass(frozen=True)
class LinkRows:
    """What compile reads from the link rows themselves (nothing from the catalog, racks or site)."""

    ids: list[str]
    a: np.ndarray  # int32 device rows
    b: np.ndarray
    a_group: list[str]
    b_group: list[str]
    group_codes: np.ndarray  # int32 codes of a_group + b_group
    group_names: list[str]
    speed_gbps: np.ndarray  # as drawn (0 = automatic)
    multiplicity: np.ndarray  # int32
    length_m: np.ndarray  # NaN = automatic
    medium: list[str]
    cable_ids: list[str]

    def copy(self) -> LinkRows:
        fields: dict[str, Any] = {f.name: getattr(self, f.name).copy() for f in dataclasses.fields(self)}
        return LinkRows(**fields)


class LinkRowCache:
    """The link arrays of the last compile, reused while the link columns are the very same object and the
    device rows have the same ids: the model builds its columns once per state of the links table (and a
    snapshot of the project shares them), so an edit that touches no link re-compiles without reading the
    links again. Hits return copies (the caller owns what it gets)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[LinkColumns, list[str], LinkRows] | None = None

    def get(self, columns: LinkColumns, dev_ids: list[str]) -> LinkRows | None:
        with self._lock:
            last = self._last
        # list == list compares element identity first: a C loop over pointers when nothing changed
        if last is not None and last[0] is columns and last[1] == dev_ids:
            return last[2].copy()
        return None

    def put(self, columns: LinkColumns, dev_ids: list[str], rows: LinkRows) -> None:
        with self._lock:
            self._last = (columns, list(dev_ids), rows.copy())

    def clear(self) -> None:
        with self._lock:
            self._last = None


class RowIndex(Mapping[str, int]):
    """id → row of a list of ids, built on first use: the engine itself never looks a link up by id (only
    the desktop and exports do), so a cold analysis of 393,216 links does not pay for a dict it never reads."""

    __slots__ = ("_ids", "_map")

    def __init__(self, ids: list[str]) -> None:
        self._ids = ids
        self._map: dict[str, int] | None = None

    def _built(self) -> dict[str, int]:
        if self._map is None:
            self._map = dict(zip(self._ids, range(len(self._ids)), strict=True))
        return self._map

    def __getitem__(self, key: str) -> int:
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())

    def __contains__(self, key: object) -> bool:
        return key in self._built()

    def __repr__(self) -> str:
        return f"RowIndex({len(self._ids)} ids)"


def read_link_rows(
    columns: LinkColumns,
    dev_ids: list[str],
    d_row: Mapping[str, int],
    cache: LinkRowCache | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> LinkRows:
    """The arrays compile needs from the link columns. ``overrides``: a scenario's value for a whole column
    (the cache is bypassed then: it keys on the columns alone)."""
    ov = overrides or {}
    cached = cache.get(columns, dev_ids) if cache is not None and not ov else None
    if cached is not None:
        return cached
    n = len(columns)

    def text(name: str) -> list[Any]:
        return [ov[name]] * n if name in ov else list(getattr(columns, name))

    def number(name: str, dtype: type) -> npt.NDArray[Any]:
        if name in ov:
            value = ov[name]
            return np.full(n, np.nan if value is None else value, dtype=dtype)
        return np.array(getattr(columns, name), dtype=dtype)  # a writeable copy

    a_group, b_group = text("a_group"), text("b_group")
    g_codes, g_names = codes_of_pair(a_group, b_group)
    rows = LinkRows(
        ids=text("id"),
        a=np.fromiter(map(d_row.__getitem__, text("a_device")), np.int32, n),
        b=np.fromiter(map(d_row.__getitem__, text("b_device")), np.int32, n),
        a_group=a_group,
        b_group=b_group,
        group_codes=g_codes,
        group_names=g_names,
        speed_gbps=number("speed_gbps", np.float64),
        multiplicity=number("multiplicity", np.int32),
        length_m=number("length_m", np.float64),  # NaN = automatic
        medium=text("medium"),
        cable_ids=text("cable_id"),
    )
    if cache is not None and not ov:
        cache.put(columns, dev_ids, rows)
    return rows
