"""Template presets (gpuplanner.topology.presets): each builds through the real generators, has the GPUs its
name promises, passes the model's validation and analyses without an error finding."""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
import pytest

from gpuplanner.core.errors import GenerationError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.model import Project
from gpuplanner.model.validate import validate_row
from gpuplanner.topology import GenerateOptions, generate
from gpuplanner.topology.presets import PRESETS, build_preset, get_preset

EXPECTED_GPUS = {
    "pilot-1-node": 8,
    "roce-4-node": 32,
    "ib-su-32-node": 256,
    "superpod-128-node": 1024,
    "fat-tree-1024-node": 8192,
}


def test_the_five_presets_in_order_of_size():
    assert [p.id for p in PRESETS] == list(EXPECTED_GPUS)
    for p in PRESETS:
        assert p.name_en and p.name_zh and p.description_en and p.description_zh
        assert p.gpus() == EXPECTED_GPUS[p.id]


BUILD_CPU_LIMIT_S = 5.0  # the 1,024-node build: ~0.6 s of CPU on this machine
# Wall time only as a loose bound (a build that waits on something): a shared 2-core machine under load
# stretches wall time several-fold while the CPU time a build needs stays what it is.
BUILD_WALL_LIMIT_S = 30.0


@pytest.fixture(scope="module")
def built() -> dict[str, tuple[Project, float]]:
    """Each preset built once, with the process CPU time its build took."""
    out = {}
    for p in PRESETS:
        t, wall = time.process_time(), time.perf_counter()
        project = p.build()
        cpu_s, wall_s = time.process_time() - t, time.perf_counter() - wall
        assert wall_s < BUILD_WALL_LIMIT_S, f"{p.id}: built in {wall_s:.1f} s of wall time"
        out[p.id] = (project, cpu_s)
    return out


@pytest.mark.parametrize("preset_id", list(EXPECTED_GPUS))
def test_preset_builds_validates_and_analyses(built, preset_id):
    project, cpu_s = built[preset_id]
    print(f"{preset_id}: built in {cpu_s:.2f} s of CPU")
    assert project.gpu_count() == EXPECTED_GPUS[preset_id]
    assert project.info.name == get_preset(preset_id).name_en
    for table, rows in project.tables.items():
        for row in rows.values():
            validate_row(table, row, project)
    # every device sits in a rack, every rack has a row
    assert project.racks
    assert all(d.rack_id for d in project.devices.values()), "unplaced devices"
    kinds = Counter(f.kind for f in project.tables["fabrics"].values())
    assert kinds["compute"] == 1 and kinds["management"] == 1
    res = analyze_project(project)
    errors = [(f.rule, f.items[:3]) for f in res.findings if f.severity == "error"]
    assert not errors, errors
    assert res.workload is not None and res.workload.estimate.step_time_s > 0, res.workload_error


def test_storage_fabrics_where_the_cluster_has_shared_storage(built):
    def storage(pid: str) -> int:
        return sum(d.role == "storage" for d in built[pid][0].devices.values())

    assert storage("pilot-1-node") == 0
    assert storage("roce-4-node") == 2
    assert storage("ib-su-32-node") == 2
    assert storage("superpod-128-node") == 6
    assert storage("fat-tree-1024-node") == 48


def test_1024_node_storage_fabric_fits_its_runs(built):
    """The 8,192-GPU preset has its storage fabric back: the DGX 200 GbE storage runs reach ~66 m from the
    middle row, past the 30 m of a 200G AOC, and take 200G-mode QSFP112 optics (SR4 to 50 m, DR4 to 100 m)."""
    project, _ = built["fat-tree-1024-node"]
    kinds = Counter(f.kind for f in project.tables["fabrics"].values())
    assert kinds["storage"] == 1
    res = analyze_project(project)
    cables = res.fabric.cables
    assert not cables.too_long.any()
    lk = res.compiled.links
    storage = np.array([r == "storage" for r in lk.a_role]) & (lk.speed_gbps == 200)
    assert storage.any() and lk.length_m[storage].max() > 50  # beyond AOC and multimode reach
    media = {cables.medium[i] for i in np.flatnonzero(storage)}
    assert {"aoc", "fiber-mmf", "fiber-smf"} <= media
    assert cables.bom_transceivers.get("nvidia-mms1x00-ns400-200g", 0) > 0


def test_rail_optimised_ib_su_has_one_leaf_per_rail(built):
    """DGX SuperPOD SU: 8 rails → 8 leaves for 32 nodes, spines for a non-blocking second tier."""
    roles = Counter(d.role for d in built["ib-su-32-node"][0].devices.values())
    assert roles["compute"] == 32 and roles["leaf"] == 8 and roles["spine"] >= 4


def test_1024_node_build_time_is_reasonable(built):
    _, cpu_s = built["fat-tree-1024-node"]
    print(f"fat-tree-1024-node (8,192 GPUs): built in {cpu_s:.2f} s of CPU")
    assert cpu_s < BUILD_CPU_LIMIT_S


def test_chinese_names_and_language():
    p = build_preset("pilot-1-node", lang="zh")
    assert p.info.name == "单节点试点" and p.info.language == "zh"
    assert next(iter(p.tables["workloads"].values())).name == "Llama 3 8B 微调"
    assert build_preset("pilot-1-node", name="Lab").info.name == "Lab"


def test_unknown_preset_is_refused_with_the_list():
    with pytest.raises(GenerationError, match="pilot-1-node"):
        get_preset("nope")


def test_storage_spine_pairs_never_overfill():
    """Regression: 1,024 nodes × 4 storage ports make 26+ storage leaves dealt round-robin over spine
    pairs; the fullest pair must still have a port per uplink (it asked for 66 of 64 before)."""
    p = Project()
    plan = generate(
        p,
        GenerateOptions(
            template="fat-tree-3tier",
            servers=1024,
            rack_budget_kw=42,
            storage_fabric=True,
            storage_system="ddn-ai400x2-eth",
            storage_units=16,
        ),
    )
    assert max(plan.port_use.values()) > 0
    spines = [d for d in plan.devices if d.name.startswith("stor-spine")]
    assert spines and len(spines) % 2 == 0
