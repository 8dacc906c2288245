"""`gpuplanner export FILE --format FORMAT -o OUT` (formats: see FORMATS)."""

from __future__ import annotations

import argparse

from gpuplanner.cli.common import check_output, output_file

# The union of exports.FORMATS and reports.files.FORMATS, spelled out so that `register` imports neither
# package (tests/e2e/test_cli.py checks the lists agree).
FORMATS = (
    "slurm", "slurm-partitions", "k8s-quotas", "netbox", "bom-csv", "cables-csv", "xlsx", "drawio", "graphml",
    "svg", "png", "json",
)  # fmt: skip


def _cmd_export(args: argparse.Namespace) -> int:
    from gpuplanner.exports import FORMATS as DATA_FORMATS
    from gpuplanner.exports import NO_ANALYSIS, export
    from gpuplanner.reports.files import FORMATS as REPORT_FORMATS
    from gpuplanner.reports.files import write_file
    from gpuplanner.storage import open_project

    check_output(args.output, folder_ok=args.format == "netbox")  # before the (long) analysis
    project = open_project(args.file)
    results = None
    if args.format not in NO_ANALYSIS:
        from gpuplanner.engine.analysis import analyze_project

        results = analyze_project(project, scenario=args.scenario)
    bom = None
    if args.format == "xlsx":
        from gpuplanner.reports.files import bom_rows

        bom = bom_rows(project, results, args.lang)
    # A writer stopped by a full disk must not leave an empty file that looks like an export.
    with output_file(args.output, folder_ok=args.format == "netbox"):
        if args.format in DATA_FORMATS:
            written = export(
                project,
                args.format,
                args.output,
                results=results,
                lang=args.lang,
                plugin=args.plugin,
                virtual_leaves=args.virtual_leaves,
                bom=bom,
            )
        else:
            assert args.format in REPORT_FORMATS
            written = write_file(
                project, args.format, args.output, lang=args.lang, rack=args.rack, results=results
            )
    for p in written:
        print(f"wrote {p}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write the plan for other tools: Slurm, Kubernetes/Kueue, NetBox, CSV, Excel, draw.io, GraphML, "
        "SVG/PNG, JSON",
    )
    p.add_argument("file")
    p.add_argument("--format", "-f", required=True, choices=FORMATS)
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="file to write (a folder for netbox; slurm also writes <stem>.yaml, slurm-partitions gres.conf "
        "beside it)",
    )
    p.add_argument("--plugin", choices=["tree", "block"], default="tree", help="Slurm topology plugin form")
    p.add_argument(
        "--virtual-leaves",
        action="store_true",
        help="slurm: one virtual leaf per scalable unit on rail-optimised fabrics",
    )
    p.add_argument("--rack", help="svg/png: draw this rack's elevation instead of the topology")
    p.add_argument("--scenario", help="export a named scenario of the project")
    p.add_argument("--lang", choices=["en", "zh"], help="language of labels (default: the project's)")
    p.set_defaults(func=_cmd_export)
