"""An error raised as English text made from a message id (``text.en(id, **values)``, as the engine's raise
sites still do) matched back to its id and values, so that the window can show it in the user's language.

A template becomes a pattern (each placeholder a lazy group); a match counts only when the template, filled
with the values found, gives the English text back exactly. Format specs and conversions are dropped on both
sides (a value comes back as the text it was shown as: "1,024", "'tp'"). Templates with plural choices or
word look-ups, templates with two placeholders side by side, and templates with fewer than eight letters of
their own ("{what}: {reason}") are not matched: they could not be told apart from other sentences. A value
at the very start or end of a template takes whatever English stands there (nothing is lost, but that part
stays English); the raise sites that pass a ``Msg`` have no such limit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from gpuplanner.text.catalog import MESSAGES
from gpuplanner.text.render import fill, template

_FIELD = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")
MIN_LETTERS = 8


def plain(text: str) -> str:
    """A template without format specs and conversions ("{n:,}" → "{n}", "{name!r}" → "{name}")."""
    return _FIELD.sub(lambda m: "{" + m.group(1) + "}", text)


@dataclass(frozen=True)
class Recovered:
    """A message id with the values read back from its English text (a ``core.errors.Message``)."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str = "en") -> str:
        return fill(plain(template(self.id, lang) or self.id), lang, self.params)


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    for msg_id, (en, _zh) in MESSAGES.items():
        if not msg_id.startswith("error.") or "|" in en or "@" in en:
            continue
        parts, names, pos, letters = [], [], 0, 0
        adjacent = False
        for m in _FIELD.finditer(en):
            lit = en[pos : m.start()]
            adjacent = adjacent or (not lit and pos > 0)  # "{links}{more}": no way to tell where one ends
            letters += len(re.findall(r"[A-Za-z]", lit))
            parts.append(re.escape(lit))
            name = m.group(1)
            parts.append(f"(?P={name})" if name in names else f"(?P<{name}>.+?)")
            names.append(name)
            pos = m.end()
        letters += len(re.findall(r"[A-Za-z]", en[pos:]))
        parts.append(re.escape(en[pos:]))
        if letters >= MIN_LETTERS and not adjacent:
            out.append((letters, msg_id, re.compile("^" + "".join(parts) + "$", re.S)))
    out.sort(key=lambda t: -t[0])  # the most specific sentence first
    return tuple((msg_id, pat) for _n, msg_id, pat in out)


@lru_cache(maxsize=256)
def recover(english: str) -> Recovered | None:
    """The message id and values that ``english`` was rendered from; None when no template gives it back."""
    for msg_id, pat in _patterns():
        m = pat.match(english)
        if m is None:
            continue
        found = Recovered(msg_id, dict(m.groupdict()))
        if found.render("en") == english:
            return found
    return None


_WHERE = re.compile(r"^(?:entry '(?P<entry>[^']*)'(?:, )?)?(?:field '(?P<field>[^']*)')?: ")


def line_parts(line: str) -> tuple[dict[str, str], Recovered, Recovered | None] | None:
    """An error's English one line (``PlannerError.one_line``, as results keep it: "field 'tp': … (hint)")
    read back: where (entry, field), the message and the hint; None when the message (or the hint) is not
    a known sentence."""
    m = _WHERE.match(line)
    where = {k: v for k, v in (m.groupdict() if m and m.end() > 2 else {}).items() if v}
    rest = line[m.end() :] if where and m else line
    at = len(rest)
    while rest.endswith(")") and (at := rest.rfind(" (", 0, at)) > 0:  # " (hint)" at the end, tried first:
        msg, hint = recover(rest[:at]), recover(rest[at + 2 : -1])  # a message's last value would take it
        if msg is not None and hint is not None:
            return where, msg, hint
    whole = recover(rest)
    return None if whole is None else (where, whole, None)
