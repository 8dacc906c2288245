"""Fixtures for driving the real main window offscreen: a project built by the generator users use, a
window with a synchronous Document, private settings and recovery folder, and gesture helpers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from gpuplanner.commands import AddRows
from gpuplanner.model import Project, Workload
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.ui import i18n
from gpuplanner.ui.actions import release_clipboard
from gpuplanner.ui.canvas.interactions import CATALOG_MIME
from gpuplanner.ui.document import Document
from gpuplanner.ui.main_window import MainWindow


def small_project(servers: int = 6) -> Project:
    """Six DGX H100 on a rail-optimised leaf-spine (80 kW racks hold five, so R01-02 has room) and a Llama 3
    8B job on 48 GPUs (dp=6, so that it still runs when servers are added)."""
    p = Project()
    plan = generate(
        p,
        GenerateOptions(
            template="rail-leaf-spine", servers=servers, su_size=min(servers, 32), rack_budget_kw=80
        ),
    )
    plan.to_command("generate").apply(p)
    wl = Workload(
        id=p.new_id("workloads"), name="Llama 3 8B", model_id="llama3-8b", tp=8, pp=1, dp=6, global_batch=96
    )
    AddRows("workloads", [wl]).apply(p)
    p.tables["project"]["project"] = dataclasses.replace(p.info, name="UI test cluster")
    return p


@pytest.fixture(autouse=True, scope="session")
def _english_plurals(qapp):
    """The app installs the English translator at start (its .qm holds the %n plural forms: "1 rack")."""
    i18n.set_language("en")
    assert i18n.current_language() == "en"


@pytest.fixture(autouse=True)
def _clean_clipboard():
    yield
    release_clipboard()


@pytest.fixture
def make_window(qtbot, tmp_path: Path, monkeypatch):
    # A modal question would block the test run when pytest-qt closes the window at teardown.
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)

    def make(project: Project | None = None) -> MainWindow:
        doc = Document(synchronous=True)
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        w = MainWindow(doc, settings=settings, recovery_dir=tmp_path / "recovery")
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        if project is not None:
            doc.replace_project(project, None)
        return w

    return make


@pytest.fixture
def window(make_window) -> MainWindow:
    return make_window(small_project())


def view_pos(w: MainWindow, scene_pt: QPointF) -> QPoint:
    return w.view.mapFromScene(scene_pt)


def focus_on(w: MainWindow, *scene_pts: QPointF, scale: float = 1.0) -> None:
    """Zoom to ``scale`` centred between the points, and check that they are all in the viewport."""
    cx = sum(p.x() for p in scene_pts) / len(scene_pts)
    cy = sum(p.y() for p in scene_pts) / len(scene_pts)
    w.view.set_zoom(scale, QPointF(cx, cy))
    QApplication.processEvents()
    rect = w.view.viewport().rect()
    for p in scene_pts:
        assert rect.contains(view_pos(w, p)), f"{p} is outside the viewport at zoom {scale}"


def drop_from_palette(w: MainWindow, type_id: str, scene_pt: QPointF) -> None:
    """Drag a catalog entry from the palette onto the canvas: the mime data the palette makes, then the
    drag-enter / drag-move / drop events a real drag sends to the viewport."""
    tree = w.palette.tree
    items = [
        tree.topLevelItem(g).child(k)
        for g in range(tree.topLevelItemCount())
        for k in range(tree.topLevelItem(g).childCount())
        if tree.topLevelItem(g).child(k).data(0, Qt.ItemDataRole.UserRole) == type_id
    ]
    assert items, f"{type_id} is not in the palette"
    mime: QMimeData = tree.mimeData(items[:1])
    assert mime.hasFormat(CATALOG_MIME)
    pos = QPointF(view_pos(w, scene_pt))
    vp = w.view.viewport()
    actions = Qt.DropAction.CopyAction
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(pos.toPoint(), actions, mime, buttons, mods)
    QApplication.sendEvent(vp, enter)
    assert enter.isAccepted()
    move = QDragMoveEvent(pos.toPoint(), actions, mime, buttons, mods)
    QApplication.sendEvent(vp, move)
    assert move.isAccepted()
    drop = QDropEvent(pos, actions, mime, buttons, mods)
    QApplication.sendEvent(vp, drop)


def drag(w: MainWindow, start: QPointF, end: QPointF, steps: int = 6) -> None:
    """A left-button drag on the viewport from one scene point to another."""
    vp = w.view.viewport()
    a, b = view_pos(w, start), view_pos(w, end)
    QTest.mouseMove(vp, a)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for k in range(1, steps + 1):
        QTest.mouseMove(vp, a + (b - a) * k / steps)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)
    QApplication.processEvents()


@pytest.fixture
def chinese(qapp):
    """The UI in Chinese for one test (the compiled zh translations must load), English again after it."""
    i18n.set_language("zh")
    assert i18n.current_language() == "zh", "gpuplanner_zh.qm did not load"
    yield
    i18n.set_language("en")


def keep_goal(window: MainWindow, goal) -> None:
    """The advisor's ``goal`` into the window's project goal row, as one undoable edit (the dialogs read it)."""
    from gpuplanner.advisor.goal import goal_row
    from gpuplanner.commands import SetFields

    row = goal_row(goal)
    window.doc.push(
        SetFields(
            window.doc.project,
            "goal",
            "goal",
            **{f.name: getattr(row, f.name) for f in dataclasses.fields(row)},
        )
    )
