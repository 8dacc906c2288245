"""Line-breaking rules of the report: a number never parts from its unit, its currency word or its measure word
("400 Gb/s", "2,348.3 万美元", "512 根"), in English (no-break spaces: reportlab breaks Latin text at spaces
only) and in Chinese (reportlab's CJK wrap cuts between any two characters, so the lines it makes are moved
back to the start of a number-and-unit span that they would cut).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

NBSP = "\u00a0"
_NUMBER = r"[-−+]?\d[\d,]*(?:\.\d+)?(?:\s?[–-]\s?\d[\d,]*(?:\.\d+)?)?"
# Units, currency words and measure words a figure in the report carries (longest first inside each group).
_UNITS = (
    r"(?:[万亿]\s?)?(?:美元|欧元|日元|港元|英镑|元)|万|亿|台|根|条|个|套|排|块|名|人|年|月|天|小时|分钟|倍"
    r"|kVA|kWh|MWh|kW|MW|W|Gb/s|GB/s|TB/s|Tb/s|TFLOPS|PFLOPS|GB|TB|MB|ms|ns|min|mm|kg|m³/h|L/min|°C|%|A|V|U|m|s|K"
    r"|USD|CNY|EUR|JPY|HKD|GBP|GPUs?|servers?|racks?|switches|switch|cables?|links?|rows?|points?"
)
# a span: the number, then (optionally) a space and a unit that is not the start of a longer word
SPAN = re.compile(rf"(?<![A-Za-z0-9.,\-–]){_NUMBER}(?:[ {NBSP}]?(?:{_UNITS})(?![A-Za-z]))?")
_LATIN_GAP = re.compile(rf"(\d)\s(?=(?:{_UNITS})(?![A-Za-z]))")


def keep_units(text: str) -> str:
    """No-break spaces between a number and its unit ("1,024 kW" → "1,024\u00a0kW") for Latin line breaking."""
    return _LATIN_GAP.sub(rf"\1{NBSP}", text)


def spans(word: str) -> list[tuple[int, int]]:
    """(start, end) of every number-and-unit span of ``word``."""
    return [m.span() for m in SPAN.finditer(word) if m.end() - m.start() > 1]


def _starts(word: str, lines: Sequence[Sequence[Any]]) -> list[int]:
    pos, out = 0, []
    for _, text in lines:
        at = word.find(text, pos) if text else pos
        out.append(at if at >= 0 else pos)
        pos = out[-1] + len(text)
    return out


def keep_spans(
    split: Callable[[str, list[float], Any], list[list]], word: str, widths: list[float], max_widths: Any
) -> list[list]:
    """``split``'s lines, with a line that would start inside a span starting at the span instead (the rest
    of the text split again); a span longer than a line still breaks (progress first)."""
    lines = split(word, widths, max_widths)
    if len(lines) < 2:
        return lines
    guarded = spans(word)
    if not guarded:
        return lines
    starts = _starts(word, lines)
    for k in range(1, len(lines)):
        s = starts[k]
        inside = next(((a, b) for a, b in guarded if a < s < b), None)
        if inside is None or inside[0] <= starts[k - 1]:
            continue
        a = inside[0]
        prev = lines[k - 1]
        head = [*lines[: k - 1], [prev[0] + sum(widths[a:s]), word[starts[k - 1] : a].rstrip()]]
        rest_widths = list(max_widths[k:]) if isinstance(max_widths, list | tuple) else max_widths
        if isinstance(rest_widths, list) and not rest_widths:
            rest_widths = [max_widths[-1]]
        return head + keep_spans(split, word[a:], widths[a:], rest_widths)
    return lines


def _slice_frags(frags: Sequence[Any], start: int, end: int) -> list[Any]:
    """The frags' text from character ``start`` to ``end``, each piece keeping its frag's style."""
    out, pos = [], 0
    for f in frags:
        text = f.text
        a, b = max(start - pos, 0), min(end - pos, len(text))
        if a < b:
            piece = f.clone()
            piece.text = text[a:b]
            out.append(piece)
        pos += len(text)
    return out


def keep_frag_spans(split: Callable[..., Any], frags: Sequence[Any], max_widths: Any, *args: Any) -> Any:
    """The same rule for paragraphs of several fragments (reportlab's ``cjkFragSplit``: a paragraph with an
    entity such as ``&amp;`` or with mixed fonts). Left to reportlab when a fragment is not plain text."""
    result = split(frags, max_widths, *args)
    lines = result.lines
    if len(lines) < 2 or any(
        not isinstance(f.text, str) or not f.text or hasattr(f, "cbDefn") for f in frags
    ):
        return result
    text = "".join(f.text for f in frags)
    guarded = spans(text)
    if not guarded:
        return result
    starts, pos = [], 0
    for ln in lines:
        starts.append(pos)
        pos += sum(len(w.text) for w in ln.words)
    if pos != len(text):
        return result  # not one character per glyph: leave it
    widths = list(max_widths) if isinstance(max_widths, list | tuple) else [max_widths]
    for k in range(1, len(lines)):
        s = starts[k]
        inside = next(((a, b) for a, b in guarded if a < s < b), None)
        if inside is None or inside[0] <= starts[k - 1]:
            continue
        a = inside[0]
        line_w = widths[min(k - 1, len(widths) - 1)]
        head = split(_slice_frags(frags, starts[k - 1], a), [line_w], *args).lines
        rest_w = widths[k:] or [widths[-1]]
        rest = keep_frag_spans(split, _slice_frags(frags, a, len(text)), rest_w, *args).lines
        result.lines = [*lines[: k - 1], *head, *rest]
        return result
    return result
