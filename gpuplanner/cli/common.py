"""Helpers shared by the sub-commands: JSON output, opening files, table printing."""

from __future__ import annotations

import json
import math
import sys
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


def print_table(rows: list[list[Any]], headers: list[str]) -> None:
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for n, r in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
