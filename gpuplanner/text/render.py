"""Rendering a message: pick the language's template, make its plural choices and word look-ups, fill it.

Template syntax (``str.format`` plus two additions, the same in both languages):

- ``{name}``, ``{share:.0%}``: a placeholder filled from the parameters; an unknown one stays as written.
- ``{n|one|other}``: a plural choice, ``one`` when the parameter ``n`` is one (1, "1", "1.0"), else ``other``.
  English needs it ("1 servers"); Chinese writes the measure word with the count instead ("1 台服务器").
- ``{kind@device_kind}``: the word ``word.device_kind.<value of kind>`` in the template's language (a
  vocabulary look-up: an engine slug such as ``server`` becomes "server" / "服务器"); the value itself when
  the vocabulary has no such word. A Chinese measure word that depends on the noun lives in the word
  ("个并发用户" vs "请求/秒").
- A parameter that is a :class:`Msg` (a message id with its own parameters) is rendered in the same language,
  so a sentence can quote another one (a phase finding naming the finding that blocks growth); a
  :class:`Named` one (a name written out in each language: a catalog entry's) shows that language's name. A
  list holding such values or plain names (the names of several entries) is joined with the language's list
  separator; an empty one is the language's word for none.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gpuplanner.text.catalog import MESSAGES

LANGS = ("en", "zh")

_PLURAL = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")
_WORD = re.compile(r"\{(\w+)@([\w.-]+)\}")


@dataclass(frozen=True)
class Msg:
    """A sentence not yet rendered: a message id and the values for its placeholders."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    shown: bool = False  # values shown as a finding shows them (see ``display``)

    def render(self, lang: str = "en") -> str:
        text = template(self.id, lang)
        if text is None:
            return self.id
        return fill(text, lang, self.params, display if self.shown else None)


@dataclass(frozen=True)
class Named(Msg):
    """A name written out in each language (``params``: language → text), such as a catalog entry's
    (``gpuplanner.catalog.names.named``): as a value inside a message it shows the text of the message's
    language, the English one when it has none for that language. A check hands it over where the text
    layer could not build the name itself (it knows no catalog)."""

    id: str = "named"

    def render(self, lang: str = "en") -> str:
        return str(self.params.get(lang) or self.params.get("en") or "")

    def __str__(self) -> str:
        return self.render("en")


