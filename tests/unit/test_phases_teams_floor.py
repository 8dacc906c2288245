"""Phased build-out, teams and quotas, floor-plan units, and the v1 → v2 file migration."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.phases import analyze_phases
from gpuplanner.engine.selection import select
from gpuplanner.model import Device, FloorItem, Link, Phase, Project, Team
from gpuplanner.storage import open_project
from gpuplanner.topology import GenerateOptions, generate_into

ROOT = Path(__file__).resolve().parents[2]
PHASED = ROOT / "examples" / "phased-pilot-to-su.gpuplan"


def rules(findings) -> set[str]:
    return {f.rule for f in findings}


def test_three_phase_example_grows_phase_by_phase():
    p = open_project(PHASED)
    results, growth = analyze_phases(p)
    assert [r.summary["gpus"] for r in results] == [16, 48, 304]
    assert all(r.summary["capex_added"] > 0 for r in results)
    assert results[-1].summary["tokens_per_s"] > 0
    assert [r.summary["scheduler"] for r in results] == ["kubernetes", "kubernetes", "slurm+kubernetes"]
    assert not growth


def _pilot() -> Project:
    p = Project()
    AddRows("phases", [Phase(id="a", name="A", order=1), Phase(id="b", name="B", order=2)]).apply(p)
    generate_into(
        p,
        GenerateOptions(
            template="single-switch",
            servers=2,
            server="supermicro-sys-821ge-tnhr",
            leaf_switch="nvidia-spectrum-2-sn3420",
            nic_ports=2,
            phase_id="a",
            rack_budget_kw=42,
        ),
    )
    return p


def test_growth_that_overruns_an_earlier_switch_is_a_finding():
    p = _pilot()
    switch = next(d for d in p.devices.values() if d.role == "leaf")
    rack = next(iter(p.racks))
    new = [
        Device(id=f"n{i}", name=f"b-{i}", type_id="supermicro-sys-821ge-tnhr", phase_id="b", rack_id=rack)
        for i in range(30)
    ]
    AddRows("devices", new).apply(p)
    AddRows(
        "links",
        [
            Link(
                id=f"nl{i}",
                a_device=d.id,
                a_group="compute",
                b_device=switch.id,
                b_group="sfp28",
                multiplicity=2,
                speed_gbps=25.0,
                phase_id="b",
            )
            for i, d in enumerate(new)
        ],
    ).apply(p)
    assert len(select(p, phase="a").devices) == 3
    _, growth = analyze_phases(p)
    assert "phase-growth-needs-replacement" in rules(growth)
    assert any(switch.id in f.items for f in growth)


def test_quotas_beyond_the_cluster_and_jobs_beyond_the_partition():
    p = _pilot()  # 16 GPUs
    AddRows(
        "teams",
        [
            Team(id="t1", name="A", gpu_guaranteed=12, largest_job_gpus=8),
            Team(id="t2", name="B", gpu_guaranteed=8, largest_job_gpus=32),
        ],
    ).apply(p)
    r = rules(analyze_project(p).findings)
    assert {"quota-exceeds-cluster", "job-larger-than-partition"} <= r
    UndoStack(p).push(SetFields(p, "teams", "t1", gpu_guaranteed=8))
    UndoStack(p).push(SetFields(p, "teams", "t2", largest_job_gpus=8))
    r = rules(analyze_project(p).findings)
    assert not {"quota-exceeds-cluster", "job-larger-than-partition"} & r


def test_teams_without_quota_warned_only_when_sharing():
    p = _pilot()
    AddRows("teams", [Team(id="t1", name="A")]).apply(p)
    assert "teams-without-quotas" not in rules(analyze_project(p).findings)
    AddRows("teams", [Team(id="t2", name="B", gpu_guaranteed=8)]).apply(p)
    assert "teams-without-quotas" in rules(analyze_project(p).findings)


@pytest.mark.parametrize(
    ("servers", "expected"), [(2, "Kubernetes"), (16, "Slurm + Kubernetes"), (64, "Slurm")]
)
def test_scheduler_advice_follows_cluster_size(servers, expected):
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=servers, rails=False, rack_budget_kw=42))
    advice = [f for f in analyze_project(p).findings if f.rule == "scheduler-advice"]
    assert advice and advice[0].message("en").startswith(f"Scheduler: {expected}")
    assert advice[0].message("zh") != advice[0].message("en")


def test_floor_unit_load_follows_rack_moves_and_undo():
    p = _pilot()
    rack = next(iter(p.racks.values()))
    AddRows(
        "floor_items", [FloorItem(id="c1", name="CRAH A", kind="crah", capacity_kw=10.0, row=rack.row)]
    ).apply(p)
    res = analyze_project(p)
    load, cap = res.floor_loads["c1"]
    assert load > cap and "floor-unit-overloaded" in rules(res.findings)
    stack = UndoStack(p)
    stack.push(SetFields(p, "racks", rack.id, row="Z1"))
    load2, _ = analyze_project(p).floor_loads["c1"]
    assert load2 == 0.0
    stack.undo()
    assert analyze_project(p).floor_loads["c1"][0] == pytest.approx(load)


def test_v1_file_migrates_on_open_and_is_left_untouched(tmp_path):
    src = ROOT / "tests" / "fixtures" / "format-v1.gpuplan"
    path = tmp_path / "old.gpuplan"
    shutil.copy(src, path)
    before = path.read_bytes()
    p = open_project(path)
    assert p.gpu_count() == 256
    assert all(d.phase_id == "" and d.partition == "" for d in p.devices.values())
    assert p.tables["phases"] == {} and p.tables["teams"] == {}
    assert path.read_bytes() == before
    assert dataclasses.fields(Device)


def test_racks_and_units_outside_the_hall_are_a_finding():
    p = open_project(PHASED)
    assert "outside-hall" not in rules(analyze_project(p).findings)  # no hall size: nothing to check
    # The example's units stand at negative x (left of the racks): a 10 × 20 m hall from (0, 0) leaves
    # them out, and the racks of the last rows too (R03N at 15 m … 16.2 m fits, so make it 15 m deep).
    SetFields(p, "site", "site", hall_width_m=10.0, hall_depth_m=15.0).apply(p)
    found = [f for f in analyze_project(p).findings if f.rule == "outside-hall"]
    assert len(found) == 1
    outside = set(found[0].items)
    assert {"fi1", "fi2", "fi3"} <= outside  # CRAH, rear doors and feed at x < 0
    assert any(r in outside for r in p.racks if p.racks[r].row == "R03N")  # 15 m + 1.2 m deep
    assert not any(p.racks[r].row == "R01" for r in outside if r in p.racks)
    assert "10 × 15 m" in found[0].message("en") and "机房" in found[0].message("zh")
    SetFields(p, "site", "site", hall_width_m=0.0, hall_depth_m=0.0).apply(p)
    assert "outside-hall" not in rules(analyze_project(p).findings)


def test_phase_subset_stays_whole_when_items_are_put_in_phases_one_by_one():
    """A device put in an earlier phase than its rack stands unracked there; a link waits for both ends."""
    p = open_project(PHASED)
    phases = sorted(p.tables["phases"].values(), key=lambda ph: ph.order)
    rack = next(r for r in p.racks.values() if r.phase_id == phases[2].id)
    dev = next(d for d in p.devices.values() if d.rack_id == rack.id)
    SetFields(p, "devices", dev.id, phase_id=phases[0].id).apply(p)  # a scale-phase server in the pilot
    c = analyze_project(p, phase=phases[0].id).compiled
    row = c.devices.row[dev.id]
    assert c.devices.rack[row] == -1 and c.devices.u_position[row] == 0  # its rack comes with phase 3
    assert rack.id not in c.racks.row
    present = set(c.devices.ids)  # a link waits for both its ends
    waiting = [lk.id for lk in p.links.values() if not {lk.a_device, lk.b_device} <= present]
    assert waiting and not set(waiting) & set(c.links.ids)
    results, _ = analyze_phases(p)  # every phase still analyses
    assert len(results) == 3 and results[0].summary["gpus"] == 16 + 8


def test_utility_feed_unit_is_the_available_feed_when_the_site_states_none():
    p = open_project(PHASED)
    assert p.site.utility_kw_available == 0
    feed = next(it for it in p.tables["floor_items"].values() if it.kind == "utility-feed")
    res = analyze_project(p)
    assert res.thermal.utility_kw_available == feed.capacity_kw
    # A feed smaller than the need is then a finding, as a stated one would be.
    SetFields(p, "floor_items", feed.id, capacity_kw=100.0).apply(p)
    res = analyze_project(p)
    assert res.thermal.utility_kw_available == 100.0 and not res.thermal.feed_ok
    assert "facility-feed-exceeded" in rules(res.findings)
    # The site's own figure wins when both are given.
    SetFields(p, "site", "site", utility_kw_available=900.0).apply(p)
    assert analyze_project(p).thermal.utility_kw_available == 900.0
