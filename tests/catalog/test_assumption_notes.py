"""Catalog honesty for the model assumptions (catalogs/assumptions/*.yaml): every value marked
``estimate: true`` says how it was derived (a non-empty ``note``), and every entry names a source and a date,
wherever it sits in the file (an entry of ``entries`` or a row of a nested list, as cloud.yaml's prices)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

ASSUMPTIONS = Path(__file__).resolve().parents[2] / "catalogs" / "assumptions"
FILES = sorted(ASSUMPTIONS.glob("*.yaml"))


def marked(data: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """(path, mapping) of every mapping that carries ``estimate`` anywhere in ``data``."""
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(data, dict):
        if "estimate" in data:
            out.append((where, data))
        for k, v in data.items():
            out += marked(v, f"{where}.{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += marked(v, f"{where}[{i}]")
    return out


def test_the_assumption_files_are_found():
    names = {p.name for p in FILES}
    assert {"cost.yaml", "electrical.yaml", "cloud.yaml", "facility.yaml"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_estimate_says_how_it_was_derived(path: Path):
    entries = marked(yaml.safe_load(path.read_text(encoding="utf-8")))
    missing = [w for w, e in entries if e["estimate"] is True and not str(e.get("note") or "").strip()]
    assert not missing, f"{path.name}: estimate without a note on how it was derived: {missing}"
    bad_flag = [w for w, e in entries if not isinstance(e["estimate"], bool)]
    assert not bad_flag, f"{path.name}: estimate must be true or false: {bad_flag}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_marked_value_names_a_source_and_date(path: Path):
    entries = marked(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert entries, f"{path.name}: no entry says whether it is an estimate"
    unsourced = [w for w, e in entries if not str(e.get("source") or "").strip()]
    undated = [w for w, e in entries if not str(e.get("as_of") or "").strip()]
    assert not unsourced and not undated, (path.name, unsourced, undated)


def test_the_check_sees_a_missing_note():
    data = {"entries": {"a": {"value": 1, "estimate": True, "note": " "}, "b": {"estimate": False}}}
    found = [w for w, e in marked(data) if e["estimate"] is True and not str(e.get("note") or "").strip()]
    assert found == [".entries.a"]
