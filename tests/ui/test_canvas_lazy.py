"""Large plans on the canvas: they open with their groups collapsed and only the items outside the groups
exist; expanding a group makes its items (with the latest annotations); an edit inside a collapsed group
changes the block's totals; links leaving collapsed groups are drawn as one bundle per pair of ends; the
array geometry equals the per-device rule it replaces.

The threshold is lowered for the tests (``OPEN_COLLAPSED_ABOVE``): the behaviour is the 131k plan's on a
plan small enough to analyse in a test. Oracles are direct counts over the model and the engine's results.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gpuplanner.commands import AddRows
from gpuplanner.model import Device, Project, Workload
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import GenerateOptions
from gpuplanner.ui.canvas import groups as grp
from gpuplanner.ui.canvas import interactions
from gpuplanner.ui.canvas import scene as scene_module
from gpuplanner.ui.canvas.geometry import DeviceGeometry, device_size


def four_su_project() -> Project:
    """32 DGX H100 in four scalable units of eight (leaves in their SU, spines outside), with a job."""
    p = Project()
    generate(
        p, GenerateOptions(template="rail-leaf-spine", servers=32, su_size=8, rack_budget_kw=80)
    ).to_command("g").apply(p)
    wl = Workload(
        id=p.new_id("workloads"), name="Llama 3 8B", model_id="llama3-8b", tp=8, pp=1, dp=32, global_batch=256
    )
    AddRows("workloads", [wl]).apply(p)
    return p


@pytest.fixture
def big(monkeypatch):
    """Plans above 20 devices count as large: they open collapsed."""
    monkeypatch.setattr(scene_module, "OPEN_COLLAPSED_ABOVE", 20)


def _su_members(p: Project) -> set[str]:
    return {d.id for d in p.devices.values() if d.group}


def test_a_large_plan_opens_collapsed_with_items_only_outside_the_groups(big, make_window):
    p = four_su_project()
    w = make_window(p)
    sc = w.scene
    labels = sorted({d.group for d in p.devices.values() if d.group})
    assert sorted(sc.collapsed) == sorted(f"su:{g}" for g in labels) and len(labels) >= 4
    # no item for anything inside a group: the devices without a label (spines) and their racks remain
    outside = {d.id for d in p.devices.values() if not d.group}
    assert set(sc.device_items) == outside and outside
    grouped_racks = {d.rack_id for d in p.devices.values() if d.group and d.rack_id}
    assert set(sc.rack_items) == set(p.racks) - grouped_racks
    n_items = len(sc.items())
    assert n_items == len(outside) + len(sc.rack_items) + len(sc.blocks) + 1  # + the link layer
    assert n_items < (len(p.devices) + len(p.racks)) / 2
    # a plan under the threshold opens expanded, every rack and device with its item
    w.doc.replace_project(Project(p.catalog), None)
    assert sc.collapsed == [] and not sc.blocks


def test_expanding_a_group_makes_its_items_with_their_annotations(big, make_window, qtbot):
    p = four_su_project()
    w = make_window(p)
    sc, res = w.scene, w.doc.results
    assert res is not None
    key = sc.collapsed[0]
    members = set(sc.groups()[key].device_ids)
    assert not members & set(sc.device_items)
    w.view.zoom_to_fit()
    QApplication.processEvents()
    pos = w.view.mapFromScene(sc.blocks[key].boundingRect().center())
    QTest.mouseDClick(w.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    QApplication.processEvents()
    assert key not in sc.collapsed and key not in sc.blocks
    assert members <= set(sc.device_items)
    for did in members:  # the kW line from the engine's device load, as on an item made at open
        kw = res.power.device_load_w[res.compiled.devices.row[did]] / 1000
        want = f"{round(kw, 1):,.1f} kW" if kw > 0 else ""
        assert sc.device_items[did].annotation == want
    racks = {p.devices[d].rack_id for d in members if p.devices[d].rack_id}
    for rid in racks:
        i = res.compiled.racks.row[rid]
        assert sc.rack_items[rid].kw_text.startswith(f"{res.power.rack_kw_load[i]:,.1f} / ")
    # collapsing it again removes the items
    sc.collapse([key])
    assert not members & set(sc.device_items)


def test_an_edit_inside_a_collapsed_group_updates_its_totals(big, make_window):
    p = four_su_project()
    w = make_window(p)
    sc = w.scene
    key = sc.collapsed[0]
    g = sc.groups()[key]
    server = next(d for d in g.device_ids if p.devices[d].role == "compute")
    before = sc.blocks[key].lines
    cmd = interactions.delete_command(p, [server])
    assert cmd is not None and w.view.push(cmd)
    res = w.doc.results
    g = sc.groups()[key]
    gpus = sum(getattr(p.catalog.entries[p.devices[i].type_id], "gpu_count", 0) or 0 for i in g.device_ids)
    kw = sum(res.power.device_load_w[res.compiled.devices.row[i]] for i in g.device_ids) / 1000
    lines = sc.blocks[key].lines
    assert f"{gpus} GPUs" in lines and f"{gpus + 8} GPUs" in before
    assert f"{kw:,.1f} kW at load" in lines and lines != before
    assert server not in sc.device_items and key in sc.collapsed


def test_select_all_reaches_into_collapsed_groups(big, make_window, qtbot):
    p = four_su_project()
    w = make_window(p)
    sc = w.scene
    w.activateWindow()  # a window shortcut reaches its action only while the window is active
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=10000)
    w.view.setFocus()
    QTest.keyClick(w.view.viewport(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert set(sc.selected_ids()) == set(p.devices) | set(p.racks)
    key = sc.collapsed[0]
    sc.expand(key)
    members = sc.groups()[key].device_ids
    assert all(sc.device_items[d].isSelected() for d in members)  # the waiting selection reached them
    assert set(sc.selected_ids()) == set(p.devices) | set(p.racks)


def test_links_leaving_collapsed_groups_are_drawn_as_one_bundle_per_pair_of_ends(big, make_window):
    p = four_su_project()
    w = make_window(p)
    sc = w.scene
    layer = sc.layer
    owner = {d: k for k, g in sc.groups().items() if k in sc.collapsed for d in g.device_ids}
    pairs: dict[tuple[str, str], list[str]] = {}
    plain = set()
    for lid, lk in p.links.items():
        a, b = owner.get(lk.a_device, lk.a_device), owner.get(lk.b_device, lk.b_device)
        if a == b:
            continue  # inside one collapsed group: not drawn
        if a == lk.a_device and b == lk.b_device:
            plain.add(lid)
        else:
            pairs.setdefault((min(a, b), max(a, b)), []).append(lid)
    drawn = {layer.ids[r] for r in layer.drawable()[0]}
    assert pairs and len(drawn) == len(plain) + len(pairs)
    assert plain <= drawn
    for lids in pairs.values():  # each bundle is drawn by its busiest link
        (mine,) = drawn & set(lids)
        assert layer.util[layer.index[mine]] == max(layer.util[layer.index[i]] for i in lids)
    sc.expand_all()
    assert len(layer.drawable()[0]) == len(p.links)


def test_array_geometry_matches_the_per_device_rule(make_window):
    p = four_su_project()
    entry = next(e for e in p.catalog.entries.values() if getattr(e, "kind", "") == "switch")
    some_rack = next(iter(p.racks.values()))
    extra = [
        Device(id="free-switch", name="free", type_id=entry.id, role="leaf", x=-500.0, y=-300.0),
        # in a rack by id but drawn far from its frame: not framed
        Device(id="away", name="away", type_id=entry.id, role="leaf", rack_id=some_rack.id, x=9e4, y=0.0),
    ]
    AddRows("devices", extra).apply(p)
    g = DeviceGeometry.build(p)
    want = np.array([device_size(p, p.devices[i]) for i in g.ids])
    assert np.array_equal(np.column_stack([g.w, g.h]), want)
    assert g.ids == list(p.devices) and np.array_equal(g.x, [d.x for d in p.devices.values()])
    want_names = [
        tuple(pg.name for pg in p.catalog.entries[d.type_id].port_groups) for d in p.devices.values()
    ]
    assert g.groups == want_names


def test_tier_groups_gather_many_unlabelled_devices_of_one_role(monkeypatch):
    p = four_su_project()
    spines = [d.id for d in p.devices.values() if not d.group and d.role == "spine"]
    assert spines
    assert "tier:spine" not in grp.build_groups(p)  # fewer than TIER_GROUP_MIN
    monkeypatch.setattr(grp, "TIER_GROUP_MIN", len(spines))
    g = grp.build_groups(p)["tier:spine"]
    assert sorted(g.device_ids) == sorted(spines) and g.kind == "tier"
    for rid in g.rack_ids:  # a tier group's racks hold only its devices
        assert {d.id for d in p.devices.values() if d.rack_id == rid} <= set(spines)
