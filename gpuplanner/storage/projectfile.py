"""Opening ``.gpuplan`` files (saving is ``storage/saving.py``).

Opening never changes the user's file and never waits without bound: the path must be a regular file
(a FIFO, device or folder is refused before it is opened); the file is copied into memory under a shared
lock taken with a bounded wait (another program holding a write lock gives "in use by another program"
after LOCK_WAIT_S); migrations run on the copy; every row, id, reference and catalog copy is checked before
a Project is built. A bad file raises ProjectFileError with one line naming the file, table, row and field.
Files are data only: no pickle, no eval; JSON text columns are parsed with ``json``.
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import itertools
import json
import os
import sqlite3
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.loader import default_catalog, entry_from_dict
from gpuplanner.catalog.types import Price
from gpuplanner.core.errors import PlannerError, ProjectFileError
from gpuplanner.core.safeio import NotRegularFileError, open_regular
from gpuplanner.model import ROW_TYPES, Project
from gpuplanner.model.columns import columns_valid, references_valid
from gpuplanner.model.validate import validate_row
from gpuplanner.storage.columnread import read_columns
from gpuplanner.storage.integrity import SINGLE_ROW_TABLES, check_price, check_project_references, row_error
from gpuplanner.storage.schema import APPLICATION_ID, FORMAT_VERSION, MIGRATIONS
from gpuplanner.text import Msg
from gpuplanner.text import has as text_has

SQLITE_MAGIC = b"SQLite format 3\x00"
TABLE_ORDER = (
    "project",
    "site",
    "phases",
    "fabrics",
    "aisle_rows",
    "racks",
    "devices",
    "links",
    "workloads",
    "scenarios",
    "teams",
    "floor_items",
    "goal",
)
# How long opening waits for another program's write lock on the file to go away.
LOCK_WAIT_S = 4.0
IN_USE = Msg("error.file.in_use")


def plain(value: Any) -> Any:
    """Builtin dicts and lists of a catalog entry's data (which may hold read-only mappings and tuples)."""
    if isinstance(value, dict) or hasattr(value, "items"):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


# -- opening ------------------------------------------------------------------------------------------


def _kind_msg(exc: NotRegularFileError) -> Msg | str:
    """What the path is instead of a file, as a message (so that a Chinese line is Chinese throughout)."""
    msg_id = f"error.file.kind.{exc.what}"
    return Msg(msg_id) if text_has(msg_id) else (exc.strerror or str(exc.args[0]))


def _check_header(path: Path) -> None:
    """The path is a regular file that starts like an SQLite database (checked without blocking)."""
    try:
        with open_regular(path) as fh:
            head = fh.read(100)
    except FileNotFoundError as exc:
        raise ProjectFileError(Msg("error.file.not_found"), file=str(path)) from exc
    except NotRegularFileError as exc:
        raise ProjectFileError(
            Msg("error.file.not_regular", {"reason": _kind_msg(exc)}), file=str(path)
        ) from exc
    except OSError as exc:
        raise ProjectFileError(
            Msg("error.file.cannot_read", {"reason": exc.strerror or exc}), file=str(path)
        ) from exc
    if not head.startswith(SQLITE_MAGIC):
        raise ProjectFileError(
            Msg("error.file.not_project"),
            file=str(path),
            hint=Msg("error.file.not_project.hint"),
        )


