"""Annotations after edits, applied incrementally (only the blocks whose figures changed get new text, only
the racks with an item get notes, the overview's rack arrays are updated row by row): they equal the
engine's results and what a full rebuild of the scene shows.

Oracles: sums and maxima over the model and the Results written as plain loops (not the canvas's arrays);
a full ``PlannerScene.rebuild`` on the same results for "incremental = full".
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gpuplanner.commands import SetFields
from gpuplanner.model import Project
from gpuplanner.ui.canvas import annotations as notes
from gpuplanner.ui.canvas import interactions
from gpuplanner.ui.canvas import scene as scene_module
from tests.ui.test_canvas_lazy import four_su_project


@pytest.fixture
def big(monkeypatch):
    monkeypatch.setattr(scene_module, "OPEN_COLLAPSED_ABOVE", 20)


def _oracle(p: Project, res, key_devices: list[str], key_racks: list[str]) -> tuple:
    """(GPUs, kW at load, busiest leaving link, findings, worst severity) of a group, by plain loops."""
    members = set(key_devices)
    gpus = sum(int(getattr(p.catalog.entries[p.devices[d].type_id], "gpu_count", 0) or 0) for d in members)
    c = res.compiled
    kw = sum(float(res.power.device_load_w[c.devices.row[d]]) for d in members if d in c.devices.row) / 1000
    util = None
    inside_links = set()
    for lid, lk in p.links.items():
        a, b = lk.a_device in members, lk.b_device in members
        if a and b:
            inside_links.add(lid)
        elif a or b:
            row = c.links.row.get(lid)
            u = float(np.nan_to_num(res.link_util[row])) if row is not None else 0.0
            util = u if util is None else max(util, u)
    owned = members | set(key_racks) | inside_links
    order = {"error": 0, "warning": 1, "info": 2}
    hits = [fd for fd in res.findings if owned & set(fd.items)]
    worst = min((fd.severity for fd in hits), key=lambda s: order.get(s, 3), default="")
    return gpus, kw, util, len(hits), worst


def _check_blocks_against_engine(w) -> None:
    sc, p, res = w.scene, w.doc.project, w.doc.results
    assert res is not None and sc.blocks
    for key, block in sc.blocks.items():
        g = sc.groups()[key]
        gpus, kw, util, n_findings, worst = _oracle(p, res, g.device_ids, g.rack_ids)
        f_gpus, f_kw, f_util, f_findings, f_worst = block.figures
        assert f_gpus == gpus, key
        assert math.isclose(f_kw, kw, rel_tol=1e-9, abs_tol=1e-9), key
        assert f_util == util or (None not in (f_util, util) and math.isclose(f_util, util, abs_tol=1e-12)), (
            key
        )
        assert (f_findings, f_worst) == (n_findings, worst), key
        assert f"{gpus} GPUs" in block.lines


def _shown(sc) -> dict:
    """Everything the canvas shows from the results: block texts and edges, rack and device annotations,
    the overview's rack frames and colours."""
    return {
        "blocks": {k: (b.lines, b.worst) for k, b in sc.blocks.items()},
        "racks": {r: (i.kw_text, i.status, i.badge) for r, i in sc.rack_items.items()},
        "devices": {d: (i.annotation, i.warn) for d, i in sc.device_items.items()},
        "ov_ids": list(sc.overview.rack_ids),
        "ov_xywh": sc.overview.rack_xywh.copy(),
        "ov_status": sc.overview.rack_status.copy(),
    }


def _assert_same(a: dict, b: dict) -> None:
    assert a["blocks"] == b["blocks"]
    assert a["racks"] == b["racks"]
    assert a["devices"] == b["devices"]
    assert a["ov_ids"] == b["ov_ids"]
    assert np.array_equal(a["ov_xywh"], b["ov_xywh"])
    assert np.array_equal(a["ov_status"], b["ov_status"])


def _edits(p: Project):
    """Edits a consultant makes: budgets (one far too small: the rack turns red), cooling, the job's batch,
    a rack moved, a server deleted."""
    spine_rack = next(d.rack_id for d in p.devices.values() if not d.group and d.rack_id)
    su_rack = next(d.rack_id for d in p.devices.values() if d.group and d.rack_id and d.role == "compute")
    wl = next(iter(p.tables["workloads"].values()))
    yield SetFields(p, "racks", spine_rack, power_budget_kw=0.5)
    yield SetFields(p, "racks", su_rack, power_budget_kw=3.0)
    yield SetFields(p, "racks", su_rack, cooling_id="generic-cold-plate-dlc-cdu")
    yield SetFields(p, "workloads", wl.id, global_batch=wl.global_batch * 2)
    yield SetFields(p, "racks", spine_rack, x=p.racks[spine_rack].x + 300.0)
    server = next(d.id for d in p.devices.values() if d.group and d.role == "compute")
    yield interactions.delete_command(p, [server])


