"""The save's column checks (``model/columns.project_valid_by_columns``) against the row-by-row rules they
stand in for (``validate_project``, ``check_rows``, ``check_project_references``: ``validate_row`` and
``check_references`` on every row). Oracle: the row-by-row rules. On a corpus of damaged rows — one field
of one row of any table set to a hostile value, a row under another id, a row of another class — the column
checks pass exactly when the row-by-row rules pass, and a save gives the same outcome either way (the same
file, or the same refusal naming the same row, field and value).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.core.errors import PlannerError, ProjectFileError
from gpuplanner.model import Fabric, Phase, Project
from gpuplanner.model.columns import project_valid_by_columns
from gpuplanner.model.validate import validate_project
from gpuplanner.storage import open_project, save_project, saving
from gpuplanner.storage.integrity import check_project_references, check_rows
from gpuplanner.topology import GenerateOptions, generate_into

TABLES = ("racks", "devices", "links", "fabrics", "phases", "project", "site", "goal")


def _plan() -> Project:
    p = Project()
    generate_into(
        p, GenerateOptions(template="leaf-spine", servers=12, rack_budget_kw=42, management_fabric=True)
    )
    p.load_rows("phases", [Phase("ph1", "first"), Phase("ph2", "second", order=2)])
    return p


def _copy(p: Project) -> Project:
    q = Project(p.catalog)
    q.tables = {t: rows.copy() for t, rows in p.tables.items()}
    return q


def _slow_ok(p: Project) -> bool:
    try:
        validate_project(p)
        check_rows(p, "f")
        check_project_references(p, "f")
    except PlannerError:
        return False
    return True


_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, -1, 2, 42, 10**9]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "x", "compute", "leaf", "r1", "d1", "d2", "f1", "ph1", "ph9", "osfp", "infiniband"]),
)


def _damage(p: Project, table: str, data: st.DataObject, value: Any) -> None:
    rows = p.tables[table]
    rid = data.draw(st.sampled_from(sorted(rows)[:20]))
    row = rows[rid]
    name = data.draw(st.sampled_from([f.name for f in dataclasses.fields(row) if f.name != "id"]))
    if isinstance(value, str) and value in ("d1", "d2", "r1", "f1") and table in ("links", "devices"):
        value = data.draw(st.sampled_from(sorted(p.tables["devices" if "device" in name else "racks"])[:5]))
    bad = dataclasses.replace(row)  # a copy; the frozen field set without the model's checks
    object.__setattr__(bad, name, value)
    rows[rid] = bad


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), data=st.data(), value=_VALUE)
def test_column_checks_pass_exactly_when_every_row_passes(table, data, value):
    p = _copy(BASE)
    _damage(p, table, data, value)
    assert project_valid_by_columns(p) == _slow_ok(p)


def test_a_subclass_value_fails_the_column_checks_only_and_saves_the_same(tmp_path):
    p = _copy(BASE)
    lid = next(iter(p.links))
    bad = dataclasses.replace(p.links[lid])
    object.__setattr__(bad, "speed_gbps", np.float64(400.0))  # a float by isinstance: validate_row passes it
    p.links[lid] = bad
    assert not project_valid_by_columns(p) and _slow_ok(p)
    save_project(p, tmp_path / "a.gpuplan")
    assert open_project(tmp_path / "a.gpuplan").links[lid].speed_gbps == 400.0


def test_rows_under_another_id_or_of_another_class_fail_the_column_checks():
    p = _copy(BASE)
    rid, rack = next(iter(p.racks.items()))
    p.racks["elsewhere"] = rack
    assert not project_valid_by_columns(p) and not _slow_ok(p)
    q = _copy(BASE)
    q.tables["fabrics"]["f9"] = Phase("f9", "not a fabric")
    # the row rules check a row against its own class, so only the column checks notice (the save then
    # runs the row rules, as before this check existed)
    assert not project_valid_by_columns(q)
    r = _copy(BASE)
    r.tables["fabrics"]["f9"] = Fabric("f9", "spare")
    assert project_valid_by_columns(r) and _slow_ok(r)


def _save_outcome(p: Project, path, fast: bool) -> tuple[Any, ...]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(saving, "FAST_SAVE_CHECKS", fast)
        try:
            save_project(p, path)
        except ProjectFileError as exc:
            v = exc.value
            return (
                "refused",
                exc.message,
                exc.entry,
                exc.field,
                "nan" if isinstance(v, float) and math.isnan(v) else v,
            )
    q = open_project(path)
    return ("saved", {t: list(rows.items()) for t, rows in q.tables.items()})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.sampled_from(TABLES), data=st.data(), value=_VALUE)
def test_a_save_gives_the_same_outcome_with_and_without_the_column_checks(tmp_path, table, data, value):
    p = _copy(BASE)
    _damage(p, table, data, value)
    assert _save_outcome(p, tmp_path / "fast.gpuplan", True) == _save_outcome(
        p, tmp_path / "slow.gpuplan", False
    )


BASE = _plan()
