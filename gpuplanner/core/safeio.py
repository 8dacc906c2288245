"""Reading files the user names without hanging on them, and writing files without leaving half of one.

``open`` on a FIFO blocks until a writer appears; reading a character device (``/dev/zero``) never ends;
a folder raises an error whose text differs per platform. Every file GPU Planner reads on a user's behalf
(project files, catalog YAML, the catalog cache, recovery notes) goes through ``read_regular`` or
``open_regular``: the file is opened non-blocking, checked to be a regular file on the open descriptor
(no race between the check and the read), and read with a size bound.

``atomic_write`` writes through a temporary file in the same folder and renames it over the target, so a
full disk or a killed process leaves the previous file (or no file), never a truncated or empty one.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

# Larger than any catalog YAML, recovery note or cache file we write (a 131k-GPU catalog cache is ~1 MB).
DEFAULT_MAX_BYTES = 256 * 1024 * 1024


class NotRegularFileError(OSError):
    """The path exists but is a folder, FIFO, socket or device: nothing we should read."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        super().__init__(f"is {what}, not a regular file")
        self.strerror = f"is {what}, not a regular file"
        self.filename = str(path)
        self.what = what

    def __str__(self) -> str:
        return str(self.strerror)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


@contextlib.contextmanager
def open_regular(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Opens ``path`` for reading in binary mode; raises NotRegularFileError (without blocking) for a FIFO,
    device, socket or folder, and OSError for a missing or unreadable file."""
    if os.path.isdir(path):  # os.open of a folder works on Linux (O_RDONLY), fails elsewhere: one message
        raise NotRegularFileError(path, "a folder")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFileError(path, _kind(st.st_mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        yield fh


def read_regular(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (OSError otherwise; never blocks)."""
    with open_regular(path) as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise OSError(f"larger than {max_bytes:,} bytes")
    return data


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike[str], data: bytes | str, *, encoding: str = "utf-8") -> Path:
    """Writes ``data`` to ``path`` through a temporary file and a rename, with the user's umask (0644
    normally, not mkstemp's 0600). On any error the target is as it was and no temporary file remains."""
    target = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target
