"""The composition root: argument parsing and wiring. ``gpuplanner`` with no command opens the window.

Every command that reports takes ``--json``. Exit codes: 0 success, 2 bad input (one line on stderr, naming
the argument or file), 1 an internal error (one line too; ``GPUPLANNER_DEBUG=1`` prints the traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import typing
from collections.abc import Sequence

from gpuplanner import __version__
from gpuplanner.cli import catalog_cmd, project_cmd
from gpuplanner.cli.argerrors import argv_language, one_line
from gpuplanner.cli.common import EXIT_BAD_INPUT
from gpuplanner.core.errors import PlannerError
from gpuplanner.text import error_line, render

# Each module adds its sub-commands; the order here is the order of `gpuplanner --help`.
COMMAND_MODULES = [project_cmd, catalog_cmd]


def _optional_modules() -> list:
    """Sub-commands of areas that may be absent from a minimal build are imported here."""
    mods = []
    for name in (
        "fabric_cmd",
        "analyze_cmd",
        "estimate_cmd",
        "validate_cmd",
        "report_cmd",
        "export_cmd",
        "advise_cmd",
        "import_cmd",
        "set_cmd",
    ):
        try:
            mods.append(__import__(f"gpuplanner.cli.{name}", fromlist=["register"]))
        except ModuleNotFoundError as exc:
            if exc.name != f"gpuplanner.cli.{name}":
                raise
    return mods


EXIT_INTERNAL = 1
ENV_DEBUG = "GPUPLANNER_DEBUG"


class ArgumentError(SystemExit):
    """A bad command line: already printed as one line."""


class OneLineParser(argparse.ArgumentParser):
    """argparse prints the whole usage before its error; we print one line naming the argument and point
    to --help (sub-command parsers are made with the same class)."""

    lang = "en"  # the language of the refusal: set by ``main`` from --lang, GPUPLANNER_LANG or the locale

    def error(self, message: str) -> typing.NoReturn:
        print(one_line(self.prog, message, OneLineParser.lang), file=sys.stderr)
        raise ArgumentError(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="gpuplanner",
        description="GPU Planner: plan GPU clusters — fabric, performance, power, cooling and cost. "
        "Without a command, opens the desktop window (optionally on FILE).",
    )
    parser.add_argument("--version", action="version", version=f"gpuplanner {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in COMMAND_MODULES + _optional_modules():
        mod.register(sub)
    return parser


ENV_LANG = "GPUPLANNER_LANG"


def message_language(args: argparse.Namespace | None = None) -> str:
    """The language of a refusal on stderr: the command's ``--lang`` when given, else ``GPUPLANNER_LANG``,
    else the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` in gettext's order: zh_* → Chinese);
    English otherwise."""
    given = getattr(args, "lang", None)
    if given in ("en", "zh"):
        return str(given)
    for name in (ENV_LANG, "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "").strip()
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # `gpuplanner` or `gpuplanner FILE.gpuplan` opens the window.
    if not args_list or (
        len(args_list) == 1 and not args_list[0].startswith("-") and args_list[0].endswith(".gpuplan")
    ):
        return _open_window(args_list[0] if args_list else None)
    OneLineParser.lang = argv_language(args_list, message_language())
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse already printed its message; map its code 2 to ours
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        print("gpuplanner: " + render("error.args.name_command", OneLineParser.lang), file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args) or 0)
    except PlannerError as exc:
        print(f"gpuplanner: {_flat(error_line(exc, message_language(args)))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `gpuplanner … | head`
        sys.stderr.close()
        return 0
    except OSError as exc:  # a file the user named: missing folder, full disk, no permission
        name = exc.filename or getattr(args, "output", None) or getattr(args, "file", None) or ""
        why = exc.strerror or str(exc)
        print(f"gpuplanner: {_flat(f'{name}: {why}' if name else why)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except MemoryError:
        print("gpuplanner: not enough memory for this request (try a smaller one)", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # a bug of ours: one line, never a traceback (unless asked for)
        if os.environ.get(ENV_DEBUG, "").strip() not in ("", "0"):
            traceback.print_exc()
        print(
            f"gpuplanner: internal error: {_flat(f'{type(exc).__name__}: {exc}')[:300]} "
            f"(please report it; {ENV_DEBUG}=1 shows the details)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _flat(text: str) -> str:
    """One line: a file name or value with a newline or other control character in it must not split
    the message or drive the terminal (shown as '?')."""
    joined = " ".join(str(text).split())
    return "".join(c if c.isprintable() else "?" for c in joined)


def _no_display() -> bool:
    """Linux with no X or Wayland display and no Qt platform chosen: Qt would abort (a core dump over ssh)."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _open_window(path: str | None) -> int:
    if _no_display():
        print("gpuplanner: " + render("error.args.no_display", message_language()), file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        from gpuplanner.ui.app import run_app
    except ImportError as exc:
        print(f"gpuplanner: the desktop window cannot start: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return run_app(path)
