"""`gpuplanner analyze FILE [--json] [--scenario NAME] [--phase NAME|ID] [--lang en|zh]`."""

from __future__ import annotations

import argparse

from gpuplanner.cli.common import add_phase_argument, int_in, phase_json, print_json


def _cmd_analyze(args: argparse.Namespace) -> int:
    # Heavy imports (numpy/scipy engine, sqlite-utils) here, not at module level: see cli/__init__.py.
    from gpuplanner.engine.analysis import analyze_project
    from gpuplanner.engine.summary import results_json
    from gpuplanner.storage import open_project

    project = open_project(args.file)
    lang = args.lang or project.info.language
    res = analyze_project(project, scenario=args.scenario, phase=args.phase)
    data = results_json(project, res, lang)
    if args.phase:  # only then: without it the JSON stays what `export --format json` writes
        data["phase"] = phase_json(project, res.phase)
    data["phases"] = []
    if project.tables["phases"] and not args.phase:  # the phase table: every phase (not one phase's view)
        from gpuplanner.engine.phases import analyze_phases

        phase_results, growth = analyze_phases(project, scenario=args.scenario, lang=lang)
        data["phases"] = [pr.summary for pr in phase_results]
        data["findings"] += [f.to_json(lang) for f in growth]
    if args.json:
        print_json(data)
        return 0
    from gpuplanner.cli.analyze_out import print_analysis

    print_analysis(data, res, lang, args.racks)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="analyse a project: performance, power, cooling, cost, findings")
    p.add_argument("file")
    p.add_argument("--scenario", help="analyse a named scenario of the project")
    add_phase_argument(p, "analyse the plan as it stands at the end of this phase (name or id)")
    p.add_argument(
        "--lang",
        choices=["en", "zh"],
        help="language of the text output and the findings (default: the project's)",
    )
    p.add_argument("--racks", type=int_in(0, 1_000_000), default=20, help="racks to list in the text output")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_analyze)
