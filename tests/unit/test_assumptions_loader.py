"""One loader reads every catalogs/assumptions/<area>.yaml (the stages, the perf model and the report's
appendix all use it), refusing a file that drops a source or an estimate's note."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuplanner.catalog import bundled_catalog_dir
from gpuplanner.core.errors import CatalogError
from gpuplanner.engine import assumptions as loader
from gpuplanner.engine.facility.power import load_assumptions as stage_assumptions
from gpuplanner.engine.perf.assumptions import load_assumptions as perf_assumptions

AREA_FILES = sorted(
    p
    for p in (bundled_catalog_dir() / "assumptions").glob("*.yaml")
    if p.stem != "stacks"  # stacks: no entries
)


@pytest.mark.parametrize("path", AREA_FILES, ids=lambda p: p.stem)
def test_every_area_file_loads_with_its_values(path: Path):
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    a = loader.load_assumptions(path.stem)
    assert a.entries == doc["entries"] and doc["kind"] == "assumptions" and doc["area"] == path.stem
    for name, e in a.entries.items():
        assert e["source"] and e["as_of"], name


def test_the_stages_and_the_perf_model_share_one_class_and_cache():
    assert type(perf_assumptions()) is loader.Assumptions
    assert stage_assumptions("performance") is loader.load_assumptions("performance")
    assert stage_assumptions("network").number("nic_warn_fraction") == 0.5


@pytest.mark.parametrize(
    ("text", "notes", "message"),
    [
        ("x:\n  value: 1\n", False, "no 'entries' map"),
        ("entries:\n  x:\n    value: 1\n    as_of: '2025'\n", False, "missing source"),
        ("entries:\n  x: {value: 1, source: s, as_of: '2025', estimate: true}\n", True, "needs a note"),
    ],
)
def test_a_damaged_file_is_refused_naming_it(tmp_path: Path, text: str, notes: bool, message: str):
    path = tmp_path / "area.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError, match=message) as exc:
        loader.load_assumptions("area", path, notes_required=notes)
    assert exc.value.file == str(path)
