"""The plan in the formats customers' tools read: Slurm topology.conf (tree and block plugins), NetBox bulk
import files, the cable schedule CSV, and the analysis as JSON.

``export(project, fmt, path)`` writes one format. The bill-of-materials CSV and the SVG/PNG drawings are made
from the report's own computations and live in ``gpuplanner.reports.files`` (reports and exports are sibling
layers that do not import each other).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from gpuplanner.core.errors import PlannerError, ValidationError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.summary import results_json
from gpuplanner.exports.cables_csv import cables_csv
from gpuplanner.exports.jsonout import results_text
from gpuplanner.exports.netbox import write_netbox
from gpuplanner.exports.slurm import block_conf, tree_conf

FORMATS = ("slurm", "netbox", "cables-csv", "json")
SLURM_PLUGINS = ("tree", "block")


class ExportError(PlannerError):
    """An export cannot be written (folder missing, no permission, disk full)."""


def write_text(path: Path, text: str) -> Path:
    """Atomic write: a temporary file in the same folder, then a rename."""
    if not path.parent.is_dir():
        raise ExportError("the folder does not exist", file=str(path.parent))
    fd, tmp = tempfile.mkstemp(prefix=".export-", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", file=str(path)) from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def export(
    project: Any,
    fmt: str,
    path: str | os.PathLike[str],
    *,
    results: Any = None,
    scenario: str | None = None,
    lang: str | None = None,
    plugin: str = "tree",
) -> list[Path]:
    """Writes ``fmt`` to ``path`` (a folder for ``netbox``) and returns the files written."""
    if fmt not in FORMATS:
        raise ValidationError(
            f"no export format '{fmt}' (choose {', '.join(FORMATS)})", field="format", value=fmt
        )
    if plugin not in SLURM_PLUGINS:
        raise ValidationError(
            f"no Slurm plugin form '{plugin}' (choose tree or block)", field="plugin", value=plugin
        )
    out = Path(path)
    if results is None:
        results = analyze_project(project, scenario=scenario)
    elif scenario is None:
        scenario = results.scenario or None
    if fmt == "netbox":
        try:
            return write_netbox(project, results, out)
        except OSError as exc:
            raise ExportError(f"cannot write: {exc.strerror or exc}", file=str(out)) from exc
    if fmt == "slurm":
        text = block_conf(project, results) if plugin == "block" else tree_conf(project, results)
    elif fmt == "cables-csv":
        text = cables_csv(project, results)
    else:
        text = results_text(analysis_json(project, results, lang or project.info.language or "en", scenario))
    return [write_text(out, text)]


def analysis_json(project: Any, results: Any, lang: str, scenario: str | None = None) -> dict[str, Any]:
    """``results_json`` plus the build-out phases, as ``gpuplanner analyze --json`` prints them."""
    data = results_json(project, results, lang)
    data["phases"] = []
    if project.tables.get("phases"):
        from gpuplanner.engine.phases import analyze_phases

        phase_results, growth = analyze_phases(project, scenario=scenario, lang=lang)
        data["phases"] = [pr.summary for pr in phase_results]
        data["findings"] += [f.to_json(lang) for f in growth]
    return data
