"""`gpuplanner generate TEMPLATE … -o FILE` and `gpuplanner fabric FILE [--json]`."""

from __future__ import annotations

import argparse
import dataclasses
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gpuplanner.cli.common import (
    MAX_GPUS,
    MAX_SERVERS,
    check_output,
    float_in,
    int_in,
    output_file,
    print_json,
    print_table,
)
from gpuplanner.core.errors import GenerationError, ProjectFileError

# Topology, engine and storage are imported by the commands, not by `register` (see cli/__init__.py).
if TYPE_CHECKING:
    from gpuplanner.model import Project


_WHY_MAX = f" (GPU Planner plans up to {MAX_GPUS:,} GPUs in {MAX_SERVERS:,} servers at once)"


def _check_size(servers: int, gpus_per_server: int) -> None:
    """Feasibility before anything is built: a billion servers would need ~90 GiB of rows."""
    if servers > MAX_SERVERS or servers * gpus_per_server > MAX_GPUS:
        raise GenerationError(
            f"{servers:,} servers of {gpus_per_server} GPUs ({servers * gpus_per_server:,} GPUs) is more than "
            f"GPU Planner plans at once: at most {MAX_SERVERS:,} servers and {MAX_GPUS:,} GPUs",
            field="--servers",
            value=servers,
            hint="plan one building block and scale it, or split the cluster into projects",
        )


def _cmd_generate(args: argparse.Namespace) -> int:
    from gpuplanner.model import Project
    from gpuplanner.topology import generate_into, template_list
    from gpuplanner.topology.presets import PRESETS, build_preset, get_preset, preset_ids

    if args.list:
        presets = {
            p.id: {
                "gpus": p.gpus(),
                "name": p.name(args.lang or "en"),
                "what": p.description(args.lang or "en"),
            }
            for p in PRESETS
        }
        if args.json:
            print_json({"templates": template_list(), "presets": presets})
        else:
            print_table([[k, v] for k, v in template_list().items()], ["template", "what it builds"])
            print()
            rows = [[k, f"{v['gpus']:,}", v["what"]] for k, v in presets.items()]
            print_table(rows, ["preset", "GPUs", "what it builds"])
        return 0
    if not args.template:
        raise GenerationError("name a template or preset", hint="see `gpuplanner generate --list`")
    if args.into:
        return _generate_into_file(args)
    if not args.output:
        raise GenerationError("give the output file with -o FILE")
    out = check_output(args.output)
    if out.exists() and not args.force:
        raise ProjectFileError("already exists (use --force to replace it)", file=str(out))
    if args.template in preset_ids():
        project = build_preset(args.template, lang=args.lang or "en", name=args.name)
        opts = get_preset(args.template).options
        return _write_generated(project, out, args, args.template, opts.servers)
    project = Project()
    opts = _options(args, project)
    if args.partition:  # the pod's servers in a named partition, its names prefixed with it
        from gpuplanner.topology.compose import add_pod

        add_pod(project, opts, args.partition)
    else:
        generate_into(project, opts)
    project.tables["project"]["project"] = dataclasses.replace(
        project.info, name=args.name or out.stem, language=args.lang or "en"
    )
    return _write_generated(project, out, args, opts.template, opts.servers)


def _options(args: argparse.Namespace, project: Project):
    from gpuplanner.topology import GenerateOptions

    servers = args.servers
    srv = project.catalog.get(args.server)
    per = getattr(srv, "gpu_count", 0) or 1
    if args.gpus:
        servers = math.ceil(args.gpus / per)
    _check_size(servers, per)
    return GenerateOptions(
        template=args.template,
        server=args.server,
        servers=servers or 1,
        leaf_switch=args.switch,
        spine_switch=args.spine_switch or "",
        core_switch=args.core_switch or "",
        oversub=args.oversub,
        su_size=args.su_size,
        rails=args.rails == "yes",
        planes=args.planes,
        rack=args.rack,
        rack_budget_kw=args.rack_kw,
        storage_fabric=args.storage,
        storage_system=args.storage_system or "",
        **({"storage_switch": args.storage_switch} if args.storage_switch else {}),
        storage_units=args.storage_units,
        management_fabric=args.management,
        phase_id=args.phase or "",
    )


def _generate_into_file(args: argparse.Namespace) -> int:
    """`generate TEMPLATE … --into FILE [--partition NAME]`: a pod added beside what the project has."""
    from gpuplanner.storage import open_project, save_project
    from gpuplanner.topology.compose import add_pod

    if args.output:
        raise GenerationError("give either -o FILE (a new project) or --into FILE (add to one), not both")
    project = open_project(args.into)
    before = (project.gpu_count(), len(project.devices), len(project.links), len(project.racks))
    if args.phase and args.phase not in project.tables["phases"]:  # a phase named by its name
        ph = next((p for p in project.tables["phases"].values() if p.name == args.phase), None)
        if ph is not None:
            args.phase = ph.id
    add_pod(project, _options(args, project), args.partition or "", fill_positions=args.fill_positions)
    save_project(project, args.into)
    added = {
        "file": args.into,
        "template": args.template,
        "partition": args.partition or None,
        "gpus_added": project.gpu_count() - before[0],
        "devices_added": len(project.devices) - before[1],
        "links_added": len(project.links) - before[2],
        "racks_added": len(project.racks) - before[3],
        "gpus": project.gpu_count(),
    }
    if args.json:
        print_json(added)
    else:
        print(
            f"added to {args.into}: {added['gpus_added']} GPUs, {added['devices_added']} devices, "
            f"{added['links_added']} links, {added['racks_added']} racks"
            + (f" in partition '{args.partition}'" if args.partition else "")
            + f" ({added['gpus']} GPUs in all)"
        )
    return 0


