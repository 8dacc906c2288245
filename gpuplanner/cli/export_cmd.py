"""`gpuplanner export FILE --format slurm|netbox|bom-csv|cables-csv|svg|png|json -o OUT`."""

from __future__ import annotations

import argparse

from gpuplanner.cli.common import check_output, output_file

# The union of exports.FORMATS, reports.files.FORMATS and the quota formats, spelled out so that
# `register` imports neither package (tests/e2e/test_cli.py checks the two lists agree).
FORMATS = ("slurm", "netbox", "bom-csv", "cables-csv", "svg", "png", "json", "slurm-partitions", "k8s-quotas")


def _cmd_export(args: argparse.Namespace) -> int:
    from gpuplanner.core.safeio import atomic_write
    from gpuplanner.engine.analysis import analyze_project
    from gpuplanner.exports import FORMATS as DATA_FORMATS
    from gpuplanner.exports import export
    from gpuplanner.reports.files import FORMATS as REPORT_FORMATS
    from gpuplanner.reports.files import write_file
    from gpuplanner.storage import open_project

    check_output(args.output, folder_ok=args.format == "netbox")  # before the (long) analysis
    project = open_project(args.file)
    if args.format in ("slurm-partitions", "k8s-quotas"):
        from gpuplanner.exports.quotas import kubernetes_quotas, slurm_partitions

        text = slurm_partitions(project) if args.format == "slurm-partitions" else kubernetes_quotas(project)
        atomic_write(args.output, text)
        print(f"wrote {args.output}")
        return 0
    results = analyze_project(project, scenario=args.scenario)
    # A writer stopped by a full disk must not leave an empty file that looks like an export.
    with output_file(args.output, folder_ok=args.format == "netbox"):
        if args.format in DATA_FORMATS:
            written = export(
                project, args.format, args.output, results=results, lang=args.lang, plugin=args.plugin
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
    p = sub.add_parser("export", help="write the plan for other tools: Slurm, NetBox, CSV, SVG/PNG, JSON")
    p.add_argument("file")
    p.add_argument("--format", "-f", required=True, choices=FORMATS)
    p.add_argument("-o", "--output", required=True, help="file to write (a folder for netbox)")
    p.add_argument("--plugin", choices=["tree", "block"], default="tree", help="Slurm topology plugin form")
    p.add_argument("--rack", help="svg/png: draw this rack's elevation instead of the topology")
    p.add_argument("--scenario", help="export a named scenario of the project")
    p.add_argument("--lang", choices=["en", "zh"], help="language of labels (default: the project's)")
    p.set_defaults(func=_cmd_export)
