"""`gpuplanner import FILE -o OUT.gpuplan`: the customer's existing cluster (Slurm topology.conf, a NetBox
bulk-export folder, ibnetdiscover output) as a project to analyse and extend."""

from __future__ import annotations

import argparse
from pathlib import Path

from gpuplanner.cli.common import print_json
from gpuplanner.core.errors import ProjectFileError


def _cmd_import(args: argparse.Namespace) -> int:
    from gpuplanner.imports import import_file
    from gpuplanner.storage import save_project

    out = Path(args.output)
    if out.exists() and not args.force:
        raise ProjectFileError("already exists (use --force to replace it)", file=str(out))
    res = import_file(args.file, fmt=args.format, server=args.server, switch=args.switch, name=args.name)
    save_project(res.project, out)
    p = res.project
    summary = {
        "file": str(out), "format": res.format, "devices": len(p.devices), "links": len(p.links),
        "racks": len(p.racks), "unmatched": res.unmatched, "assumed_model": len(res.assumed),
    }  # fmt: skip
    if args.json:
        print_json(summary)
        return 0
    print(f"wrote {out}: {res.format}, {len(p.devices)} devices, {len(p.links)} links, {len(p.racks)} racks")
    if res.assumed:
        print(
            f"{len(res.assumed)} device(s) named no model: given --server {args.server} / --switch {args.switch}"
        )
    for u in res.unmatched:
        print(f"unmatched (given the default model): {u}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import", help="a customer's cluster (Slurm topology.conf, NetBox CSVs, ibnetdiscover) as a project"
    )
    p.add_argument("file", help="topology.conf, ibnetdiscover output, or a folder of NetBox CSV files")
    p.add_argument("-o", "--output", required=True, help="the project file to write")
    p.add_argument("--format", choices=["slurm", "netbox", "ibnetdiscover"], help="default: detected")
    p.add_argument("--server", default="nvidia-dgx-h100", help="server model where the file names none")
    p.add_argument(
        "--switch", default="nvidia-quantum-2-qm9700", help="switch model where the file names none"
    )
    p.add_argument("--name", help="project name (default: the file's name)")
    p.add_argument("--force", action="store_true", help="replace OUT if it exists")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_import)
