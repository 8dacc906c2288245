"""Rack positions of the site (floor slots with their power and cooling capability) and region codes: the
parsing and validation both the window and `gpuplanner set` go through."""

from __future__ import annotations

import json
import re
from typing import Any

from gpuplanner.core.errors import ValidationError
from gpuplanner.text import Msg

POSITION_COOLING = ("air", "rear-door", "liquid")  # each takes the racks of the ones before it too
_SHORT = re.compile(r"^\s*(\d+)\s*[x×]\s*([\d.]+)\s*kw\s*[-:/ ]?\s*(air|rear-door|liquid)?\s*$", re.I)


def parse_positions(text: str) -> list[dict[str, Any]]:
    """The JSON list stored in `site.positions_json`, checked: [{"count", "cooling", "kw"}, …]."""
    try:
        data = json.loads(text or "[]")
    except json.JSONDecodeError as exc:
        raise ValidationError(
            Msg("error.model.positions_json", {"reason": exc.msg}), field="positions_json", value=text
        ) from None
    if not isinstance(data, list):
        raise ValidationError(Msg("error.model.positions_list"), field="positions_json", value=text)
    out = []
    for i, p in enumerate(data):
        if not isinstance(p, dict):
            raise ValidationError(
                Msg("error.model.position_map", {"n": i + 1}), field="positions_json", value=p
            )
        count, cooling, kw = p.get("count"), p.get("cooling", "air"), p.get("kw")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValidationError(
                Msg("error.model.position_count", {"n": i + 1}),
                field="positions_json",
                value=count,
            )
        if cooling not in POSITION_COOLING:
            raise ValidationError(
                Msg("error.model.position_cooling", {"n": i + 1, "choices": ", ".join(POSITION_COOLING)}),
                field="positions_json",
                value=cooling,
            )
        if not isinstance(kw, int | float) or isinstance(kw, bool) or not kw > 0:
            raise ValidationError(
                Msg("error.model.position_kw", {"n": i + 1}), field="positions_json", value=kw
            )
        out.append({"count": count, "cooling": cooling, "kw": float(kw)})
    return out


def positions_from_text(text: str) -> str:
    """`24x40kW-air,8x120kW-liquid` (or the JSON list) → the JSON text stored in the site row."""
    t = text.strip()
    if t.startswith("["):
        return json.dumps(parse_positions(t))
    groups = []
    for part in filter(None, (s.strip() for s in t.split(","))):
        m = _SHORT.match(part)
        if not m:
            raise ValidationError(
                Msg("error.model.rack_positions", {"text": part}),
                field="positions",
                value=part,
                hint=Msg("error.model.rack_positions.hint"),
            )
        groups.append(
            {"count": int(m.group(1)), "cooling": (m.group(3) or "air").lower(), "kw": float(m.group(2))}
        )
    return json.dumps(parse_positions(json.dumps(groups)))


def check_region(code: str) -> None:
    if code and not re.fullmatch(r"[A-Z]{2}", code):
        raise ValidationError(
            Msg("error.model.region"),
            field="region",
            value=code,
        )
