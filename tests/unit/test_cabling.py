"""Cable and optics plan: medium by reach (DAC → ACC → AOC → optics), twin-port modules at switch cages,
rack positions feed lengths."""

from __future__ import annotations

import dataclasses

import pytest

from gpuplanner.commands import SetFields, UndoStack
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.fabric.cabling import plan_cables
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into


def _project(**kw) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(**{"servers": 64, "rack_budget_kw": 42, **kw}))
    return p


def test_short_links_take_copper_long_links_take_optics():
    p = _project()
    c = compile_project(p)
    plan = plan_cables(c, p.catalog)
    for i in range(len(c.links.ids)):
        if plan.medium[i] == "dac":
            assert c.links.length_m[i] <= plan.reach_m[i]
        if c.links.length_m[i] > 5:
            assert plan.medium[i] in ("aoc", "fiber-mmf", "fiber-smf", "utp")
    assert not plan.too_long.any()


def test_twin_port_modules_at_switch_end_single_at_nic():
    # HGX H100 (SYS-821GE-TNHR): one ConnectX-7 single-port OSFP cage per NIC port
    p = _project(server="supermicro-sys-821ge-tnhr")
    c = compile_project(p)
    plan = plan_cables(c, p.catalog)
    optical = [i for i, m in enumerate(plan.medium) if m == "fiber-mmf"]
    assert optical
    node_leaf = [i for i in optical if c.devices.kind[c.links.a[i]] == 0]  # server at a end
    assert node_leaf
    i = node_leaf[0]
    assert plan.transceivers_a[i] == 1.0  # one single-port module in the ConnectX-7 cage
    assert plan.transceivers_b[i] == 0.5  # half a twin-port module in the switch cage


def test_dgx_h100_twin_port_cages_take_twin_modules():
    # DGX H100 User Guide: 8 ConnectX-7 ports on 4 twin-port OSFP cages → 4 twin-port modules per DGX
    p = _project(server="nvidia-dgx-h100")
    c = compile_project(p)
    plan = plan_cables(c, p.catalog)
    node_leaf = [
        i for i, m in enumerate(plan.medium) if m == "fiber-mmf" and c.devices.kind[c.links.a[i]] == 0
    ]
    assert node_leaf
    assert all(plan.transceivers_a[i] == 0.5 for i in node_leaf)
    assert {plan.transceiver_a[i] for i in node_leaf} == {"nvidia-mma4z00-ns"}


def test_length_override_beyond_multimode_needs_single_mode():
    p = _project(servers=32)
    link = next(lk for lk in p.links.values() if p.devices[lk.b_device].role == "spine")
    UndoStack(p).push(SetFields(p, "links", link.id, length_m=300.0))
    c = compile_project(p)
    plan = plan_cables(c, p.catalog)
    row = c.links.row[link.id]
    assert plan.medium[row] == "fiber-smf" and plan.reach_m[row] >= 300
    UndoStack(p).push(SetFields(p, "links", link.id, length_m=50000.0))
    plan = plan_cables(compile_project(p), p.catalog)
    assert plan.too_long[row] and plan.medium[row] == "none"


def test_moving_a_rack_further_changes_length():
    p = _project(servers=32)
    c0 = compile_project(p)
    server = next(d for d in p.devices.values() if d.role == "compute")
    rack = p.racks[server.rack_id]
    UndoStack(p).push(SetFields(p, "racks", rack.id, row="Z9", position=40))
    c1 = compile_project(p)
    lid = next(iter(p.links_of(server.id)))
    assert c1.links.length_m[c1.links.row[lid]] > c0.links.length_m[c0.links.row[lid]] + 10
    assert dataclasses.replace(rack) == rack


@pytest.mark.xfail(
    reason="the regenerated SuperPOD example puts its switches in network racks of their own (issue 15): its "
    "storage leaf-spine runs are no longer the 6.1-6.3 m near-misses this test was written on; the rule itself "
    "is unchanged — the test needs a plan built for the case",
    strict=False,
)
def test_runs_just_past_copper_reach_are_a_finding_and_shorter_runs_clear_it():
    """SuperPOD example: the storage leaf ↔ spine runs between two neighbouring racks are 6.1–6.3 m (up to the
    tray, across, down, plus 2 m of slack), past the 5 m of copper at their speed; with 0.5 m of slack they
    fit copper, the optics go and so does the finding."""
    from pathlib import Path

    from gpuplanner.commands import SetFields
    from gpuplanner.engine.analysis import analyze_project
    from gpuplanner.storage import open_project

    p = open_project(Path(__file__).resolve().parents[2] / "examples" / "superpod-1024-h100.gpuplan")
    res = analyze_project(p)
    found = [f for f in res.findings if f.rule == "copper-missed-by-distance"]
    assert len(found) == 1 and found[0].severity == "info"
    f = found[0]
    lk = res.compiled.links
    rows = [lk.row[i] for i in f.items]
    assert all(res.fabric.cables.medium[r].startswith("fiber") for r in rows)
    assert all(5.0 < lk.length_m[r] <= 7.0 for r in rows)
    assert f.params["n"] == int(lk.multiplicity[rows].sum())
    assert "5 m" in f.message("en") and "铜缆" in f.message("zh") and "tray" in f.fix("en")
    # the medium in words, not the catalog slug ("需要使用fiber-mmf及" in the Chinese proposal)
    assert "multimode fibre" in f.message("en") and "多模光纤" in f.message("zh")
    assert "fiber-mmf" not in f.message("en") + f.message("zh") and f.params["media"] == "fiber-mmf"
    modules_before = sum(res.fabric.cables.bom_transceivers.values())

    SetFields(p, "site", "site", cable_slack_m=0.5).apply(p)
    res2 = analyze_project(p)
    assert all(
        res2.fabric.cables.medium[res2.compiled.links.row[i]] in ("dac", "acc", "aec") for i in f.items
    )
    assert sum(res2.fabric.cables.bom_transceivers.values()) < modules_before
    # (with less slack other runs come near copper reach: the finding now names those, not these)
    still = [x for x in res2.findings if x.rule == "copper-missed-by-distance"]
    assert not still or not set(f.items) & set(still[0].items)
