"""Names other programs accept, made from the project's free-text names.

- ``ascii_words``: Chinese transliterated to pinyin (pypinyin), other scripts reduced to ASCII letters/digits.
- ``slug``: NetBox/Kubernetes style ``[a-z0-9-]`` (two Chinese names never both become ``x``).
- ``unique_hostnames``: Slurm/DNS host names ``[A-Za-z0-9._-]``, made unique (``-2``, ``-3`` …) when two
  project names reduce to the same text — one mapping used by every Slurm and Kubernetes file, so
  topology.conf, slurm.conf and gres.conf always name a node the same way.
- ``hostlist`` / ``expand``: Slurm hostlist expressions through python-hostlist (the library LLNL/NSC
  tools use), never hand-written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

import hostlist as _hostlist

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def ascii_words(text: str) -> str:
    """``text`` in ASCII: Han characters as pinyin syllables separated by spaces, accents dropped."""
    s = str(text)
    if _HAN.search(s):
        from pypinyin import lazy_pinyin  # 2 MB of dictionaries: only when a name needs it

        s = " ".join(lazy_pinyin(s))
    s = unicodedata.normalize("NFKD", s)
    return s.encode("ascii", "ignore").decode("ascii")


def slug(text: str, fallback: str = "x", limit: int = 100) -> str:
    """``[a-z0-9-]`` slug (NetBox slugs, Kubernetes names)."""
    s = re.sub(r"[^a-z0-9]+", "-", ascii_words(text).lower()).strip("-")
    return s[:limit].strip("-") or fallback


def hostname(text: str, fallback: str = "node") -> str:
    """A Slurm/DNS-safe host name (letters, digits, '.', '_', '-'; no leading/trailing punctuation)."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", ascii_words(text)).strip("-._")
    return s[:63] or fallback


def unique_hostnames(names: Iterable[str], reserved: Iterable[str] = ()) -> list[str]:
    """``hostname`` of each name, made unique (case-insensitively, as DNS and Slurm compare them)."""
    taken = {r.lower() for r in reserved}
    out = []
    for n in names:
        base = hostname(n)
        h, k = base, 1
        while h.lower() in taken:
            k += 1
            h = f"{base}-{k}"
        taken.add(h.lower())
        out.append(h)
    return out


_TRAILING_NUMBER = re.compile(r"^(.*?)(\d+)$")


def hostlist(names: Iterable[str]) -> str:
    """A Slurm hostlist expression of ``names``, ranges only over each name's trailing number.

    python-hostlist's ``collect_hostlist`` also folds a number in the middle (``pod[01-08]-spine-01``), which
    Slurm 22.05 rejects ("Invalid hostlist"; slurmctld: "fatal: Invalid switches"): so names are first grouped
    by everything before their trailing number and each group is collected on its own."""
    groups: dict[str, list[str]] = {}
    for n in dict.fromkeys(names):
        m = _TRAILING_NUMBER.match(n)
        groups.setdefault(m.group(1) if m else "\0" + n, []).append(n)
    return ",".join(_hostlist.collect_hostlist(g) for _, g in sorted(groups.items()))


def expand(expr: str) -> list[str]:
    """Names of a Slurm hostlist expression."""
    return _hostlist.expand_hostlist(expr) if expr else []
