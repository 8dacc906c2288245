"""Every sentence a user reads outside Qt widgets: message id → English and Chinese templates with named
placeholders, plural choices and words for engine slugs (findings, advice, performance notes, error
messages, report prose). The engine names messages by id and hands over values; the UI, the report and the
CLI render them here. Imports nothing of GPU Planner's (it sits beside ``core`` at the bottom layer).

    from gpuplanner import text
    text.render("page_of", "zh", page=2, total=9)          # "第 2 页，共 9 页"
    text.finding("storage-missing", "message", "en", {"gpus": 1024})
"""

from __future__ import annotations

from gpuplanner.text.catalog import MESSAGES, TABLES
from gpuplanner.text.render import (
    LANGS,
    ErrorLine,
    Msg,
    Named,
    display,
    en,
    error_line,
    error_msg,
    fields,
    fill,
    finding,
    finding_msg,
    has,
    plurals,
    render,
    shown,
    template,
    word,
)

__all__ = [
    "LANGS",
    "MESSAGES",
    "TABLES",
    "ErrorLine",
    "Msg",
    "Named",
    "display",
    "en",
    "error_line",
    "error_msg",
    "fields",
    "fill",
    "finding",
    "finding_msg",
    "has",
    "plurals",
    "render",
    "shown",
    "template",
    "word",
]
