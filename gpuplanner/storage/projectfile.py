"""Save and open ``.gpuplan`` files.

Saving writes a complete new file next to the target, fsyncs it, ``os.replace``s the target and fsyncs the
folder: a crash or a full disk mid-save leaves the previous file as it was. Opening reads in read-only mode
and checks everything before building a Project; a bad file raises ProjectFileError and changes nothing.
Files are data only: no pickle, no eval; JSON text columns are parsed with ``json``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import tempfile
import typing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gpuplanner import __version__
from gpuplanner.catalog import Catalog
from gpuplanner.catalog.loader import default_catalog, entry_from_dict
from gpuplanner.catalog.types import Price
from gpuplanner.core.errors import PlannerError, ProjectFileError
from gpuplanner.model import ROW_TYPES, Project
from gpuplanner.model.validate import check_references, check_savable, validate_row
from gpuplanner.storage.schema import APPLICATION_ID, FORMAT_VERSION, MIGRATIONS

if typing.TYPE_CHECKING:
    import sqlite_utils

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
)


def _column_types(cls: type) -> dict[str, type]:
    out: dict[str, type] = {}
    for name, hint in typing.get_type_hints(cls).items():
        args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
        base = args[0]
        out[name] = {bool: int, int: int, float: float}.get(base, str)
    return out


def _write(db: sqlite_utils.Database, project: Project) -> None:
    for table in TABLE_ORDER:
        cls = ROW_TYPES[table]
        db[table].create(_column_types(cls), pk="id")
        names = [f.name for f in dataclasses.fields(cls)]
        # executemany on tuples: sqlite-utils' insert_all inspects every dict (3× slower at 40k rows).
        rows = [tuple(getattr(r, n) for n in names) for r in project.tables[table].values()]
        if rows:
            cols = ", ".join(f"[{n}]" for n in names)
            marks = ", ".join("?" for _ in names)
            db.conn.executemany(f"INSERT INTO [{table}] ({cols}) VALUES ({marks})", rows)
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["meta"].insert_all(
        [
            {"key": "format_version", "value": str(FORMAT_VERSION)},
            {"key": "app_version", "value": __version__},
            {"key": "saved", "value": datetime.now(UTC).isoformat(timespec="seconds")},
        ]
    )
    db["catalog_entries"].create({"id": str, "kind": str, "json": str}, pk="id")
    db["catalog_prices"].create({"id": str, "json": str}, pk="id")
    used = sorted(project.used_type_ids())
    entries, prices = [], []
    for tid in used:
        e = project.catalog.entries.get(tid)
        if e is None:
            continue
        entries.append({"id": tid, "kind": e.kind, "json": json.dumps(_plain(e.raw), ensure_ascii=False)})
        p = project.catalog.prices.get(tid)
        if p is not None:
            pd = dataclasses.asdict(p)
            pd.pop("origin", None)
            prices.append({"id": tid, "json": json.dumps(pd, ensure_ascii=False)})
    if entries:
        db["catalog_entries"].insert_all(entries)
    if prices:
        db["catalog_prices"].insert_all(prices)


def _plain(value: Any) -> Any:
    if isinstance(value, dict) or hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not supported (e.g. Windows): os.replace is still atomic there
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _file_mode(target: Path) -> int:
    """Keep an existing file's permissions; a new file gets the usual 0666 & ~umask (mkstemp makes 0600)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def save_project(project: Project, path: str | os.PathLike[str]) -> Path:
    """Atomically writes ``project`` to ``path``."""
    target = Path(path)
    check_savable(project, target)  # a project that would not reopen is refused, nothing written
    folder = target.resolve().parent
    if not folder.is_dir():
        raise ProjectFileError("the folder does not exist", file=str(target))
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        conn = sqlite3.connect(tmp)
        try:
            conn.execute("PRAGMA journal_mode=OFF")  # the temp file itself is our journal
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={FORMAT_VERSION}")
            import sqlite_utils  # only saving needs it (~170 ms of imports): opening and the CLI start skip it

            db = sqlite_utils.Database(conn)
            with db.atomic():
                _write(db, project)
        finally:
            conn.close()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
        _fsync_dir(folder)
    except OSError as exc:
        raise ProjectFileError(f"cannot save: {exc.strerror or exc}", file=str(target)) from exc
    except sqlite3.Error as exc:
        raise ProjectFileError(f"cannot save: {exc}", file=str(target)) from exc
    finally:
        if tmp.exists():
            tmp.unlink(missing_ok=True)
    return target


# -- opening ------------------------------------------------------------------------------------------


def _check_header(path: Path) -> None:
    if not path.exists():
        raise ProjectFileError("no such file", file=str(path))
    if path.is_dir():
        raise ProjectFileError("is a folder, not a project file", file=str(path))
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise ProjectFileError(f"cannot read: {exc.strerror}", file=str(path)) from exc
    if not head.startswith(SQLITE_MAGIC):
        raise ProjectFileError(
            "not a GPU Planner project (the file is not an SQLite database)",
            file=str(path),
            hint="open a .gpuplan file saved by GPU Planner",
        )


