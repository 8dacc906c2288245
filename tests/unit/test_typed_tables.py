"""Typed table access: ``Project.rows_of(cls)`` is the table holding ``cls`` rows, for every row class."""

from __future__ import annotations

from gpuplanner.model import ROW_TYPES, Phase, Project, Workload
from gpuplanner.model.rows import TABLE_OF


def test_every_row_class_names_its_own_table():
    assert len(TABLE_OF) == len(ROW_TYPES)  # one class per table: the reverse map loses nothing
    p = Project()
    for table, cls in ROW_TYPES.items():
        assert TABLE_OF[cls] == table
        assert p.rows_of(cls) is p.tables[table]


def test_rows_of_sees_the_rows_the_model_holds():
    p = Project()
    p.insert("phases", Phase(id="ph1", name="one"))
    p.insert("workloads", Workload(id="w1", name="train"))
    assert list(p.rows_of(Phase)) == ["ph1"] and p.rows_of(Workload)["w1"].name == "train"
