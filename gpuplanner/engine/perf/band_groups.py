"""What training (bands.py) and serving (bands_inference.py) error bands share: runs grouped from the finest
group to all runs, each group's range of measured / predicted, its in-sample and leave-one-out coverage, the
stored file read, checked, cached and rewritten (``BandFile``), and a prediction's group picked. Each caller keeps its own grouping (which keys a
run falls in), its minimum group size and its own messages."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from gpuplanner import text
from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.core.errors import CatalogError

FloatArray = np.ndarray


def members_of(keys: list[list[str]]) -> dict[str, list[int]]:
    """Group key → the indices of the runs in it (each run's keys from its finest group to "all")."""
    members: dict[str, list[int]] = {}
    for i, ks in enumerate(keys):
        for k in ks:
            members.setdefault(k, []).append(i)
    return members


def group_ranges(ratio: FloatArray, members: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
    """Per group (sorted by key): its runs and the lowest and highest measured / predicted."""
    return {
        k: {"runs": len(idx), "low": float(ratio[idx].min()), "high": float(ratio[idx].max())}
        for k, idx in sorted(members.items())
    }


def loo_inside(
    ratio: FloatArray, keys: list[list[str]], members: dict[str, list[int]], min_runs: int
) -> list[bool]:
    """Leave one out: whether each run lies within the band of its finest group holding ``min_runs`` others."""
    inside = []
    for i, ks in enumerate(keys):
        k = next((k for k in ks if len(members[k]) - 1 >= min_runs), "all")
        others = [j for j in members[k] if j != i]
        inside.append(bool(others) and bool(ratio[others].min() <= ratio[i] <= ratio[others].max()))
    return inside


def in_sample_inside(
    ratio: FloatArray,
    keys: list[list[str]],
    members: dict[str, list[int]],
    groups: dict[str, dict[str, Any]],
    min_runs: int,
) -> list[bool]:
    """Whether each run lies within the band of its finest group holding ``min_runs`` runs (itself included)."""
    out = []
    for i, ks in enumerate(keys):
        k = next((k for k in ks if len(members[k]) >= min_runs), "all")
        out.append(bool(groups[k]["low"] <= ratio[i] <= groups[k]["high"]))
    return out


def mean_or_none(flags: list[bool]) -> float | None:
    return float(np.mean(flags)) if flags else None


def read_bands(path: str) -> dict[str, Any]:
    """A stored bands file, checked: a mapping with a ``groups`` map holding "all"."""
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CatalogError(text.Msg("error.read_bands", {"reason": str(exc)}), file=path) from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("groups"), dict) or "all" not in doc["groups"]:
        raise CatalogError(text.Msg("error.no_groups_map"), file=path)
    return doc


def pick_group(doc: dict[str, Any], keys: list[str], min_runs: int) -> str:
    """A prediction's group: the finest of ``keys`` holding the file's minimum number of runs, else "all"."""
    groups, need = doc["groups"], doc.get("min_runs", min_runs)
    return next((k for k in keys if groups.get(k) and groups[k]["runs"] >= need), "all")


def write_bands(doc: dict[str, Any], path: Path) -> None:
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")


def bands_doc(
    kind: str, note: str, min_runs: int, ratio: FloatArray, keys: list[list[str]]
) -> dict[str, Any]:
    """The stored document of a bands file: ``ratio`` (measured / predicted) and ``keys`` (each run's groups,
    finest first) of the counted runs, the groups' ranges and their leave-one-out and in-sample coverage."""
    members = members_of(keys)
    groups = group_ranges(ratio, members)
    return {
        "kind": kind,
        "note": text.en(note),
        "min_runs": min_runs,
        "runs": len(ratio),
        "loo_coverage": mean_or_none(loo_inside(ratio, keys, members, min_runs)),
        "in_sample_coverage": mean_or_none(in_sample_inside(ratio, keys, members, groups, min_runs)),
        "groups": groups,
    }


class BandFile:
    """One stored bands file under the bundled catalogs' validation/ folder: read and checked once per path
    (cached), and rewritten from ``compute`` (which runs the validation rows: seconds)."""

    def __init__(self, name: str, compute: Callable[[], dict[str, Any]]) -> None:
        self.name = name
        self._compute = compute
        self._read = lru_cache(maxsize=2)(read_bands)

    def path(self) -> Path:
        return bundled_catalog_dir() / "validation" / self.name

    def stored(self, path: str | Path | None = None) -> dict[str, Any]:
        return self._read(str(path or self.path()))

    def write(self, path: str | Path | None = None) -> dict[str, Any]:
        doc = self._compute()
        write_bands(doc, Path(path or self.path()))
        self._read.cache_clear()
        return doc
