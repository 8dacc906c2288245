"""The plan in the formats customers' tools read: Slurm (topology.conf + topology.yaml; slurm.conf nodes,
partitions and QOS + gres.conf), Kubernetes/Kueue v1beta2, NetBox bulk import files, the cable schedule CSV,
an Excel workbook, draw.io and GraphML diagrams, and the analysis as JSON.

``export(project, fmt, path)`` writes one format and returns the files written. Every file goes through
``gpuplanner.core.outfile.write_atomic`` (atomic, the user's umask). The bill-of-materials CSV and the SVG/PNG
drawings are made from the report's own computations and live in ``gpuplanner.reports.files`` (reports and
exports are sibling layers that do not import each other).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from gpuplanner.core.errors import ValidationError
from gpuplanner.core.outfile import ExportError, write_atomic
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.summary import results_json
from gpuplanner.exports.jsonout import results_text

FORMATS = (
    "slurm", "slurm-partitions", "k8s-quotas", "netbox", "cables-csv", "xlsx", "drawio", "graphml", "json",
)  # fmt: skip
SLURM_PLUGINS = ("tree", "block")
NO_ANALYSIS = ("slurm-partitions", "k8s-quotas")  # made from the project alone

__all__ = ["FORMATS", "ExportError", "analysis_json", "export", "write_atomic"]


def export(
    project: Any,
    fmt: str,
    path: str | os.PathLike[str],
    *,
    results: Any = None,
    scenario: str | None = None,
    lang: str | None = None,
    plugin: str = "tree",
    virtual_leaves: bool = False,
    bom: list[list] | None = None,
) -> list[Path]:
    """Writes ``fmt`` to ``path`` (a folder for ``netbox``) and returns the files written.

    ``slurm`` writes topology.conf at ``path`` and topology.yaml beside it (``<stem>.yaml``);
    ``slurm-partitions`` writes the slurm.conf lines at ``path`` and ``gres.conf`` beside it; ``xlsx`` needs
    ``bom``, the report's bill of materials (``reports.files.bom_rows``; the CLI passes it)."""
    if fmt not in FORMATS:
        raise ValidationError(
            f"no export format '{fmt}' (choose {', '.join(FORMATS)})", field="format", value=fmt
        )
    if plugin not in SLURM_PLUGINS:
        raise ValidationError(
            f"no Slurm plugin form '{plugin}' (choose tree or block)", field="plugin", value=plugin
        )
    out = Path(path)
    if fmt != "netbox" and not out.parent.is_dir():
        raise ExportError("the folder does not exist", file=str(out.parent))
    if fmt == "slurm-partitions":
        from gpuplanner.exports.slurm_conf import gres_conf, slurm_partitions

        gres = out.with_name("gres.conf") if out.name != "gres.conf" else out.with_name("gres.conf.new")
        return [write_atomic(out, slurm_partitions(project)), write_atomic(gres, gres_conf(project))]
    if fmt == "k8s-quotas":
        from gpuplanner.exports.quotas import kubernetes_quotas

        return [write_atomic(out, kubernetes_quotas(project))]
    if results is None:
        results = analyze_project(project, scenario=scenario)
    elif scenario is None:
        scenario = results.scenario or None
    lang = lang or project.info.language or "en"
    if fmt == "netbox":
        from gpuplanner.exports.netbox import write_netbox

        return write_netbox(project, results, out)
    if fmt == "slurm":
        from gpuplanner.exports.slurm import block_conf, topology_yaml, tree_conf

        if plugin == "block":
            return [write_atomic(out, block_conf(project, results))]
        yaml_path = out.with_suffix(".yaml") if out.suffix != ".yaml" else out.with_suffix(".yaml.new")
        return [
            write_atomic(out, tree_conf(project, results, virtual_leaves=virtual_leaves)),
            write_atomic(yaml_path, topology_yaml(project, results, virtual_leaves=virtual_leaves)),
        ]
    if fmt == "cables-csv":
        from gpuplanner.exports.cables_csv import cables_csv

        return [write_atomic(out, cables_csv(project, results), encoding="utf-8-sig")]
    if fmt == "xlsx":
        from gpuplanner.exports.xlsx import workbook_bytes

        if bom is None:
            raise ValidationError("the workbook needs the bill of materials", field="bom")
        return [write_atomic(out, workbook_bytes(project, results, lang, bom))]
    if fmt == "drawio":
        from gpuplanner.exports.drawio import drawio_xml

        return [write_atomic(out, drawio_xml(project, results))]
    if fmt == "graphml":
        from gpuplanner.exports.graph import graphml_text

        return [write_atomic(out, graphml_text(project, results))]
    return [write_atomic(out, results_text(analysis_json(project, results, lang, scenario)))]


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
