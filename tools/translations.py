"""Update the UI translations: extract every translatable string of ``gpuplanner/ui`` into
``resources/translations/gpuplanner_<lang>.ts`` (pyside6-lupdate; new strings arrive as "unfinished",
vanished ones are dropped) and compile each .ts into the ``.qm`` the app loads (pyside6-lrelease).

    python tools/translations.py            # update the .ts files, then compile the .qm files
    python tools/translations.py --check    # exit 1 when a string is missing, unfinished or a .qm is stale,
                                            # a message of gpuplanner/text lacks Chinese, the code hands
                                            # Qt an unmarked text or formats a number inside tr(), or an
                                            # English source shows in the Chinese window or a dialog
    python tools/translations.py --release  # only compile (after editing a .ts in Qt Linguist or by hand)

The app loads ``gpuplanner_<lang>.qm`` where ``lang`` is the first part of the locale (``zh`` for zh_CN),
see ``gpuplanner.ui.i18n``. Both the .ts and the .qm are committed: a fresh clone and the installer work
without a build step, and ``tests/ui/test_translations.py`` fails when the .qm does not match the .ts.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "gpuplanner" / "ui"
OUT = ROOT / "resources" / "translations"
LANGUAGES = {"zh": "zh_CN", "en": "en"}  # file suffix → the .ts target language
# English is the source text: its .ts holds only the plural forms of the %n messages ("%Ln rack(s)" →
# "1 rack" / "2 racks"), as Qt's lupdate -pluralonly makes it.
PLURAL_ONLY = {"en"}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%L?n")
NUMERUS_SEP = "\x1f"


def tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease: next to this Python (a venv), else on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: install PySide6 (pip install -e .) and run with that Python")
    return found


def sources() -> list[Path]:
    return sorted(p for p in SOURCES.rglob("*.py") if "__pycache__" not in p.parts)


def ts_path(lang: str) -> Path:
    return OUT / f"gpuplanner_{lang}.ts"


def qm_path(lang: str) -> Path:
    return OUT / f"gpuplanner_{lang}.qm"


def lupdate(ts: Path, target_language: str) -> None:
    cmd = [tool("pyside6-lupdate"), *map(str, sources()), "-no-obsolete", "-locations", "none"]
    if target_language.split("_")[0] in PLURAL_ONLY:
        cmd.append("-pluralonly")
    cmd += ["-target-language", target_language, "-ts", str(ts)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def lrelease(ts: Path, qm: Path) -> str:
    cmd = [tool("pyside6-lrelease"), "-nounfinished", "-removeidentical", str(ts), "-qm", str(qm)]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


@dataclass(frozen=True)
class Message:
    context: str
    source: str
    translation: str
    kind: str  # "" (finished), "unfinished", "vanished", "obsolete"


def read_ts(ts: Path) -> list[Message]:
    out = []
    for ctx in ET.parse(ts).getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            t = m.find("translation")
            text = (t.text or "") if t is not None else ""
            forms = [f.text or "" for f in t.iter("numerusform")] if t is not None else []
            if forms:  # a %n message: every plural form must be there (NUMERUS_SEP between them)
                text = NUMERUS_SEP.join(forms) if all(f.strip() for f in forms) else ""
            out.append(
                Message(
                    name,
                    m.findtext("source") or "",
                    text,
                    (t.get("type") or "") if t is not None else "unfinished",
                )
            )
    return out


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def baked_digits(source: str, translation: str) -> set[str]:
    """Numbers in a translation that its source does not have ("{n} racks" → "3 个机架"): a figure fixed in
    one language, not formatted by the locale."""

    def digits(text: str) -> set[str]:
        return set(re.findall(r"\d+", PLACEHOLDER.sub("", text)))

    return digits(translation) - digits(source)


def problems(lang: str) -> list[str]:
    """What is wrong with the committed translation of ``lang`` (empty when it is complete and current)."""
    ts = ts_path(lang)
    if not ts.exists():
        return [f"{ts.relative_to(ROOT)} is missing: run python tools/translations.py"]
    committed = read_ts(ts)
    have = {(m.context, m.source) for m in committed}
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / ts.name
        lupdate(fresh, LANGUAGES[lang])
        wanted = {(m.context, m.source) for m in read_ts(fresh)}
    for ctx, src in sorted(wanted - have):
        out.append(f"not in {ts.name}: [{ctx}] {src!r} — run python tools/translations.py and translate it")
    for m in committed:
        if (m.context, m.source) not in wanted:
            out.append(
                f"no longer in the code: [{m.context}] {m.source!r} — run python tools/translations.py"
            )
        elif m.kind or not m.translation.strip():
            out.append(f"not translated ({m.kind or 'empty'}): [{m.context}] {m.source!r}")
        elif any(placeholders(f) != placeholders(m.source) for f in m.translation.split(NUMERUS_SEP)):
            out.append(f"placeholders differ: [{m.context}] {m.source!r} → {m.translation!r}")
        elif baked_digits(m.source, m.translation):
            out.append(
                f"a number written into the translation (pass it as a placeholder): [{m.context}] "
                f"{m.source!r} → {m.translation!r}"
            )
    qm = qm_path(lang)
    if not qm.exists():
        out.append(f"{qm.relative_to(ROOT)} is missing: run python tools/translations.py --release")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            fresh_qm = Path(tmp) / qm.name
            lrelease(ts, fresh_qm)
            if fresh_qm.read_bytes() != qm.read_bytes():
                out.append(
                    f"{qm.relative_to(ROOT)} is not compiled from {ts.name}: run tools/translations.py"
                )
    return out


def text_problems() -> list[str]:
    """What is wrong with the text package (``gpuplanner/text``: findings, report, engine messages): an id
    without English or Chinese, or whose two languages name different placeholders."""
    sys.path.insert(0, str(ROOT))
    from gpuplanner import text

    out = []
    for msg_id, (en, zh) in text.MESSAGES.items():
        if not en.strip() or not zh.strip():
            out.append(f"text: {msg_id} has no {'Chinese' if en.strip() else 'English'}")
        elif msg_id != "long_date" and text.fields(en) != text.fields(zh):  # the date: month name vs number
            out.append(
                f"text: placeholders differ in {msg_id}: {sorted(text.fields(en))} / {sorted(text.fields(zh))}"
            )
    return out


# -- the code: texts handed to Qt are marked, numbers go through the locale formatter --------------------
TEXT_SETTERS = {
    "setText", "setWindowTitle", "setToolTip", "setStatusTip", "setWhatsThis", "setPlaceholderText",
    "setTitle", "addMenu", "addAction", "addToolBar", "addTab", "insertTab", "setTabText", "addRow",
    "showMessage", "setHorizontalHeaderLabels", "setVerticalHeaderLabels", "setHeaderLabels",
    "setHeaderLabel", "setSpecialValueText", "setLabelText", "setItemText", "addItem", "addItems", "setLabel",
}  # fmt: skip
TEXT_CTORS = {
    "QAction", "QLabel", "QPushButton", "QToolButton", "QCheckBox", "QRadioButton", "QGroupBox",
    "QDockWidget", "QMenu", "QTreeWidgetItem", "QListWidgetItem", "QTableWidgetItem",
}  # fmt: skip
MESSAGE_BOX = {"information", "warning", "critical", "question", "about"}
# Not words for a reader: units, symbols, font sizes and pyqtgraph's axis names.
NOT_WORDS = re.compile(r"^\s*(kW|W|m|U|°C|L/min|CFM|m³/h|Gb/s|GB/s|\d+pt|left|bottom|right|top)?\s*$")
# A placeholder with a number format ("{pue:.2f}", "{mem:g}", "{n:,}"): the number is written by Python,
# not by the locale formatter (ui/fmt.py), so the Chinese window and a German locale get "1234.50".
NUMBER_SPEC = re.compile(r"\{\w*:[^{}]*[dfFgGeE%n,][^{}]*\}")
RAW_NUMBER_CALLS = {"round", "len", "int", "float"}


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _literal_texts(node: ast.AST) -> list[tuple[int, str]]:
    items = node.elts if isinstance(node, ast.List | ast.Tuple) else [node]
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
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node)
        f = node.func
        boxed = isinstance(f, ast.Attribute) and getattr(f.value, "id", "") == "QMessageBox"
        if not (name in TEXT_SETTERS or name in TEXT_CTORS or (boxed and name in MESSAGE_BOX)):
            continue
        args = node.args[:1] if name in ("addItem", "insertItem") else node.args  # (text, data): data unseen
        for line, text in [t for arg in args for t in _literal_texts(arg)]:  # keywords are options (color=)
            if re.search(r"[A-Za-z]{2,}", text) and not NOT_WORDS.match(text):
                out.append(f"{path.relative_to(ROOT)}:{line}: {name}({text!r})")
    return out


def unformatted_numbers(path: Path) -> list[str]:
    """Numbers written into a translated text by Python rather than the locale formatter: a number format
    inside the tr()/translate() source ("{pue:.2f}"), or a ``.format()`` value that is a formatted f-string
    or a bare round()/len()/int()/float() ("36864 links"): use ``fmt.number``/``fmt.short``, or ``%Ln``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        if _call_name(node) in ("tr", "translate"):
            for a in node.args[:2]:
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and NUMBER_SPEC.search(a.value):
                    out.append(f"{where}: number format in a translated text {a.value!r}")
        f = node.func
        if _call_name(node) == "format" and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call):
            if _call_name(f.value) not in ("tr", "translate"):
                continue
            for k in node.keywords:
                v = k.value
                spec = isinstance(v, ast.JoinedStr) and any(
                    isinstance(x, ast.FormattedValue) and x.format_spec for x in v.values
                )
                raw = isinstance(v, ast.Call) and _call_name(v) in RAW_NUMBER_CALLS
                if spec or raw:
                    out.append(f"{where}: {k.arg}={ast.unparse(v)} bypasses the locale formatter")
    return out


