"""Files other programs read: one atomic writer for every export (Slurm, NetBox, CSV, xlsx, SVG/PNG, YAML …),
the CSV cell guard and the one-line text guard.

Atomic: a temporary file in the same folder, fsync, then ``os.replace`` — a full disk or a killed process never
leaves a half file under the target name. The file gets the user's umask (``0o666 & ~umask``, 0644 normally):
``mkstemp`` makes 0600 files, and a topology.conf copied that way is unreadable by the ``slurm`` user.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable
from pathlib import Path

from gpuplanner.core.errors import PlannerError
from gpuplanner.core.safeio import atomic_write


class ExportError(PlannerError):
    """An export cannot be written (folder missing, no permission, disk full)."""


def write_atomic(path: str | os.PathLike[str], data: str | bytes, *, encoding: str = "utf-8") -> Path:
    """Writes ``data`` (text in ``encoding``, or bytes) to ``path`` atomically with the umask's mode
    (``core.safeio.atomic_write``), naming a missing folder or a failed write as an ExportError."""
    out = Path(path)
    if out.is_dir():
        raise ExportError("is a folder; give a file name", file=str(out))
    if not out.parent.is_dir():
        raise ExportError("the folder does not exist", file=str(out.parent))
    try:
        return atomic_write(out, data, encoding=encoding)
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", file=str(out)) from exc


# OWASP "CSV Injection": a cell that begins with = + - @ (or tab / carriage return) is read as a formula by
# Excel, LibreOffice and Google Sheets; prefixing a single quote makes it text. Plain numbers are left alone
# (a negative amount such as -12.5 is data, not a formula).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def csv_cell(value: object) -> object:
    """``value`` safe for a spreadsheet: text that a spreadsheet would run as a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _NUMBER.match(value):
        return "'" + value
    return value


def csv_text(header: Iterable[object], rows: Iterable[Iterable[object]]) -> str:
    """CSV text (``\\n`` line ends, every cell through ``csv_cell``); write it with ``encoding='utf-8-sig'``
    so Excel on a Chinese Windows reads UTF-8 rather than the ANSI code page."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([csv_cell(v) for v in header])
    for row in rows:
        w.writerow([csv_cell(v) for v in row])
    return buf.getvalue()


_LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f\u0085\u2028\u2029]+")


def one_line(text: object, limit: int = 200) -> str:
    """Free text (a project, team or device name) reduced to one line: control characters and every line
    separator become a space, so it cannot start a new line in a config file or a comment."""
    return _LINE_BREAKS.sub(" ", str(text)).strip()[:limit]
