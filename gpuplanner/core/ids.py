"""Row ids: short strings (``d17``), unique within their table, stable across save/load."""

from __future__ import annotations


class IdAllocator:
    """Allocates ids like ``d17`` for a table; never reuses one that was seen."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._high = 0

    def observe(self, existing: str) -> None:
        if existing.startswith(self.prefix) and existing[len(self.prefix) :].isdigit():
            self._high = max(self._high, int(existing[len(self.prefix) :]))

    def next(self) -> str:
        self._high += 1
        return f"{self.prefix}{self._high}"
