"""The Chinese UI is complete and current: every translatable string of gpuplanner/ui is in the committed
.ts, translated, with the same {placeholders}; the committed .qm is what lrelease makes of it; text handed
to Qt is marked for translation where lupdate can see it; a Chinese window shows no English source text;
switching the language in Preferences keeps the open project and its undo history."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QDockWidget,
    QGroupBox,
    QHeaderView,
    QLabel,
    QMenu,
    QTabBar,
    QTreeWidget,
    QWidget,
)

from gpuplanner.model import rows
from gpuplanner.model.validate import _CHOICES
from gpuplanner.topology.options import TEMPLATES
from gpuplanner.ui import fields, fmt, i18n, vocabulary

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


# -- (c) strings handed to Qt are marked where lupdate sees them -----------------------------------------
TEXT_SETTERS = {
    "setText",
    "setWindowTitle",
    "setToolTip",
    "setStatusTip",
    "setWhatsThis",
    "setPlaceholderText",
    "setTitle",
    "addMenu",
    "addAction",
    "addToolBar",
    "addTab",
    "insertTab",
    "setTabText",
    "addRow",
    "showMessage",
    "setHorizontalHeaderLabels",
    "setVerticalHeaderLabels",
    "setHeaderLabels",
    "setHeaderLabel",
    "setSpecialValueText",
    "setLabelText",
    "setItemText",
    "addItem",
    "addItems",
    "setLabel",
}
TEXT_CTORS = {
    "QAction",
    "QLabel",
    "QPushButton",
    "QToolButton",
    "QCheckBox",
    "QRadioButton",
    "QGroupBox",
    "QDockWidget",
    "QMenu",
    "QTreeWidgetItem",
    "QListWidgetItem",
    "QTableWidgetItem",
}
MESSAGE_BOX = {"information", "warning", "critical", "question", "about"}
# Not words for a reader: units, symbols, font sizes and pyqtgraph's axis names.
NOT_WORDS = re.compile(r"^\s*(kW|W|m|U|°C|L/min|CFM|m³/h|Gb/s|GB/s|\d+pt|left|bottom|right|top)?\s*$")


def _literal_texts(node: ast.AST) -> list[tuple[int, str]]:
    items = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
    out = []
    for n in items:
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append((n.lineno, n.value))
        elif isinstance(n, ast.JoinedStr):
            out.append((n.lineno, "".join(v.value for v in n.values if isinstance(v, ast.Constant))))
    return out


def unmarked_texts(path: Path) -> list[str]:
    """User-visible literals handed to Qt text setters/constructors without tr()/translate()."""
    out = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        boxed = isinstance(f, ast.Attribute) and getattr(f.value, "id", "") == "QMessageBox"
        if not (name in TEXT_SETTERS or name in TEXT_CTORS or (boxed and name in MESSAGE_BOX)):
            continue
        args = node.args[:1] if name in ("addItem", "insertItem") else node.args  # (text, data): data unseen
        texts = [t for arg in args for t in _literal_texts(arg)]  # keywords are options (color=, size=)
        for line, text in texts:
            if re.search(r"[A-Za-z]{2,}", text) and not NOT_WORDS.match(text):
                out.append(f"{path.relative_to(ROOT)}:{line}: {name}({text!r})")
    return out


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
            for suffix, _unit in fields.UNITS:
                if base.endswith(suffix) and len(base) > len(suffix):
                    base = base[: -len(suffix)]
                    break
            if base.replace("_", " ") not in labels:
                missing.append(f"field {cls.__name__}.{f.name}")
    missing += [f"choice {c}" for v in _CHOICES.values() for c in v if c and c not in vocabulary.CHOICES]
    missing += [f"unit {u}" for _s, u in fields.UNITS if u not in vocabulary.UNITS]
    missing += [f"template {t}" for t in TEMPLATES.values() if t not in vocabulary.TEMPLATES]
    assert not missing, "add to gpuplanner/ui/vocabulary.py and run tools/translations.py:\n" + "\n".join(
        missing
    )


# -- (d) a Chinese window shows no English source text ---------------------------------------------------
# Shown as they are in Chinese too: abbreviations, units, product and file names, the language names.
SAME_IN_CHINESE = {
    "GPU",
    "GPUs",
    "MFU",
    "PUE",
    "TCO",
    "IB",
    "RoCE",
    "kW",
    "W",
    "U",
    "m",
    "CFM",
    "English",
    "GPU Planner",
    "USD",
    "CNY",
    "x",
    "y",
}


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").split("\t")[0].strip()


def translated_sources() -> set[str]:
    """English sources whose Chinese translation differs from them (those must never show in Chinese)."""
    return {
        _plain(m.source)
        for m in tool.read_ts(tool.ts_path("zh"))
        if m.translation and _plain(m.translation) != _plain(m.source)
    } - SAME_IN_CHINESE


def visible_texts(root: QWidget) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [("window title", root.windowTitle())]
    for a in root.findChildren(QAction):
        out += [("action", a.text()), ("action tip", a.toolTip()), ("action status tip", a.statusTip())]
    for m in root.findChildren(QMenu):
        out.append(("menu", m.title()))
    for d in root.findChildren(QDockWidget):
        out.append(("dock", d.windowTitle()))
    for t in root.findChildren(QTabBar):
        out += [("tab", t.tabText(i)) for i in range(t.count())]
    for g in root.findChildren(QGroupBox):
        out.append(("group", g.title()))
    for lab in root.findChildren(QLabel):
        out.append(("label", lab.text()))
    for b in root.findChildren(QAbstractButton):
        out += [("button", b.text()), ("button tip", b.toolTip())]
    for tree in root.findChildren(QTreeWidget):
        h = tree.headerItem()
        out += [("header", h.text(i)) for i in range(h.columnCount())]
    for hv in root.findChildren(QHeaderView):
        model = hv.model()
        if model is not None:
            orient = hv.orientation()
            out += [("header", str(model.headerData(i, orient) or "")) for i in range(hv.count())]
    for w in root.findChildren(QWidget):
        if hasattr(w, "placeholderText"):
            out.append(("placeholder", w.placeholderText()))
    return [(kind, _plain(t)) for kind, t in out if _plain(t)]


def english_left(root: QWidget, sources: set[str]) -> list[str]:
    return sorted({f"{kind}: {text!r}" for kind, text in visible_texts(root) if text in sources})


def test_chinese_window_shows_no_english(chinese, make_window, qtbot):
    from gpuplanner.ui.dialogs.preferences import PreferencesDialog
    from gpuplanner.ui.dialogs.site_dialog import SiteDialog
    from gpuplanner.ui.dialogs.template_dialog import TemplateDialog
    from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
    from tests.ui.conftest import small_project

    sources = translated_sources()
    assert len(sources) > 300
    w = make_window(small_project())
    qtbot.waitUntil(lambda: w.doc.results is not None)
    assert w.menuBar().actions()[0].text().startswith("文件")
    dialogs = [
        SiteDialog(w.doc, w),
        WorkloadDialog(w.doc, w),
        TemplateDialog(w.doc.project.catalog, w),
        PreferencesDialog(w.settings, w),
    ]
    left = english_left(w, sources)
    for d in dialogs:
        left += english_left(d, sources)
        d.deleteLater()
    # a selected rack, device and link fill the inspector with their forms
    p = w.doc.project
    for ids in ([next(iter(p.racks))], [next(iter(p.devices))], [next(iter(p.links))]):
        w.select_and_show(ids)
        left += english_left(w.inspector, sources)
    assert not left, "\n".join(left)
    # the check sees English: the same walk in English finds the source texts
    assert QCoreApplication.translate("MainWindow", "&File") == "文件(&F)"


def test_walk_finds_english_in_an_english_window(make_window):
    w = make_window()
    left = english_left(w, translated_sources())
    assert any("menu: 'File'" in line for line in left)


# -- (4) switching the language in Preferences ------------------------------------------------------------
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