class _Keep(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _is_one(v: Any) -> bool:
    try:
        return float(str(v).replace(",", "")) == 1.0
    except ValueError:
        return False


def plurals(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with its plural choices (``{n|one|other}``) made for ``params``."""
    return _PLURAL.sub(lambda m: m.group(2) if _is_one(params.get(m.group(1))) else m.group(3), text)


def template(msg_id: str, lang: str = "en") -> str | None:
    """The raw template of ``msg_id`` in ``lang`` (English when ``lang`` is unknown), None when unknown."""
    pair = MESSAGES.get(msg_id)
    if pair is None:
        return None
    return pair[1] if lang == "zh" else pair[0]


def has(msg_id: str) -> bool:
    return msg_id in MESSAGES


def word(vocabulary: str, value: Any, lang: str = "en") -> str:
    """The word for an engine slug (``word("device_kind", "server", "zh")`` → "服务器"); the slug when the
    vocabulary has none."""
    t = template(f"word.{vocabulary}.{value}", lang)
    return str(value) if t is None else t


def render(msg_id: str, lang: str = "en", **params: Any) -> str:
    """The message ``msg_id`` in ``lang`` with its placeholders filled; the id itself when unknown."""
    text = template(msg_id, lang)
    if text is None:
        return msg_id
    return fill(text, lang, params)


def fill(text: str, lang: str, params: Mapping[str, Any], show: Callable[[Any], Any] | None = None) -> str:
    """A template filled: word look-ups (whose words may hold placeholders too), plural choices, nested
    messages, then the placeholders (each value passed through ``show`` when given)."""
    if not params or "{" not in text:
        return text
    if "@" in text:
        text = _WORD.sub(lambda m: _look(m, lang, params), text)
    text = plurals(text, params)
    values: dict[str, Any] = {}
    for k, v in params.items():
        if isinstance(v, Msg):
            values[k] = v.render(lang)
        elif isinstance(v, list | tuple) and all(
            isinstance(x, Msg | str) for x in v
        ):  # names: "、" in Chinese
            sep = template("word.separator.list", lang) or ", "
            joined = sep.join(x.render(lang) if isinstance(x, Msg) else x for x in v)
            values[k] = joined if v else template("word.list.none", lang)  # no names: "none" / 无
        else:
            values[k] = show(v) if show is not None else v
    try:
        return text.format_map(_Keep(values))
    except (ValueError, TypeError, IndexError, AttributeError):  # a value that does not suit its format spec
        return _fill_each(text, values)


def _fill_each(text: str, values: Mapping[str, Any]) -> str:
    """Field by field, keeping as written each field that cannot be filled (a missing value under a format
    spec, ``{share:.0%}`` without ``share``): a sentence with one gap beats an exception in a report."""
    out = []
    for literal, name, spec, conv in string.Formatter().parse(text):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is None:
            continue
        field_text = "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
        try:
            out.append(field_text.format_map(values).replace("{", "{{").replace("}", "}}"))
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            out.append(field_text.replace("{", "{{").replace("}", "}}"))
    return "".join(out).format()


def _look(m: re.Match[str], lang: str, params: Mapping[str, Any]) -> str:
    name, vocabulary = m.group(1), m.group(2)
    if name not in params:
        return m.group(0)
    v = params[name]
    if isinstance(
        v, list | tuple
    ):  # several slugs: their words joined ("multimode fibre / single-mode fibre")
        sep = template("word.separator.alternatives", lang) or " / "
        return sep.join(word(vocabulary, x, lang) for x in v)
    return word(vocabulary, v, lang)


def en(msg_id: str, **params: Any) -> str:
    """The English sentence: for error messages, which the CLI prints and the log keeps in English."""
    return render(msg_id, "en", **params)


def error_line(exc: BaseException, lang: str = "en", label: Callable[[str], str] | None = None) -> str:
    """An error's one line in ``lang``: where (file, entry, field: each field name through ``label`` when
    given), the message and the hint. An error raised with English text only (no message id) is shown as its
    English line whole, never half translated. In English this is ``str(exc)``."""
    msg = getattr(exc, "msg", None)
    if lang == "en" or msg is None or not hasattr(exc, "one_line"):
        return exc.one_line() if hasattr(exc, "one_line") else str(exc)
    return shown(error_msg(exc), lang, label)


@dataclass(frozen=True)
class ErrorLine(Msg):
    """An error's one line kept as message data (a result's refusal: "the workload cannot be evaluated: …"),
    rendered in any language later; as a value inside another message it renders in that message's language.
    ``params``: message (a Msg), and where known file, entry, field and hint (text or a Msg)."""

    id: str = "error.where.line"

    def render(self, lang: str = "en", label: Callable[[str], str] | None = None) -> str:
        p = self.params
        parts = []
        if p.get("file"):
            parts.append(str(p["file"]))
        if p.get("entry"):
            parts.append(render("error.where.entry", lang, entry=p["entry"]))
        name = p.get("field")
        if name:
            shown = name if lang == "en" or label is None else label(name)
            parts.append(render("error.where.field", lang, field=shown))
        message = p["message"]
        text = message.render(lang) if isinstance(message, Msg) else str(message)
        if parts:
            sep = template("error.where.separator", lang) or ", "
            text = render("error.where.line", lang, where=sep.join(parts), message=text)
        hint = p.get("hint")
        hint_text = hint.render(lang) if isinstance(hint, Msg) else hint
        if hint_text:
            text = render("error.where.hint", lang, text=text, hint=hint_text)
        return str(text)

    def __str__(self) -> str:
        return self.render("en")


def error_msg(exc: BaseException) -> Msg | str:
    """An error kept as data to show later in the user's language: its one line as an :class:`ErrorLine`
    when it was raised with a message id, else its English line (text only; shown whole)."""
    msg = getattr(exc, "msg", None)
    if msg is None or not hasattr(exc, "one_line"):
        return exc.one_line() if hasattr(exc, "one_line") else str(exc)
    hint = getattr(exc, "hint_msg", None) or getattr(exc, "hint", None)
    where = {k: getattr(exc, k, None) for k in ("file", "entry", "field")}
    params = {k: v for k, v in where.items() if v} | {"message": msg}
    if hint:
        params["hint"] = hint
    return ErrorLine("error.where.line", params)


def shown(value: Msg | str, lang: str = "en", label: Callable[[str], str] | None = None) -> str:
    """A refusal kept as data (an :class:`ErrorLine`, a ``Msg``) or as English text, in ``lang``."""
    if isinstance(value, ErrorLine):
        return value.render(lang, label)
    return value.render(lang) if isinstance(value, Msg) else value


def fields(text: str) -> set[str]:
    """The parameter names a template uses (plural choices and word look-ups count by their parameter)."""
    names = {m.group(1) for m in _PLURAL.finditer(text)} | {m.group(1) for m in _WORD.finditer(text)}
    bare = _WORD.sub(lambda m: "{" + m.group(1) + "}", _PLURAL.sub("", text))
    names |= {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(bare) if f}
    return names


def display(v: Any) -> Any:
    """A finding's value as shown: counts with thousands separators ("1,024 GPUs", as every other count in the
    app and the report), floats to three figures or one decimal, lists joined by commas."""
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    if isinstance(v, float):
        if abs(v) >= 100:
            return f"{v:,.0f}"
        return f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"
    if isinstance(v, list | tuple):
        return ", ".join(str(display(x)) for x in v)
    return v


def finding(rule: str, part: str, lang: str, params: Mapping[str, Any]) -> str:
    """A finding's sentence: ``part`` is "message" (id ``finding.<rule>``) or "fix" (``fix.<rule>``), its
    values shown by :func:`display`. An unknown rule's message is the rule slug; its fix is empty."""
    msg_id = f"finding.{rule}" if part == "message" else f"fix.{rule}"
    text = template(msg_id, lang)
    if text is None:
        return rule if part == "message" else ""
    return fill(text, lang, params, display)


def finding_msg(rule: str, params: Mapping[str, Any]) -> Msg:
    """A finding's message, not yet rendered, to quote inside another sentence."""
    return Msg(f"finding.{rule}", params, shown=True)
