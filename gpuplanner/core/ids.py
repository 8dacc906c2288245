"""Typed ids. Ids are short strings, unique within their table, stable across save/load."""

from __future__ import annotations

import itertools
import re
from typing import NewType

RackId = NewType("RackId", str)
DeviceId = NewType("DeviceId", str)
LinkId = NewType("LinkId", str)
FabricId = NewType("FabricId", str)
WorkloadId = NewType("WorkloadId", str)
ScenarioId = NewType("ScenarioId", str)

_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


def is_slug(text: str) -> bool:
    return bool(_SLUG.match(text))


class IdAllocator:
    """Allocates ids like ``d17`` for a table; never reuses one that was seen."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._counter = itertools.count(1)
        self._high = 0

    def observe(self, existing: str) -> None:
        if existing.startswith(self.prefix) and existing[len(self.prefix) :].isdigit():
            self._high = max(self._high, int(existing[len(self.prefix) :]))

    def next(self) -> str:
        self._high += 1
        return f"{self.prefix}{self._high}"
