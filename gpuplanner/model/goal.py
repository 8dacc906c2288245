"""The design goal's text fields (comma-separated lists) and the rules that join fields: parsing and
validation that the window, `gpuplanner set`, the file loader and the advisor all go through.

Numbers are ranged by ``model/bounds.py`` and vocabularies by ``model/validate.py`` like every other row;
what is here is what one field's type cannot say: each list item's form, the fabric templates and cooling
methods the advisor knows, that a serving goal states its request rate or users, that a percentile is below
100, and
that only a serving goal may be in fp4."""

from __future__ import annotations

import math
import re
from typing import Any

from gpuplanner.core.errors import ValidationError
from gpuplanner.text import Msg

# The generators' templates (topology/options.py TEMPLATES; a test keeps the two equal: the model may not
# import topology) and the cooling methods of the catalog's schema (catalogs/schema/cooling.json).
GOAL_TEMPLATES = ("single-switch", "rail-leaf-spine", "leaf-spine", "fat-tree-3tier", "dragonfly")
GOAL_COOLING = ("air", "air-contained", "rear-door", "cold-plate", "immersion")
GOAL_LISTS = ("servers", "vendors", "cooling", "templates", "oversubs")
OVERSUB_RANGE = (1.0, 8.0)
MAX_ITEMS = 200
_ITEM = re.compile(r"^[\w][\w .+()/-]{0,99}$")


def split_list(text: str) -> list[str]:
    """ "a, b,,c" → ["a", "b", "c"] (empty items dropped)."""
    return [s.strip() for s in str(text).split(",") if s.strip()]


def parse_list(name: str, text: Any) -> tuple[str, ...] | tuple[float, ...]:
    """A list field's items, checked; oversubs as numbers. Raises ValidationError naming the field."""
    if not isinstance(text, str):
        raise ValidationError(Msg("error.model.goal_list_text", {"name": name}), field=name, value=text)
    items = split_list(text)
    if len(items) > MAX_ITEMS:
        raise ValidationError(Msg("error.model.goal_list_long", {"name": name, "max": MAX_ITEMS}), field=name)
    if name == "oversubs":
        out: list[float] = []
        for it in items:
            try:
                v = float(it)
            except ValueError:
                v = math.nan
            if not (OVERSUB_RANGE[0] <= v <= OVERSUB_RANGE[1]):
                raise ValidationError(
                    Msg("error.model.goal_oversub", {"item": it[:40]}),
                    field=name,
                    value=text,
                )
            out.append(v)
        return tuple(out)
    for it in items:
        if not _ITEM.match(it):
            raise ValidationError(
                Msg("error.model.goal_not_a_name", {"name": name, "item": it[:40]}), field=name, value=text
            )
    allowed = {"templates": GOAL_TEMPLATES, "cooling": GOAL_COOLING}.get(name)
    if allowed is not None:
        bad = [it for it in items if it not in allowed]
        if bad:
            raise ValidationError(
                Msg(
                    "error.model.goal_not_one_of",
                    {"what": name, "item": bad[0][:40], "allowed": ", ".join(allowed)},
                ),
                field=name,
                value=text,
            )
    return tuple(items)


def check_percentiles(table: str, row: Any) -> None:
    """The TTFT / TPOT target percentiles of a goal or workload row: 0 (in the mean) or below 100, as the engine
    takes them (0 < p < 100); the range itself (≥ 0) is model/bounds.py's."""
    for name in ("ttft_percentile", "tpot_percentile"):
        v = getattr(row, name, 0.0)
        if isinstance(v, int | float) and not isinstance(v, bool) and v >= 100:
            raise ValidationError(
                Msg("error.model.percentile", {"table": table, "name": name, "value": v}), field=name, value=v
            )


def check_goal_row(row: Any) -> None:
    """The rules of a goal row beyond each number's range and each word's vocabulary."""
    for name in GOAL_LISTS:
        parse_list(name, getattr(row, name))
    if not split_list(row.templates):
        raise ValidationError(Msg("error.model.goal_no_template"), field="templates")
    if not split_list(row.oversubs):
        raise ValidationError(Msg("error.model.goal_no_oversub"), field="oversubs")
    check_percentiles("goal", row)
    if row.kind == "inference" and not (row.requests_per_s > 0 or row.users > 0):
        raise ValidationError(
            Msg("error.model.serving_rate"),
            field="requests_per_s",
            value=row.requests_per_s,
        )
    if row.kind == "training" and row.precision == "fp4":  # FP4 (NVFP4/MXFP4) is modelled for serving only
        raise ValidationError(Msg("error.model.goal_fp4_training"), field="precision", value=row.precision)
