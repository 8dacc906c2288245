"""The fast check of cached catalog entries agrees with jsonschema (the oracle) on the bundled catalog and
on thousands of mutated entries."""

from __future__ import annotations

import copy
import random

import jsonschema
import pytest

from gpuplanner.catalog.loader import _schema, default_catalog
from gpuplanner.catalog.schema_lite import supported, valid

MUTATIONS = [-1, 0, 0.5, 1e308, "", "x", None, True, [], {}, [1], {"a": 1}, 10**30, "2024-01-01"]


def _entries():
    return [copy.deepcopy(_plain(e.raw)) for e in default_catalog().entries.values()]


def _plain(v):
    if hasattr(v, "items"):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


def test_every_schema_uses_only_supported_keywords():
    for kind in ("gpu", "server", "switch", "model", "cable", "cooling", "nic", "pdu", "rack", "storage"):
        assert supported(_schema(kind)), kind
    assert not supported({"type": "object", "oneOf": [{"type": "string"}]})


def test_bundled_entries_are_valid_for_both():
    entries = _entries()
    assert len(entries) > 90
    for data in entries:
        assert valid(data, _schema(data["kind"])), data["id"]


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


@pytest.mark.parametrize("seed", range(4))
def test_mutated_entries_judged_as_jsonschema_judges_them(seed):
    rng = random.Random(seed)
    entries = _entries()
    disagreements, invalid_seen = [], 0
    for _ in range(600):
        data = copy.deepcopy(rng.choice(entries))
        schema = _schema(data["kind"])  # the schema the entry was written for, whatever the mutation does
        path = rng.choice([p for p in _paths(data) if p])
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        op = rng.random()
        if op < 0.15 and isinstance(parent, dict):
            del parent[path[-1]]
        elif op < 0.25 and isinstance(parent, dict):
            parent[f"unknown_{rng.randrange(9)}"] = 1
        else:
            parent[path[-1]] = rng.choice(MUTATIONS)
        oracle = jsonschema.Draft202012Validator(schema).is_valid(data)
        invalid_seen += not oracle
        if valid(data, schema) != oracle:
            disagreements.append(
                (data.get("id"), path, parent.get(path[-1]) if isinstance(parent, dict) else None)
            )
    assert invalid_seen > 100  # the mutations do make invalid entries
    assert not disagreements, disagreements[:5]
