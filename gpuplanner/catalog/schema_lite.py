"""A small, fast check of data against the subset of JSON Schema our catalog schemas use.

The catalog cache (``catalog/cache.py``) must not trust what it reads back: the file is the user's to
edit. Running jsonschema again on every start would cost what the cache saves (importing it and checking
~100 entries: ~0.2 s), so the entries rebuilt from the cache are checked here instead, against the same
schema files: ``type``, ``required``, ``properties``, ``additionalProperties: false``, ``const``,
``enum``, ``minimum``/``maximum``/``exclusiveMinimum``/``exclusiveMaximum``, ``minLength``, ``pattern``,
``items``/``minItems`` and ``if``/``then``. A keyword outside that set makes ``supported`` false and the
caller falls back to the full validator. tests/unit/test_cache_files.py checks this against jsonschema
on the bundled catalog and on mutated entries.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from typing import Any

KNOWN = {
    "$schema", "title", "description", "type", "required", "properties", "additionalProperties", "const",
    "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "pattern", "items",
    "minItems", "uniqueItems", "if", "then", "$id", "$comment", "default", "examples",
}  # fmt: skip
_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}


def supported(schema: Any) -> bool:
    """True when every keyword in ``schema`` (recursively) is one ``valid`` understands."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or not set(schema) <= KNOWN:
        return False
    subs = list((schema.get("properties") or {}).values())
    subs += [schema[k] for k in ("items", "if", "then", "additionalProperties") if k in schema]
    return all(supported(s) for s in subs)


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def valid(value: Any, schema: Any) -> bool:
    """Whether ``value`` satisfies ``schema`` (only for schemas where ``supported`` is true)."""
    if isinstance(schema, bool):
        return schema
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[k](value) for k in kinds):
            return False
    if "const" in schema and value != schema["const"]:
        return False
    if schema.get("uniqueItems") and isinstance(value, list):
        seen = [json.dumps(v, sort_keys=True) for v in value]
        if len(set(seen)) != len(seen):
            return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, int | float) and not isinstance(value, bool) and not _number_ok(value, schema):
        return False
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            return False
        if "pattern" in schema and not _regex(schema["pattern"]).search(value):
            return False
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            return False
        if "items" in schema and not all(valid(v, schema["items"]) for v in value):
            return False
    if isinstance(value, dict) and not _object_ok(value, schema):
        return False
    return not ("if" in schema and "then" in schema and valid(value, schema["if"])) or valid(
        value, schema["then"]
    )


def _number_ok(value: float, schema: dict[str, Any]) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return not (
        ("minimum" in schema and value < schema["minimum"])
        or ("maximum" in schema and value > schema["maximum"])
        or ("exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"])
        or ("exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"])
    )


def _object_ok(value: dict[str, Any], schema: dict[str, Any]) -> bool:
    if any(name not in value for name in schema.get("required", ())):
        return False
    props = schema.get("properties") or {}
    extra = schema.get("additionalProperties", True)
    for name, v in value.items():
        if name in props:
            if not valid(v, props[name]):
                return False
        elif not valid(v, extra):
            return False
    return True
