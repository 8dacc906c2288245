"""The composition root: argument parsing and wiring. ``gpuplanner`` with no command opens the window.

Every command that reports takes ``--json``. Exit codes: 0 success, 2 bad input (one line on stderr).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from gpuplanner import __version__
from gpuplanner.cli import catalog_cmd, project_cmd
from gpuplanner.cli.common import EXIT_BAD_INPUT
from gpuplanner.core.errors import PlannerError

# Each module adds its sub-commands; the order here is the order of `gpuplanner --help`.
COMMAND_MODULES = [project_cmd, catalog_cmd]


def _optional_modules() -> list:
    """Sub-commands of areas that may be absent from a minimal build are imported here."""
    mods = []
    for name in ("fabric_cmd", "analyze_cmd", "estimate_cmd", "report_cmd", "export_cmd", "set_cmd"):
        try:
            mods.append(__import__(f"gpuplanner.cli.{name}", fromlist=["register"]))
        except ModuleNotFoundError as exc:
            if exc.name != f"gpuplanner.cli.{name}":
                raise
    return mods


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpuplanner",
        description="GPU Planner: plan GPU clusters — fabric, performance, power, cooling and cost. "
        "Without a command, opens the desktop window (optionally on FILE).",
    )
    parser.add_argument("--version", action="version", version=f"gpuplanner {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in COMMAND_MODULES + _optional_modules():
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # `gpuplanner` or `gpuplanner FILE.gpuplan` opens the window.
    if not args_list or (
        len(args_list) == 1 and not args_list[0].startswith("-") and args_list[0].endswith(".gpuplan")
    ):
        return _open_window(args_list[0] if args_list else None)
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse already printed its message; map its code 2 to ours
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args) or 0)
    except PlannerError as exc:
        print(f"gpuplanner: {exc.one_line()}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `gpuplanner … | head`
        sys.stderr.close()
        return 0


def _open_window(path: str | None) -> int:
    try:
        from gpuplanner.ui.app import run_app
    except ImportError as exc:
        print(f"gpuplanner: the desktop window cannot start: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_app(path)
