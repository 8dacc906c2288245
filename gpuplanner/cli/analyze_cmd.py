"""`gpuplanner analyze FILE [--json] [--scenario NAME] [--phase NAME|ID] [--lang en|zh]`."""

from __future__ import annotations

import argparse

from gpuplanner.cli.common import add_phase_argument, int_in, phase_json, print_json, print_table

SEV = {"error": "ERROR", "warning": "warn", "info": "info"}


def _money(x: float | None, cur: str) -> str:
    return "—" if x is None else f"{x:,.0f} {cur}"


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
    cur = data["currency"]
    view = (f"  [scenario: {data['scenario']}]" if data["scenario"] else "") + (
        f"  [at the end of phase: {data['phase']['name']}]" if data.get("phase") else ""
    )
    print(f"{data['project']}{view}")
    print(
        f"  GPUs {data['gpus']:,} in {data['servers']:,} servers; switches {data['fabric']['switches']:,}; "
        f"bisection {data['fabric']['bisection_gbps'] / 1000:,.1f} Tb/s"
    )
    perf = data["performance"]
    if perf:
        ttt = perf["time_to_train_days"]
        print(
            f"  {perf['workload']}: TP{perf['tp']} PP{perf['pp']} DP{perf['dp']} — step {perf['step_time_s']:.2f} s, "
            f"{perf['tokens_per_s']:,.0f} tokens/s, MFU {perf['mfu'] * 100:.1f}%, "
            f"{perf['memory_per_gpu_gb']:.1f} GB/GPU" + (f", {ttt:.1f} days to train" if ttt else "")
        )
        print(f"  bottleneck: {perf['bottleneck']}")
    elif data["workload_error"]:
        print(f"  workload: {data['workload_error']}")
    print(
        f"  IT {data['it_kw_max']:,.1f} kW max ({data['it_kw_load']:,.1f} kW at load), PUE {data['pue']:.2f}, "
        f"facility {data['facility_kw_max']:,.1f} kW max, {data['annual_mwh']:,.0f} MWh/year"
    )
    print(
        f"  capex {_money(data['capex'], cur)}, opex {_money(data['opex_per_year'], cur)}/year, "
        f"TCO {data['tco_years']} years {_money(data['tco'], cur)}"
    )
    share = data["network_share_of_gpu_server_capex"]
    if share is not None:
        print(f"  network share of GPU server cost {share * 100:.0f}%")
    if data["phases"]:
        print()
        print_table(
            [
                [
                    ph["name"],
                    f"{ph['gpus']:,}",
                    f"{ph['tokens_per_s']:,.0f}" if ph["tokens_per_s"] else "—",
                    f"{ph['it_kw_max']:,.1f}",
                    f"{ph['facility_kw_max']:,.1f}",
                    f"{ph['pue']:.2f}",
                    _money(ph["capex_added"], cur),
                    _money(ph["tco"], cur),
                    ph["scheduler"],
                ]
                for ph in data["phases"]
            ],
            ["phase", "GPUs", "tokens/s", "IT kW", "facility kW", "PUE", "capex added", "TCO", "scheduler"],
        )
    print()
    racks = data["racks"]
    rows = [
        [
            r["name"],
            f"{r['kw_max']:.1f}",
            f"{r['kw_budget']:.0f}" if r["kw_budget"] else "—",
            r["cooling"],
            f"{r['airflow_cfm']:,.0f}",
            f"{r['coolant_l_per_min']:.0f}",
        ]
        for r in racks[: args.racks]
    ]
    print_table(rows, ["rack", "kW max", "budget", "cooling", "CFM", "L/min"])
    if len(racks) > args.racks:
        print(f"… {len(racks) - args.racks} more racks (--racks N, or --json)")
    print()
    findings = data["findings"]
    print(f"{len(findings)} findings:" if findings else "no findings")
    for f in findings:
        print(f"  [{SEV.get(f['severity'], f['severity'])}] {f['message']}")
        if f["fix"]:
            print(f"      → {f['fix']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="analyse a project: performance, power, cooling, cost, findings")
    p.add_argument("file")
    p.add_argument("--scenario", help="analyse a named scenario of the project")
    add_phase_argument(p, "analyse the plan as it stands at the end of this phase (name or id)")
    p.add_argument("--lang", choices=["en", "zh"], help="language of the findings (default: the project's)")
    p.add_argument("--racks", type=int_in(0, 1_000_000), default=20, help="racks to list in the text output")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_analyze)
