"""Sessions of the window, for recovery files: who wrote a recovery copy, and is that session still running?

A process id is no answer: in a container the next start often gets the same pid as the session that
crashed, so its copy was neither offered nor kept. Each session gets a random id (``uuid4``) and holds an
exclusive advisory lock (``flock``) on ``session-<id>.lock`` in the recovery folder for as long as it
runs; the operating system drops the lock when the process ends, however it ends (kill -9, power loss of
the container). A recovery copy whose session's lock can be taken belongs to a session that is gone.
Where ``fcntl`` is missing (Windows) the lock file holds a heartbeat time that the live session renews;
a heartbeat older than HEARTBEAT_STALE_S means the session is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
import uuid
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

HEARTBEAT_STALE_S = 300.0
_ID = re.compile(r"^[0-9a-f]{32}$")


def new_session_id() -> str:
    return uuid.uuid4().hex


def valid_session_id(text: object) -> bool:
    return isinstance(text, str) and bool(_ID.match(text))


def lock_path(folder: Path, session: str) -> Path:
    return folder / f"session-{session}.lock"


class SessionLock:
    """Held by a live session; ``release`` (or the end of the process) frees it."""

    def __init__(self, folder: Path, session: str) -> None:
        self.folder = folder
        self.session = session
        self.path = lock_path(folder, session)
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Takes the lock (creating the folder); False when the folder cannot be written (then the
        session simply cannot prove it is alive, and its copies may be offered to the next start)."""
        if self._fd is not None:
            self.beat()
            return True
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return False
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
        self._fd = fd
        self.beat()
        return True

    def beat(self) -> None:
        """Renews the heartbeat (what tells a live session where there is no flock)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()} {time.time():.0f}\n".encode(), 0)

    def release(self, remove: bool = True) -> None:
        if self._fd is None:
            return
        if remove:
            with contextlib.suppress(OSError):
                self.path.unlink()
        os.close(self._fd)
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def session_alive(folder: Path, session: str) -> bool:
    """Whether the session that owns ``session-<id>.lock`` in ``folder`` still runs."""
    path = lock_path(folder, session)
    if fcntl is None:
        try:
            stamp = float(path.read_text(encoding="ascii").split()[1])
        except (OSError, ValueError, IndexError):
            return False
        return time.time() - stamp < HEARTBEAT_STALE_S
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False  # no lock file: the session is gone (or never held one)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True  # someone holds it: alive (this process's own session included)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def remove_stale_lock(folder: Path, session: str) -> None:
    if not session_alive(folder, session):
        with contextlib.suppress(OSError):
            lock_path(folder, session).unlink()
