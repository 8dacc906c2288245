"""`gpuplanner new` and `gpuplanner info`."""

from __future__ import annotations

import argparse
import dataclasses
from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from gpuplanner.cli.common import check_output, print_json
from gpuplanner.core.errors import ProjectFileError

# The model and storage (sqlite-utils, the catalog) are imported by the commands, not by `register`:
# `gpuplanner --help` must not pay for them.
if TYPE_CHECKING:
    from gpuplanner.model import Project


def project_summary(project: Project) -> dict[str, Any]:
    from gpuplanner.model.rows import row_to_dict

    roles = Counter(d.role for d in project.devices.values())
    kinds = Counter(
        project.catalog.entries[d.type_id].kind
        for d in project.devices.values()
        if d.type_id in project.catalog
    )
    info = project.info
    return {
        "name": info.name,
        "customer": info.customer,
        "consultant": info.consultant,
        "currency": info.currency,
        "language": info.language,
        "racks": len(project.racks),
        "devices": len(project.devices),
        "devices_by_role": dict(sorted(roles.items())),
        "devices_by_kind": dict(sorted(kinds.items())),
        "links": len(project.links),
        "cables": sum(lk.multiplicity for lk in project.links.values()),
        "gpus": project.gpu_count(),
        "fabrics": [f.name for f in project.tables["fabrics"].values()],
        "workloads": [w.name for w in project.tables["workloads"].values()],
        "scenarios": [s.name for s in project.tables["scenarios"].values()],
        "catalog_entries_used": sorted(project.used_type_ids()),
        # the design goal (gpuplanner set FILE goal=…; 0 = no limit), or None when none is set
        "goal": row_to_dict(project.goal) if project.goal.kind else None,
    }


def _cmd_new(args: argparse.Namespace) -> int:
    from gpuplanner.model import Project
    from gpuplanner.storage import save_project

    path = check_output(args.file)
    if path.exists() and not args.force:
        raise ProjectFileError("already exists (use --force to replace it)", file=str(path))
    project = Project()
    now = datetime.now(UTC).isoformat(timespec="seconds")
    project.tables["project"]["project"] = dataclasses.replace(
        project.info,
        name=args.name or path.stem,
        customer=args.customer or "",
        consultant=args.consultant or "",
        currency=args.currency,
        language=args.lang or "en",
        created=now,
        modified=now,
    )
    save_project(project, path)
    if args.json:
        print_json({"file": str(path), **project_summary(project)})
    else:
        print(f"created {path}")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    from gpuplanner.storage import FORMAT_VERSION, open_project

    project = open_project(args.file)
    summary = {"file": args.file, "format_version": FORMAT_VERSION, **project_summary(project)}
    if args.json:
        print_json(summary)
    else:
        for k, v in summary.items():
            if k != "catalog_entries_used":
                print(f"{k:18} {v}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="create an empty project file")
    p.add_argument("file")
    p.add_argument("--name")
    p.add_argument("--customer")
    p.add_argument("--consultant")
    p.add_argument("--currency", default="USD", choices=["USD", "CNY", "EUR"])
    # no default in the parser: an error's language is --lang when given, else GPUPLANNER_LANG (cli.message_language)
    p.add_argument("--lang", choices=["en", "zh"], help="the project's language (default: en)")
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_new)

    p = sub.add_parser("info", help="summarise a project file")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_info)
