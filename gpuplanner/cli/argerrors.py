"""The command line's refusals in the user's language: argparse writes its messages in English; for a Chinese
user (``--lang zh`` on the command line, else ``GPUPLANNER_LANG`` or the locale) each known form is said again
from ``text/cli_args.py``. An unknown form stays English whole, never half translated."""

from __future__ import annotations

import re
from collections.abc import Sequence

from gpuplanner.text import render

_ARG = r"argument (?P<arg>.+?): "
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(_ARG + r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.*)\)"), "error.args.invalid_choice"),
    (re.compile(_ARG + r"'(?P<value>.*)' is not a whole number"), "error.args.not_int"),
    (re.compile(_ARG + r"'(?P<value>.*)' is not a finite number"), "error.args.not_finite"),
    (re.compile(_ARG + r"'(?P<value>.*)' is not a number"), "error.args.not_number"),
    (
        re.compile(
            _ARG + r"(?P<value>\S+) is out of range: (?:more than (?P<lo_open>\S+)|(?P<lo>\S+)) to (?P<hi>[^\s(]+)"
            r"(?P<why> \(GPU Planner plans up to (?P<gpus>[\d,]+) GPUs in (?P<servers>[\d,]+) servers at once\))?"
        ),
        "error.args.out_of_range",
    ),
    (re.compile(r"the following arguments are required: (?P<args>.+)"), "error.args.required"),
    (re.compile(r"unrecognized arguments: (?P<args>.+)"), "error.args.unrecognized"),
    (re.compile(_ARG + r"expected one argument"), "error.args.expected_one"),
    (re.compile(_ARG + r"invalid (?P<kind>\S+) value: (?P<value>.+)"), "error.args.invalid_value"),
    (re.compile(_ARG + r"not allowed with argument (?P<other>.+)"), "error.args.not_allowed_with"),
]  # fmt: skip


def argv_language(argv: Sequence[str], fallback: str) -> str:
    """The ``--lang`` the command line gives (``--lang zh`` or ``--lang=zh``), else ``fallback``."""
    for i, a in enumerate(argv):
        value = argv[i + 1] if a == "--lang" and i + 1 < len(argv) else a.removeprefix("--lang=")
        if (a == "--lang" or a.startswith("--lang=")) and value in ("en", "zh"):
            return value
    return fallback


def said(message: str, lang: str) -> str:
    """argparse's one-line ``message`` in ``lang`` (as it is in English, or when its form is unknown)."""
    if lang != "zh":
        return message
    for pattern, msg_id in _RULES:
        m = pattern.fullmatch(message)
        if m is None:
            continue
        p = {k: v for k, v in m.groupdict().items() if v is not None}
        if "lo_open" in p:
            p["lo"] = render("error.args.more_than", lang, lo=p.pop("lo_open"))
        p["why"] = (
            render("error.args.why_max", lang, gpus=p["gpus"], servers=p["servers"]) if "gpus" in p else ""
        )
        return render(msg_id, lang, **p)
    return message


def one_line(prog: str, message: str, lang: str) -> str:
    """The line a refused command line prints: ``prog: message (see `prog --help`)`` in ``lang``."""
    line = said(" ".join(message.split()), lang)
    if lang != "zh" or line == " ".join(message.split()):
        return f"{prog}: {line} (see `{prog} --help`)"
    return f"{prog}: " + render("error.args.see_help", lang, line=line, prog=prog)
