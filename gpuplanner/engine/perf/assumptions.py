"""Loads catalogs/assumptions/performance.yaml: the model's constants, each with its source.

A value is a number, a map of named numbers, or a map from GPU family to number (matched as a substring of
the GPU name, longest key first, `default` otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from gpuplanner import text
from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.core.errors import CatalogError

REQUIRED_FIELDS = ("value", "source", "as_of")


@dataclass(frozen=True)
class Assumptions:
    entries: dict[str, dict[str, Any]]
    path: str

    def raw(self, name: str) -> Any:
        try:
            return self.entries[name]["value"]
        except KeyError:
            raise CatalogError(
                text.en("error.assumption_missing", name=name),
                file=self.path,
                entry=name,
                hint=text.en("error.assumption_missing.hint"),
            ) from None

    def number(self, name: str, gpu_name: str = "") -> float:
        """A scalar, or the GPU-family value for `gpu_name`."""
        v = self.raw(name)
        if isinstance(v, dict):
            return float(_by_family(v, gpu_name, self.path, name))
        return float(v)

    def table(self, name: str) -> dict[str, float]:
        v = self.raw(name)
        if not isinstance(v, dict):
            raise CatalogError(text.en("error.expected_map"), file=self.path, entry=name)
        return {k: float(x) for k, x in v.items()}

    def sources(self) -> list[tuple[str, str, str, bool]]:
        """(name, source, as_of, estimate) rows for the report's assumptions appendix."""
        return [
            (k, str(e["source"]), str(e["as_of"]), bool(e.get("estimate", False)))
            for k, e in self.entries.items()
        ]


def _by_family(values: dict[str, Any], gpu_name: str, path: str, name: str) -> Any:
    g = gpu_name.lower()
    for key in sorted((k for k in values if k != "default"), key=len, reverse=True):
        if key in g:
            return values[key]
    if "default" not in values:
        raise CatalogError(text.en("error.no_gpu_value", gpu=gpu_name), file=path, entry=name)
    return values["default"]


def load_assumptions(path: str | Path | None = None) -> Assumptions:
    # Found like the rest of the bundled catalog: the repository, an installed wheel or a frozen build.
    p = Path(path) if path else bundled_catalog_dir() / "assumptions" / "performance.yaml"
    return _load(str(p))


@lru_cache(maxsize=8)
def _load(path: str) -> Assumptions:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.en("error.read_assumptions", reason=exc), file=path) from exc
    entries = (doc or {}).get("entries")
    if not isinstance(entries, dict):
        raise CatalogError(text.en("error.no_entries_map"), file=path)
    for name, e in entries.items():
        missing = [f for f in REQUIRED_FIELDS if not isinstance(e, dict) or f not in e]
        if missing:
            raise CatalogError(f"missing {', '.join(missing)}", file=path, entry=name)
        if e.get("estimate") and not e.get("note"):
            raise CatalogError(text.en("error.estimate_needs_note"), file=path, entry=name)
    return Assumptions(entries=entries, path=path)
