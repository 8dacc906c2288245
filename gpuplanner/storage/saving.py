"""Saving ``.gpuplan`` files.

A save first checks that the project would reopen (the loader's checks: a column at a time, then row by row
— ``integrity.check_saveable`` — only to name what the column checks found), then writes a complete new file next to the target, fsyncs it, ``os.replace``s the target
and fsyncs the folder: a crash, a full disk or a second program saving at the same moment leaves either the
previous file or one complete new file, never a mix and never an empty file.

The temporary file is ``.NAME.XXXX.tmp`` in the target's folder. While a save writes it, the saving process
holds an advisory ``flock`` on it; a save that finds such files whose lock is free and that are older than
itself removes them (they are left by a killed save; a save in progress in another process keeps its
lock and its file).
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import os
import sqlite3
import tempfile
import time
import typing
from collections.abc import Sequence
from datetime import UTC, datetime
from operator import attrgetter
from pathlib import Path
from typing import Any

from gpuplanner import __version__
from gpuplanner.core.errors import ProjectFileError
from gpuplanner.core.safeio import current_umask
from gpuplanner.model import ROW_TYPES, Project
from gpuplanner.model.columns import project_valid_by_columns
from gpuplanner.model.link_table import LinkTable
from gpuplanner.model.validate import check_savable
from gpuplanner.storage.integrity import check_catalog_copies, check_project_references, check_rows
from gpuplanner.storage.projectfile import TABLE_ORDER, plain
from gpuplanner.storage.schema import APPLICATION_ID, FORMAT_VERSION
from gpuplanner.text import Msg

try:
    import fcntl
except ImportError:  # Windows: an open file cannot be deleted there anyway
    fcntl = None  # type: ignore[assignment]

if typing.TYPE_CHECKING:
    import sqlite_utils

# A temp file whose lock is free is left only by a killed save, but a save that has just created its
# temp file takes its lock a moment later: files younger than this are never removed.
STALE_TMP_MIN_AGE_S = 10.0
DISK_FULL = Msg("error.file.disk_full")
KEPT = Msg("error.file.kept")
# Off: a save checks every row with the row-by-row rules (validate_row, check_references) — the slow, obvious
# checks the tests hold the column checks (model/columns.project_valid_by_columns) to. On, the row-by-row
# rules run only when the column checks find something, to name it.
FAST_SAVE_CHECKS = True


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
        db.table(table).create(_column_types(cls), pk="id")
        names = [f.name for f in dataclasses.fields(cls)]
        # executemany on tuples: sqlite-utils' insert_all inspects every dict (3× slower at 40k rows). The
        # tuples come from whole columns (the links table holds its columns; other tables: a map each).
        table_rows = project.tables[table]
        columns: list[Sequence[Any]]
        if isinstance(table_rows, LinkTable):
            columns = [table_rows.values_of(n) for n in names]
        else:
            values = list(table_rows.values())
            columns = [list(map(attrgetter(n), values)) for n in names]
        rows = list(zip(*columns, strict=True))
        if rows:
            cols = ", ".join(f"[{n}]" for n in names)
            marks = ", ".join("?" for _ in names)
            db.conn.executemany(f"INSERT INTO [{table}] ({cols}) VALUES ({marks})", rows)
    db.table("meta").create({"key": str, "value": str}, pk="key")
    db.table("meta").insert_all(
        [
            {"key": "format_version", "value": str(FORMAT_VERSION)},
            {"key": "app_version", "value": __version__},
            {"key": "saved", "value": datetime.now(UTC).isoformat(timespec="seconds")},
        ]
    )
    db.table("catalog_entries").create({"id": str, "kind": str, "json": str}, pk="id")
    db.table("catalog_prices").create({"id": str, "json": str}, pk="id")
    used = sorted(project.used_type_ids())
    entries, prices = [], []
    for tid in used:
        e = project.catalog.entries.get(tid)
        if e is None:
            continue
        entries.append({"id": tid, "kind": e.kind, "json": json.dumps(plain(e.raw), ensure_ascii=False)})
        p = project.catalog.prices.get(tid)
        if p is not None:
            pd = dataclasses.asdict(p)
            pd.pop("origin", None)
            prices.append({"id": tid, "json": json.dumps(pd, ensure_ascii=False, allow_nan=False)})
    if entries:
        db.table("catalog_entries").insert_all(entries)
    if prices:
        db.table("catalog_prices").insert_all(prices)


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
        return 0o666 & ~current_umask()


def _lock(fd: int) -> bool:
    """Takes the advisory lock that marks a temp file as in use; False when another process holds it."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def remove_stale_temps(target: Path, older_than: float, keep: Path | None = None) -> list[Path]:
    """Removes ``.NAME.*.tmp`` files of ``target`` left by killed saves: not locked by a live save and
    last written before ``older_than`` (a time.time() value) minus STALE_TMP_MIN_AGE_S."""
    removed: list[Path] = []
    folder = target.parent
    with contextlib.suppress(OSError):
        for tmp in folder.glob(f".{target.name}.*.tmp"):
            if keep is not None and tmp.name == keep.name:
                continue
            try:
                if not tmp.is_file() or tmp.is_symlink():
                    continue
                if tmp.stat().st_mtime > older_than - STALE_TMP_MIN_AGE_S:
                    continue
                fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            except OSError:
                continue
            try:
                if _lock(fd):
                    tmp.unlink()
                    removed.append(tmp)
            except OSError:
                pass
            finally:
                os.close(fd)
    return removed


def save_project(project: Project, path: str | os.PathLike[str]) -> Path:
    """Atomically writes ``project`` to ``path`` (ProjectFileError, and nothing written, when it cannot)."""
    started = time.time()
    target = Path(path)
    if not (FAST_SAVE_CHECKS and project_valid_by_columns(project)):  # the row-by-row rules name the row
        check_savable(
            project, target
        )  # the model's rules: relations, bounds (a project that would not reopen)
        check_rows(project, str(target))  # the file's rules: the loader's checks of every row
        check_project_references(project, str(target))
    check_catalog_copies(project, str(target))  # catalog copies and prices that reopen
    folder = target.resolve().parent
    if not folder.is_dir():
        raise ProjectFileError(Msg("error.file.no_folder"), file=str(target))
    if target.exists() and target.is_dir():
        raise ProjectFileError(Msg("error.file.is_folder"), file=str(target))
    tmp: Path | None = None
    lock_fd = -1
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        tmp = Path(tmp_name)
        lock_fd = fd  # held open (and flock'ed) until the rename: marks the temp file as in use
        _lock(lock_fd)
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
        os.fsync(lock_fd)
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
        tmp = None
        _fsync_dir(folder)
    except OSError as exc:
        why = DISK_FULL if exc.errno == errno.ENOSPC else exc.strerror or str(exc)
        raise ProjectFileError(
            Msg("error.file.cannot_save", {"reason": why}), file=str(target), hint=KEPT
        ) from exc
    except (sqlite3.Error, ValueError) as exc:
        full = getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL"
        why = DISK_FULL if full else str(exc)
        raise ProjectFileError(
            Msg("error.file.cannot_save", {"reason": why}), file=str(target), hint=KEPT
        ) from exc
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()
        if lock_fd >= 0:
            os.close(lock_fd)
    remove_stale_temps(target, older_than=started)
    return target
