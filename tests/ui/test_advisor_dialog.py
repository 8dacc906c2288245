"""The design advisor in the window: a small goal searched from the dialog, the front drawn as a scatter and
listed, a click on a point picks its design, and "Open as project" makes it the window's project (figures
checked against the engine)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog


def _small_goal(dlg: AdvisorDialog) -> None:
    dlg.form.model.setCurrentIndex(dlg.form.model.findData("llama3-8b"))
    dlg.form.tokens.setValue(200)  # billion tokens
    dlg.form.deadline.setValue(30)
    dlg.form.facility.setValue(400)
    dlg.form.rack_kw.setValue(45)
    dlg.form.max_servers.setValue(8)
    dlg.form.vendors.setText("NVIDIA")


def test_search_shows_the_front_and_opens_a_design(window, qtbot):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    _small_goal(dlg)
    goal = dlg.goal()
    assert goal.total_tokens == 2e11 and goal.facility_kw_max == 400 and goal.racks_max is None
    with ThreadPoolExecutor(2) as ex:
        dlg.search(executor=ex)
        dlg.wait()
        qtbot.waitUntil(lambda: dlg.result is not None, timeout=120_000)
    res = dlg.result
    assert res.front and dlg.table.rowCount() == len(res.front)
    assert len(dlg.scatter.points()) == len(res.front)
    assert "designs on the front" in dlg.summary.text()
    # a click on the last point picks its row
    last = dlg.scatter.points()[-1]
    dlg._clicked(dlg.scatter, [last])  # noqa: SLF001 — pyqtgraph's sigClicked handler
    assert dlg.chosen() is res.front[int(last.data())]
    brushes = [p.brush().color().name() for p in dlg.scatter.points()]
    assert brushes[-1] == "#e6781e" and brushes.count("#e6781e") == 1  # the chosen point stands out
    chosen = dlg.chosen()
    assert dlg.open_chosen()
    p = window.doc.project
    assert p.gpu_count() == chosen["gpus"]
    again = analyze_project(p)
    assert again.thermal.facility_kw_max == chosen["facility_kw_max"]
    assert again.workload is not None


def test_cancel_stops_the_search(window, qtbot):
    dlg = AdvisorDialog(window)
    qtbot.addWidget(dlg)
    _small_goal(dlg)
    dlg._cancel.set()  # noqa: SLF001 — as if Cancel was pressed before the first wave
    with ThreadPoolExecutor(1) as ex:
        dlg.search(executor=ex)
        dlg._cancel.set()  # noqa: SLF001
        dlg.wait()
        qtbot.waitUntil(lambda: dlg.search_button.isEnabled() is not False, timeout=120_000)
    qtbot.waitUntil(lambda: dlg.result is not None, timeout=120_000)
    assert dlg.result.cancelled
