"""The Chinese UI is complete and current: every translatable string of gpuplanner/ui is in the committed
.ts, translated, with the same {placeholders}; the committed .qm is what lrelease makes of it; text handed
to Qt is marked for translation where lupdate can see it; a Chinese window shows no English source text;
switching the language in Preferences keeps the open project and its undo history."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QLabel,
)

from gpuplanner.model import rows
from gpuplanner.model.validate import _CHOICES
from gpuplanner.topology.options import TEMPLATES
from gpuplanner.ui import field_labels, fmt, i18n, vocabulary

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "gpuplanner" / "ui"


def _tool():
    spec = importlib.util.spec_from_file_location("translations_tool", ROOT / "tools" / "translations.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


tool = _tool()


@pytest.fixture
def chinese():
    i18n.set_language("zh")
    assert i18n.current_language() == "zh", "gpuplanner_zh.qm did not load"
    yield
    i18n.set_language("en")
    i18n.set_number_style("auto")


# -- (a) and (b): the .ts is complete and the .qm compiled from it ---------------------------------------
def test_ts_complete_and_qm_current():
    problems = tool.problems("zh") + tool.problems("en")
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"


def test_counts_take_the_plural_form_and_locale_separators():
    """Qt %n plurals: English "1 rack" / "36,864 racks" from the plural-only English .qm; Chinese has one
    form with the count grouped the same way."""
    from gpuplanner.ui.plurals import counts

    i18n.set_language("en")
    assert (counts().racks(1), counts().racks(2)) == ("1 rack", "2 racks")
    assert counts().gpus(16384) == "16,384 GPUs"
    assert counts().delete_question(1) == "Delete 1 selected item and their links?"
    i18n.set_language("zh")
    try:
        assert counts().racks(36864) == "36,864 个机柜"
    finally:
        i18n.set_language("en")


def test_placeholders_checked():
    assert tool.placeholders("{n} GPUs at {p:.0f} %") == ["{n}", "{p:.0f}"]


def test_the_app_loads_the_qm_the_pipeline_writes():
    assert i18n.qm_path("zh") == tool.qm_path("zh")


# -- (c) strings handed to Qt are marked where lupdate sees them; numbers go through the locale formatter --
unmarked_texts = tool.unmarked_texts  # the same checks run in ``tools/translations.py --check``
unformatted_numbers = tool.unformatted_numbers


def misplaced_tr(path: Path) -> list[str]:
    """tr() calls lupdate files under the wrong context: ``obj.tr(...)`` (lupdate takes the variable name
    as the context; at run time it is the object's class) and a bare module-level ``tr(...)`` helper
    (recorded under an empty context, looked up under the helper's)."""
    out = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        if not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
            continue
        if isinstance(f, ast.Name) and f.id == "tr":
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}: tr(...) → translate('context', ...)")
        if isinstance(f, ast.Attribute) and f.attr == "tr" and getattr(f.value, "id", "self") != "self":
            out.append(
                f"{path.relative_to(ROOT)}:{node.lineno}: {f.value.id}.tr(...) → translate('Class', ...)"
            )
    return out


def ui_sources() -> list[Path]:
    return sorted(p for p in UI.rglob("*.py") if "__pycache__" not in p.parts)


def test_texts_handed_to_qt_are_marked_for_translation():
    found = [line for p in ui_sources() for line in unmarked_texts(p)]
    assert not found, "wrap in self.tr() or translate():\n" + "\n".join(found)


def test_the_static_check_finds_unmarked_text(tmp_path: Path):
    probe = UI / "_probe_for_test.py"  # must be under ROOT for relative paths; removed at once
    probe.write_text(
        'from PySide6.QtWidgets import QLabel, QMessageBox\nQLabel("Hello there")\nQLabel(" kW")\n'
        'QMessageBox.warning(None, "Oops", "x")\nw.tr("Hi")\ntr("Hi")\n',
        encoding="utf-8",
    )
    try:
        assert len(unmarked_texts(probe)) == 2  # "Hello there" and "Oops", not the unit
        assert len(misplaced_tr(probe)) == 2
    finally:
        probe.unlink()


def test_numbers_in_translated_texts_go_through_the_locale_formatter():
    found = [line for p in ui_sources() for line in unformatted_numbers(p)]
    assert not found, "use fmt.number / fmt.short, or %Ln:\n" + "\n".join(found)


def test_the_number_check_finds_numbers_formatted_by_python():
    probe = UI / "_probe_numbers_for_test.py"
    probe.write_text(
        'self.tr("PUE {pue:.2f}").format(pue=x)\n'
        'translate("c", "{n:,} links").format(n=n)\n'
        'self.tr("{n} links").format(n=len(ids))\n'
        'self.tr("{v} kW").format(v=f"{kw:.1f}")\n'
        'self.tr("{v} kW").format(v=fmt.number(kw, 1))\n'
        'self.tr("{name} at U{u}").format(name=n, u=u)\n',
        encoding="utf-8",
    )
    try:
        found = unformatted_numbers(probe)
        assert sorted(int(line.split(":")[1]) for line in found) == [1, 2, 3, 4], found
    finally:
        probe.unlink()


def test_tr_calls_have_the_context_lupdate_records():
    found = [line for p in ui_sources() for line in misplaced_tr(p)]
    assert not found, "\n".join(found)


def test_words_from_data_are_listed_for_lupdate():
    """Field names, vocabularies, units and template texts are translated at run time with a computed
    text: each must be in ui.vocabulary (so in the .ts), or it would show in English."""
    labels = set(vocabulary.FIELD_LABELS)
    import dataclasses
    import inspect

    missing = []
    for _name, cls in inspect.getmembers(rows, dataclasses.is_dataclass):
        for f in dataclasses.fields(cls):
            if f.name == "id":
                continue
            base = f.name
            for suffix, _unit in field_labels.UNITS:
                if base.endswith(suffix) and len(base) > len(suffix):
                    base = base[: -len(suffix)]
                    break
            if base.replace("_", " ") not in labels:
                missing.append(f"field {cls.__name__}.{f.name}")
    missing += [f"choice {c}" for v in _CHOICES.values() for c in v if c and c not in vocabulary.CHOICES]
    missing += [f"unit {u}" for _s, u in field_labels.UNITS if u not in vocabulary.UNITS]
    missing += [f"template {t}" for t in TEMPLATES.values() if t not in vocabulary.TEMPLATES]
    assert not missing, "add to gpuplanner/ui/vocabulary.py and run tools/translations.py:\n" + "\n".join(
        missing
    )


# -- (d) a Chinese window shows no English source text -------------------------------------------------
# The walk lives in tools/translations.py (``--check`` runs it on a shipped example).
translated_sources = tool.translated_sources
english_left = tool.english_left


def test_chinese_window_shows_no_english(chinese, make_window, qtbot):
    """The main window, the inspector's forms and every dialog of the UI (each QDialog subclass)."""
    from tests.ui.conftest import small_project

    sources = translated_sources()
    assert len(sources) > 300
    w = make_window(small_project())
    qtbot.waitUntil(lambda: w.doc.results is not None)
    assert w.menuBar().actions()[0].text().startswith("文件")
    left = tool.chinese_window_english(w)
    assert not left, "\n".join(left)
    # the check sees English: the same walk in English finds the source texts
    assert QCoreApplication.translate("MainWindow", "&File") == "文件(&F)"


def test_the_walk_covers_every_dialog(make_window):
    w = make_window()
    dialogs = tool.ui_dialog_classes()
    assert {"SiteDialog", "WorkloadDialog", "GoalDialog", "AdvisorDialog", "CompareDialog"} <= dialogs
    assert dialogs <= set(tool.dialog_factories(w)), dialogs - set(tool.dialog_factories(w))


def test_walk_finds_english_in_an_english_window(make_window):
    w = make_window()
    left = english_left(w, translated_sources())
    assert any("menu: 'File'" in line for line in left)


def test_walk_finds_a_filled_english_sentence_in_a_dialog(chinese, make_window):
    """A sentence built from an English source with its values filled in (the estimate line of a dialog)
    is found, and a project's own names are not."""
    from PySide6.QtWidgets import QDialog, QVBoxLayout

    w = make_window()
    d = QDialog(w)
    lay = QVBoxLayout(d)
    lay.addWidget(QLabel("IT 1,234.5 kW at maximum → facility 1,500.0 kW at PUE 1.22; the utility feed needs"
                         " 1,650 kW (with 10 % headroom)."))  # fmt: skip
    lay.addWidget(QLabel("compute"))
    sources = translated_sources()
    found = english_left(d, sources)
    assert any("IT 1,234.5 kW" in line for line in found), found
    assert any("'compute'" in line for line in found)
    assert not any("'compute'" in line for line in english_left(d, sources, data={"compute"}))


def test_switching_language_keeps_project_and_undo(make_window, qtbot, tmp_path):
    import shutil

    from gpuplanner.commands import SetFields
    from gpuplanner.ui.rebuild import apply_preferences

    example = tmp_path / "cluster-256-h100.gpuplan"  # a user's copy (a shipped example opens untitled)
    shutil.copy(ROOT / "examples" / "cluster-256-h100.gpuplan", example)
    w = make_window()
    assert w.open_file(example)
    rack = next(iter(w.doc.project.racks.values()))
    w.doc.push(SetFields(w.doc.project, "racks", rack.id, text="rename", name="R-edited"))
    w.docks["racks"].raise_()
    doc, undo_count = w.doc, w.doc.undo_stack.count()
    try:
        zh = apply_preferences(w, "zh", "auto")
        qtbot.addWidget(zh)
        assert zh is not w and zh.doc is doc
        titles = [a.text() for a in zh.menuBar().actions()]
        assert titles[:2] == ["文件(&F)", "编辑(&E)"], titles
        assert zh.doc.path == example
        assert zh.doc.project.racks[rack.id].name == "R-edited"
        assert zh.doc.undo_stack.count() == undo_count and zh.doc.undo_stack.canUndo()
        assert zh.is_modified() and zh.isWindowModified()
        assert "●" in zh.status_saved.text() and "未保存" in zh.status_saved.text()
        assert not w.isVisible()
        assert zh.actions["undo"].isEnabled()
        zh.actions["undo"].trigger()
        assert zh.doc.project.racks[rack.id].name == rack.name
        zh.actions["redo"].trigger()
        assert zh.settings.value("language") == "zh"
        en = apply_preferences(zh, "en", "auto")
        qtbot.addWidget(en)
        assert en.menuBar().actions()[0].text() == "&File"
        assert en.doc.project.racks[rack.id].name == "R-edited"
        assert en.doc.undo_stack.count() == undo_count
    finally:
        i18n.set_language("en")


def test_preferences_dialog_reads_and_offers_languages(make_window):
    from gpuplanner.ui.dialogs.preferences import PreferencesDialog

    w = make_window()
    w.settings.setValue("language", "zh")
    d = PreferencesDialog(w.settings, w)
    assert [d.language.itemData(i) for i in range(d.language.count())] == ["", "en", "zh"]
    assert d.language.itemText(2) == "简体中文"
    assert d.chosen() == ("zh", "auto")


def test_language_comes_from_settings_then_environment(tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings

    s = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    monkeypatch.setenv("GPUPLANNER_LANG", "zh")
    assert i18n.chosen_language(s) == "zh"
    s.setValue("language", "en")
    assert i18n.chosen_language(s) == "en"
    s.setValue("language", "")
    monkeypatch.setenv("GPUPLANNER_LANG", "zh_CN")
    assert i18n.chosen_language(s) == "zh"


# -- (5) numbers and money in the UI locale ----------------------------------------------------------------
def test_money_in_chinese_uses_wan_and_yi(chinese):
    assert fmt.money(1_234_500 / 7.2, 7.2, "CNY") == "123.5 万元"
    assert fmt.money(342_000_000, 1.0, "CNY") == "3.42 亿元"
    assert fmt.money(8_600_000, 1.0, "USD") == "860.0 万美元"
    assert fmt.money(125_000, 1.0, "GBP") == "12.5 万 GBP"
    assert fmt.money(8_500, 1.0, "CNY") == "8,500 元"
    i18n.set_number_style("western")
    assert fmt.money(8_600_000, 1.0, "USD") == "8.60 M USD"


def test_money_and_airflow_in_english():
    assert fmt.money(1_250_000, 1.0, "USD") == "1.25 M USD"
    assert fmt.money(12_345, 7.0, "CNY") == "86.42 k CNY"
    assert fmt.airflow(1699.0108) == "1,699 m³/h (1,000 CFM)"
    assert fmt.number(1234567.891, 1) == "1,234,567.9"
    assert fmt.duration(7200) == "2.0 h"


def test_results_panel_shows_money_in_wan(chinese, make_window, qtbot):
    from tests.ui.conftest import small_project

    w = make_window(small_project())
    qtbot.waitUntil(lambda: w.doc.results is not None)
    capex = w.results_panel.values["capex"].text()
    assert "万美元" in capex or "亿美元" in capex, capex
    # throughput in the report's words (token/秒), not the English "Tokens/s"
    tokens = w.results_panel.names["tokens"].text()
    assert tokens.startswith("token/秒"), tokens


def test_short_numbers_keep_the_decimals_they_need_with_separators():
    assert [fmt.short(v) for v in (80.0, 1.5, 0.354, 1234.5, 141)] == ["80", "1.5", "0.35", "1,234.5", "141"]
    assert fmt.short(2.25, 1) in ("2.2", "2.3")  # rounded to one decimal
    assert fmt.short(float("nan")) == fmt.DASH


def test_a_number_written_into_a_translation_is_found():
    assert tool.baked_digits("{n} racks", "3 个机架") == {"3"}
    assert not tool.baked_digits("48U rack, {kw} kW", "48U 机柜，{kw} kW")
    assert not any(tool.baked_digits(m.source, m.translation) for m in tool.read_ts(tool.ts_path("zh")))
