"""Catalog entries' names in the UI language, as the report and the checks' messages name them
(``gpuplanner.catalog.names``): the catalog's ``name`` in English; in Chinese ``name_zh`` when it says what
the thing is, else the kind in Chinese words, the model name and its key figures ("GPU 服务器 DGX H100（8 ×
H100 SXM5 80GB）", "机柜（48U，600 × 1,200 mm）")."""

from __future__ import annotations

from typing import Any

from gpuplanner.catalog.names import local_name, name_of
from gpuplanner.ui.i18n import current_language


def entry_name(catalog: Any, e: Any) -> str:
    """``e``'s name in the UI language."""
    return local_name(e, catalog, current_language())


def name_for_id(catalog: Any, entry_id: Any) -> str:
    """The name in the UI language of the entry ``entry_id``; the id itself when the catalog has none."""
    return name_of(catalog, entry_id, current_language())


def choice(catalog: Any, e: Any) -> tuple[str, str]:
    """A model list's (shown text, value): the name in the UI language and the id, "DGX H100 (nvidia-dgx-h100)"."""
    return f"{entry_name(catalog, e)} ({e.id})", str(e.id)


def search_text(catalog: Any, e: Any) -> str:
    """What a search over the catalog matches, lower case: the id, the vendor, the model, the English name,
    ``name_zh`` and the Chinese name (so either language's words find the entry in either UI language)."""
    parts = [
        e.id,
        getattr(e, "vendor", ""),
        getattr(e, "model", ""),
        e.name,
        getattr(e, "name_zh", ""),
        local_name(e, catalog, "zh"),
    ]
    return " ".join(str(p or "") for p in parts).lower()
