"""Screenshots of the desktop app for the README, taken on a real X server (Xvfb):

    xvfb-run -a -s "-screen 0 1600x1000x24" env QT_QPA_PLATFORM=xcb python tools/screenshots.py

writes docs/screenshots/window-256-h100.png (the whole window on the 256-GPU example, a rack selected),
docs/screenshots/rack-elevation.png (that rack's row in the elevation view),
docs/screenshots/canvas-16k-overview.png (a generated 16,384-GPU fat tree, zoomed out),
docs/screenshots/canvas-16k-collapsed.png (the same with every scalable unit collapsed into a block) and
docs/screenshots/welcome.png (the welcome screen with recent projects, one of them missing),
docs/screenshots/main-window-zh.png and site-dialog-zh.png (the Chinese UI on the 256-GPU example),
docs/screenshots/floor-plan.png and floor-plan-zh.png (the floor-plan tab on the three-phase example, a rack
selected), docs/screenshots/advisor.png (Plan ▸ Design advisor with a Pareto front),
docs/screenshots/advisor-serving.png and advisor-serving-zh.png (the advisor on a serving goal) and
docs/screenshots/scenario-compare.png and scenario-compare-zh.png (two scenarios side by side) and
docs/screenshots/workload-serving{,-zh}.png with workload-serving-window{,-zh}.png (the workload dialog of a
serving workload stating prefill not chunked and the fused GEMM + all-reduce, and the window's results panel).
Name shots to take only those: ``python tools/screenshots.py welcome``; GPUPLANNER_SCREENSHOTS=DIR writes them to
DIR instead of docs/screenshots (a look at a change without touching the committed images).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPointF, QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from gpuplanner.commands import AddRows, SetFields  # noqa: E402
from gpuplanner.model import Project, Workload  # noqa: E402
from gpuplanner.storage import save_project  # noqa: E402
from gpuplanner.topology.generators import generate  # noqa: E402
from gpuplanner.topology.options import GenerateOptions  # noqa: E402
from gpuplanner.ui.app import examples_dir, register_fonts  # noqa: E402
from gpuplanner.ui.document import Document  # noqa: E402
from gpuplanner.ui.main_window import MainWindow  # noqa: E402
from gpuplanner.ui.welcome import WelcomeDialog  # noqa: E402

OUT = Path(os.environ.get("GPUPLANNER_SCREENSHOTS") or ROOT / "docs" / "screenshots")
SIZE = (1600, 1000)


def settle(app: QApplication, w: MainWindow, seconds: float = 1.0) -> None:
    """Let events run and the canvas tiles fill in (they render within a budget per frame)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        w.view.viewport().repaint()
        time.sleep(0.02)
    w.plots.refresh(everything=True)
    app.processEvents()


def window(app: QApplication, tmp: Path) -> MainWindow:
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(Document(synchronous=True), settings=settings, recovery_dir=tmp / "recovery")
    w.resize(*SIZE)
    w.show()
    app.processEvents()
    return w


def window_256(app: QApplication, tmp: Path):
    """The 256-GPU example with its first compute rack selected and in view; returns (window, rack)."""
    w = window(app, tmp)
    w.open_file(ROOT / "examples" / "cluster-256-h100.gpuplan")
    p = w.doc.project
    rack = next(r for r in p.racks.values() if any(d.role == "compute" for d in p.devices_in_rack(r.id)))
    w.scene.select_ids([rack.id])
    frame = w.scene.rack_items[rack.id].sceneBoundingRect()
    w.view.set_zoom(0.62, QPointF(frame.center().x() + 380, frame.top() - 60))
    settle(app, w)
    return w, rack


def shot_256(app: QApplication, tmp: Path) -> None:
    w, rack = window_256(app, tmp)
    w.grab().save(str(OUT / "window-256-h100.png"))
    w.docks["racks"].raise_()
    w.rack_view.show_row(rack.row)
    settle(app, w, 0.5)
    w.rack_view.canvas.grab().save(str(OUT / "rack-elevation.png"))  # the whole row, not just the dock
    w.doc.undo_stack.setClean()
    w.close()


def shot_16k(app: QApplication, tmp: Path) -> None:
    p = Project()
    generate(p, GenerateOptions(template="fat-tree-3tier", servers=2048, rack_budget_kw=42)).to_command(
        "g"
    ).apply(p)
    wl = Workload(
        id=p.new_id("workloads"), name="Llama 3 70B", model_id="llama3-70b", tp=8, pp=4, global_batch=2048
    )
    AddRows("workloads", [wl]).apply(p)
    path = tmp / "cluster-16k-h100.gpuplan"
    save_project(p, path)
    w = window(app, tmp)
    w.open_file(path)
    fit = w.scene.layer.fit_rect()
    vp = w.view.viewport().rect()
    scale = 0.11  # below lod.OVERVIEW_BELOW: racks, devices and links come from the tiles
    w.view.set_zoom(scale, QPointF(fit.left() + vp.width() / scale / 2 - 400, fit.center().y()))
    settle(app, w, 2.0)
    w.grab().save(str(OUT / "canvas-16k-overview.png"))
    w.doc.undo_stack.setClean()
    w.close()


