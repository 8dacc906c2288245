"""The advisor against `gpuplanner analyze` on the fabric each design draws (oracle: the analysis of the design
file the advisor writes, through the CLI's main()). Goals on oversubscribed (2:1, 4:1) rail-optimised
leaf-spine and three-tier fat-tree fabrics: a dense and an MoE training goal (the MoE model's catalog
sequence is 32,768 tokens, not the workload table's default 8,192), an aggregated and a disaggregated serving
goal. Each written design must analyse to the time to train / requests per second it was ranked at (1e-9
relative) with the layout it was ranked with; the ideal-fabric time the search prunes by must be a lower
bound of every design's time on its drawn fabric (else a pruned design could have been on the front); and a
design whose drawn fabric slows the ideal fabric's fastest layout trains with the fastest, on that fabric,
of the ideal fabric's next layouts (each written as its own file and analysed)."""

from __future__ import annotations

import contextlib
import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gpuplanner.advisor import Goal, advise
from gpuplanner.advisor import evaluate as ev
from gpuplanner.advisor.goal import Candidate
from gpuplanner.advisor.space import model_shape
from gpuplanner.cli import main
from gpuplanner.cli.advise_cmd import designs_json, write_designs
from gpuplanner.storage import save_project

FABRICS = {"templates": ("rail-leaf-spine", "fat-tree-3tier"), "oversubs": (1.0, 2.0, 4.0)}
GOALS = {
    "dense": Goal(
        model_id="llama3-8b", total_tokens=5e11, deadline_days=30, facility_kw_max=2000,
        servers=("nvidia-dgx-h100",), max_servers=64, **FABRICS,
    ),
    "moe": Goal(
        model_id="qwen3-30b-a3b", total_tokens=5e11, deadline_days=30, facility_kw_max=2000,
        servers=("nvidia-dgx-h100", "nvidia-dgx-b200"), max_servers=32, **FABRICS,
    ),
    "aggregated": Goal(
        kind="inference", model_id="llama3-70b", requests_per_s=20, precision="fp8", facility_kw_max=600,
        servers=("nvidia-dgx-h100", "nvidia-dgx-b200"), max_servers=16, **FABRICS,
    ),
    "disaggregated": Goal(
        kind="inference", model_id="llama3-70b", requests_per_s=20, precision="fp8", facility_kw_max=600,
        servers=("nvidia-dgx-h100", "nvidia-dgx-b200"), max_servers=16, serving_mode="disaggregated",
        **FABRICS,
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def threads():
    with ThreadPoolExecutor(2) as ex:
        yield ex


@pytest.fixture(scope="module")
def advised(threads):
    cache: dict[str, object] = {}

    def get(name: str):
        if name not in cache:
            cache[name] = advise(GOALS[name], executor=threads)
        return cache[name]

    return get


def _analyze(path: Path) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["analyze", str(path), "--json"])
    assert rc in (0, 1), out.getvalue()  # 1 = findings with errors; the JSON is printed either way
    return json.loads(out.getvalue())


@pytest.mark.parametrize("name", list(GOALS))
def test_each_written_design_analyses_on_its_drawn_fabric_to_what_it_was_ranked_at(
    name: str, advised, tmp_path: Path
):
    res = advised(name)
    goal = GOALS[name]
    summary = designs_json(res)
    write_designs(res, summary, tmp_path)
    assert res.front
    for d, row in zip(res.front, summary["designs"], strict=True):
        data = _analyze(tmp_path / row["file"])
        (w,) = [w for w in data["workloads"] if w["kind"] == goal.kind]
        assert w["error"] is None, (row["file"], w["error"])
        assert w["gpus"] == d["gpus"]
        if goal.kind == "training":
            assert w["time_to_train_days"] == pytest.approx(d["time_to_train_days"], rel=1e-9, abs=0)
            assert w["layout"] == {k: d["layout"][k] for k in w["layout"]}, row["file"]
        else:
            assert w["max_requests_per_s"] == pytest.approx(d["requests_per_s_max"], rel=1e-9, abs=0)
            assert w["serving"]["mode"] == d["serving"]["mode"] == goal.serving_mode
            assert w["meets_target"] is True


@pytest.mark.parametrize("name", ["dense", "moe"])
def test_the_ideal_fabric_time_bounds_every_design_on_its_drawn_fabric(name: str, advised):
    """The pruning's premise (space.py): the drawn fabric can only slow the ideal-fabric layout."""
    res = advised(name)
    goal = GOALS[name]
    cat = ev.catalog()
    shape = model_shape(cat, goal.model_id)
    seen = 0
    for d in res.designs:
        if d.get("time_to_train_days") is None:
            continue
        days, layout = ev.ideal_training(cat, goal, cat.get(d["server"]), d["gpus"], shape)
        assert layout == d.get("ideal_fabric_layout", d["layout"])
        assert days <= d["time_to_train_days"] * (1 + 1e-9), (d["candidate"], days, d["time_to_train_days"])
        seen += 1
    assert seen >= 10
    # the fabric is seen: the same servers and layout train slower on a 4:1 spine than on a non-blocking one
    by = {
        (d["server"], d["servers"], d["fabric"], d["oversub"]): d["time_to_train_days"]
        for d in res.designs
        if d.get("time_to_train_days") is not None
    }
    slower = [k for k, t in by.items() if k[3] == 4.0 and t > by.get((*k[:3], 1.0), t) * (1 + 1e-6)]
    assert slower


def test_the_pruned_moe_search_on_oversubscribed_fabrics_finds_the_exhaustive_front(advised, threads):
    goal = GOALS["moe"].with_(servers=("nvidia-dgx-b200",), max_servers=16)
    pruned = advise(goal, executor=threads)
    full = advise(goal, executor=threads, prune=False)
    assert pruned.pruned and pruned.evaluated < full.evaluated

    def keys(r):
        return sorted(tuple(str(v) for k, v in d["candidate"].items() if k != "extra") for d in r.front)

    assert pruned.front and keys(pruned) == keys(full)


def test_a_design_slowed_by_its_spine_trains_with_the_fastest_layout_on_its_drawn_fabric(
    advised, tmp_path: Path
):
    """MoE on a 4:1 spine: the ideal fabric's EP 4 all-to-all crosses it; the advisor re-times the ideal
    fabric's next layouts on the drawn fabric. Oracle: each of those layouts written into the design's plan
    and analysed by the CLI — the design's layout is the fastest of them, and faster than the ideal one."""
    goal = GOALS["moe"]
    res = advised("moe")
    changed = [d for d in res.designs if "ideal_fabric_layout" in d]
    assert changed and any("ideal_fabric_layout" in d for d in res.front)
    assert all(d["oversub"] > 1 for d in changed)  # a non-blocking fabric never slows the ideal layout
    d = min(changed, key=lambda x: (x["servers"], x["fabric"], x["oversub"]))
    cand = Candidate(**{k: v for k, v in d["candidate"].items() if k != "extra"})
    cat = ev.catalog()
    layouts = ev.ideal_layouts(
        cat,
        goal,
        cat.get(d["server"]),
        d["gpus"],
        model_shape(cat, goal.model_id),
        ev.LAYOUTS_ON_DRAWN_FABRIC,
    )
    assert layouts[0][1] == d["ideal_fabric_layout"] and d["layout"] in [x[1] for x in layouts]
    times = {}
    for i, (_, lay) in enumerate(layouts):
        f = tmp_path / f"layout-{i}.gpuplan"
        save_project(ev.build_project(goal, cand, lay), f)
        (w,) = _analyze(f)["workloads"]
        if w["time_to_train_days"] is not None:
            times[i] = w["time_to_train_days"]
    chosen = [x[1] for x in layouts].index(d["layout"])
    assert times[chosen] == pytest.approx(d["time_to_train_days"], rel=1e-9, abs=0)
    assert times[chosen] == min(times.values()) < times[0] * (1 - 1e-6)