def _read_into_memory(path: Path) -> sqlite3.Connection:
    """Copies the file into memory (read-only open + backup), so migrations never touch the user's file."""
    uri = f"file:{path.resolve().as_posix()}?mode=ro"
    try:
        src = sqlite3.connect(uri, uri=True)
        try:
            mem = sqlite3.connect(":memory:")
            src.backup(mem)
        finally:
            src.close()
        check = mem.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise ProjectFileError(f"damaged or truncated project file ({exc})", file=str(path)) from exc
    if check != "ok":
        raise ProjectFileError(f"damaged project file ({check})", file=str(path))
    return mem


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id != APPLICATION_ID:
        raise ProjectFileError(
            "not a GPU Planner project (an SQLite database of another program)", file=str(path)
        )
    if version > FORMAT_VERSION:
        raise ProjectFileError(
            f"made by a newer GPU Planner (file format {version}; this version reads up to {FORMAT_VERSION})",
            file=str(path),
            hint="update GPU Planner to open it",
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
                value = bool(value)
            elif kind == "float":
                value = float(value)
        kwargs[name] = value
    try:
        row = cls(**kwargs)
        validate_row(table, row)
    except PlannerError as exc:
        raise ProjectFileError(
            f"bad value in table '{table}', row '{raw.get('id')}': {exc.message}",
            file=str(path),
            entry=str(raw.get("id")),
            field=exc.field,
            value=exc.value,
        ) from exc
    except TypeError as exc:
        raise ProjectFileError(f"bad row in table '{table}': {exc}", file=str(path)) from exc
    return row


def _project_catalog(conn: sqlite3.Connection, path: Path, base: Catalog) -> Catalog:
    cat = Catalog()
    cat.entries = dict(base.entries)
    cat.prices = dict(base.prices)
    for entry_id, text in conn.execute("SELECT id, json FROM catalog_entries"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ProjectFileError(f"bad catalog copy for '{entry_id}': {exc}", file=str(path)) from exc
        entry, errors = entry_from_dict(data, origin=f"{path} (project copy)")
        if entry is None:
            raise ProjectFileError(f"bad catalog copy for '{entry_id}': {errors[0].message}", file=str(path))
        cat.entries[entry.id] = entry  # the project's copy wins: same results on any machine
    for entry_id, text in conn.execute("SELECT id, json FROM catalog_prices"):
        try:
            d = json.loads(text)
            cat.prices[entry_id] = Price(**d, origin=f"{path} (project copy)")
        except (json.JSONDecodeError, TypeError) as exc:
            raise ProjectFileError(f"bad price copy for '{entry_id}': {exc}", file=str(path)) from exc
    cat.errors = list(base.errors)
    return cat


def open_project(path: str | os.PathLike[str], catalog: Catalog | None = None) -> Project:
    """Reads a project file; raises ProjectFileError (and changes nothing) when it is not a good one."""
    p = Path(path)
    _check_header(p)
    conn = _read_into_memory(p)
    try:
        _migrate(conn, p)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = [t for t in (*TABLE_ORDER, "catalog_entries", "catalog_prices") if t not in tables]
        if missing:
            raise ProjectFileError(f"incomplete project file: table '{missing[0]}' is missing", file=str(p))
        project = Project(_project_catalog(conn, p, catalog or default_catalog()))
        for table in TABLE_ORDER:
            cls = ROW_TYPES[table]
            present = {r[1] for r in conn.execute(f"PRAGMA table_info([{table}])")}
            names = [n for n, _ in _coercions(cls) if n in present]  # an older file lacks new columns
            cols = ", ".join(f"[{n}]" for n in names)
            rows = [
                _coerce(cls, dict(zip(names, r, strict=True)), table, p)
                for r in conn.execute(f"SELECT {cols} FROM [{table}]")
            ]
            if table in ("project", "site"):
                if len(rows) != 1:
                    raise ProjectFileError(f"table '{table}' must hold exactly one row", file=str(p))
                project.tables[table] = {rows[0].id: rows[0]}
            else:
                project.load_rows(table, rows)
        _check_references(project, p)
        return project
    except sqlite3.DatabaseError as exc:
        raise ProjectFileError(f"damaged project file ({exc})", file=str(p)) from exc
    finally:
        conn.close()


def _check_references(project: Project, path: Path) -> None:
    for table in ("racks", "devices", "links"):
        for row in project.tables[table].values():
            try:
                check_references(table, row, project)
            except PlannerError as exc:
                raise ProjectFileError(
                    f"bad reference in table '{table}', row '{row.id}': {exc.message}",
                    file=str(path),
                    entry=row.id,
                    field=exc.field,
                    value=exc.value,
                ) from exc
