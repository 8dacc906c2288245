"""`gpuplanner catalog list|show|validate|import-netbox`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpuplanner.cli.common import EXIT_BAD_INPUT, float_in, int_in, print_json, print_table
from gpuplanner.core.errors import CatalogError
from gpuplanner.text import Msg

# The catalog loader (YAML, JSON Schema) is imported by the commands, not by `register` (see cli/__init__.py).
if TYPE_CHECKING:
    from gpuplanner.catalog import Catalog, CatalogEntry

# Extra JSON keys required by the interface (issue #2): TB/s memory bandwidth under its short name.
_ALIASES = {"mem_bw_tbyte_per_s": "mem_bw_tbps"}

_TABLE_COLUMNS = {
    "gpu": [
        "tdp_w",
        "mem_gb",
        "mem_bw_tbyte_per_s",
        "bf16_dense_tflops",
        "fp8_dense_tflops",
        "scaleup_bw_gbyte_per_s",
    ],
    "server": ["ru", "gpu", "gpu_count", "power_max_w", "psu_count", "psu_redundancy"],
    "switch": ["ru", "technology", "power_max_w"],
    "cooling": ["method", "max_kw_per_rack", "liquid_share", "pue_typical"],
    "storage": ["system", "read_gbyte_per_s", "write_gbyte_per_s", "capacity_tb"],
    "model": ["architecture", "params_b", "layers", "hidden"],
}


def entry_json(e: CatalogEntry, cat: Catalog) -> dict[str, Any]:
    out: dict[str, Any] = {"id": e.id, "kind": e.kind, "vendor": e.vendor, "model": e.model, "name": e.name}
    for k, v in e.figures().items():
        out[k] = v
        if k in _ALIASES:
            out[_ALIASES[k]] = v
    pgs = getattr(e, "port_groups", None)
    if pgs is not None:
        out["port_groups"] = [
            {"name": p.name, "role": p.role, "count": p.count, "type": p.type, "speed_gbps": p.speed_gbps}
            for p in pgs
        ]
        if e.kind == "switch":
            out["radix"] = e.radix()  # type: ignore[attr-defined]
    price = cat.prices.get(e.id)
    out["price_usd"] = price.price_usd if price else None
    out["source"] = e.source
    out["as_of"] = e.as_of
    out["estimate"] = e.estimate
    if e.estimate_note:
        out["estimate_note"] = e.estimate_note
    if e.field_sources:
        out["field_sources"] = {k: dict(v) for k, v in e.field_sources.items()}
    out["description"] = dict(e.description or {})
    out["file"] = e.origin
    return out


def _cmd_list(args: argparse.Namespace) -> int:
    from gpuplanner.catalog import load_catalog

    cat = load_catalog()
    entries = (
        cat.of_kind(args.kind) if args.kind else sorted(cat.entries.values(), key=lambda e: (e.kind, e.id))
    )
    if args.kind and args.kind not in {e.kind for e in cat.entries.values()} and not entries:
        from gpuplanner.catalog.types import KIND_TYPES

        if args.kind not in KIND_TYPES:
            raise CatalogError(
                Msg("error.catalog.unknown_kind", {"kind": args.kind}),
                hint=Msg("error.gen.one_of", {"options": ", ".join(sorted(KIND_TYPES))}),
            )
    if args.json:
        out = [entry_json(e, cat) for e in entries]
        if args.source:
            for d, e in zip(out, entries, strict=True):
                d["from"] = cat.sources.get(e.id, "project")
        print_json(out)
    else:
        cols = _TABLE_COLUMNS.get(args.kind or "", [])
        rows = [[e.id, e.kind, e.name, *[getattr(e, c, "") for c in cols]] for e in entries]
        heads = ["id", "kind", "name", *cols]
        if args.source:
            rows = [[*r, cat.sources.get(e.id, "project")] for r, e in zip(rows, entries, strict=True)]
            heads.append("from")
        print_table(rows, heads)
    for err in cat.errors:
        print(f"warning: {err.one_line()}", file=sys.stderr)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from gpuplanner.catalog import load_catalog

    cat = load_catalog()
    e = cat.get(args.id)
    data = entry_json(e, cat)
    data["from"] = cat.sources.get(e.id, "project")
    if args.json:
        print_json(data)
    else:
        for k, v in data.items():
            print(f"{k:24} {v}")
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from gpuplanner.catalog import Catalog, load_catalog

    root = Path(args.dir)
    if not root.is_dir():
        raise CatalogError(Msg("error.catalog.not_folder"), file=str(root))
    cat = Catalog()
    # Entries of the folder may refer to bundled ones (a user server using a bundled GPU).
    base = load_catalog(include_user=False)
    cat.add_dir(root, user=True)
    checked = dict(base.entries)
    checked.update(cat.entries)
    from gpuplanner.catalog.rules import check_references

    ref_errors = [e for e in check_references(checked) if e.entry in cat.entries]
    errors = cat.errors + ref_errors
    if args.json:
        print_json(
            {
                "dir": str(root),
                "entries": len(cat.entries),
                "prices": len(cat.prices),
                "errors": [
                    {"file": e.file, "entry": e.entry, "field": e.field, "message": e.message} for e in errors
                ],
            }
        )
    else:
        for e in errors:
            print(e.one_line())
        print(f"{len(cat.entries)} entries, {len(cat.prices)} prices, {len(errors)} problems in {root}")
    return EXIT_BAD_INPUT if errors else 0


def _cmd_pack(args: argparse.Namespace) -> int:
    from gpuplanner.catalog.packs import build_pack

    info = build_pack(
        Path(args.dir),
        Path(args.output),
        name=args.name,
        version=args.version,
        author=args.author or "",
        date=args.date,
    )
    if args.json:
        print_json({"pack": str(info.path), "name": info.name, "version": info.version, "files": info.files})
    else:
        print(f"wrote {info.path}: pack '{info.name}' version {info.version}, {len(info.files)} files")
    return 0


def _cmd_install(args: argparse.Namespace) -> int:
    from gpuplanner.catalog import user_catalog_dir
    from gpuplanner.catalog.packs import install_pack

    info = install_pack(Path(args.file), user_catalog_dir())
    if args.json:
        print_json(
            {
                "installed": str(info.path),
                "name": info.name,
                "version": info.version,
                "date": info.date,
                "author": info.author,
                "files": sorted(info.files),
            }
        )
    else:
        print(
            f"installed pack '{info.name}' version {info.version} ({info.date}, {len(info.files)} files) "
            f"into {info.path}"
        )
    return 0


def _cmd_packs(args: argparse.Namespace) -> int:
    from gpuplanner.catalog import user_catalog_dir
    from gpuplanner.catalog.packs import installed_packs, remove_pack

    root = user_catalog_dir()
    if args.remove:
        print(f"removed {remove_pack(args.remove, root)}")
        return 0
    packs = installed_packs(root)
    if args.json:
        print_json(
            [
                {
                    "name": p.name,
                    "version": p.version,
                    "date": p.date,
                    "author": p.author,
                    "files": len(p.files),
                    "path": str(p.path),
                }
                for p in packs
            ]
        )
    else:
        print_table(
            [[p.name, p.version, p.date, p.author, len(p.files)] for p in packs],
            ["pack", "version", "date", "author", "files"],
        )
    return 0


def _cmd_import_netbox(args: argparse.Namespace) -> int:
    from gpuplanner.catalog import user_catalog_dir
    from gpuplanner.catalog.netbox import import_netbox

    out_dir = Path(args.out) if args.out else user_catalog_dir()
    written = import_netbox(
        Path(args.path),
        out_dir,
        kind=args.kind,
        gpu=args.gpu,
        gpu_count=args.gpu_count,
        power_max_w=args.power_max_w,
        power_typical_w=args.power_typical_w,
        power_idle_w=args.power_idle_w,
        interactive=not args.no_input,
    )
    if args.json:
        print_json({"written": [str(p) for p in written]})
    else:
        for p in written:
            print(f"wrote {p}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("catalog", help="list, show, validate and import hardware catalog entries")
    csub = p.add_subparsers(dest="catalog_command", metavar="ACTION")

    pl = csub.add_parser("list", help="list entries, optionally of one KIND (gpu, server, switch, …)")
    pl.add_argument(
        "kind",
        nargs="?",
        help="gpu | server | switch | nic | cable | transceiver | rack | pdu | cooling | storage | model",
    )
    pl.add_argument("--json", action="store_true", help="machine-readable output")
    pl.add_argument(
        "--source", action="store_true", help="say where each entry came from: bundled, user or pack:NAME"
    )
    pl.set_defaults(func=_cmd_list)

    ps = csub.add_parser("show", help="show one entry with all its figures and sources")
    ps.add_argument("id")
    ps.add_argument("--json", action="store_true")
    ps.set_defaults(func=_cmd_show)

    pv = csub.add_parser("validate", help="check a catalog folder (schema, rules, references)")
    pv.add_argument("dir")
    pv.add_argument("--json", action="store_true")
    pv.set_defaults(func=_cmd_validate)

    pp = csub.add_parser("pack", help="write a catalog folder as a pack (.gpcat) after validating it")
    pp.add_argument("dir", help="a catalog folder: <kind>/<name>.yaml and prices/<name>.yaml")
    pp.add_argument("-o", "--output", required=True, help="pack file to write, e.g. vendor-2026q4.gpcat")
    pp.add_argument("--name", help="pack name (default: the output file's stem)")
    pp.add_argument("--version", default="1", help="pack version (default 1)")
    pp.add_argument("--author", help="who made the pack")
    pp.add_argument("--date", help="pack date, YYYY-MM-DD (default today)")
    pp.add_argument("--json", action="store_true")
    pp.set_defaults(func=_cmd_pack)

    pi = csub.add_parser("install", help="check a pack (hashes, names, schema, rules) and install it")
    pi.add_argument("file")
    pi.add_argument("--json", action="store_true")
    pi.set_defaults(func=_cmd_install)

    pk = csub.add_parser("packs", help="list installed packs, or remove one")
    pk.add_argument("--remove", metavar="NAME", help="remove the installed pack NAME")
    pk.add_argument("--json", action="store_true")
    pk.set_defaults(func=_cmd_packs)

    pn = csub.add_parser(
        "import-netbox", help="import NetBox device-type YAML (file or folder) into the user catalog"
    )
    pn.add_argument("path")
    pn.add_argument("--kind", choices=["server", "switch"], help="default: guessed from the interfaces")
    pn.add_argument("--gpu", help="GPU catalog id (servers)")
    pn.add_argument("--gpu-count", type=int_in(1, 1024))
    pn.add_argument("--power-max-w", type=float_in(0, 1_000_000))
    pn.add_argument("--power-typical-w", type=float_in(0, 1_000_000))
    pn.add_argument("--power-idle-w", type=float_in(0, 1_000_000))
    pn.add_argument("--out", help="catalog folder to write into (default: the user catalog)")
    pn.add_argument("--no-input", action="store_true", help="never prompt; fail if a figure is missing")
    pn.add_argument("--json", action="store_true")
    pn.set_defaults(func=_cmd_import_netbox)

    def _help(_args: argparse.Namespace) -> int:
        p.print_help()
        return EXIT_BAD_INPUT

    p.set_defaults(func=_help)
