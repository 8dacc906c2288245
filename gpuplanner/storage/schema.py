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
FORMAT_VERSION = 4


def _v0_to_v1(conn: sqlite3.Connection) -> None:
    """Version 0 was never released."""


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """Phases, teams, floor plan: new columns on racks/devices/links/site and four new tables."""
    for table, column, decl in (
        ("racks", "phase_id", "TEXT DEFAULT ''"),
        ("racks", "floor_x_m", "FLOAT"),
        ("racks", "floor_y_m", "FLOAT"),
        ("devices", "phase_id", "TEXT DEFAULT ''"),
        ("devices", "partition", "TEXT DEFAULT ''"),
        ("links", "phase_id", "TEXT DEFAULT ''"),
        ("workloads", "partition", "TEXT DEFAULT ''"),
        ("site", "hall_width_m", "FLOAT DEFAULT 0"),
        ("site", "hall_depth_m", "FLOAT DEFAULT 0"),
    ):
        conn.execute(f"ALTER TABLE [{table}] ADD COLUMN [{column}] {decl}")
    conn.execute(
        "CREATE TABLE [phases] ([id] TEXT PRIMARY KEY, [name] TEXT, [order] INTEGER, [description] TEXT, [scheduler] TEXT)"
    )
    conn.execute(
        "CREATE TABLE [teams] ([id] TEXT PRIMARY KEY, [name] TEXT, [partition] TEXT, [gpu_guaranteed] INTEGER, "
        "[gpu_burst] INTEGER, [priority] INTEGER, [largest_job_gpus] INTEGER)"
    )
    conn.execute(
        "CREATE TABLE [aisle_rows] ([id] TEXT PRIMARY KEY, [aisle] TEXT, [contained] INTEGER, [y_m] FLOAT)"
    )
    conn.execute(
        "CREATE TABLE [floor_items] ([id] TEXT PRIMARY KEY, [name] TEXT, [kind] TEXT, [x_m] FLOAT, [y_m] FLOAT, "
        "[width_m] FLOAT, [depth_m] FLOAT, [capacity_kw] FLOAT, [row] TEXT, [phase_id] TEXT)"
    )


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """The design goal (one row, no goal set). Only id and kind are written: the loader gives every column a
    file lacks its default, so this migration stays right whatever fields the goal gains later."""
    conn.execute("CREATE TABLE [goal] ([id] TEXT PRIMARY KEY, [kind] TEXT)")
    conn.execute("INSERT INTO [goal] ([id], [kind]) VALUES ('goal', '')")


def _v3_to_v4(conn: sqlite3.Connection) -> None:
    """Fabric ids became foreign keys (model/refs.py). A device's or link's fabric id that names no fabric
    row (nothing could show or use it) is cleared, so that every file of format 3 still opens. Only text ids
    are cleared: any other value is left for the loader to refuse; a table or column that is missing is left
    for the loader to name."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "fabrics" not in tables or "id" not in _columns(conn, "fabrics"):
        return
    for table in ("devices", "links"):
        if table in tables and "fabric_id" in _columns(conn, table):
            conn.execute(
                f"UPDATE [{table}] SET [fabric_id] = NULL WHERE typeof([fabric_id]) = 'text' "
                "AND [fabric_id] NOT IN (SELECT [id] FROM [fabrics] WHERE [id] IS NOT NULL)"
            )


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info([{table}])")}


# MIGRATIONS[n] upgrades a file of format n to n + 1, in place (on the in-memory copy), inside one transaction.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    0: _v0_to_v1,
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
}
