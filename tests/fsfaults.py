"""Real file-system faults for tests: a tiny tmpfs (a full disk) and a read-only mount, where this machine
lets us mount (root in a container usually can); the tests fall back to a simulated error otherwise.
A read-only *folder* is no test as root: root ignores permission bits, so a read-only mount is used."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _mount(args: list[str]) -> bool:
    if os.name != "posix" or shutil.which("mount") is None:
        return False
    try:
        return subprocess.run(args, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@contextlib.contextmanager
def small_tmpfs(
    size_kib: int = 256, *, read_only: bool = False, fill: dict[str, bytes] | None = None
) -> Iterator[Path | None]:
    """A fresh tmpfs of ``size_kib`` (files from ``fill`` written first; then remounted read-only when
    asked), or None when mounting is not allowed here."""
    where = Path(tempfile.mkdtemp(prefix="gpuplanner-tmpfs-"))
    if not _mount(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(where)]):
        where.rmdir()
        yield None
        return
    try:
        for name, data in (fill or {}).items():
            (where / name).write_bytes(data)
        if read_only and not _mount(["mount", "-o", "remount,ro", str(where)]):
            yield None
            return
        yield where
    finally:
        _mount(["umount", "-l", str(where)])
        with contextlib.suppress(OSError):
            where.rmdir()
