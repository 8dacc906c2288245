"""The one loader of ``catalogs/assumptions/<area>.yaml``: the model's constants, each with its source.

Every area file is ``kind: assumptions``, ``area``, ``as_of`` and an ``entries`` map of name → {value,
source, as_of[, estimate, note]}. A value is a number, a map of named numbers, or a map from GPU family to
number (matched as a substring of the GPU name, longest key first, ``default`` otherwise).
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

    def value(self, name: str) -> Any:
        try:
            return self.entries[name]["value"]
        except KeyError:
            raise CatalogError(
                text.Msg("error.assumption_missing", {"name": name}),
                file=self.path,
                entry=name,
                hint=text.Msg("error.assumption_missing.hint"),
            ) from None

    def number(self, name: str, gpu_name: str = "") -> float:
        """A scalar, or the GPU-family value for ``gpu_name``."""
        v = self.value(name)
        if isinstance(v, dict):
            return float(_by_family(v, gpu_name, self.path, name))
        return float(v)

    def table(self, name: str) -> dict[str, float]:
        v = self.value(name)
        if not isinstance(v, dict):
            raise CatalogError(text.Msg("error.expected_map"), file=self.path, entry=name)
        return {k: float(x) for k, x in v.items()}


def _by_family(values: dict[str, Any], gpu_name: str, path: str, name: str) -> Any:
    g = gpu_name.lower()
    for key in sorted((k for k in values if k != "default"), key=len, reverse=True):
        if key in g:
            return values[key]
    if "default" not in values:
        raise CatalogError(text.Msg("error.no_gpu_value", {"gpu": gpu_name}), file=path, entry=name)
    return values["default"]


def area_path(area: str) -> Path:
    """``<bundled catalog>/assumptions/<area>.yaml``: the repository's, an installed wheel's or a frozen
    build's, found like the rest of the bundled catalog."""
    return bundled_catalog_dir() / "assumptions" / f"{area}.yaml"


def load_assumptions(
    area: str, path: str | Path | None = None, *, notes_required: bool = False
) -> Assumptions:
    """The assumptions of ``area`` (or of the file ``path``), read once per process. ``notes_required``: an
    entry marked ``estimate: true`` must say in ``note`` how it was derived."""
    return _load(str(path) if path else str(area_path(area)), notes_required)


@lru_cache(maxsize=16)
def _load(path: str, notes_required: bool) -> Assumptions:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_assumptions", {"reason": str(exc)}), file=path) from exc
    entries = doc.get("entries") if isinstance(doc, dict) else None
    if not isinstance(entries, dict):
        raise CatalogError(text.Msg("error.no_entries_map"), file=path)
    for name, e in entries.items():
        missing = [f for f in REQUIRED_FIELDS if not isinstance(e, dict) or f not in e]
        if missing:
            raise CatalogError(
                text.Msg("error.valinf_missing", {"fields": ", ".join(missing)}), file=path, entry=name
            )
        if notes_required and e.get("estimate") and not e.get("note"):
            raise CatalogError(text.Msg("error.estimate_needs_note"), file=path, entry=name)
    return Assumptions(entries=entries, path=path)
