"""The fast open (tables read a column at a time as JSON, checked a column at a time) against the slow,
obvious one (``projectfile.FAST_OPEN = False``: ``fetchall``, then ``validate_row`` on every row and
``check_references`` on every referring row). Oracle: the slow reading. On every file — the hostile
corpus, and random damage of one cell of a generated plan — both must open the same project (same tables,
same link index, same next ids) or refuse it with the same message naming the same row, field and value.
"""

from __future__ import annotations

import dataclasses
import math
import sqlite3
import struct
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gpuplanner.core.errors import ProjectFileError
from gpuplanner.model import Project
from gpuplanner.storage import open_project, projectfile, save_project
from gpuplanner.storage.columnread import read_columns
from gpuplanner.topology import GenerateOptions, generate_into

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "data" / "hostile"))
import make_corpus  # noqa: E402


def _outcome(path: Path, fast: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """What opening ``path`` gives: the project's tables, link index and next ids, or the error's parts."""
    with monkeypatch.context() as m:
        m.setattr(projectfile, "FAST_OPEN", fast)
        m.setattr(projectfile, "COLUMN_CHECK_MIN_ROWS", 0 if fast else 10**9)
        try:
            p = open_project(path)
        except ProjectFileError as exc:
            return ("refused", exc.message, exc.entry, exc.field, _same(exc.value))
    ids = tuple(p.new_id(t) for t in ("racks", "devices", "links", "fabrics", "phases"))
    index = {d: frozenset(s) for d, s in p._links_by_device.items()}  # noqa: SLF001
    tables = {t: [(k, _fields(r)) for k, r in rows.items()] for t, rows in p.tables.items()}
    return ("opened", tables, index, ids)


def _same(value: Any) -> Any:
    """A value as compared: its type with it (1 and 1.0 and True differ), NaN equal to NaN."""
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def _fields(row: Any) -> tuple[Any, ...]:
    return tuple(_same(getattr(row, f.name)) for f in dataclasses.fields(row))


def _plan(servers: int = 48) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=servers, rack_budget_kw=42))
    return p


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("hostile")
    return folder, make_corpus.build(folder)


@pytest.mark.parametrize("name", list(make_corpus.CASES))
def test_every_hostile_file_gets_the_same_answer_both_ways(corpus, name, monkeypatch):
    folder, expectations = corpus
    path = folder / name
    fast = _outcome(path, True, monkeypatch)
    assert fast == _outcome(path, False, monkeypatch)
    if expectations[name] == "refuse":
        assert fast[0] == "refused"
    elif expectations[name] == "open":
        assert fast[0] == "opened"


@pytest.fixture(scope="module")
def plan_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plan") / "plan.gpuplan"
    save_project(_plan(), path)
    return path


# Values SQLite can hold, as damage of one cell: every storage class, edges of each.
_CELL = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0, 1, -1, 2, 7, 100, 1024, 1025, 2**31, 2**53 + 1]),
    st.floats(allow_nan=False),
    st.sampled_from([0.0, -0.0, 0.5, 1e15, 1e15 + 2, 64693.49999999999, 5e-324, 1.7976931348623157e308]),
    st.text(max_size=6),
    st.sampled_from(["", "compute", "r1", "d1", "d2", "l1", "ph-1", "leaf", "400gbase-x-osfp"]),
    st.binary(max_size=4),
)
_COLUMNS = {
    "racks": [
        "id",
        "name",
        "type_id",
        "row",
        "position",
        "power_budget_kw",
        "x",
        "y",
        "phase_id",
        "floor_x_m",
    ],
    "devices": ["id", "name", "type_id", "role", "rack_id", "u_position", "x", "y", "fabric_id", "price_usd"],
    "links": ["id", "a_device", "a_group", "b_device", "b_group", "multiplicity", "speed_gbps", "length_m"],
}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    table=st.sampled_from(sorted(_COLUMNS)),
    data=st.data(),
    value=_CELL,
    row=st.integers(1, 60),
)
def test_one_damaged_cell_gets_the_same_answer_both_ways(tmp_path, plan_file, table, data, value, row):
    column = data.draw(st.sampled_from(_COLUMNS[table]))
    path = tmp_path / f"{table}-{column}-{row}.gpuplan"
    path.write_bytes(plan_file.read_bytes())
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"UPDATE [{table}] SET [{column}] = ? WHERE rowid = ?", (value, row))
        conn.commit()
    except sqlite3.IntegrityError:
        # SQLite itself refuses the damage (an id another row already has): no such file can exist
        assume(False)
    finally:
        conn.close()
    with pytest.MonkeyPatch.context() as mp:
        assert _outcome(path, True, mp) == _outcome(path, False, mp)


