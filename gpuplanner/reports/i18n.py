"""The report's translation table: every visible string of the report in English and Chinese.

Each entry is a whole sentence or label with ``{name}`` placeholders, never a fragment to be joined to others
(``text_front.py``, ``text_body.py``, ``text_plan.py``). Findings have their own templates in ``gpuplanner.engine.checks.findings``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from gpuplanner.reports.text_body import BODY
from gpuplanner.reports.text_front import FRONT
from gpuplanner.reports.text_plan import PLAN
from gpuplanner.reports.text_project import PROJECT

LANGS = ("en", "zh")
TEXT: dict[str, tuple[str, str]] = {**FRONT, **BODY, **PLAN, **PROJECT}
MONTHS_EN = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


class _Keep(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# A plural choice in a template: "{servers|server|servers}" is "server" when the parameter ``servers`` is one
# (1, "1", "1.0"), else "servers". English needs it ("1 servers"); Chinese writes a measure word instead (台/条).
_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")


def _is_one(v: Any) -> bool:
    try:
        return float(str(v).replace(",", "")) == 1.0
    except ValueError:
        return False


def plurals(text: str, params: dict[str, Any]) -> str:
    return _PLURAL.sub(lambda m: m.group(2) if _is_one(params.get(m.group(1))) else m.group(3), text)


def tr(key: str, lang: str = "en", **params: Any) -> str:
    """The string ``key`` in ``lang`` (English when ``lang`` is unknown), with its placeholders filled and its
    plural choices (``{n|one|other}``) made."""
    pair = TEXT.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "zh" else pair[0]
    return plurals(text, params).format_map(_Keep(params)) if params else text


def has(key: str) -> bool:
    return key in TEXT


def long_date(d: dt.date, lang: str) -> str:
    return tr("long_date", lang, day=d.day, month=d.month, month_name=MONTHS_EN[d.month - 1], year=d.year)


def label(prefix: str, name: str, lang: str) -> str:
    """A vocabulary word (cooling method, role, tier, medium, cost category …): ``prefix_name`` if the table has
    it, else the engine's own slug."""
    key = f"{prefix}_{name}"
    return tr(key, lang) if key in TEXT else name
