"""Slurm hostlist expressions: ``node-[0001-0004,0007],leaf1`` ⇄ a list of names (zero padding kept)."""

from __future__ import annotations

import re

_NUM_END = re.compile(r"^(.*?)(\d+)([^\d]*)$")
_ITEM = re.compile(r"([^,\[]*)(?:\[([^\]]*)\])?([^,]*)")
INVALID = re.compile(r"[\s,\[\]=#]")


def safe_name(name: str) -> str:
    """A name Slurm can parse: spaces, commas, brackets, '=' and '#' become '_'."""
    return INVALID.sub("_", name) or "_"


def compress(names: list[str]) -> str:
    """The shortest bracket form of ``names`` (order of first appearance of each prefix kept)."""
    groups: dict[tuple[str, int, str], list[int]] = {}
    plain: list[str] = []
    order: list[tuple] = []
    for n in names:
        m = _NUM_END.match(n)
        if not m:
            plain.append(n)
            order.append(("plain", n))
            continue
        key = (m.group(1), len(m.group(2)), m.group(3))
        if key not in groups:
            groups[key] = []
            order.append(("group", key))
        groups[key].append(int(m.group(2)))
    parts = []
    for kind, key in order:
        if kind == "plain":
            parts.append(key)
            continue
        prefix, width, suffix = key
        nums = sorted(set(groups[key]))
        if len(nums) == 1:
            parts.append(f"{prefix}{nums[0]:0{width}d}{suffix}")
            continue
        ranges, start, prev = [], nums[0], nums[0]
        for x in [*nums[1:], None]:
            if x is not None and x == prev + 1:
                prev = x
                continue
            ranges.append(f"{start:0{width}d}" if start == prev else f"{start:0{width}d}-{prev:0{width}d}")
            if x is not None:
                start = prev = x
        parts.append(f"{prefix}[{','.join(ranges)}]{suffix}")
    return ",".join(parts)


def expand(expr: str) -> list[str]:
    """Names of a hostlist expression (one bracket group per item)."""
    out: list[str] = []
    depth, item = 0, ""
    items = []
    for ch in expr:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            items.append(item)
            item = ""
        else:
            item += ch
    items.append(item)
    for it in filter(None, items):
        m = _ITEM.fullmatch(it)
        if not m or m.group(2) is None:
            out.append(it)
            continue
        for r in m.group(2).split(","):
            lo, _, hi = r.partition("-")
            width = len(lo)
            for n in range(int(lo), int(hi or lo) + 1):
                out.append(f"{m.group(1)}{n:0{width}d}{m.group(3)}")
    return out