def _write_generated(
    project: Project, out: Path, args: argparse.Namespace, template: str, servers: int
) -> int:
    from gpuplanner.storage import save_project

    now = datetime.now(UTC).isoformat(timespec="seconds")
    project.tables["project"]["project"] = dataclasses.replace(project.info, created=now, modified=now)
    with output_file(out):
        save_project(project, out)
    summary = {
        "file": str(out),
        "template": template,
        "servers": servers,
        "gpus": project.gpu_count(),
        "devices": len(project.devices),
        "links": len(project.links),
        "racks": len(project.racks),
    }
    storage = sorted(d.type_id for d in project.devices.values() if d.role == "storage")
    summary["storage"] = {t: storage.count(t) for t in dict.fromkeys(storage)}
    if args.json:
        print_json(summary)
    else:
        print(
            f"wrote {out}: {summary['gpus']} GPUs, {summary['devices']} devices, {summary['links']} links, "
            f"{summary['racks']} racks"
            + "".join(f"; storage {n} × {t}" for t, n in summary["storage"].items())
        )
    return 0


def _cmd_fabric(args: argparse.Namespace) -> int:
    from gpuplanner.engine.compiled import compile_project
    from gpuplanner.engine.fabric.network import analyze_fabric
    from gpuplanner.storage import open_project

    project = open_project(args.file)
    c = compile_project(project)
    result = analyze_fabric(c, project.catalog)
    data = result.to_json(c)
    if args.json:
        print_json(data)
        return 0
    print(
        f"GPUs {data['gpus']}, endpoints {data['endpoints']}, switches {data['switches']} "
        f"({', '.join(f'{k} {v}' for k, v in data['switches_by_tier'].items())})"
    )
    print(
        f"bisection {data['bisection_gbps'] / 1000:,.1f} Tb/s; oversubscription "
        + (", ".join(f"{k} {v:g}:1" for k, v in data["oversubscription_by_tier"].items()) or "n/a")
        + f"; max hops {data['max_hops']}"
    )
    print("\ncables by tier:")
    print_table([[k, v] for k, v in data["cables_by_tier"].items()], ["tier", "cables"])
    print("\ncables and optics:")
    rows = [[k, v, "cable"] for k, v in data["cables"].items()] + [
        [k, v, "transceiver"] for k, v in data["transceivers"].items()
    ]
    print_table(rows, ["part", "count", "kind"])
    if data["links_too_long"]:
        print(
            f"\n{len(data['links_too_long'])} links have no medium that reaches (see --json: links_too_long)"
        )
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="generate a cluster from a template into a new project file")
    p.add_argument("template", nargs="?", help="a template or a preset (see --list)")
    p.add_argument("--list", action="store_true", help="list the templates and the presets")
    p.add_argument("--server", default="nvidia-dgx-h100", help="server catalog id")
    p.add_argument("--servers", type=int_in(1, MAX_SERVERS, _WHY_MAX), default=32, help="number of servers")
    p.add_argument("--gpus", type=int_in(1, MAX_GPUS, _WHY_MAX), help="number of GPUs (overrides --servers)")
    p.add_argument("--switch", default="nvidia-quantum-2-qm9700", help="leaf switch catalog id")
    p.add_argument("--spine-switch", help="spine switch (default: the leaf model)")
    p.add_argument("--core-switch", help="core switch (default: the spine model)")
    p.add_argument("--oversub", type=float_in(1, 64), default=1.0, help="leaf oversubscription, e.g. 1, 2, 3")
    p.add_argument("--su-size", type=int_in(1, MAX_SERVERS), default=32, help="servers per scalable unit")
    p.add_argument("--rails", choices=["yes", "no"], default="yes", help="rail-optimised leaves")
    p.add_argument("--planes", type=int_in(1, 16), default=1, help="independent fabric planes")
    p.add_argument("--rack", default="generic-48u-600x1200-hd", help="rack catalog id")
    p.add_argument(
        "--rack-kw",
        type=float_in(0, 1000, lo_open=True),
        help="rack power budget in kW (default: the rack type's)",
    )
    p.add_argument("--storage", action="store_true", help="add a storage fabric")
    p.add_argument("--storage-system", help="storage catalog id for the storage fabric")
    p.add_argument("--storage-switch", help="switch of the storage fabric (default nvidia-spectrum-4-sn5600)")
    p.add_argument("--storage-units", type=int_in(0, MAX_SERVERS), default=0)
    p.add_argument("--management", action="store_true", help="add an out-of-band management fabric")
    p.add_argument("--name", help="project name")
    # no default in the parser: an error's language is --lang when given, else GPUPLANNER_LANG (cli.message_language)
    p.add_argument("--lang", choices=["en", "zh"], help="the project's language (default: en)")
    p.add_argument("-o", "--output", help="project file to write")
    p.add_argument("--into", metavar="FILE", help="add the generated pod to this existing project file")
    p.add_argument(
        "--partition",
        help="the partition the generated GPU servers belong to (and the prefix of their names)",
    )
    p.add_argument("--phase", help="the build-out phase (id or name) the generated rows belong to")
    p.add_argument(
        "--fill-positions",
        action="store_true",
        help="with --into: fill the site's free rack positions (most capable first), each up to its kW",
    )
    p.add_argument("--force", action="store_true")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_generate)

    p = sub.add_parser("fabric", help="analyse the network of a project: switches, cables, optics, bisection")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_fabric)
