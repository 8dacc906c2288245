"""The text package: every message in both languages with the same placeholders, every id the code names
exists, no message is left unused, and the engine holds no sentence of its own (ids and values only)."""

from __future__ import annotations

import ast
import builtins
import re
import sys
from pathlib import Path

import pytest

from gpuplanner import text

PKG = Path(text.__file__).resolve().parent.parent  # gpuplanner/
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
# a word: two or more Latin letters standing alone; "tp{}" / "mb8" (a layout code next to a value) and
# "rack-over-power-budget" / "word.budget" (a slug, an id) are none
WORD = re.compile(r"(?<![\w{}./-])[A-Za-z]{2,}(?![\w{}./-])")
# exceptions of Python's own (ValueError, IndexError …) report a programmer's mistake in a call (arrays of
# unequal length, a closed runner), never a user's: their messages stay English in the code
PROGRAMMER_ERRORS = {
    n
    for n in dir(builtins)
    if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), Exception)
}


def sources(under: Path) -> list[Path]:
    return sorted(p for p in under.rglob("*.py") if "__pycache__" not in p.parts)


def literal(node: ast.AST) -> str | None:
    """A string constant, or an f-string's literal parts with "{}" for each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def is_sentence(s: str) -> bool:
    return bool(CJK.search(s)) or len(WORD.findall(s)) >= 3


def sentence_literals(path: Path) -> list[tuple[int, str]]:
    """The sentences written in a module: string constants with a CJK character or three words, except
    docstrings, dict keys and the messages of Python's own exceptions (programmer errors)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for n in ast.walk(tree):
        body = getattr(n, "body", None)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and literal(first.value) is not None:
                skip.add(id(first.value))
        if isinstance(n, ast.Dict):
            skip.update(id(k) for k in n.keys if k is not None)
        call = n.exc if isinstance(n, ast.Raise) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in PROGRAMMER_ERRORS
        ):
            skip.update(id(m) for m in ast.walk(call))
        if isinstance(n, ast.JoinedStr):
            skip.update(id(v) for v in n.values)
        if (  # a regular expression's pattern ("…kw…(air|rear-door|liquid)") is code, not a sentence
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name)
            and n.func.value.id == "re"
            and n.args
        ):
            skip.add(id(n.args[0]))
    out = []
    for n in ast.walk(tree):
        s = literal(n)
        if s is not None and id(n) not in skip and is_sentence(s):
            out.append((n.lineno, s))
    return out


def test_the_scan_finds_sentences_and_leaves_codes_alone(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        '"""A module docstring with many words."""\n'
        'A = "the plan has no GPU servers"\n'
        'B = f"workload {x!r} needs {n} GPUs"\n'
        'C = "阶段"\n'
        'D = f"tp{a} pp{b} dp{c} mb{d}"\n'
        'E = {"a key with words": 1}\n'
        'F = "rack-over-power-budget"\n'
        'G = re.compile(r"^(\\d+) x kw (air|rear-door|liquid)$")\n'
        'def f(x):\n    raise ValueError(f"src has {x} entries, dst {x}: they must match")\n',
        encoding="utf-8",
    )
    assert [line for line, _ in sentence_literals(src)] == [2, 3, 4]


@pytest.mark.parametrize("package", ["engine", "model", "commands"])
def test_the_engine_model_and_commands_hold_no_sentence(package):
    found = [
        f"{p.relative_to(PKG.parent)}:{line}: {s[:70]!r}"
        for p in sources(PKG / package)
        for line, s in sentence_literals(p)
    ]
    assert not found, "sentences belong in gpuplanner/text:\n" + "\n".join(found)


def test_every_message_has_english_and_chinese_with_the_same_placeholders():
    for msg_id, (en, zh) in text.MESSAGES.items():
        assert en.strip() and zh.strip(), msg_id
        if msg_id != "long_date":  # English names the month, Chinese numbers it
            assert text.fields(en) == text.fields(zh), msg_id


def test_chinese_is_chinese():
    """A message whose Chinese equals its English is a name, a unit or a number layout (the report's own
    test lists those); an engine message always says something in Chinese."""
    for msg_id, (_en, zh) in text.MESSAGES.items():
        if msg_id.startswith(("finding.", "fix.", "perf.", "error.")):
            said = re.sub(r"\{[^{}]*\}", "", zh)
            assert CJK.search(said) or not re.search(r"[A-Za-z]", said), msg_id