def shot_16k_collapsed(app: QApplication, tmp: Path) -> None:
    """The same 16k plan after Plan ▸ Arrange in tiers and View ▸ Collapse all scalable units, zoomed to
    fit, with the minimap."""
    path = tmp / "cluster-16k-h100.gpuplan"
    if not path.exists():
        shot_16k(app, tmp)
    w = window(app, tmp)
    w.open_file(path)
    w.actions["arrange"].trigger()
    w.actions["collapse_sus"].trigger()
    fit = w.scene.extent()
    w.view.set_zoom(0.16, QPointF(fit.left() + 2600, fit.bottom() - 1600))  # the lower-left blocks, legible
    settle(app, w, 2.0)
    w.grab().save(str(OUT / "canvas-16k-collapsed.png"))
    w.doc.undo_stack.setClean()
    w.close()


def shot_welcome(app: QApplication, tmp: Path) -> None:
    w = window(app, tmp)
    ex = examples_dir()
    gone = Path("/home/consultant/projects/customer-a/h200-cluster-v3.gpuplan")  # shown as missing
    w.settings.setValue(
        "recent", [str(ex / "cluster-256-h100.gpuplan"), str(gone), str(ex / "phased-pilot-to-su.gpuplan")]
    )
    dlg = WelcomeDialog(w)
    dlg.show()
    settle(app, w, 0.5)
    dlg.grab().save(str(OUT / "welcome.png"))
    dlg.close()
    w.close()


def shot_zh(app: QApplication, tmp: Path) -> None:
    """The main window and the site dialog in Chinese, on the 256-GPU example (a Chinese, CNY project)."""
    from gpuplanner.ui import i18n
    from gpuplanner.ui.dialogs.site_dialog import SiteDialog

    i18n.set_language("zh")
    try:
        w, _rack = window_256(app, tmp)
        w.grab().save(str(OUT / "main-window-zh.png"))
        dlg = SiteDialog(w.doc, w)
        dlg.show()
        settle(app, w, 0.5)
        dlg.grab().save(str(OUT / "site-dialog-zh.png"))
        dlg.close()
        w.doc.undo_stack.setClean()
        w.close()
    finally:
        i18n.set_language("en")


def shot_floor(app: QApplication, tmp: Path) -> None:
    """The floor plan of the three-phase example: rows and aisles, racks by kW, units with load / rating."""
    from gpuplanner.ui import i18n

    for lang, name in (("en", "floor-plan.png"), ("zh", "floor-plan-zh.png")):
        i18n.set_language(lang)
        try:
            w = window(app, tmp)
            w.open_file(ROOT / "examples" / "phased-pilot-to-su.gpuplan")
            w.tabs.setCurrentWidget(w.floor)
            settle(app, w, 0.3)
            w.floor.view.fit()
            w.floor.scene.racks["r5"].setSelected(True)
            settle(app, w, 0.5)
            w.grab().save(str(OUT / name))
            w.doc.undo_stack.setClean()
            w.close()
        finally:
            i18n.set_language("en")


def advisor_shot(app: QApplication, tmp: Path, goal, out: str, row: int | None = None) -> None:
    """Plan ▸ Design advisor with `goal` kept in the project (Plan ▸ Design goal…; the advisor's form is filled
    from it), searched on two threads, saved to `out` with front row `row` selected."""
    from concurrent.futures import ThreadPoolExecutor

    from gpuplanner.advisor.goal import goal_row
    from gpuplanner.commands import SetFields
    from gpuplanner.ui.dialogs.advisor_dialog import AdvisorDialog

    w = window(app, tmp)
    fields = goal_row(goal)
    w.doc.push(SetFields(w.doc.project, "goal", "goal", **{n: getattr(fields, n) for n in fields.__slots__}))
    dlg = AdvisorDialog(w)
    dlg.resize(1300, 760)
    dlg.show()
    with ThreadPoolExecutor(2) as ex:
        dlg.search(executor=ex)
        dlg.wait(600)
    end = time.perf_counter() + 2
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.02)
    if row is not None:
        dlg.table.selectRow(row)
        app.processEvents()
    dlg.grab().save(str(OUT / out))
    dlg.close()
    w.doc.undo_stack.setClean()  # the goal edit is not to be saved: no "save changes?" box on close
    w.close()


def shot_advisor(app: QApplication, tmp: Path) -> None:
    """Plan ▸ Design advisor on the issue's goal: Llama 3 70B on 15T tokens in 60 days, ≤ 3 MW, ≤ 45 kW racks."""
    from gpuplanner.advisor import Goal

    goal = Goal(total_tokens=15e12, deadline_days=60, facility_kw_max=3000, rack_kw_max=45, max_servers=512)
    advisor_shot(app, tmp, goal, "advisor.png", row=1)