def _is_lock_error(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in str(exc)


def _read_into_memory(path: Path) -> sqlite3.Connection:
    """Copies the file into memory (read-only open + backup), so migrations never touch the user's file.

    The shared lock is taken first by a read inside a transaction, which waits at most LOCK_WAIT_S for a
    writer; the backup then runs under that lock (on its own, a backup retries a locked file forever)."""
    uri = f"file:{path.resolve().as_posix()}?mode=ro"
    try:
        src = sqlite3.connect(uri, uri=True, timeout=LOCK_WAIT_S, isolation_level=None)
        try:
            src.execute("BEGIN")
            src.execute("SELECT count(*) FROM sqlite_master").fetchone()
            mem = sqlite3.connect(":memory:")
            src.backup(mem)
            src.execute("COMMIT")
        finally:
            src.close()
        check = mem.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as exc:
        if _is_lock_error(exc):
            raise ProjectFileError(IN_USE, file=str(path), hint=Msg("error.file.in_use.hint")) from exc
        raise ProjectFileError(
            Msg("error.file.damaged_or_truncated", {"reason": exc}), file=str(path)
        ) from exc
    if check != "ok":
        mem.close()
        raise ProjectFileError(Msg("error.file.damaged", {"reason": check}), file=str(path))
    return mem


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id != APPLICATION_ID:
        raise ProjectFileError(Msg("error.file.other_database"), file=str(path))
    if version > FORMAT_VERSION:
        raise ProjectFileError(
            Msg("error.file.newer", {"version": version, "max_version": FORMAT_VERSION}),
            file=str(path),
            hint=Msg("error.file.newer.hint"),
        )
    if version not in MIGRATIONS and version != FORMAT_VERSION:
        raise ProjectFileError(
            Msg("error.file.unknown_version", {"version": version, "max_version": FORMAT_VERSION}),
            file=str(path),
        )
    while version < FORMAT_VERSION:
        with conn:
            MIGRATIONS[version](conn)
            version += 1
            conn.execute(f"PRAGMA user_version={version}")


_COERCE: dict[type, list[tuple[str, str]]] = {}


def _coercions(cls: type) -> list[tuple[str, str]]:
    """(field, "bool" | "float" | "") per field — SQLite gives ints for both; computed once per class."""
    if cls not in _COERCE:
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            args = [a for a in typing.get_args(hints[f.name]) if a is not type(None)] or [hints[f.name]]
            out.append((f.name, "bool" if args[0] is bool else "float" if args[0] is float else ""))
        _COERCE[cls] = out
    return _COERCE[cls]


def _coerce(cls: type, raw: dict[str, Any], table: str, path: Path) -> Any:
    kwargs: dict[str, Any] = {}
    for name, kind in _coercions(cls):
        if name not in raw:
            continue  # an older file: the field's default
        value = raw[name]
        if value is not None and type(value) is int:
            if kind == "bool":
                # 0/1 only: another integer is refused below as "must be bool", not read as true
                value = bool(value) if value in (0, 1) else str(value)
            elif kind == "float":
                value = float(value)
        kwargs[name] = value
    try:
        row = cls(**kwargs)
        validate_row(table, row)
    except PlannerError as exc:
        raise row_error(table, raw.get("id"), exc, str(path)) from exc
    except (TypeError, ValueError, OverflowError) as exc:
        raise ProjectFileError(
            Msg("error.file.bad_row", {"table": table, "reason": exc}), file=str(path)
        ) from exc
    return row


# Tables this long are checked a column at a time (model/columns.py) when read with ``fetchall``; shorter
# ones, and any table whose columns fail, row by row (which names the first bad row, field and value).
COLUMN_CHECK_MIN_ROWS = 32
# Off: every table is read with ``fetchall`` and checked row by row (``validate_row``), and references
# with ``check_references`` — the slow, obvious reading the tests hold the fast one to.
FAST_OPEN = True


def _read_rows(cls: type, table: str, names: list[str], raw: list[tuple[Any, ...]], path: Path) -> list[Any]:
    if FAST_OPEN and table not in SINGLE_ROW_TABLES and len(raw) >= COLUMN_CHECK_MIN_ROWS:
        try:
            cols = dict(zip(names, map(list, zip(*raw, strict=True)), strict=True))
        except ValueError:
            cols = None
        rows = _rows_by_column(cls, table, cols, len(raw)) if cols else None
        if rows is not None:
            return rows
    return [_coerce(cls, dict(zip(names, r, strict=True)), table, path) for r in raw]


def _fast_columns(
    conn: sqlite3.Connection, cls: type, table: str, names: list[str], present: set[str]
) -> dict[str, list[Any]] | None:
    """Every field of ``table`` as one list per field, read a column at a time (storage/columnread.py) and
    checked a column at a time (model/columns.py), converted as ``_coerce`` converts a row and with the
    defaults of the fields an older file lacks; None when anything is not plainly good (a duplicate id, a bad
    value, a value the fast read cannot vouch for) — the caller then reads the table row by row, which names
    what is wrong."""
    floats = [n for n, kind in _coercions(cls) if kind == "float" and n in names]
    cols = read_columns(conn, table, names, floats, present)
    if cols is None:
        return None
    ids = cols["id"]
    if len(set(ids)) != len(ids):
        return None
    return _checked_columns(cls, table, cols, len(ids))


def _rows_by_column(cls: type, table: str, given: dict[str, list[Any]], n: int) -> list[Any] | None:
    """The rows, when every column passes the row rules (as ``_coerce`` converts them); else None. A field
    the file lacks (an older file) gets its default, as ``cls(**fields)`` would give it."""
    cols = _checked_columns(cls, table, given, n)
    return None if cols is None else _rows_from(cls, cols, n)


def _rows_from(cls: type, cols: dict[str, list[Any]], n: int) -> list[Any] | None:
    """Rows from checked columns (None when the row class refuses them: the caller reads row by row)."""
    try:
        if hasattr(cls, "__slots__") and not hasattr(cls, "__post_init__"):
            return _build_rows(cls, cols, n)
        names = list(cols)
        return [cls(**dict(zip(names, r, strict=True))) for r in zip(*cols.values(), strict=True)]
    except (TypeError, ValueError, OverflowError):
        return None


def _checked_columns(
    cls: type, table: str, given: dict[str, list[Any]], n: int
) -> dict[str, list[Any]] | None:
    """Every field's column converted and checked (see ``_fast_columns``); None when one fails."""
    kinds = _coercions(cls)
    try:
        cols: dict[str, list[Any]] = {}
        for name, kind in kinds:
            col: list[Any] | None = given.get(name)
            if col is None:
                default = _default(cls, name)
                if default is dataclasses.MISSING:
                    return None  # a required field is missing: cls(**fields) names it
                col = [default] * n
            elif kind and int in (types := set(map(type, col))):  # SQLite gives ints for floats and bools
                if kind == "float" and types <= {int, float}:
                    col = list(map(float, col))
                elif kind == "float":
                    col = [float(v) if type(v) is int else v for v in col]
                else:  # 0/1 only: another integer fails the type check as text
                    col = [(bool(v) if v in (0, 1) else str(v)) if type(v) is int else v for v in col]
            cols[name] = col
        if not columns_valid(table, cls, cols):
            return None
    except (TypeError, ValueError, OverflowError):
        return None
    return cols


def _default(cls: type, name: str) -> Any:
    """A field's default value (MISSING when it has none, or only a factory)."""
    field = next(f for f in dataclasses.fields(cls) if f.name == name)
    return field.default


def _build_rows(cls: type, cols: Mapping[str, Sequence[Any]], n: int) -> list[Any]:
    """Rows of a slotted row class from checked columns, every field given: each field's slot is filled
    over the whole column by ``map`` in C, instead of one ``__init__`` call (a Python frame and a frozen
    ``object.__setattr__`` per field) per row — a third of the time of opening a 16k-GPU plan. The rows
    are equal to ``cls(**fields)`` (only for classes without ``__post_init__``)."""
    rows: list[Any] = list(map(object.__new__, itertools.repeat(cls, n)))
    for name, col in cols.items():
        collections.deque(map(getattr(cls, name).__set__, rows, col), maxlen=0)
    return rows


def _json_cell(text: Any, what: Msg, path: Path) -> Any:
    if not isinstance(text, str):
        raise ProjectFileError(Msg("error.file.not_json_text", {"what": what}), file=str(path))
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProjectFileError(
            Msg("error.file.bad_json", {"what": what, "reason": str(exc)[:80]}), file=str(path)
        ) from exc


def _duplicate(conn: sqlite3.Connection, table: str) -> Any:
    row = conn.execute(f"SELECT id FROM [{table}] GROUP BY id HAVING count(*) > 1 LIMIT 1").fetchone()
    return None if row is None else row[0]


def _refuse_duplicates(conn: sqlite3.Connection, table: str, path: Path) -> None:
    dup = _duplicate(conn, table)
    if dup is not None:
        raise ProjectFileError(
            Msg("error.file.duplicate_id", {"id": dup, "table": table}),
            file=str(path),
            entry=str(dup),
        )


def _project_catalog(conn: sqlite3.Connection, path: Path, base: Catalog) -> Catalog:
    cat = Catalog()
    cat.entries = dict(base.entries)
    cat.prices = dict(base.prices)
    for table in ("catalog_entries", "catalog_prices"):
        _refuse_duplicates(conn, table, path)
    for entry_id, text in conn.execute("SELECT id, json FROM catalog_entries"):
        what = Msg("error.file.catalog_copy", {"entry": entry_id})
        data = _json_cell(text, what, path)
        if not isinstance(data, dict):
            raise ProjectFileError(
                Msg("error.file.not_object", {"what": what}), file=str(path), entry=str(entry_id)
            )
        known = base.entries.get(str(entry_id))
        if (
            known is not None
            and known.id == entry_id
            and text == json.dumps(plain(known.raw), ensure_ascii=False)
        ):
            # the very text the saver writes for an entry of the catalog in use, which passed these checks
            # when it loaded: the same entry (schema validation is a tenth of the time of opening 16k GPUs)
            cat.entries[known.id] = known
            continue
        try:
            entry, errors = entry_from_dict(data, origin=f"{path} (project copy)")
        except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as exc:
            raise ProjectFileError(
                Msg("error.file.with_reason", {"what": what, "reason": exc}),
                file=str(path),
                entry=str(entry_id),
            ) from exc
        if entry is None:
            raise ProjectFileError(
                Msg("error.file.with_reason", {"what": what, "reason": errors[0].message}),
                file=str(path),
                entry=str(entry_id),
            )
        cat.entries[entry.id] = entry  # the project's copy wins: same results on any machine
    for entry_id, text in conn.execute("SELECT id, json FROM catalog_prices"):
        copy = _json_cell(text, Msg("error.file.price_copy", {"entry": entry_id}), path)
        d = check_price(str(entry_id), copy, str(path))
        try:
            cat.prices[str(entry_id)] = Price(**d, origin=f"{path} (project copy)")
        except TypeError as exc:
            raise ProjectFileError(
                Msg(
                    "error.file.with_reason",
                    {"what": Msg("error.file.price_copy", {"entry": entry_id}), "reason": exc},
                ),
                file=str(path),
            ) from exc
    cat.errors = list(base.errors)
    return cat


def _slow_rows(conn: sqlite3.Connection, cls: type, table: str, names: list[str], path: Path) -> list[Any]:
    """The rows of ``table`` read with ``fetchall``: a duplicate id or a bad value raises ProjectFileError."""
    raw = conn.execute(f"SELECT {', '.join(f'[{n}]' for n in names)} FROM [{table}]").fetchall()
    id_at = names.index("id")
    if len({r[id_at] for r in raw}) != len(raw):  # a file written by hand or damaged: never
        _refuse_duplicates(conn, table, path)  # "last row wins"; SQLite names the duplicate id
        raise ProjectFileError(Msg("error.file.duplicate_ids", {"table": table}), file=str(path))
    return _read_rows(cls, table, names, raw, path)


def open_project(path: str | os.PathLike[str], catalog: Catalog | None = None) -> Project:
    """Reads a project file; raises ProjectFileError (and changes nothing) when it is not a good one."""
    # Opening allocates a few objects per cell and frees none of them: the cyclic collector would walk the
    # growing heap again and again for nothing (a sixth of the time of opening a 16k-GPU plan).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _open(Path(path), catalog)
    finally:
        if collecting:
            gc.enable()


def _open(p: Path, catalog: Catalog | None) -> Project:
    _check_header(p)
    conn = _read_into_memory(p)
    try:
        _migrate(conn, p)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = [t for t in (*TABLE_ORDER, "catalog_entries", "catalog_prices") if t not in tables]
        if missing:
            raise ProjectFileError(Msg("error.file.table_missing", {"table": missing[0]}), file=str(p))
        project = Project(_project_catalog(conn, p, catalog or default_catalog()))
        columns: dict[str, dict[str, list[Any]]] = {}  # the tables read a column at a time
        for table in TABLE_ORDER:
            cls = ROW_TYPES[table]
            present = {r[1] for r in conn.execute(f"PRAGMA table_info([{table}])")}
            if "id" not in present:
                raise ProjectFileError(Msg("error.file.no_id_column", {"table": table}), file=str(p))
            names = [n for n, _ in _coercions(cls) if n in present]  # an older file lacks new columns
            fast = (
                _fast_columns(conn, cls, table, names, present)
                if FAST_OPEN and table not in SINGLE_ROW_TABLES
                else None
            )
            if fast is not None and table == "links":  # kept a column at a time: no row objects
                columns[table] = fast
                project.load_link_columns(fast)
                continue
            made = None if fast is None else _rows_from(cls, fast, len(fast["id"]))
            if fast is None or made is None:
                rows, ids = _slow_rows(conn, cls, table, names, p), None
            else:
                columns[table] = fast
                rows, ids = made, fast["id"]
            if table in SINGLE_ROW_TABLES:
                if len(rows) != 1:
                    raise ProjectFileError(Msg("error.file.one_row", {"table": table}), file=str(p))
                project.tables[table] = {rows[0].id: rows[0]}
            else:
                project.load_rows(table, rows, ids)
        if not (FAST_OPEN and references_valid(project, columns)):  # the row-by-row rules name the first one
            check_project_references(project, str(p))
        return project
    except sqlite3.DatabaseError as exc:
        raise ProjectFileError(Msg("error.file.damaged", {"reason": exc}), file=str(p)) from exc
    finally:
        conn.close()