def test_ids_are_unique_across_the_tables():
    with pytest.raises(ValueError, match="page_of"):
        text.catalog.merged({"a": {"page_of": ("a", "b")}, "b": {"page_of": ("c", "d")}})
    assert len(text.MESSAGES) == sum(len(t) for t in text.TABLES.values())


ID_PREFIX = {"exports/xlsx.py": "xlsx."}  # the workbook's ``t(key)`` reads ``xlsx.<key>``


def is_text_call(n: ast.AST) -> bool:
    """``tr("id")``, ``i18n.tr("id")``, ``ctx.t("id")``, ``text.render("id")``, ``text.en("id")``, ``Msg("id")``
    (not Qt's ``self.tr("source text")``, which the UI's translation check covers)."""
    if not (isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Constant)):
        return False
    if not isinstance(n.args[0].value, str):
        return False
    f = n.func
    if isinstance(f, ast.Attribute):
        if isinstance(f.value, ast.Name) and f.value.id == "self":
            return False
        if f.attr == "render":  # text.render("id"), not a Msg's .render("en")
            return isinstance(f.value, ast.Name) and f.value.id == "text"
        return f.attr in ("t", "tr", "en", "Msg")
    return isinstance(f, ast.Name) and f.id in ("tr", "Msg")


def code_strings() -> tuple[set[str], set[str], set[str], set[str]]:
    """Outside the text package's tables: every string constant, every f-string's leading literal, the rules of every
    ``Finding(severity, rule, …)`` and the ids passed to ``tr``/``ctx.t``/``text.render``/``text.en``/``Msg``."""
    consts: set[str] = set()
    heads: set[str] = set()
    rules: set[str] = set()
    keys: set[str] = set()
    for p in sources(PKG):
        if p.parent.name == "text" and p.parent.parent == PKG and p.name != "render.py":
            continue  # the tables themselves; render.py is code (it names the ids of an error's one line)
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                consts.add(n.value)
            if isinstance(n, ast.JoinedStr) and n.values and isinstance(n.values[0], ast.Constant):
                heads.add(str(n.values[0].value))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Finding":
                rule = n.args[1] if len(n.args) > 1 else None
                if isinstance(rule, ast.Constant) and isinstance(rule.value, str):
                    rules.add(rule.value)
            if "ui" not in p.relative_to(PKG).parts and is_text_call(n):
                prefix = ID_PREFIX.get(p.relative_to(PKG).as_posix(), "")
                keys.add(prefix + n.args[0].value)  # type: ignore[attr-defined]
    return consts, heads, rules, keys


def word_vocabularies() -> set[str]:
    """The vocabularies the code looks words up in by name: ``text.word("inference_bound", slug, lang)``."""
    out: set[str] = set()
    for p in sources(PKG):
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if not (isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Constant)):
                continue
            f = n.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name == "word" and isinstance(n.args[0].value, str):
                out.add(n.args[0].value)
    return out


def used(msg_id: str, consts: set[str], heads: set[str], rules: set[str], vocabularies: set[str]) -> bool:
    if msg_id.startswith(("finding.", "fix.")):
        return msg_id.split(".", 1)[1] in rules
    if msg_id.startswith("word."):
        return msg_id.split(".")[1] in vocabularies
    if msg_id in consts:
        return True
    prefixes = {h for h in consts | heads if len(h) >= 3 and h[-1] in "._"}
    prefixes |= {c + "_" for c in consts if 2 <= len(c) <= 8 and c.isalpha()}  # i18n.label("cool", slug)
    return any(msg_id.startswith(p) for p in prefixes)


