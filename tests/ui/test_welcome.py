"""The welcome screen: recent projects (missing ones marked), a template preset filling the window, the bundled
examples, a recent file that has gone, keyboard (Enter opens, Esc closes), and File ▸ Welcome…."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox

from gpuplanner.storage import save_project
from gpuplanner.ui.app import examples_dir
from gpuplanner.ui.welcome import KIND_ROLE, MISSING_ROLE, SUBTITLE_ROLE, VALUE_ROLE, WelcomeDialog
from tests.ui.conftest import small_project

ROOT = Path(__file__).resolve().parents[2]


def items(lst) -> list:
    return [lst.item(i) for i in range(lst.count())]


def item_with(lst, value: str):
    return next(it for it in items(lst) if it.data(VALUE_ROLE) == value)


def press_enter_on(qtbot, dlg: WelcomeDialog, lst, item) -> None:
    lst.setFocus()
    lst.setCurrentItem(item)
    assert dlg.selected_item() is item
    QTest.keyClick(lst, Qt.Key.Key_Return)
    QApplication.processEvents()


@pytest.fixture
def seeded(make_window, tmp_path: Path):
    """A window whose (private) settings list one saved project and one that was deleted since."""
    here = tmp_path / "projects"
    here.mkdir()
    kept = here / "lab-cluster.gpuplan"
    save_project(small_project(), kept)
    gone = tmp_path / "old" / "gone-cluster.gpuplan"
    w = make_window(small_project())
    w.settings.setValue("recent", [str(kept), str(gone)])
    return w, kept, gone


def welcome(qtbot, w) -> WelcomeDialog:
    dlg = WelcomeDialog(w)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    return dlg


def test_recent_projects_with_folder_and_missing_ones_marked(qtbot, seeded):
    w, kept, gone = seeded
    dlg = welcome(qtbot, w)
    recent = items(dlg.recent_list)
    assert [it.data(VALUE_ROLE) for it in recent] == [str(kept), str(gone)]
    assert recent[0].text() == "lab-cluster.gpuplan"
    assert recent[0].data(SUBTITLE_ROLE) == str(kept.parent)
    assert not recent[0].data(MISSING_ROLE)
    assert recent[1].data(MISSING_ROLE)
    assert "gone-cluster.gpuplan" in recent[1].text() and "missing" in recent[1].text()
    assert dlg.recent_list.currentItem() is recent[0]  # the newest existing project is preselected
    presets = items(dlg.template_list)
    assert len(presets) == 5 and "32 GPUs" in presets[1].text() and "8,192 GPUs" in presets[4].text()
    assert {it.data(KIND_ROLE) for it in items(dlg.example_list)} == {"example"}


def test_enter_on_the_4_node_roce_template_fills_the_window(qtbot, seeded):
    w, _kept, _gone = seeded
    w.doc.undo_stack.setClean()
    dlg = welcome(qtbot, w)
    press_enter_on(qtbot, dlg, dlg.template_list, item_with(dlg.template_list, "roce-4-node"))
    assert dlg.result() == QDialog.DialogCode.Accepted and not dlg.isVisible()
    p = w.doc.project
    assert p.gpu_count() == 32 and p.info.name == "4-node RoCE cluster"
    assert len(w.scene.device_items) == len(p.devices) > 4
    assert len(w.scene.rack_items) == len(p.racks) > 0
    assert not w.scene.itemsBoundingRect().isEmpty()
    assert "32 GPUs" in w.status_gpus.text()
    assert QApplication.overrideCursor() is None  # the busy cursor is gone again


def test_open_the_example_project(qtbot, make_window, monkeypatch):
    w = make_window(small_project())
    w.doc.undo_stack.setClean()
    dlg = welcome(qtbot, w)
    example = examples_dir() / "cluster-256-h100.gpuplan"
    item = item_with(dlg.example_list, str(example))
    dlg.example_list.setCurrentItem(item)
    before = example.read_bytes()
    assert dlg.open_selected()
    # an untitled copy: Save asks for a new file, the shipped example stays as it is
    assert w.doc.path is None and w.doc.project.gpu_count() == 256
    assert "not saved" in w.windowTitle() and "untitled copy" in w.statusBar().currentMessage()
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: asked.append(a) or ("", ""))
    w.save()
    assert asked and example.read_bytes() == before


def test_a_recent_file_that_has_gone_names_it_and_keeps_the_project(qtbot, seeded, monkeypatch):
    w, _kept, gone = seeded
    project, title = w.doc.project, w.windowTitle()
    shown: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda *a, **k: shown.append(a[2]) or QMessageBox.StandardButton.Ok
    )
    dlg = welcome(qtbot, w)
    press_enter_on(qtbot, dlg, dlg.recent_list, item_with(dlg.recent_list, str(gone)))
    assert len(shown) == 1
    assert "gone-cluster.gpuplan" in shown[0] and str(gone.parent) in shown[0] and "unchanged" in shown[0]
    assert w.doc.project is project and w.windowTitle() == title
    assert dlg.isVisible()  # still there to choose something else


def test_escape_closes_and_the_file_menu_opens_it_again(qtbot, make_window):
    w = make_window(small_project())
    dlg = welcome(qtbot, w)
    QTest.keyClick(dlg.template_list, Qt.Key.Key_Escape)
    assert not dlg.isVisible() and dlg.result() == QDialog.DialogCode.Rejected
    w.actions["welcome"].trigger()
    shown = [d for d in w.findChildren(WelcomeDialog) if d.isVisible()]
    assert len(shown) == 1
    shown[0].reject()


def test_blank_project(qtbot, make_window):
    w = make_window(small_project())
    w.doc.undo_stack.setClean()
    dlg = welcome(qtbot, w)
    dlg.blank_button.click()
    assert w.doc.project.gpu_count() == 0 and not w.scene.device_items
    assert dlg.result() == QDialog.DialogCode.Accepted


def test_examples_are_found_in_a_pyinstaller_bundle(tmp_path: Path, monkeypatch):
    assert (examples_dir() / "superpod-1024-h100.gpuplan").is_file()
    bundle = tmp_path / "_internal"
    (bundle / "examples").mkdir(parents=True)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert examples_dir() == bundle / "examples"


def test_the_ui_texts_of_the_presets_are_those_of_the_presets_module(qtbot, make_window):
    """The welcome keeps tr() copies of the preset names (for lupdate); in English they must not drift."""
    from gpuplanner.topology.presets import PRESETS

    dlg = welcome(qtbot, make_window())
    texts = dlg.preset_texts()
    assert set(texts) == {p.id for p in PRESETS}
    for p in PRESETS:
        assert texts[p.id] == (p.name_en, p.description_en)
