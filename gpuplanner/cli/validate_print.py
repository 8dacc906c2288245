"""What `gpuplanner validate` prints for training runs (validate_cmd.py) and inference rows
(validate_inference_out.py) alike: a signed error and the summary per family."""

from __future__ import annotations

from typing import Any

from gpuplanner import text
from gpuplanner.cli.common import print_table


def pct(x: float | None) -> str:
    """An error as a signed percentage ("+3.2%"), "—" when there is none."""
    return "—" if x is None else f"{x * 100:+.1f}%"


ALL = {"all runs": "perf.val.all_runs", "all rows": "perf.val.all_rows"}  # the last row of a summary


def print_families(fams: list[dict[str, Any]], noun: str, lang: str = "en") -> None:
    """One line per family: how many ``noun`` (runs, rows), how many were refused, the mean and worst
    absolute error and the mean signed error."""
    print_table(
        [
            [
                text.render(ALL[f["family"]], lang) if f["family"] in ALL else f["family"],
                f["runs"],
                f["refused"],
                pct(f["mean_abs_error"])[1:],
                pct(f["worst_abs_error"])[1:],
                pct(f["mean_error"]),
            ]
            for f in fams
        ],
        [
            text.render(k, lang)
            for k in (
                "col.family",
                {"runs": "col.runs", "rows": "col.rows"}[noun],
                "col.refused_count",
                "col.mean_abs_error",
                "col.worst_abs_error",
                "col.mean_error",
            )
        ],
    )
