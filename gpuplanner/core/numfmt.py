"""Plain number formats shared by the report (``gpuplanner.reports.fmt``) and the catalog entries' names
(``gpuplanner.catalog.names``): thousands separators, an em dash for a missing or non-finite figure. They
sit at the bottom layer so that every layer that names a catalog entry prints its figures the same way."""

from __future__ import annotations

import math
import numbers
from typing import Any

DASH = "—"


def ok(x: Any) -> bool:
    """Whether ``x`` is a finite real number (not a bool)."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(float(x))


def num(x: Any, digits: int = 0) -> str:
    """Thousands separators and ``digits`` decimals; missing or non-finite → an em dash."""
    return f"{float(x):,.{digits}f}" if ok(x) else DASH


def integer(x: Any) -> str:
    return f"{int(round(float(x))):,}" if ok(x) else DASH


def value(v: Any) -> str:
    """A catalog or assumption value of any shape, briefly."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if not math.isfinite(v):
            return DASH
        if v.is_integer():
            return f"{int(v):,}"
        return f"{v:,.1f}" if abs(v) >= 100 else f"{v:.4g}"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {value(x)}" for k, x in v.items())
    if isinstance(v, list | tuple):
        return ", ".join(value(x) for x in v)
    return DASH if v is None else str(v)