def shot_advisor_serving(app: QApplication, tmp: Path) -> None:
    """Plan ▸ Design advisor on a serving goal stating every field `estimate --inference` takes: Llama 3 70B fp8,
    20 requests/s and 1,000 users thinking 3 s, MLPerf llama2-70b prompts, TTFT ≤ 80 ms at p99, TPOT ≤ 50 ms at
    p99, disaggregated, TensorRT-LLM's KV rule, ≤ 600 kW and 4 servers; in English and in Chinese."""
    from gpuplanner.advisor import Goal
    from gpuplanner.ui import i18n

    goal = Goal(
        kind="inference", precision="fp8", requests_per_s=20, users=1000, think_time_s=3, prompt_len=222,
        prompt_dataset="mlperf-llama2-70b", ttft_s_max=0.08, ttft_percentile=99, tpot_percentile=99,
        serving_stack="trtllm", serving_mode="disaggregated", facility_kw_max=600, max_servers=4,
        servers=("nvidia-dgx-h100", "nvidia-dgx-b200"), templates=("leaf-spine",), oversubs=(1.0,),
    )  # fmt: skip
    for lang, name in (("en", "advisor-serving.png"), ("zh", "advisor-serving-zh.png")):
        i18n.set_language(lang)
        try:
            advisor_shot(app, tmp, goal, name)
        finally:
            i18n.set_language("en")


def shot_scenarios(app: QApplication, tmp: Path) -> None:
    """The scenario compare dialog on the 256-GPU example with a cheaper-power, liquid-cooled scenario, in
    English and in Chinese (the figures are solved off the UI thread: wait for them)."""
    import json

    from gpuplanner.model.rows import Scenario
    from gpuplanner.ui import i18n
    from gpuplanner.ui.scenario_picker import CompareDialog

    for lang, name in (("en", "scenario-compare.png"), ("zh", "scenario-compare-zh.png")):
        i18n.set_language(lang)
        try:
            w, _rack = window_256(app, tmp)
            p = w.doc.project
            overrides = {
                "site.electricity_usd_per_kwh": 0.06,
                "racks.cooling_id": "generic-cold-plate-dlc-cdu",
            }
            title = "Liquid, cheaper power" if lang == "en" else "液冷、更低电价"
            sc = Scenario(id=p.new_id("scenarios"), name=title, overrides_json=json.dumps(overrides))
            w.doc.push(AddRows("scenarios", [sc]))
            dlg = CompareDialog(w.doc, None, sc.name, w)
            dlg.resize(760, 620)
            dlg.show()
            end = time.perf_counter() + 120
            while dlg.pending and time.perf_counter() < end:
                app.processEvents()
                time.sleep(0.02)
            settle(app, w, 0.5)
            dlg.grab().save(str(OUT / name))
            dlg.close()
            w.doc.undo_stack.setClean()
            w.close()
        finally:
            i18n.set_language("en")


def shot_workload_serving(app: QApplication, tmp: Path) -> None:
    """The workload dialog of a serving workload on the 256-GPU example (Llama 3 70B fp8 on TensorRT-LLM's KV
    rule, 2,000 users, prefill not chunked, the GEMM + all-reduce fused: the two check boxes), and the window
    whose results panel says the settings; in English and in Chinese."""
    from gpuplanner.ui import i18n
    from gpuplanner.ui.dialogs.workload_dialog import WorkloadDialog

    for lang, suffix in (("en", ""), ("zh", "-zh")):
        i18n.set_language(lang)
        try:
            w, _rack = window_256(app, tmp)
            p = w.doc.project
            for old in list(p.tables["workloads"].values()):
                w.doc.push(SetFields(p, "workloads", old.id, active=False))
            wl = Workload(id=p.new_id("workloads"), name="chat", kind="inference", model_id="llama3-70b",
                          precision="fp8", prompt_len=1024, output_len=256, users=2000, ttft_target_s=1.0,
                          tpot_target_s=0.05, serving_mode="aggregated", serving_stack="trtllm",
                          chunked_prefill=False, gemm_allreduce_fusion=True)  # fmt: skip
            w.doc.push(AddRows("workloads", [wl]))
            settle(app, w, 1.0)
            w.grab().save(str(OUT / f"workload-serving-window{suffix}.png"))
            dlg = WorkloadDialog(w.doc, w)
            dlg.resize(1250, 900)
            dlg.show()
            settle(app, w, 0.5)
            dlg.grab().save(str(OUT / f"workload-serving{suffix}.png"))
            dlg.close()
            w.doc.undo_stack.setClean()
            w.close()
        finally:
            i18n.set_language("en")


SHOTS = {
    "workload-serving": shot_workload_serving,
    "advisor": shot_advisor,
    "advisor-serving": shot_advisor_serving,
    "scenarios": shot_scenarios,
    "256": shot_256,
    "16k": shot_16k,
    "16k-collapsed": shot_16k_collapsed,
    "welcome": shot_welcome,
    "zh": shot_zh,
    "floor": shot_floor,
}


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    register_fonts(app)  # type: ignore[arg-type]
    from gpuplanner.ui import i18n

    i18n.set_language("en")  # as the app does at start: the English .qm holds the plural forms
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    for name in sys.argv[1:] or list(SHOTS):
        SHOTS[name](app, tmp)
    for f in sorted(OUT.glob("*.png")):
        print(f.relative_to(ROOT) if f.is_relative_to(ROOT) else f)


if __name__ == "__main__":
    main()
