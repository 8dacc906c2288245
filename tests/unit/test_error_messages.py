"""Errors as message data: the raise sites a desktop user can reach (commands, storage, imports, the file
service) name a message id and values; every id they name exists in the text package with the same
placeholders in English and Chinese; ``str(err)`` is English and the Chinese rendering is Chinese."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import pytest

from gpuplanner import text
from gpuplanner.core.errors import PlannerError, ProjectFileError, ValidationError
from gpuplanner.model import Project
from gpuplanner.storage import open_project, save_project

PKG = Path(__file__).resolve().parents[2] / "gpuplanner"
# Where every raise of a PlannerError gives its message (and hint) as a message id, never English text.
CONVERTED = ["commands", "storage", "imports", "topology", "ui/file_service.py"]
CJK = re.compile(r"[\u4e00-\u9fff]")


def _files(parts: list[str]) -> list[Path]:
    out: list[Path] = []
    for part in parts:
        p = PKG / part
        out += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return out


def _msg_ids(node: ast.AST) -> list[str]:
    """The ids of every ``Msg("id", …)`` under ``node``."""
    return [
        n.args[0].value
        for n in ast.walk(node)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == "Msg"
        and n.args
        and isinstance(n.args[0], ast.Constant)
    ]


def _error_raises(tree: ast.AST) -> list[ast.Call]:
    return [
        n.exc
        for n in ast.walk(tree)
        if isinstance(n, ast.Raise)
        and isinstance(n.exc, ast.Call)
        and isinstance(n.exc.func, ast.Name)
        and n.exc.func.id.endswith("Error")
        and n.exc.func.id != "NotImplementedError"
    ]


def test_every_message_id_named_in_the_package_exists_with_both_languages():
    named: dict[str, str] = {}
    for p in _files(["."]):
        if p.parent.name == "text" and p.parent.parent == PKG:
            continue
        for msg_id in _msg_ids(ast.parse(p.read_text(encoding="utf-8"))):
            named[msg_id] = str(p.relative_to(PKG))
    assert len([i for i in named if i.startswith("error.file.")]) >= 25  # the scan found the storage ids
    missing = sorted(f"{i} ({where})" for i, where in named.items() if not text.has(i))
    assert not missing, missing
    for msg_id in named:
        en, zh = text.MESSAGES[msg_id]
        assert text.fields(en) == text.fields(zh), msg_id
        said = re.sub(r"\{[^{}]*\}", "", zh)
        assert CJK.search(said) or not re.search(r"[A-Za-z]", said), msg_id  # Chinese, or only punctuation


def test_the_converted_raise_sites_give_message_ids_not_english():
    """An English literal or f-string as the message (or hint) of an error in these modules would show in the
    Chinese window: each raise names a ``Msg`` or a constant holding one (IN_USE, KEPT)."""
    english: list[str] = []
    count = 0
    for p in _files(CONVERTED):
        for call in _error_raises(ast.parse(p.read_text(encoding="utf-8"))):
            count += 1
            args = call.args[:1] + [k.value for k in call.keywords if k.arg == "hint"]
            for a in args:
                if isinstance(a, ast.Constant | ast.JoinedStr | ast.BinOp):
                    english.append(f"{p.relative_to(PKG)}:{call.lineno}")
    assert count >= 70, count  # the scan sees the raise sites
    assert not english, english


def test_str_is_english_and_the_chinese_line_names_the_values():
    err = ValidationError(
        text.Msg("error.import.not_key_value", {"line": 7, "token": "Nodes"}), field="file", value="t.conf"
    )
    assert str(err) == "field 'file': line 7: 'Nodes' is not Key=Value"
    assert err.msg_id == "error.import.not_key_value"
    zh = text.error_line(err, "zh")
    assert zh == "字段“file”：第 7 行：“Nodes”不是 Key=Value 形式", zh
    assert text.error_line(err, "en") == str(err)
    assert text.error_line(err, "zh", label=lambda f: {"file": "文件"}[f]).startswith("字段“文件”：")


def test_an_error_with_english_text_only_is_shown_whole_not_half_translated():
    err = ValidationError("racks field 'x' must be int", entry="r1", field="x")
    assert text.error_line(err, "zh") == str(err) == "entry 'r1', field 'x': racks field 'x' must be int"


def test_the_message_survives_a_process_boundary():
    """The advisor runs searches in worker processes: an error pickled back keeps its id and values."""
    err = ProjectFileError(
        text.Msg("error.file.newer", {"version": 9, "max_version": 4}),
        file="a.gpuplan",
        hint=text.Msg("error.file.newer.hint"),
    )
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == str(err)
    assert text.error_line(back, "zh") == (
        "a.gpuplan：该文件由更新版本的 GPU Planner 创建（文件格式 9；本版本最高只能读取格式 4）（请升级 GPU Planner 后再打开）"
    )


def test_nested_messages_render_in_the_same_language(tmp_path):
    """A refusal quoting another message (a price copy inside a file error) is Chinese throughout."""
    from gpuplanner.storage.integrity import check_price

    with pytest.raises(ProjectFileError) as info:
        check_price("dgx", {"price_usd": -5}, str(tmp_path / "p.gpuplan"))
    en, zh = str(info.value), text.error_line(info.value, "zh")
    assert "bad price copy for 'dgx': price_usd must be between 0 and 1,000,000,000,000" in en
    assert "项目中“dgx”的价格副本有误：价格必须在 0 到 1,000,000,000,000 美元之间" in zh, zh
    assert "bad price" not in zh


def test_a_real_refusal_from_storage_in_both_languages(tmp_path):
    bad = tmp_path / "x.gpuplan"
    bad.write_text("hello", encoding="utf-8")
    with pytest.raises(PlannerError) as info:
        open_project(bad)
    assert info.value.msg_id == "error.file.not_project"
    assert "not a GPU Planner project" in str(info.value)
    assert "这不是 GPU Planner 项目" in text.error_line(info.value, "zh")
    with pytest.raises(PlannerError) as info:
        save_project(Project(), tmp_path / "missing" / "y.gpuplan")
    assert text.error_line(info.value, "zh").endswith("文件夹不存在")


# -- errors raised as English made from an id (``text.en``, the engine's raise sites) are read back ------------
def test_every_error_sentence_is_read_back_to_its_id_and_values():
    """Each error template (bar plural choices, word look-ups and all-placeholder ones), filled with distinct
    values and rendered in English, is recognised as that id with those values, and its Chinese is the Chinese
    template filled with them."""
    from gpuplanner.text.recover import _patterns, plain, recover

    ids = [i for i, _ in _patterns()]
    assert len(ids) >= 150
    for msg_id in ids:
        en, zh = text.MESSAGES[msg_id]
        values = {n: f"V{k}x" for k, n in enumerate(sorted(text.fields(en)))}
        english = text.fill(plain(en), "en", values)
        found = recover(english)
        assert found is not None and found.id == msg_id, (msg_id, english, found)
        assert dict(found.params) == values
        assert found.render("zh") == text.fill(plain(zh), "zh", values)


def test_an_engine_refusal_raised_in_english_shows_in_chinese(tmp_path):
    """engine/assumptions.py raises ``CatalogError(text.en("error.no_entries_map"), file=…)``: English for the
    CLI, and the window reads it back to its id."""
    from gpuplanner.engine.assumptions import load_assumptions

    bad = tmp_path / "cost.yaml"
    bad.write_text("kind: assumptions\narea: cost\n", encoding="utf-8")
    with pytest.raises(PlannerError) as info:
        load_assumptions("cost", bad)
    assert info.value.msg is None and str(info.value).endswith("no 'entries' map")
    assert text.error_line(info.value, "zh") == f"{bad}：缺少 “entries” 映射"


def test_values_with_specs_come_back_as_shown():
    err = ValidationError(
        text.en("error.heads_over_tp", heads=32, tp=3), field="tp", hint=text.en("error.heads_over_tp.hint")
    )
    zh = text.error_line(err, "zh")
    assert "32" in zh and "tp = 3" in zh and CJK.search(zh) and "cannot" not in zh, zh


def test_english_that_no_template_gives_stays_english_whole():
    said = text.en("error.heads_over_tp", heads=32, tp=3).replace("cannot", "can no longer")
    err = ValidationError(said, field="tp")
    assert text.error_line(err, "zh") == str(err)
    hinted = ValidationError(text.en("error.heads_over_tp", heads=32, tp=3), hint="ask someone")
    assert text.error_line(hinted, "zh") == str(hinted)  # a hint that cannot be read back: all English
