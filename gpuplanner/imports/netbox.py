"""A NetBox bulk export: a folder with the devices, racks and cables CSVs (NetBox's own column names, as its
export and GPU Planner's NetBox export write them). Device types are matched by model name / part number;
cables between the same two devices become one link with that many parallel cables."""

from __future__ import annotations

import csv
from pathlib import Path

from gpuplanner.core.errors import ValidationError
from gpuplanner.imports.build import Builder
from gpuplanner.text import Msg

SWITCH_ROLES = {"leaf", "spine", "core", "storage-switch", "management", "switch"}


def _find(folder: Path, word: str, required: bool = True) -> Path | None:
    hits = sorted(p for p in folder.glob("*.csv") if word in p.name.lower())
    if not hits and required:
        raise ValidationError(Msg("error.import.no_csv", {"what": word}), field="file", value=str(folder))
    return hits[-1] if hits else None


def _rows(path: Path, need: tuple[str, ...]) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    missing = [c for c in need if rows and c not in rows[0]]
    if missing:
        raise ValidationError(
            Msg("error.import.missing_column", {"column": missing[0]}), field="file", value=str(path)
        )
    return rows


def read_netbox(folder: Path, b: Builder) -> None:
    if not folder.is_dir():
        raise ValidationError(Msg("error.import.give_folder"), field="file", value=str(folder))
    racks = _find(folder, "racks", required=False)
    if racks:
        for r in _rows(racks, ("name",)):
            b.racks[r["name"]] = r.get("location", "") or ""
    for d in _rows(_find(folder, "devices"), ("name", "device_type")):
        role = (d.get("role") or "").strip().lower()
        kind = "switch" if role in SWITCH_ROLES else "storage" if role == "storage" else "server"
        pos = (d.get("position") or "").split(".")[0]
        b.add_device(
            d["name"], kind, role or ("leaf" if kind == "switch" else "compute"), d["device_type"],
            rack=d.get("rack", "") or "", u=int(pos) if pos.isdigit() else 0,
        )  # fmt: skip
    cols = ("side_a_device", "side_a_name", "side_b_device", "side_b_name")
    for c in _rows(_find(folder, "cables"), cols):
        b.connect(c["side_a_device"], c["side_b_device"], c["side_a_name"], c["side_b_name"])
