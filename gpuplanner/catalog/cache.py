"""The on-disk cache of a parsed and validated catalog folder.

Parsing ~100 YAML files and checking them against the JSON Schemas costs a few hundred milliseconds on every
start of the CLI and the window. The cache stores what loading a folder produced (each valid entry's data,
each price, each problem found) under a key made of everything the result depends on: the package version,
the folder, every catalog and schema file's path, size, mtime and inode, and the catalog code itself. Any
difference, an unreadable or corrupt file, or an unexpected shape means a miss: the folder is loaded from
the files again and the cache rewritten. The file is JSON (dates tagged as ``{"$date": "…"}``): parsing it
cannot run code, whatever it holds. The loader rebuilds each entry from the stored data through the entry
classes and the semantic rules (``rules.check_entry``), so a hand-edited cache with the right key still
cannot bring in an entry the rules refuse: the whole cache is then ignored. Only a regular file is read
(a FIFO or device in its place is a miss, never a hang).

``GPUPLANNER_CACHE_DIR`` moves the cache folder; ``GPUPLANNER_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sys
import tempfile
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from gpuplanner.core.safeio import read_regular

ENV_CACHE_DIR = "GPUPLANNER_CACHE_DIR"
ENV_NO_CACHE = "GPUPLANNER_NO_CACHE"

# Bump when the shape of what is stored changes.
CACHE_FORMAT = 2  # 2: JSON (1 was a restricted pickle)
# The bundled catalog's cache is ~0.5 MB; a file far larger was not written by us.
MAX_CACHE_BYTES = 64 * 1024 * 1024

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


def _code_stamp() -> tuple[Any, ...]:
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


def cache_key(root: Path, files: Iterable[Path]) -> tuple[Any, ...]:
    """Everything the result of loading ``root`` depends on; ``files`` are all the files it reads."""
    return (_code_stamp(), str(root.resolve()), tuple(_stat(p) for p in files))


_DATE_TAGS = {"$date": dt.date, "$datetime": dt.datetime}


def _encode(value: Any) -> Any:
    """JSON for what YAML can yield: dates and times become tagged objects (anything else is refused)."""
    if isinstance(value, dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    raise TypeError(f"{type(value).__name__} is not stored in the catalog cache")


def _decode(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        ((tag, text),) = obj.items()
        if tag in _DATE_TAGS and isinstance(text, str):
            return _DATE_TAGS[tag].fromisoformat(text)
    return obj


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, default=_encode, ensure_ascii=False, allow_nan=False).encode("utf-8")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not stored in the catalog cache")


def _loads(data: bytes) -> Any:
    return json.loads(data.decode("utf-8"), object_hook=_decode, parse_constant=_refuse_constant)


def _normal(value: Any) -> Any:
    """The form a value takes after a trip through the cache file (tuples become lists)."""
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    return value


def _file(slot: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"catalog-{slot}.json"


def read(slot: str, key: tuple[Any, ...]) -> Any | None:
    """The stored payload of ``slot`` if it was stored under ``key``; None on any problem. The payload is
    plain JSON data; the caller rebuilds (and re-checks) its entries from it."""
    path = _file(slot)
    if path is None:
        return None
    try:
        stored = _loads(read_regular(path, MAX_CACHE_BYTES))  # a FIFO or device in its place: a miss
    except Exception:  # missing, unreadable, truncated, corrupt, too deep, tampered: all simply a miss
        return None
    if not isinstance(stored, dict) or stored.get("key") != _normal(key):
        return None
    return stored.get("payload")


def write(slot: str, key: tuple[Any, ...], payload: Any) -> None:
    """Stores ``payload`` atomically (temp file + rename); a cache that cannot be written is no error."""
    path = _file(slot)
    if path is None:
        return
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        record = {"key": _normal(key), "payload": _normal(payload)}
        data = _dumps(record)
        if len(data) > MAX_CACHE_BYTES or _loads(data) != record:
            return  # a value JSON would change (an int dict key, a set): do not store what differs
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        # No fsync: after a crash a torn file fails to parse or its key differs, and is rebuilt.
        os.replace(tmp, path)
        tmp = None
    except Exception:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
