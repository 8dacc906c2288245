"""The on-disk cache of a parsed and validated catalog folder.

Parsing ~100 YAML files and checking them against the JSON Schemas costs a few hundred milliseconds on every
start of the CLI and the window. The cache stores what loading a folder produced (each valid entry's data,
each price, each problem found) under a key made of everything the result depends on: the package version,
the folder, every catalog and schema file's path, size, mtime and inode, and the catalog code itself. Any
difference, an unreadable or corrupt file, or an unexpected shape means a miss: the folder is loaded from
the files again and the cache rewritten. Only plain data is stored (no classes of ours), and the unpickler
refuses anything but builtins and dates.

``GPUPLANNER_CACHE_DIR`` moves the cache folder; ``GPUPLANNER_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import sys
import tempfile
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

ENV_CACHE_DIR = "GPUPLANNER_CACHE_DIR"
ENV_NO_CACHE = "GPUPLANNER_NO_CACHE"

# Bump when the shape of what is stored changes.
CACHE_FORMAT = 1

# Code whose change changes what loading a folder yields (run from source, the version does not move).
_CODE = ("loader.py", "rules.py", "types.py", "cache.py")
_LIBRARIES = ("yaml", "jsonschema")


def cache_dir() -> Path | None:
    """The folder of the cache files, or None when the cache is off."""
    if os.environ.get(ENV_NO_CACHE, "").strip() not in ("", "0"):
        return None
    env = os.environ.get(ENV_CACHE_DIR)
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("gpuplanner", "gpuplanner"))


def _stat(path: Path | str) -> tuple[str, int, int, int] | tuple[str, None]:
    try:
        st = os.stat(path)
    except OSError:
        return (str(path), None)
    return (str(path), st.st_size, st.st_mtime_ns, st.st_ino)


def _code_stamp() -> tuple:
    from gpuplanner import __version__

    here = Path(__file__).resolve().parent
    stamp: list[Any] = [CACHE_FORMAT, __version__, sys.version_info[:2]]
    stamp += [_stat(here / name) for name in _CODE]
    for lib in _LIBRARIES:  # a new PyYAML or jsonschema may read or judge a file differently
        spec = find_spec(lib)
        stamp.append(_stat(spec.origin) if spec and spec.origin else (lib, None))
    if getattr(sys, "frozen", False):  # a bundle: its code is in the executable's archive
        stamp.append(_stat(sys.executable))
    return tuple(stamp)


def cache_key(root: Path, files: Iterable[Path]) -> tuple:
    """Everything the result of loading ``root`` depends on; ``files`` are all the files it reads."""
    return (_code_stamp(), str(root.resolve()), tuple(_stat(p) for p in files))


class _PlainUnpickler(pickle.Unpickler):
    """Builtin containers and scalars load natively; of classes only dates and times are let in."""

    _ALLOWED = {
        ("datetime", "date"),
        ("datetime", "datetime"),
        ("datetime", "time"),
        ("datetime", "timezone"),
        ("datetime", "timedelta"),
    }

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the catalog cache")


def _file(slot: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"catalog-{slot}.pickle"


def read(slot: str, key: tuple) -> Any | None:
    """The stored payload of ``slot`` if it was stored under ``key``; None on any problem."""
    path = _file(slot)
    if path is None:
        return None
    try:
        stored = _PlainUnpickler(io.BytesIO(path.read_bytes())).load()
    except Exception:  # missing, unreadable, truncated, corrupt, tampered: all simply a miss
        return None
    if not isinstance(stored, dict) or stored.get("key") != key:
        return None
    return stored.get("payload")


def write(slot: str, key: tuple, payload: Any) -> None:
    """Stores ``payload`` atomically (temp file + rename); a cache that cannot be written is no error."""
    path = _file(slot)
    if path is None:
        return
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = pickle.dumps({"key": key, "payload": payload}, protocol=pickle.HIGHEST_PROTOCOL)
        _PlainUnpickler(io.BytesIO(data)).load()  # an object we could not read back: do not store it
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        # No fsync: after a crash a torn file fails to unpickle or its key differs, and is rebuilt.
        os.replace(tmp, path)
        tmp = None
    except Exception:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