def test_every_id_the_code_names_exists_and_every_message_is_used():
    consts, heads, rules, keys = code_strings()
    assert not sorted(k for k in keys if not text.has(k)), "ids passed to tr/t/render/en/Msg"
    templates = [t for pair in text.MESSAGES.values() for t in pair]
    vocabularies = {m for t in templates for m in re.findall(r"\{\w+@([\w-]+)\}", t)}
    vocabularies |= {h.split(".")[1] for h in consts | heads if h.startswith("word.") and h.count(".") >= 2}
    vocabularies |= {"separator"}  # the joiner of a list of words (render.py)
    vocabularies |= word_vocabularies()
    missing_rules = sorted(r for r in rules if not text.has(f"finding.{r}") or not text.has(f"fix.{r}"))
    assert not missing_rules, missing_rules
    named = {c for c in consts if re.fullmatch(r"(perf|error|word)\.[\w.+-]+", c)}
    assert not sorted(c for c in named if not text.has(c) and not c.endswith(".")), "ids named in code"
    unused = sorted(k for k in text.MESSAGES if not used(k, consts, heads, rules, vocabularies))
    assert not unused, unused


def test_render_fills_words_plurals_and_nested_messages():
    assert text.render("word.budget.tco", "zh", years=5) == "5 年总拥有成本（TCO）"
    f = text.finding(
        "budget-exceeded",
        "message",
        "zh",
        {"what": "tco", "years": 5, "plan": 1200, "limit": 1000, "currency": "CNY", "over_pct": 20.0},
    )
    assert f.startswith("5 年总拥有成本（TCO）：1,200 CNY") and "{" not in f
    en = text.finding("device-not-networked", "message", "en", {"n": 1, "name": "s1", "kind": "storage"})
    zh = text.finding("device-not-networked", "message", "zh", {"n": 1, "name": "s1", "kind": "storage"})
    assert "(storage)" in en and "（存储设备）" in zh
    unknown = text.finding("device-not-networked", "message", "zh", {"n": 2, "name": "x", "kind": "robot"})
    assert "（robot）" in unknown  # a slug without a word shows as itself
    media = {"n": 3, "reach": "3", "min": "3.1", "max": "4.0", "a": "a", "b": "b", "modules": 6,
             "media_kinds": ["fiber-mmf", "aoc"], "overhead": "1", "floor": "2"}  # fmt: skip
    assert "multimode fibre / active optical cables" in text.finding(
        "copper-missed-by-distance", "message", "en", media
    )
    assert "多模光纤/有源光缆" in text.finding("copper-missed-by-distance", "message", "zh", media)
    inner = text.finding_msg("storage-missing", {"gpus": 1024})
    outer = {"phase": "P2", "before": "P1", "what": inner}
    assert "1,024 块用于训练的 GPU" in text.finding("phase-growth-needs-replacement", "message", "zh", outer)
    assert "1,024 GPUs" in text.finding("phase-growth-needs-replacement", "message", "en", outer)
    assert text.render("no.such.id", "zh") == "no.such.id"
    assert text.fill("{share:.0%} of {x}", "en", {"x": 1}) == "{share:.0%} of 1"  # a gap, not an exception


def test_the_translation_check_covers_the_text_package(monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "translations_tool", PKG.parent / "tools" / "translations.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, tool)  # dataclasses look their module up
    spec.loader.exec_module(tool)
    assert tool.text_problems() == []
    bad = {**text.MESSAGES, "error.x": ("{a} failed", " "), "error.y": ("{a} failed", "{b} 失败")}
    monkeypatch.setattr(text, "MESSAGES", bad)
    assert tool.text_problems() == [
        "text: error.x has no Chinese",
        "text: placeholders differ in error.y: ['a'] / ['b']",
    ]


def test_counts_take_plural_forms_in_english_and_measure_words_in_chinese():
    one = text.render("net_mgmt_omitted", "en", switches=1, cables=1)
    many = text.render("net_mgmt_omitted", "en", switches=2, cables="1,024")
    assert "(1 switch, 1 cable)" in one and "(2 switches, 1,024 cables)" in many
    assert "（2 台交换机，1,024 条线缆）" in text.render("net_mgmt_omitted", "zh", switches=2, cables="1,024")
    users = {"workload": "chat", "partition": "p", "gpus": 16, "capacity": 12.5, "target": 500, "needed": 64}
    en = text.finding("serving-target-not-met", "message", "en", {**users, "unit": "users"})
    zh = text.finding("serving-target-not-met", "message", "zh", {**users, "unit": "users"})
    rate = text.finding("serving-target-not-met", "message", "zh", {**users, "unit": "requests"})
    assert "serves 12.5 concurrent users within" in en
    assert (
        "可服务 12.5 个并发用户" in zh and "可服务 12.5 请求/秒" in rate
    )  # the measure word comes with the noun
