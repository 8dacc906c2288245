"""The report's strings: a thin view of the text package (``gpuplanner.text``), which holds every report
sentence in English and Chinese (``text/report_front.py``, ``report_body.py``, ``report_plan.py``,
``report_project.py``) next to the findings' and the engine's sentences.

Each entry is a whole sentence or label with ``{name}`` placeholders, never a fragment to be joined to others.
The functions here keep the report's API (``tr``, ``has``, ``label``, ``long_date``, ``plurals``, ``TEXT``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from gpuplanner import text

LANGS = text.LANGS
# the report's own entries (every id of the text package renders through ``tr``)
TEXT: dict[str, tuple[str, str]] = {
    k: v for name, table in text.TABLES.items() if name.startswith("report_") for k, v in table.items()
}
MONTHS_EN = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip

plurals = text.plurals


def tr(key: str, lang: str = "en", **params: Any) -> str:
    """The string ``key`` in ``lang`` (English when ``lang`` is unknown), with its placeholders filled and its
    plural choices (``{n|one|other}``) made."""
    return text.render(key, lang, **params)


def has(key: str) -> bool:
    return text.has(key)


def long_date(d: dt.date, lang: str) -> str:
    return tr("long_date", lang, day=d.day, month=d.month, month_name=MONTHS_EN[d.month - 1], year=d.year)


def label(prefix: str, name: str, lang: str) -> str:
    """A vocabulary word (cooling method, role, tier, medium, cost category …): ``prefix_name`` if the table has
    it, else the engine's own slug."""
    key = f"{prefix}_{name}"
    return tr(key, lang) if text.has(key) else name
