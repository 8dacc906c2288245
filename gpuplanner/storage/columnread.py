"""Reading a whole table a column at a time, in one SQLite query, for opening a file.

``cursor.fetchall()`` builds a tuple per row and converts each cell through the Python C API: on a 16k-GPU
plan (40,000 links × 12 columns) that is a quarter of the time of opening it. Here SQLite itself renders
every column as one JSON array (``json_group_array``), and ``json.loads`` turns each array into a list —
both in C, and the values come out column-wise, as the column checks want them.

JSON keeps SQLite's value types apart (text stays a string, an integer an int, NULL None), so a damaged
cell still fails the column checks and the caller's row-by-row path names it. One thing JSON does not keep:
SQLite writes a REAL with 15 significant digits, and generated layouts hold values such as
64693.49999999999. A REAL that is a whole number from -1e15 to 1e15 is written as that integer (exact, and
parsed twice as fast as a float); every other REAL of a float column is read again exactly, with its
rowid, by an ordinary query (few rows: most float columns hold whole numbers), and put back in place.
Anything else that is not plain (a BLOB, text that is not UTF-8, an infinite REAL — SQLite writes ``Inf``,
which is not JSON —, a table without rowids or with a column named like one) makes this return None, and
the caller reads the table with ``fetchall`` as before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

# Names that would mean the column, not the row's rowid.
_ROWID_NAMES = frozenset({"rowid", "oid", "_rowid_"})


def _array(name: str, exact_float: bool) -> str:
    """SQL: the column as one JSON array. In a float column a whole REAL from -1e15 to 1e15 comes out as
    the integer it equals (printed exactly, parsed fast; the loader makes every number of a float field a
    float); any other REAL comes out as a JSON float, which ``read_columns`` replaces by its exact value."""
    col = f"[{name}]"
    if not exact_float:
        return f"json_group_array({col})"
    whole = f"typeof({col}) = 'real' AND {col} = CAST({col} AS INTEGER) AND {col} BETWEEN -1e15 AND 1e15"
    return f"json_group_array(CASE WHEN {whole} THEN CAST({col} AS INTEGER) ELSE {col} END)"


def read_columns(
    conn: sqlite3.Connection,
    table: str,
    names: Sequence[str],
    float_names: Sequence[str],
    present: Iterable[str],
) -> dict[str, list[Any]] | None:
    """``names`` of ``table`` → its values in table order (as ``SELECT names FROM table`` gives them), or
    None when the values cannot be vouched for exactly this way. ``float_names`` are the columns that may
    hold REALs the row class keeps (its float fields): their numbers are exact, whole ones may come as ints.
    ``present`` are all the table's columns (one named like the rowid would hide it).

    Every query scans the table itself (``NOT INDEXED``: an index covering the columns read would give
    another order), in rowid order, so that the rowids of a second scan line up with the first."""
    if _ROWID_NAMES & {n.lower() for n in present}:
        return None
    try:
        arrays = ", ".join(_array(n, n in float_names) for n in names)
        head = conn.execute(f"SELECT count(*), {arrays} FROM [{table}] NOT INDEXED").fetchone()
        count = head[0]
        columns: dict[str, list[Any]] = {}
        for name, text in zip(names, head[1:], strict=True):
            values = json.loads(text)
            if type(values) is not list or len(values) != count:
                return None
            columns[name] = values
        inexact = [n for n in float_names if float in set(map(type, columns[n]))]
        if inexact:  # REALs printed with 15 digits: read again, exactly, and put back by rowid
            rowids = json.loads(
                conn.execute(f"SELECT json_group_array(rowid) FROM [{table}] NOT INDEXED").fetchone()[0]
            )
            if len(rowids) != count:
                return None
            at = dict(zip(rowids, range(count), strict=True))
            cols = ", ".join(f"[{n}]" for n in inexact)
            where = " OR ".join(f"typeof([{n}]) = 'real'" for n in inexact)
            for rowid, *values in conn.execute(
                f"SELECT rowid, {cols} FROM [{table}] NOT INDEXED WHERE {where}"
            ):
                i = at[rowid]
                for name, value in zip(inexact, values, strict=True):
                    columns[name][i] = value
    except (sqlite3.Error, ValueError, RecursionError, KeyError):
        return None
    return columns
