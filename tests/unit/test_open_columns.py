"""Opening a file checks long tables a column at a time (model/columns.py). Oracle: the row-by-row rules —
the same file opened with the column checks switched off must give the same project, or the same error
message naming the same row, field and value."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.core.errors import PlannerError, ProjectFileError
from gpuplanner.model import Project
from gpuplanner.model.columns import columns_valid, references_valid
from gpuplanner.model.rows import Link
from gpuplanner.model.validate import validate_row
from gpuplanner.storage import open_project, projectfile, save_project
from gpuplanner.topology import GenerateOptions, generate_into


def _project() -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=48, rack_budget_kw=42))
    return p


@pytest.fixture(scope="module")
def big() -> Project:
    return _project()


@pytest.fixture
def saved(tmp_path, big) -> Path:
    path = tmp_path / "p.gpuplan"
    save_project(big, path)
    return path


def _row_by_row(monkeypatch) -> None:
    monkeypatch.setattr(projectfile, "FAST_OPEN", False)


def _error(path: Path) -> ProjectFileError:
    with pytest.raises(ProjectFileError) as err:
        open_project(path)
    return err.value


def test_the_tables_are_long_enough_to_take_the_column_path(big):
    assert len(big.links) >= projectfile.COLUMN_CHECK_MIN_ROWS
    assert len(big.devices) >= projectfile.COLUMN_CHECK_MIN_ROWS


def test_a_good_file_opens_to_the_same_project_either_way(saved, monkeypatch, big):
    fast = open_project(saved)
    _row_by_row(monkeypatch)
    slow = open_project(saved)
    assert fast.tables == slow.tables == big.tables
    assert fast._links_by_device == slow._links_by_device  # noqa: SLF001
    assert fast.new_id("links") == slow.new_id("links")  # the id allocators saw the same highest id


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE links SET multiplicity = -3 WHERE rowid = 40",
        "UPDATE links SET multiplicity = 'many' WHERE rowid = 7",
        "UPDATE links SET speed_gbps = 1e999 WHERE rowid = 3",
        "UPDATE links SET length_m = 'far' WHERE rowid = 12",
        "UPDATE devices SET role = 'bogus' WHERE rowid = 30",
        "UPDATE devices SET u_position = 0 WHERE rowid = 2",
        "UPDATE devices SET rack_id = 'rack-404' WHERE rowid = 33",
        "UPDATE devices SET type_id = 'no-such-model' WHERE rowid = 5",
        "UPDATE devices SET u_position = 99 WHERE rowid = 9",
        "UPDATE links SET a_group = 'nope' WHERE rowid = 21",
        "UPDATE links SET b_device = a_device WHERE rowid = 17",
        "UPDATE links SET b_device = 'ghost' WHERE rowid = 18",
        "UPDATE links SET phase_id = 'ph-404' WHERE rowid = 19",
    ],
)
def test_a_bad_cell_gets_the_row_by_row_message(tmp_path, big, sql, monkeypatch):
    path = tmp_path / "bad.gpuplan"
    save_project(big, path)
    conn = sqlite3.connect(path)
    conn.execute(sql)
    conn.commit()
    conn.close()
    fast = _error(path)
    _row_by_row(monkeypatch)
    slow = _error(path)
    assert (fast.message, fast.entry, fast.field, fast.value) == (
        slow.message,
        slow.entry,
        slow.field,
        slow.value,
    )


_LINK_VALUES = {
    "multiplicity": st.one_of(st.integers(-5, 5000), st.none(), st.text(max_size=2), st.floats()),
    "speed_gbps": st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10, 10**6)),
    "length_m": st.one_of(st.none(), st.floats(-1, 1e6), st.booleans()),
    "medium": st.one_of(st.text(max_size=3), st.none()),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(sorted(_LINK_VALUES)), row=st.integers(0, 39), data=st.data())
def test_column_check_agrees_with_validate_row(big, field, row, data):
    rows = list(big.links.values())[:40]
    value = data.draw(_LINK_VALUES[field])
    rows[row] = dataclasses.replace(rows[row], **{field: value})

    def ok(r: Link) -> bool:
        try:
            validate_row("links", r)
        except PlannerError:
            return False
        return True

    columns = {f.name: [getattr(r, f.name) for r in rows] for f in dataclasses.fields(Link)}
    assert columns_valid("links", Link, columns) == all(ok(r) for r in rows)


def test_references_valid_agrees_with_the_row_rules(big):
    from gpuplanner.storage.integrity import check_project_references

    assert references_valid(big)
    check_project_references(big, "x")  # the oracle agrees: no error
    p = _project()
    lk = next(iter(p.links.values()))
    p.tables["links"][lk.id] = dataclasses.replace(lk, b_group="no-such-group")
    assert not references_valid(p)
    with pytest.raises(ProjectFileError, match="no port group"):
        check_project_references(p, "x")
