"""Keep freed memory in the process for reuse (glibc only): the router's temporaries are large and short-lived.

A cold route allocates and frees many arrays of one to a few flows' or arcs' size (7 MB each for a
131,072-GPU all-to-all). By default glibc hands every freed block above its mmap threshold (128 kB at
first, rising to at most 32 MB) back to the kernel, and trims the top of the heap. The next array of that
size then takes a page fault on each of its 4 kB pages while the kernel zeroes them. Measured with
getrusage on the benchmark's all-to-all: 122,343 minor faults (478 MB) per cold 131k route and about
10,300 (40 MB) per cold 16k route, which cost 0.4-0.7 s and 30-37 ms of system time on the shared
two-core machine. With the two settings below the faults drop to none, and the memory stays in the
process, up to its peak use, for the next route.

Set GPUPLANNER_KEEP_FREED_MEMORY=0 to leave the C library's defaults alone.
"""

from __future__ import annotations

import ctypes
import os
import platform
import threading

TRIM_THRESHOLD_BYTES = 512 << 20  # free memory kept at the top of the heap before it is returned
MMAP_THRESHOLD_BYTES = 32 << 20  # blocks up to this size come from the heap (glibc's largest allowed)
_M_TRIM_THRESHOLD = -1  # mallopt parameters, from glibc's malloc.h
_M_MMAP_THRESHOLD = -3
ENV_SWITCH = "GPUPLANNER_KEEP_FREED_MEMORY"

_lock = threading.Lock()
_state: list[bool] = []  # [applied] once decided


def keep_freed_memory() -> bool:
    """Apply the settings once per process; True if they are in effect (glibc, not switched off)."""
    with _lock:
        if not _state:
            _state.append(_apply())
        return _state[0]


def _apply() -> bool:
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return False
    try:
        libc_name = os.confstr("CS_GNU_LIBC_VERSION") or ""  # "glibc 2.36"; absent off glibc
    except (ValueError, OSError, AttributeError):
        return False
    if platform.system() != "Linux" or not libc_name.startswith("glibc"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    trim = libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES)
    mmap = libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
    return bool(trim == 1 and mmap == 1)  # mallopt returns 1 on success
