"""The analysis as JSON: exactly what ``gpuplanner analyze FILE --json`` prints (``results_json``)."""

from __future__ import annotations

import json
import math
from typing import Any


def plain(value: Any) -> Any:
    """JSON-safe: numpy scalars and arrays to Python, non-finite floats to null."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [plain(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        return plain(value.item())
    if hasattr(value, "tolist"):
        return plain(value.tolist())
    return value


def results_text(data: dict[str, Any]) -> str:
    return json.dumps(plain(data), indent=2, ensure_ascii=False) + "\n"