@pytest.mark.parametrize("collapse", ["all", "one"])
def test_block_figures_and_notes_after_edits_equal_the_engine_and_a_full_rebuild(big, make_window, collapse):
    p = four_su_project()
    w = make_window(p)
    sc = w.scene
    if collapse == "one":  # racks and devices of the other groups have items: their notes are checked too
        keep = sc.collapsed[0]
        sc.expand_all()
        sc.collapse([keep])
    assert sc.rack_items
    for k, cmd in enumerate(_edits(p)):
        assert cmd is not None
        w.doc.push(cmd)
        _check_blocks_against_engine(w)
        res = w.doc.results
        status = notes.rack_status(res)
        for rid, item in sc.rack_items.items():  # the notes of the racks with items: the engine's status
            assert item.status == int(status[res.compiled.racks.row[rid]]), (k, rid)
        incremental = _shown(sc)
        collapsed = list(sc.collapsed)
        notes._MAKER = None  # noqa: SLF001 (nothing cached from the incremental path)
        sc.rebuild()
        sc.expand_all()
        sc.collapse(collapsed)
        _assert_same(incremental, _shown(sc))
    # the red rack is red in the overview too (updated row by row)
    spine_rack = next(d.rack_id for d in p.devices.values() if not d.group and d.rack_id)
    row = sc.overview.rack_ids.index(spine_rack)
    assert sc.overview.rack_status[row] == sc.rack_items[spine_rack].status != 0


def _picture(sc) -> dict:
    """What the canvas draws of the links and the blocks."""
    rows, xy, _box = sc.layer.drawable()
    return {
        "ids": list(sc.layer.ids),
        "util": sc.layer.util.copy(),
        "drawn": sorted(sc.layer.ids[r] for r in rows.tolist()),
        "xy": xy[np.argsort([sc.layer.ids[r] for r in rows.tolist()])],
        "blocks": {k: (b.lines, b.worst, b.figures) for k, b in sc.blocks.items()},
    }


def test_a_large_plan_is_drawn_first_and_its_links_follow_the_first_paint(
    big, make_window, qtbot, monkeypatch
):
    """Two-step open: racks and collapsed blocks are on screen before the links are laid out; after the first
    paint the links come, and the canvas then equals one opened in a single step."""
    p = four_su_project()
    one_step = make_window(p)
    reference = _picture(one_step.scene)
    assert reference["drawn"] and not one_step.scene.links_pending
    monkeypatch.setattr(scene_module, "LINKS_AFTER_PAINT_ABOVE", 0)
    w = make_window(four_su_project())
    sc = w.scene
    assert sc.links_pending and len(sc.layer.ids) == 0
    assert sc.blocks and all(b.lines for b in sc.blocks.values())  # the blocks are there, with their GPUs
    added: list[bool] = []
    sc.linksAdded.connect(lambda: added.append(True))
    w.view.viewport().repaint()  # the first paint
    qtbot.waitUntil(lambda: bool(added), timeout=5000)
    assert not sc.links_pending
    got = _picture(sc)
    # the same links (ids of two generated copies of one plan: equal), drawn alike, the same block figures
    assert got["ids"] == reference["ids"] and got["drawn"] == reference["drawn"]
    assert np.array_equal(got["util"], reference["util"]) and np.allclose(got["xy"], reference["xy"])
    assert got["blocks"] == reference["blocks"]


def test_an_edit_before_the_links_are_in_lays_them_out_first(big, make_window, monkeypatch):
    monkeypatch.setattr(scene_module, "LINKS_AFTER_PAINT_ABOVE", 0)
    p = four_su_project()
    w = make_window(p)
    sc = w.scene
    assert sc.links_pending
    wl = next(iter(p.tables["workloads"].values()))
    w.doc.push(SetFields(p, "workloads", wl.id, global_batch=wl.global_batch * 2))
    assert not sc.links_pending and len(sc.layer.ids) == len(p.links)
    _check_blocks_against_engine(w)
    res = w.doc.results
    util = {lid: float(np.nan_to_num(res.link_util[res.compiled.links.row[lid]])) for lid in p.links}
    assert all(math.isclose(sc.layer.util[k], util[lid]) for k, lid in enumerate(sc.layer.ids))


def test_a_large_projects_objects_leave_the_garbage_collector_and_come_back_for_the_next(
    make_window, monkeypatch
):
    """gc.freeze after opening a large project (its full collections took 0.2-1 s at 131k GPUs); opening
    a small one after it unfreezes them (so they can be collected)."""
    import gc

    from gpuplanner.ui import main_window as mw

    gc.unfreeze()
    monkeypatch.setattr(mw, "FREEZE_ABOVE", 100)
    p = four_su_project()
    assert len(p.links) + len(p.devices) > 100
    w = make_window(p)
    assert gc.get_freeze_count() > len(p.links)  # (at least one object per row)
    w.doc.replace_project(Project(p.catalog), None)
    assert gc.get_freeze_count() == 0
