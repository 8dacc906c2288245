"""Errors as message data: the raise sites a desktop user can reach (commands, storage, imports, the file
service) name a message id and values; every id they name exists in the text package with the same
placeholders in English and Chinese; ``str(err)`` is English and the Chinese rendering is Chinese."""

from __future__ import annotations

import ast
import builtins
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
CONVERTED = ["commands", "storage", "imports", "topology", "ui/file_service.py", "model", "engine", "reports"]
# exceptions of Python's own report a programmer's mistake in a call, never a user's: English in the code
BUILTIN_ERRORS = {n for n in dir(builtins) if isinstance(getattr(builtins, n), type)}
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
        and (
            (isinstance(n.func, ast.Name) and n.func.id == "Msg")
            or (isinstance(n.func, ast.Attribute) and n.func.attr == "Msg")
        )
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
        and n.exc.func.id not in BUILTIN_ERRORS
    ]


def _english_made_here(a: ast.AST) -> bool:
    """Text as an error's message: a literal, an f-string, a concatenation, or English rendered from an id
    at the raise (``text.en(…)``: the window could not show it in its language)."""
    if isinstance(a, ast.Constant | ast.JoinedStr | ast.BinOp):
        return True
    return (
        isinstance(a, ast.Call)
        and isinstance(a.func, ast.Attribute | ast.Name)
        and (getattr(a.func, "attr", None) == "en" or getattr(a.func, "id", None) == "en")
    )


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
                if _english_made_here(a):
                    english.append(f"{p.relative_to(PKG)}:{call.lineno}")
    assert count >= 230, count  # the scan sees the raise sites (engine and model included)
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


# -- the engine and the model raise message data too (no English read back: text/recover.py is gone) --------
def test_an_engine_refusal_shows_in_chinese(tmp_path):
    """engine/assumptions.py raises ``CatalogError(text.Msg("error.no_entries_map"), file=…)``: English for
    the CLI, Chinese in the window, from the same error."""
    from gpuplanner.engine.assumptions import load_assumptions

    bad = tmp_path / "cost.yaml"
    bad.write_text("kind: assumptions\narea: cost\n", encoding="utf-8")
    with pytest.raises(PlannerError) as info:
        load_assumptions("cost", bad)
    assert info.value.msg_id == "error.no_entries_map" and str(info.value).endswith("no 'entries' map")
    assert text.error_line(info.value, "zh") == f"{bad}：缺少 “entries” 映射"


@pytest.mark.parametrize(
    ("table", "changes", "en", "zh"),
    [
        (
            "racks",
            {"power_budget_kw": 1e9},
            "racks field 'power_budget_kw' must be between 0 and 100,000, got 1000000000.0",
            "机柜的字段“power_budget_kw”应在 0 到 100,000 之间，现为 1000000000.0",
        ),
        (
            "racks",
            {"power_budget_kw": "a lot"},
            "racks field 'power_budget_kw' must be a number or empty, got 'a lot'",
            "机柜的字段“power_budget_kw”应为数值或留空，现为 'a lot'",
        ),
        (
            "devices",
            {"role": "boss"},
            "devices field 'role' must be one of compute, leaf, spine, core, storage, storage-switch, "
            "management, other",
            "设备的字段“role”应为以下之一：compute, leaf, spine, core, storage, storage-switch, management, other",
        ),
    ],
)
def test_a_model_refusal_names_table_field_and_value_in_both_languages(table, changes, en, zh):
    """``model/validate.py`` raises message data: the English line as before, the Chinese one with the
    table's Chinese name, the field and the value."""
    import dataclasses

    from gpuplanner.model.validate import validate_row

    row = _a_row(table)
    with pytest.raises(ValidationError) as info:
        validate_row(table, dataclasses.replace(row, **changes))
    err = info.value
    assert err.message == en and err.msg is not None
    assert text.error_line(err, "zh").endswith(zh), text.error_line(err, "zh")
    assert str(err).endswith(en)


def _a_row(table: str):
    from gpuplanner.model.rows import Device, Rack

    if table == "racks":
        return Rack(id="r1", name="R1", type_id="rack-42u")
    return Device(id="d1", name="node-1", type_id="dgx-h100", role="compute")


def test_a_file_row_refusal_keeps_table_and_row_in_chinese():
    """``validate_project`` says which table and row: "table 'racks', row 'r1': …" in both languages."""
    import dataclasses

    from gpuplanner.model.rows import Rack
    from gpuplanner.model.validate import validate_project

    p = Project()
    p.tables["racks"]["r1"] = dataclasses.replace(Rack(id="r1", name="R1", type_id="x"), position=0)
    with pytest.raises(ValidationError) as info:
        validate_project(p)
    assert info.value.message.startswith("table 'racks', row 'r1': racks field 'position' must be between 1")
    zh = text.error_line(info.value, "zh")
    assert "表“机柜”第“r1”行：机柜的字段“position”应在 1 到" in zh, zh


def test_a_refused_phase_delete_names_who_refers_in_chinese():
    from gpuplanner.model.rows import Phase, Rack

    p = Project()
    p.insert("phases", Phase(id="ph1", name="Pilot"))
    p.insert("racks", Rack(id="r1", name="R1", type_id=next(iter(_rack_types(p))), phase_id="ph1"))
    with pytest.raises(ValidationError) as info:
        p.delete("phases", "ph1")
    assert str(info.value).endswith("phases row 'ph1' is still referred to by r1")
    assert text.error_line(info.value, "zh").endswith("阶段中的“ph1”仍被 r1 引用")


def _rack_types(p: Project) -> list[str]:
    return [k for k, e in p.catalog.entries.items() if getattr(e, "kind", "") == "rack"]


def test_english_text_stays_english_whole():
    said = text.en("error.heads_over_tp", heads=32, tp=3)  # English made from an id is not read back any more
    err = ValidationError(said, field="tp")
    assert text.error_line(err, "zh") == str(err)


def test_an_error_kept_as_data_renders_later_in_either_language():
    """A refusal the engine keeps (``text.error_msg``): the same line as ``str(err)`` in English, Chinese
    when asked, and a value inside another message in that message's language."""
    err = ValidationError(
        text.Msg("error.heads_over_tp", {"heads": 32, "tp": 3}),
        field="tp",
        hint=text.Msg("error.heads_over_tp.hint"),
    )
    kept = text.error_msg(err)
    assert text.shown(kept, "en") == str(err)
    assert text.shown(kept, "zh") == text.error_line(err, "zh")
    assert "32 个注意力头无法按 tp = 3 切分" in text.shown(kept, "zh")
    assert pickle.loads(pickle.dumps(kept)) == kept
    quoted = text.finding(
        "workload-not-evaluated", "message", "zh", {"workload": "w", "kind": "training", "reason": kept}
    )
    assert "32 个注意力头" in quoted and "attention heads" not in quoted, quoted
    assert text.error_msg(ValidationError("plain English")) == "plain English"
