"""Helpers shared by the sub-commands: JSON output, opening files, table printing."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import sys
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def _clean(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalar
        return _clean(value.item())
    if hasattr(value, "tolist"):
        return _clean(value.tolist())
    return value


def print_json(data: Any) -> None:
    json.dump(_clean(data), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def width(text: str) -> int:
    """The columns ``text`` takes in a terminal: a wide or full-width character (CJK, "，") takes two, a
    combining mark none (Unicode's East Asian Width, as terminals and wcwidth count them; the standard
    library's table is enough, so the CLI needs no wcwidth dependency)."""
    n = 0
    for c in text:
        if unicodedata.combining(c):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns (``str.ljust`` counts characters)."""
    return text + " " * max(columns - width(text), 0)


def print_table(rows: list[list[Any]], headers: list[str]) -> None:
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(width(r[i]) for r in cells) for i in range(len(headers))]
    for n, r in enumerate(cells):
        print("  ".join(pad(c, w) for c, w in zip(r, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def print_pairs(pairs: list[tuple[str, str]], indent: str = "  ") -> None:
    """Label and value per line, the values aligned in one column (wide characters counted as two)."""
    w = max((width(k) for k, _ in pairs), default=0)
    for k, v in pairs:
        print(f"{indent}{pad(k, w)}  {v}".rstrip())


# -- the language of a command's text output -------------------------------------------------------------
ENV_LANG = "GPUPLANNER_LANG"


def add_lang_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lang",
        choices=["en", "zh"],
        help=f"language of the text output (default: ${ENV_LANG}, else English; --json is the same in both)",
    )


def output_language(args: argparse.Namespace) -> str:
    """The language of a command's text output when no project names one: ``--lang``, else ``GPUPLANNER_LANG``
    (``zh``, ``zh_CN`` … → Chinese), else English. The locale is not read: a script that parses the text of a
    command keeps getting it in English unless it asks (refusals on stderr follow the locale too, see
    ``cli.message_language``, as a person reads them)."""
    given = getattr(args, "lang", None)
    if given in ("en", "zh"):
        return str(given)
    value = os.environ.get(ENV_LANG, "").strip().lower()
    return "zh" if value.startswith("zh") else "en"


# -- argument values -------------------------------------------------------------------------------------
# Bounds of arguments that only the command line has. Fields of the project (multiplicities, U positions,
# years, money) take their bounds from the model's schema (model/validate.py), which the generators and the
# file loader enforce too; these are the CLI's own, each with the reason in its message.
# The largest cluster GPU Planner is benchmarked at is 131,072 GPUs (benchmarks/bench_fabric.py); twice that
# is accepted, more is refused before anything is built (one server row per device: memory and time grow
# linearly, and 10⁹ servers would need ~90 GiB).
MAX_GPUS = 262_144
MAX_SERVERS = 32_768
MAX_COUNT = 1_000_000  # any other count (batch, layers, tokens per sequence …): far above any real model


def int_in(lo: int, hi: int, what: str = "") -> Callable[[str], int]:
    """An argparse ``type`` for an integer in [lo, hi]; the message names the bound (and why, via what)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip().replace("_", ""), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value:,} is out of range: {lo:,} to {hi:,}{what}")
        return value

    parse.__name__ = "integer"
    return parse


def float_in(lo: float, hi: float, *, lo_open: bool = False, what: str = "") -> Callable[[str], float]:
    """An argparse ``type`` for a finite number in [lo, hi] (or (lo, hi] with ``lo_open``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
        if value < lo or (lo_open and value == lo) or value > hi:
            low = f"more than {lo:g}" if lo_open else f"{lo:g}"
            raise argparse.ArgumentTypeError(f"{value:g} is out of range: {low} to {hi:g}{what}")
        return value

    parse.__name__ = "number"
    return parse


def check_output(path: str | os.PathLike[str], *, folder_ok: bool = False) -> Path:
    """The output's folder exists (and is one) and the output is not a folder: checked before any work."""
    from gpuplanner.core.errors import ValidationError
    from gpuplanner.text import Msg

    out = Path(path)
    parent = out.parent
    if not parent.is_dir():
        why = "error.out.not_folder" if parent.exists() else "error.out.no_folder"
        raise ValidationError(Msg(why, {"folder": str(parent)}), file=str(out))
    if out.is_dir() and not folder_ok:
        raise ValidationError(Msg("error.out.is_folder"), file=str(out))
    if not os.access(parent, os.W_OK):
        raise ValidationError(Msg("error.out.read_only", {"folder": str(parent)}), file=str(out))
    return out


@contextlib.contextmanager
def output_file(path: str | os.PathLike[str], *, folder_ok: bool = False) -> Iterator[Path]:
    """Guards a command's output: refuses (one line) a missing folder or a folder in place of the file, and
    when the command fails, removes an output it created (a writer stopped by a full disk must not leave an
    empty or half file that looks like a result)."""
    out = check_output(path, folder_ok=folder_ok)
    existed = out.exists()
    try:
        yield out
    except BaseException:
        if not existed:  # made by this command: a file, or (netbox) a folder of files
            with contextlib.suppress(OSError):
                if out.is_dir() and not out.is_symlink():
                    shutil.rmtree(out)
                elif out.is_file():
                    out.unlink()
        raise


# -- phases ---------------------------------------------------------------------------------------------
def add_phase_argument(p: argparse.ArgumentParser, help_text: str) -> None:
    """``--phase NAME|ID``: the plan as it stands at the end of a phase (its rows and those of the phases
    before), as the window's "Show phase" shows it. An unknown phase is refused naming the ones there are."""
    p.add_argument("--phase", metavar="PHASE", help=help_text)


def phase_json(project: Any, phase_id: str) -> dict[str, Any] | None:
    """The phase figures are for (``Results.phase``): id and name; None for the whole plan."""
    row = project.tables["phases"].get(phase_id) if phase_id else None
    return None if row is None else {"id": row.id, "name": row.name}
