"""The bundled examples are what ``examples/make_examples.py`` writes today, and their catalog copies are the
bundled catalog's entries and prices.

A project file's catalog copy wins over the bundled catalog when it opens (storage/projectfile.py): that keeps a
user's project giving the same results on any machine, and keeps an entry or price the user edited. The
bundled examples are generated, never edited by hand, so nothing in their copies is an override: a copy that
differs from the catalog is a stale example (session 12: the DDN AI400X2 `name_zh` did not reach the Chinese
report of the superpod example, and the examples still had the canvas placement from before e6b689f). When
these tests fail, run ``python examples/make_examples.py`` and note the figures that changed."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.storage import open_project
from gpuplanner.storage.projectfile import plain

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
NAMES = sorted(p.name for p in EXAMPLES.glob("*.gpuplan"))
FIX = "stale bundled example: run `python examples/make_examples.py`"
VOLATILE_META = {"saved", "app_version"}  # when and by which release it was written, not what it holds


def _make_examples() -> Any:
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tables(path: Path) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    conn = sqlite3.connect(path)
    try:
        out = {}
        names = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        for t in names:
            cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')]
            rows = conn.execute(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall()
            if t == "meta":
                rows = [r for r in rows if r[0] not in VOLATILE_META]
            out[t] = (cols, rows)
        return out
    finally:
        conn.close()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("examples")
    _make_examples().main(out)
    return out


def test_make_examples_writes_every_bundled_example(generated):
    assert NAMES and sorted(p.name for p in generated.glob("*.gpuplan")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_bundled_example_is_what_make_examples_writes(generated, name):
    bundled, fresh = _tables(EXAMPLES / name), _tables(generated / name)
    assert sorted(bundled) == sorted(fresh), f"{name}: tables differ; {FIX}"
    for table, (cols, rows) in fresh.items():
        old_cols, old_rows = bundled[table]
        assert old_cols == cols, f"{name}: columns of '{table}' differ; {FIX}"
        assert len(old_rows) == len(rows), (
            f"{name}: {len(old_rows)} rows in '{table}', generator {len(rows)}; {FIX}"
        )
        for old, new in zip(old_rows, rows, strict=True):
            if old != new:
                diff = {c: (a, b) for c, a, b in zip(cols, old, new, strict=True) if a != b}
                pytest.fail(f"{name}: '{table}' row {old[0]!r} differs {diff}; {FIX}")


@pytest.mark.parametrize("name", NAMES)
def test_example_catalog_copies_are_the_bundled_catalog(name):
    """Entries compared whole (every field, `name_zh` and `source` included) and prices as the saver writes
    them: an example has no user override to keep."""
    catalog = default_catalog()
    conn = sqlite3.connect(EXAMPLES / name)
    try:
        entries = dict(conn.execute("SELECT id, json FROM catalog_entries"))
        prices = dict(conn.execute("SELECT id, json FROM catalog_prices"))
    finally:
        conn.close()
    assert entries, name
    for entry_id, text in entries.items():
        assert entry_id in catalog.entries, f"{name}: '{entry_id}' is no longer in the catalog; {FIX}"
        copy, current = json.loads(text), plain(catalog.entries[entry_id].raw)
        diff = {
            k: (copy.get(k), current.get(k))
            for k in set(copy) | set(current)
            if copy.get(k) != current.get(k)
        }
        assert not diff, f"{name}: catalog copy of '{entry_id}' differs (copy, catalog) {diff}; {FIX}"
    for entry_id, text in prices.items():
        price = catalog.prices.get(entry_id)
        assert price is not None, f"{name}: the catalog has no price for '{entry_id}'; {FIX}"
        current = dataclasses.asdict(price)
        current.pop("origin", None)
        assert json.loads(text) == json.loads(json.dumps(current)), (
            f"{name}: price of '{entry_id}' differs; {FIX}"
        )
    priced = {e for e in entries if e in catalog.prices}
    assert set(prices) == priced, (
        f"{name}: prices saved for {sorted(prices)}, catalog prices {sorted(priced)}"
    )


def test_a_user_project_keeps_its_catalog_copy(tmp_path):
    """The precedence the examples' freshness must not change: a project's edited copy (here a storage
    appliance's name and a price) wins over the bundled catalog when it opens."""
    path = tmp_path / "mine.gpuplan"
    shutil.copy(EXAMPLES / "superpod-1024-h100.gpuplan", path)
    conn = sqlite3.connect(path)
    (text,) = conn.execute("SELECT json FROM catalog_entries WHERE id = 'ddn-ai400x2-eth'").fetchone()
    data = json.loads(text)
    data["name"], data["name_zh"] = "Our Lustre appliance", "我们的存储"
    conn.execute("UPDATE catalog_entries SET json = ? WHERE id = 'ddn-ai400x2-eth'", (json.dumps(data),))
    (ptext,) = conn.execute("SELECT json FROM catalog_prices WHERE id = 'ddn-ai400x2-eth'").fetchone()
    pdata = json.loads(ptext)
    pdata["price_usd"] = 123_456.0
    conn.execute("UPDATE catalog_prices SET json = ? WHERE id = 'ddn-ai400x2-eth'", (json.dumps(pdata),))
    conn.commit()
    conn.close()
    project = open_project(path)
    entry = project.catalog.entries["ddn-ai400x2-eth"]
    assert entry.name == "Our Lustre appliance" and entry.raw["name_zh"] == "我们的存储"
    assert project.catalog.prices["ddn-ai400x2-eth"].price_usd == 123_456.0
    assert default_catalog().entries["ddn-ai400x2-eth"].name == "DDN AI400X2 Lustre appliance (A³I), 200GbE"
