"""Table layout of the project file and its numbered, linear migrations.

One SQLite table per model table, columns named as the row fields (with units), plus:
- ``meta`` (key, value): format version, app version, catalog version, saved time;
- ``catalog_entries`` (id, kind, json): a copy of every catalog entry the project uses;
- ``catalog_prices`` (id, json): their prices.
``PRAGMA application_id`` marks the file as ours; ``PRAGMA user_version`` is the format version.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

APPLICATION_ID = 0x47504C4E  # "GPLN"
FORMAT_VERSION = 1


def _v0_to_v1(conn: sqlite3.Connection) -> None:
    """Version 0 was never released; kept as the pattern for later migrations (ALTER/UPDATE here)."""


# MIGRATIONS[n] upgrades a file of format n to n + 1, in place, inside one transaction.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {0: _v0_to_v1}