_COORD = st.floats(min_value=-1e7, max_value=1e7, allow_nan=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.tuples(_COORD, _COORD), min_size=1, max_size=30))
def test_float_columns_come_back_exact(tmp_path_factory, values):
    """Floats of more than 15 digits (SQLite's JSON prints 15) come back bit for bit as the slow reading
    gives them, and equal to what was saved (SQLite itself keeps no sign of a zero: -0.0 reads as 0.0)."""
    p = _plan(8)
    devs = list(p.devices.values())
    for dev, (x, y) in zip(devs, values, strict=False):
        p.tables["devices"][dev.id] = dataclasses.replace(dev, x=x, y=y)
    path = tmp_path_factory.mktemp("floats") / "f.gpuplan"
    save_project(p, path)
    with pytest.MonkeyPatch.context() as mp:
        fast = open_project(path)
        mp.setattr(projectfile, "FAST_OPEN", False)
        slow = open_project(path)
    for dev in p.devices.values():
        got, ref = fast.devices[dev.id], slow.devices[dev.id]
        assert struct.pack("<dd", got.x, got.y) == struct.pack("<dd", ref.x, ref.y)
        assert (got.x, got.y) == (dev.x, dev.y)


def test_read_columns_equals_fetchall_cell_for_cell():
    """The JSON reading against ``fetchall`` on a table holding every storage class and float edge."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id TEXT, f FLOAT, g FLOAT, s TEXT)")
    values = [
        ("a", 0.1 + 0.2, 64693.49999999999, "x"),
        ("b", 64693.5, 1e15, ""),
        ("c", 1e15 + 2.0, -1e16, 'é\u0000\n"\\'),
        ("d", None, 5e-324, None),
        ("e", 7, 1.7976931348623157e308, "9"),
        ("f", 1e300, -2.5e-300, "[1]"),
        ("g", "text in a float column", 2.5, "null"),
        ("h", 2**62, -(2**62), '{"a": 1}'),
    ]
    conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", values)
    names = ["id", "f", "g", "s"]
    cols = read_columns(conn, "t", names, ["f", "g"], names)
    rows = conn.execute("SELECT id, f, g, s FROM t").fetchall()
    assert cols is not None
    assert [[_same(v) for v in cols[n]] for n in names] == [[_same(r[i]) for r in rows] for i in range(4)]


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE t SET s = x'00ff' WHERE id = 'a'",  # a BLOB: JSON cannot hold it
        "UPDATE t SET s = CAST(x'ff' AS TEXT) WHERE id = 'a'",  # text that is not UTF-8
        "UPDATE t SET f = 1e999 WHERE id = 'a'",  # an infinite REAL: SQLite writes Inf, not JSON
    ],
)
def test_read_columns_gives_up_on_what_json_cannot_carry(sql):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id TEXT, s TEXT, f FLOAT)")
    conn.executemany("INSERT INTO t VALUES (?, ?, ?)", [("a", "x", 1.5), ("b", "y", 2.5)])
    names = ["id", "s", "f"]
    assert read_columns(conn, "t", names, ["f"], names) is not None
    conn.execute(sql)
    assert read_columns(conn, "t", names, ["f"], names) is None


def test_a_column_named_rowid_or_a_table_without_rowids_takes_the_slow_path():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id TEXT, f FLOAT, rowid INTEGER)")
    conn.execute("INSERT INTO t VALUES ('a', 0.30000000000000004, 5), ('b', 0.1, 5)")
    assert read_columns(conn, "t", ["id", "f"], ["f"], ["id", "f", "rowid"]) is None
    conn.execute("CREATE TABLE w (id TEXT PRIMARY KEY, f FLOAT) WITHOUT ROWID")
    conn.execute("INSERT INTO w VALUES ('a', 0.30000000000000004)")
    assert read_columns(conn, "w", ["id", "f"], ["f"], ["id", "f"]) is None
