"""The customer's existing cluster as a project: a Slurm topology.conf (tree form), a NetBox bulk export (a
folder with the devices, racks and cables CSVs), or the output of ``ibnetdiscover``.

``import_file(path)`` reads one, matches every device to a catalog entry (by model name or part number where
the file names one; by the ``server``/``switch`` defaults where it names none) and builds the devices, racks
and links through the same ``Plan`` the generators use — one undoable command. What could not be matched is
listed in ``ImportResult.unmatched`` (and given the default model), never dropped.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from gpuplanner.core.errors import ValidationError
from gpuplanner.imports.build import Builder
from gpuplanner.model import Project
from gpuplanner.text import Msg

FORMATS = ("slurm", "netbox", "ibnetdiscover")


@dataclass
class ImportResult:
    project: Project
    format: str
    unmatched: list[str] = field(default_factory=list)  # "device name (what the file says)"
    assumed: list[str] = field(default_factory=list)  # devices given a default model (the file names none)


def detect(path: Path) -> str:
    if path.is_dir():
        return "netbox"
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:20000]
    except OSError as exc:
        raise ValidationError(
            Msg("error.file.cannot_read", {"reason": exc.strerror or exc}), field="file", value=str(path)
        ) from exc
    low = head.lower()
    if "switchname=" in low:
        return "slurm"
    if "vendid=" in low or "\nswitch\t" in low or low.startswith("switch\t") or "\nca\t" in low:
        return "ibnetdiscover"
    if "side_a_device" in low or ("device_type" in low and "manufacturer" in low):
        return "netbox"
    raise ValidationError(
        Msg("error.import.unknown_format"),
        field="file",
        value=str(path),
    )


def import_file(
    path: str | Path,
    *,
    fmt: str | None = None,
    server: str = "nvidia-dgx-h100",
    switch: str = "nvidia-quantum-2-qm9700",
    name: str | None = None,
    project: Project | None = None,
) -> ImportResult:
    path = Path(path)
    if not path.exists():
        raise ValidationError(Msg("error.import.not_found"), file=str(path), value=str(path))
    fmt = fmt or detect(path)
    if fmt not in FORMATS:
        raise ValidationError(
            Msg("error.import.no_format", {"fmt": fmt, "options": ", ".join(FORMATS)}),
            field="format",
            value=fmt,
        )
    project = project if project is not None else Project()
    b = Builder(project, server=server, switch=switch)
    if fmt == "slurm":
        from gpuplanner.imports.slurm import read_topology_conf

        read_topology_conf(path, b)
    elif fmt == "netbox":
        from gpuplanner.imports.netbox import read_netbox

        read_netbox(path, b)
    else:
        from gpuplanner.imports.ibnet import read_ibnetdiscover

        read_ibnetdiscover(path, b)
    b.apply(f"Import {fmt}")
    project.tables["project"]["project"] = dataclasses.replace(project.info, name=name or path.stem)
    return ImportResult(project, fmt, b.unmatched, b.assumed)