def code_problems() -> list[str]:
    found = []
    for p in sources():
        found += [f"unmarked text: {x}" for x in unmarked_texts(p)]
        found += [f"number: {x}" for x in unformatted_numbers(p)]
    return found


# -- the Chinese window: no English source text shows, in the window or in any dialog ---------------------
# Shown as they are in Chinese too: abbreviations, units, product and file names, the language names.
SAME_IN_CHINESE = {
    "GPU", "GPUs", "MFU", "PUE", "TCO", "IB", "RoCE", "kW", "W", "U", "m", "CFM", "English", "GPU Planner",
    "USD", "CNY", "x", "y",
}  # fmt: skip


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").split("\t")[0].strip()


def translated_sources() -> set[str]:
    """English sources whose Chinese translation differs from them (those must never show in Chinese)."""
    return {
        _plain(m.source)
        for m in read_ts(ts_path("zh"))
        if m.translation and _plain(m.translation) != _plain(m.source)
    } - SAME_IN_CHINESE


def source_patterns(sources: set[str]) -> list[re.Pattern[str]]:
    """A translated source with placeholders as a pattern of its filled form ("IT {it} kW at maximum" →
    "IT 1,234 kW at maximum"): a sentence built from an English source shows with its values filled in. Only
    sources whose fixed words are English (three letters or more) make a pattern."""
    out = []
    for src in sources:
        parts = PLACEHOLDER.split(src)
        if len(parts) < 2 or not re.search(r"[A-Za-z]{3,}", "".join(parts)):
            continue
        out.append(re.compile("^" + "(?:.+?)".join(re.escape(p) for p in parts) + "$", re.S))
    return out


