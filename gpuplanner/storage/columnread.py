"""Reading a whole table a column at a time, in one SQLite query, for opening a file.

``cursor.fetchall()`` builds a tuple per row and converts each cell through the Python C API: on a 16k-GPU
plan (40,000 links × 12 columns) that is a quarter of the time of opening it. Here SQLite itself renders
every column as one JSON array (``json_group_array``), and ``json.loads`` turns each array into a list —
both in C, and the values come out column-wise, as the column checks want them.

JSON keeps SQLite's value types apart (text stays a string, an integer an int, NULL None), so a damaged
cell still fails the column checks and the caller's row-by-row path names it. One thing JSON does not keep:
SQLite writes a REAL with 15 significant digits, and generated layouts hold values such as
64693.49999999999. A REAL that is a whole number below 1e15 prints exactly; every other REAL of a float
column is read again exactly, with its rowid, by an ordinary query (few rows: most float columns hold whole
numbers), and put back in place. Anything else that is not plain (a BLOB, text that is not UTF-8, a table
without rowids or with a column named like one) makes this return None, and the caller reads the table with
``fetchall`` as before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

# Names that would mean the column, not the row's rowid.
_ROWID_NAMES = frozenset({"rowid", "oid", "_rowid_"})


def _inexact(col: str) -> str:
    """SQL: the cell may be a REAL whose 15-digit JSON rendering is not its exact value — anything but a
    whole number from -1e15 to 1e15 (text and large integers too: they are only read twice)."""
    return f"({col} != CAST({col} AS INTEGER) OR {col} NOT BETWEEN -1e15 AND 1e15)"


def read_columns(
    conn: sqlite3.Connection,
    table: str,
    names: Sequence[str],
    float_names: Sequence[str],
    present: Iterable[str],
) -> dict[str, list[Any]] | None:
    """``names`` of ``table`` → its values in table order (as ``SELECT names FROM table`` gives them), or
    None when the values cannot be vouched for exactly this way. ``float_names`` are the columns that may
    hold REALs the row class keeps (its float fields): their values are exact. ``present`` are all the
    table's columns (one named like the rowid would hide it)."""
    if _ROWID_NAMES & {n.lower() for n in present}:
        return None
    try:
        exact: list[tuple[Any, ...]] = []
        if float_names:
            cols = ", ".join(f"[{n}]" for n in float_names)
            where = " OR ".join(_inexact(f"[{n}]") for n in float_names)
            exact = conn.execute(f"SELECT rowid, {cols} FROM [{table}] WHERE {where}").fetchall()
        arrays = ", ".join(f"json_group_array([{n}])" for n in names)
        if exact:
            arrays += ", json_group_array(rowid)"
        head = conn.execute(f"SELECT count(*), {arrays} FROM [{table}]").fetchone()
        count = head[0]
        columns: dict[str, list[Any]] = {}
        for name, text in zip([*names, "rowid"], head[1:], strict=False):
            values = json.loads(text)
            if type(values) is not list or len(values) != count:
                return None
            columns[name] = values
        if exact:
            at = dict(zip(columns.pop("rowid"), range(count), strict=True))
            for rowid, *values in exact:
                i = at[rowid]
                for name, value in zip(float_names, values, strict=True):
                    columns[name][i] = value
    except (sqlite3.Error, ValueError, RecursionError, KeyError):
        return None
    return columns
