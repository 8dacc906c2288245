"""`gpuplanner report FILE -o proposal.pdf [--lang zh|en] [--scenario NAME] [--phase NAME|ID]`: the PDF
proposal, headless."""

from __future__ import annotations

import argparse
import sys

from gpuplanner.cli.common import add_phase_argument, check_output


def _warn(message: str) -> None:
    print(f"gpuplanner: warning: {message}", file=sys.stderr)


def _cmd_report(args: argparse.Namespace) -> int:
    from gpuplanner.reports import build_report
    from gpuplanner.storage import open_project

    check_output(args.output)  # before the (long) analysis
    project = open_project(args.file)
    results = None
    if args.phase:  # the plan at the end of a phase: its figures; the phase and scenario tables stay whole
        from gpuplanner.reports import analyze

        results = analyze(project, args.scenario, phase=args.phase)
    options = None
    if args.options or args.advise:
        from gpuplanner.cli.report_options import advise_options, mark_other_goal, read_options

        found = (
            read_options(args.options) if args.options else advise_options(project, args.file, args.workers)
        )
        options = mark_other_goal(found, project)
    out = build_report(
        project,
        args.output,
        lang=args.lang,
        scenario=args.scenario,
        warn=_warn,
        options=options,
        results=results,
    )
    print(f"wrote {out}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="write the proposal as a PDF (no display needed)")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True, help="the PDF to write")
    p.add_argument("--lang", choices=["en", "zh"], help="language of the report (default: the project's)")
    p.add_argument("--scenario", help="report on a named scenario of the project")
    add_phase_argument(p, "report on the plan as it stands at the end of this phase (name or id)")
    opts = p.add_mutually_exclusive_group()
    opts.add_argument(
        "--options",
        metavar="DIR",
        help="add 'options considered': the front `gpuplanner advise -o DIR` wrote (DIR or its designs.json)",
    )
    opts.add_argument(
        "--advise",
        action="store_true",
        help="add 'options considered': search the project's goal now (see `gpuplanner advise`)",
    )
    p.add_argument("--workers", type=int, default=None, help="with --advise: local worker processes")
    p.set_defaults(func=_cmd_report)