def visible_texts(root: object) -> list[tuple[str, str]]:
    """Every text a widget tree shows: titles, actions, menus, docks, tabs, groups, labels, buttons,
    headers, placeholders, combo items."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QDockWidget,
        QGroupBox,
        QHeaderView,
        QLabel,
        QMenu,
        QTabBar,
        QTreeWidget,
        QWidget,
    )

    out: list[tuple[str, str]] = [("window title", root.windowTitle())]  # type: ignore[attr-defined]
    find = root.findChildren  # type: ignore[attr-defined]
    for a in find(QAction):
        out += [("action", a.text()), ("action tip", a.toolTip()), ("action status tip", a.statusTip())]
    out += [("menu", m.title()) for m in find(QMenu)]
    out += [("dock", d.windowTitle()) for d in find(QDockWidget)]
    for t in find(QTabBar):
        out += [("tab", t.tabText(i)) for i in range(t.count())]
    out += [("group", g.title()) for g in find(QGroupBox)]
    out += [("label", lab.text()) for lab in find(QLabel)]
    out += [("label tip", lab.toolTip()) for lab in find(QLabel)]
    for b in find(QAbstractButton):
        out += [("button", b.text()), ("button tip", b.toolTip())]
    for c in find(QComboBox):
        out += [("combo item", c.itemText(i)) for i in range(c.count())]
    for tree in find(QTreeWidget):
        h = tree.headerItem()
        out += [("header", h.text(i)) for i in range(h.columnCount())]
    for hv in find(QHeaderView):
        model = hv.model()
        if model is not None:
            orient = hv.orientation()
            out += [("header", str(model.headerData(i, orient) or "")) for i in range(hv.count())]
    for w in find(QWidget):
        if hasattr(w, "placeholderText"):
            out.append(("placeholder", w.placeholderText()))
    out += painted_texts(root)
    return [(kind, _plain(t)) for kind, t in out if _plain(t)]


def painted_texts(root: object) -> list[tuple[str, str]]:
    """The text items of every graphics view's scene in the tree (the floor plan's unit captions, row labels),
    line by line: they are painted, not widgets, so the widget walk above does not see them."""
    from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsTextItem, QGraphicsView

    views = root.findChildren(QGraphicsView)  # type: ignore[attr-defined]
    if isinstance(root, QGraphicsView):
        views.append(root)
    out: list[tuple[str, str]] = []
    for v in views:
        scene = v.scene()
        if scene is None:
            continue
        for item in scene.items():
            if isinstance(item, QGraphicsSimpleTextItem):
                text = item.text()
            elif isinstance(item, QGraphicsTextItem):
                text = item.toPlainText()
            else:
                continue
            out += [("painted text", line) for line in text.splitlines()]
    return out


def english_left(
    root: object,
    sources: set[str],
    patterns: list[re.Pattern[str]] | None = None,
    data: set[str] = frozenset(),  # type: ignore[assignment]
) -> list[str]:
    """The texts of ``root`` that are an English source, as written or with its placeholders filled (``data``:
    names from the project — a fabric the user called "compute" — shown as written, not UI text)."""
    pats = source_patterns(sources) if patterns is None else patterns
    out = set()
    for kind, text in visible_texts(root):
        if text in data:
            continue
        if text in sources or (re.search(r"[A-Za-z]{3,}", text) and any(p.match(text) for p in pats)):
            out.add(f"{kind}: {text!r}")
    return sorted(out)


def dialog_factories(w: object) -> dict[str, list[object]]:
    """Every dialog of the UI, made for the window ``w`` (by class name; a QDialog subclass missing here is
    reported, so a new dialog is either checked or named)."""
    from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog
    from gpuplanner.ui.dialogs.goal_dialog import GoalDialog
    from gpuplanner.ui.dialogs.phases_dialog import PhasesTeamsDialog
    from gpuplanner.ui.dialogs.preferences import PreferencesDialog
    from gpuplanner.ui.dialogs.report_dialog import ReportDialog
    from gpuplanner.ui.dialogs.site_dialog import SiteDialog
    from gpuplanner.ui.dialogs.template_dialog import TemplateDialog
    from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog
    from gpuplanner.ui.scenario_picker import CompareDialog
    from gpuplanner.ui.welcome import WelcomeDialog

    doc = w.doc  # type: ignore[attr-defined]
    scenarios = list(doc.project.tables["scenarios"].values())
    right = scenarios[0].name if scenarios else None
    return {
        "AdvisorDialog": [lambda: AdvisorDialog(w)],
        "GoalDialog": [lambda: GoalDialog(doc, w)],
        "PhasesTeamsDialog": [lambda: PhasesTeamsDialog(doc, [], w)],
        "PreferencesDialog": [lambda: PreferencesDialog(w.settings, w)],  # type: ignore[attr-defined]
        "ReportDialog": [lambda: ReportDialog(Path("proposal.pdf"), "zh", w)],
        "SiteDialog": [lambda: SiteDialog(doc, w)],
        "TemplateDialog": [
            lambda: TemplateDialog(doc.project.catalog, w),
            lambda: TemplateDialog(doc.project.catalog, w, into=doc.project),
        ],
        "WorkloadDialog": [lambda: WorkloadDialog(doc, w), lambda: WorkloadDialog(doc, w, kind="inference")],
        "CompareDialog": [lambda: CompareDialog(doc, None, right, w)],
        "WelcomeDialog": [lambda: WelcomeDialog(w)],
    }


def _subclasses(cls: type) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _subclasses(sub)
    return out


def ui_dialog_classes() -> set[str]:
    """The names of every QDialog subclass defined in gpuplanner/ui (each module imported)."""
    import importlib

    from PySide6.QtWidgets import QDialog

    for p in sources():
        mod = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        if not mod.endswith("__init__") and not mod.endswith("__main__"):
            importlib.import_module(mod)
    return {
        c.__name__
        for c in _subclasses(QDialog)
        if c.__module__.startswith("gpuplanner.ui") and c.__name__ != "RowDialog"  # the forms' base class
    }


def chinese_window_english(w: object) -> list[str]:
    """English sources showing in the window ``w`` (made in Chinese), its inspector forms and every dialog."""
    from PySide6.QtWidgets import QApplication

    srcs = translated_sources()
    pats = source_patterns(srcs)
    p = w.doc.project  # type: ignore[attr-defined]
    # (the floor units' names are not data here: a default name such as "Utility feed" shows translated)
    data = {
        str(r.name)
        for table, rows in p.tables.items()
        if table != "floor_items"
        for r in rows.values()
        if getattr(r, "name", "")
    }
    left = [f"window {x}" for x in english_left(w, srcs, pats, data)]
    tabs = w.tabs  # type: ignore[attr-defined]
    shown = tabs.currentIndex()
    tabs.setCurrentWidget(w.floor)  # type: ignore[attr-defined]
    w.floor.rebuild()  # type: ignore[attr-defined] (built when shown: the walked window may be hidden)
    QApplication.processEvents()
    left += [f"floor plan {x}" for x in english_left(w.floor, srcs, pats, data)]  # type: ignore[attr-defined]
    tabs.setCurrentIndex(shown)
    for ids in ([next(iter(p.racks))], [next(iter(p.devices))], [next(iter(p.links))]):
        w.select_and_show(ids)  # type: ignore[attr-defined]
        QApplication.processEvents()
        left += [f"inspector {x}" for x in english_left(w.inspector, srcs, pats, data)]  # type: ignore[attr-defined]
    factories = dialog_factories(w)
    missing = ui_dialog_classes() - set(factories)
    left += [f"dialog {name} is not in dialog_factories(): add it so the check sees it" for name in missing]
    for name, makers in factories.items():
        for make in makers:
            d = make()  # type: ignore[operator]
            QApplication.processEvents()
            left += [f"{name} {x}" for x in english_left(d, srcs, pats, data)]
            d.deleteLater()
    return left


EXAMPLES = ("cluster-256-h100.gpuplan", "phased-pilot-to-su.gpuplan")  # the second has floor units


def window_problems() -> list[str]:
    """The Chinese window walked on each of the ``EXAMPLES``."""
    return [x for name in EXAMPLES for x in example_window_problems(ROOT / "examples" / name)]


def example_window_problems(example: Path) -> list[str]:
    """Build the main window in Chinese (offscreen) on a shipped example, walk it and every dialog."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from gpuplanner.storage import open_project
    from gpuplanner.ui import i18n
    from gpuplanner.ui.document import Document
    from gpuplanner.ui.main_window import MainWindow

    before = i18n.current_language()
    i18n.set_language("zh")
    if i18n.current_language() != "zh":
        return ["zh: the Chinese .qm did not load"]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            doc = Document(synchronous=True)
            settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
            w = MainWindow(doc, settings=settings, recovery_dir=Path(tmp) / "recovery")
            doc.replace_project(open_project(example), None)
            app.processEvents()
            found = [f"zh window ({example.name}): {x}" for x in chinese_window_english(w)]
            w.doc.undo_stack.clear()
            w.close()
            w.deleteLater()
            app.processEvents()
            return found
    finally:
        i18n.set_language(before)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="report missing/unfinished strings, change nothing")
    ap.add_argument("--release", action="store_true", help="only compile the .ts files into .qm files")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.check:
        found = [f"{lang}: {p}" for lang in LANGUAGES for p in problems(lang)] + text_problems()
        found += code_problems()
        if not found:  # the window walk needs a compiled, complete .qm
            found += window_problems()
        print("\n".join(found) or "translations complete and compiled")
        return 1 if found else 0
    for lang, target in LANGUAGES.items():
        ts = ts_path(lang)
        if not args.release:
            lupdate(ts, target)
        msgs = read_ts(ts)
        todo = sum(1 for m in msgs if m.kind or not m.translation.strip())
        print(f"{ts.relative_to(ROOT)}: {len(msgs)} strings, {todo} to translate")
        print(lrelease(ts, qm_path(lang)).strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
