"""Site limits, rack positions, export rules and the project's workloads (engine side).

Oracles: rack positions against NetworkX's maximum bipartite matching on random halls; serving capacity
against the serving model called directly on the partition's hardware; IT power against the closed form
IT max × (1 + margin)."""

from __future__ import annotations

import copy
import dataclasses
import json

import networkx as nx
import numpy as np
import pytest

from gpuplanner.catalog.loader import Catalog, default_catalog
from gpuplanner.catalog.names import local_name
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.checks.limits import assign_positions
from gpuplanner.engine.perf.serving import plan_serving
from gpuplanner.engine.summary import results_json
from gpuplanner.engine.workload import cluster_of, shape_of
from gpuplanner.engine.workloads import serving_setup
from gpuplanner.model import Project, Workload
from gpuplanner.model.site_limits import POSITION_COOLING, parse_positions, positions_from_text
from gpuplanner.topology import GenerateOptions
from gpuplanner.topology.compose import add_pod


def _matching_oracle(groups, need, kw) -> int:
    g = nx.Graph()
    slots = [(i, k) for i, grp in enumerate(groups) for k in range(grp["count"])]
    g.add_nodes_from((("r", r) for r in range(len(kw))), bipartite=0)
    g.add_nodes_from((("s", s) for s in slots), bipartite=1)
    for r in range(len(kw)):
        for s in slots:
            grp = groups[s[0]]
            if POSITION_COOLING.index(grp["cooling"]) >= need[r] and grp["kw"] >= kw[r] - 1e-9:
                g.add_edge(("r", r), ("s", s))
    top = [("r", r) for r in range(len(kw))]
    m = nx.bipartite.hopcroft_karp_matching(g, top_nodes=top)
    return len(kw) - sum(1 for r in top if r in m)


@pytest.mark.parametrize("seed", range(25))
def test_positions_match_networkx_maximum_matching(seed):
    rng = np.random.default_rng(seed)
    groups = [
        {
            "count": int(rng.integers(1, 6)),
            "cooling": str(rng.choice(POSITION_COOLING)),
            "kw": float(rng.choice([20, 40, 60, 120])),
        }
        for _ in range(int(rng.integers(1, 4)))
    ]
    n = int(rng.integers(1, 14))
    need = rng.integers(0, 3, n)
    kw = rng.choice([10.0, 25.0, 40.0, 57.2, 100.0, 130.0], n)
    used, unplaced = assign_positions(groups, need, kw)
    assert unplaced == _matching_oracle(groups, need, kw)
    assert used.sum() == n - unplaced and all(u <= g["count"] for u, g in zip(used, groups, strict=True))


def test_the_greedy_trap_is_avoided():
    # a rear-door rack taking the only rear-door position would strand the 50 kW air rack
    groups = [{"count": 1, "cooling": "rear-door", "kw": 60.0}, {"count": 1, "cooling": "liquid", "kw": 25.0}]
    used, unplaced = assign_positions(groups, np.array([0, 1]), np.array([50.0, 20.0]))
    assert unplaced == 0 and used.tolist() == [1, 1]


def test_positions_text_and_json_are_checked():
    assert parse_positions(positions_from_text("24x40kW-air, 8×120kw-liquid")) == [
        {"count": 24, "cooling": "air", "kw": 40.0},
        {"count": 8, "cooling": "liquid", "kw": 120.0},
    ]
    for bad in (
        "24 racks",
        '[{"count": 0, "cooling": "air", "kw": 40}]',
        '[{"count": 2, "cooling": "water", "kw": 40}]',
        "{",
    ):
        with pytest.raises(ValidationError):
            positions_from_text(bad)


def _two_pods(catalog=None) -> Project:
    p = Project(catalog) if catalog is not None else Project()
    add_pod(p, GenerateOptions(template="single-switch", server="nvidia-dgx-b200", servers=4), "train")
    add_pod(
        p,
        GenerateOptions(
            template="single-switch",
            server="nvidia-dgx-h200",
            servers=2,
            leaf_switch="nvidia-spectrum-4-sn5600",
        ),
        "infer",
    )
    return p


def _add(p: Project, w: Workload) -> None:
    p.insert("workloads", w)


def test_each_workload_on_its_partition_and_serving_matches_the_model():
    p = _two_pods()
    _add(
        p,
        Workload(
            id="w1",
            name="pre",
            model_id="llama3-8b",
            partition="train",
            total_tokens=1e11,
            tp=1,
            pp=1,
            global_batch=256,
        ),
    )
    _add(
        p,
        Workload(
            id="w2",
            name="chat",
            kind="inference",
            model_id="llama3-70b",
            partition="infer",
            users=300,
            ttft_target_s=1.0,
        ),
    )
    res = analyze_project(p)
    data = results_json(p, res)
    wl = {w["name"]: w for w in data["workloads"]}
    assert wl["pre"]["gpus"] == 32 and wl["pre"]["time_to_train_days"] > 0
    assert wl["chat"]["gpus"] == 16
    # oracle: the serving model on the partition's own hardware
    rows = np.array([i for i, d in enumerate(p.devices.values()) if d.partition == "infer"])
    spec, n = cluster_of(res.compiled, p.catalog, res.fabric.graph, rows)
    w = p.tables["workloads"]["w2"]
    # judged in users, as the workload states its load in users only
    direct = plan_serving(
        shape_of(w, p.catalog), spec, serving_setup(w), n_gpus=n, mode="best", objective="users"
    )
    assert n == 16 and spec.gpu_name.startswith("NVIDIA H200")
    assert wl["chat"]["max_concurrent_users"] == pytest.approx(direct.max_concurrent_users)
    assert wl["chat"]["meets_target"] == (direct.max_concurrent_users >= 300)
    json.dumps(data)  # plain data


def test_a_workload_that_cannot_be_evaluated_keeps_its_entry_and_a_finding():
    p = _two_pods()
    _add(
        p,
        Workload(
            id="w1",
            name="huge",
            kind="inference",
            model_id="llama3-405b",
            partition="infer",
            precision="bf16",
            users=10,
        ),
    )
    res = analyze_project(p)
    (entry,) = results_json(p, res)["workloads"]
    assert entry["name"] == "huge" and entry["kind"] == "inference"
    # 405B in BF16 (810 GB of weights) needs all 8 GPUs of an H200 node per replica
    assert entry["error"] is None and entry["serving"]["tp"] * entry["serving"]["pp"] == 8
    _add(p, Workload(id="w2", name="lost", kind="fine-tuning", model_id="llama3-8b", partition="nowhere"))
    res = analyze_project(p)
    lost = next(w for w in results_json(p, res)["workloads"] if w["name"] == "lost")
    assert lost["error"] and "nowhere" in lost["error"]
    assert any(f.rule == "workload-not-evaluated" and "w2" in f.items for f in res.findings)


def test_it_power_limit_shows_its_margin():
    p = _two_pods()
    it_max = analyze_project(p).power.it_kw_max
    site = p.site
    p.tables["site"]["site"] = dataclasses.replace(site, it_kw_available=it_max * 1.1, feed_headroom=0.2)
    res = analyze_project(p)
    (lim,) = [x for x in res.limits if x["name"] == "it_power_kw"]
    assert lim["plan"] == pytest.approx(it_max * 1.2) and not lim["within"]
    f = next(f for f in res.findings if f.rule == "it-power-exceeded")
    assert "20%" in f.message("en") and "20%" in f.message("zh")
    p.tables["site"]["site"] = dataclasses.replace(site, it_kw_available=it_max * 1.1, feed_headroom=0.05)
    res = analyze_project(p)
    assert next(x for x in res.limits if x["name"] == "it_power_kw")["within"]
    assert not any(f.rule == "it-power-exceeded" for f in res.findings)


def test_budget_limits_in_the_project_currency():
    p = _two_pods()
    p.tables["project"]["project"] = dataclasses.replace(p.info, currency="CNY", usd_exchange_rate=7.0)
    capex = analyze_project(p).cost.capex_usd * 7.0
    p.tables["site"]["site"] = dataclasses.replace(p.site, budget_capex=capex * 0.9, budget_tco=capex * 100)
    res = analyze_project(p)
    lim = {x["name"]: x for x in res.limits}
    assert lim["budget_capex"]["plan"] == pytest.approx(capex) and not lim["budget_capex"]["within"]
    assert lim["budget_tco"]["within"] and lim["budget_capex"]["currency"] == "CNY"
    f = next(f for f in res.findings if f.rule == "budget-exceeded")
    assert "CNY" in f.message("zh") and f.params["over_pct"] == pytest.approx(11.1, abs=0.1)


def _catalog_with_rules() -> Catalog:
    """The bundled catalog with export rules on two GPUs (a server inherits its GPU's)."""
    base = default_catalog()
    cat = Catalog()
    cat.entries = dict(base.entries)
    cat.prices = dict(base.prices)
    rule = {
        "classification": "ECCN 3A090",
        "restricted_regions": ["CN"],
        "source": "test rule",
        "as_of": "2025-01",
    }
    for gid in ("nvidia-b200", "nvidia-h200-sxm"):
        e = copy.copy(base.entries[gid])
        object.__setattr__(e, "export_control", rule)
        cat.entries[gid] = e
    return cat


def test_export_rules_name_each_part_and_the_alternatives():
    cat = _catalog_with_rules()
    p = _two_pods(cat)
    assert not any(f.rule == "part-not-available-in-region" for f in analyze_project(p).findings)
    p.tables["site"]["site"] = dataclasses.replace(p.site, region="CN")
    found = [f for f in analyze_project(p).findings if f.rule == "part-not-available-in-region"]
    assert {f.params["part_id"] for f in found} == {"nvidia-dgx-b200", "nvidia-dgx-h200"}
    for f in found:
        alts = f.params["alternative_ids"]
        assert alts and "nvidia-dgx-b200" not in alts and "nvidia-dgx-h200" not in alts
        assert all(cat.entries[a].kind == "server" for a in alts)
        # the alternatives named in the sentence's language, joined as that language lists things
        en_names = [cat.entries[a].name for a in alts]
        zh_names = [local_name(cat.entries[a], cat, "zh") for a in alts]
        assert f.fix("en") == f"Compliant alternatives in the catalog: {', '.join(en_names)}."
        assert f.fix("zh") == f"目录中的合规替代型号：{'、'.join(zh_names)}。"
        assert f.to_json("en")["params"]["alternatives"] == en_names
        assert f.to_json("zh")["params"]["alternatives"] == zh_names
        assert f.to_json("zh")["params"]["alternative_ids"] == alts
        assert "ECCN 3A090" in f.message("zh") and "CN" in f.message("en")
        part = cat.entries[f.params["part_id"]]  # named in the message's language, as the report names it
        assert part.name in f.message("en") and part.name not in f.message("zh")
        assert (
            local_name(part, cat, "zh") in f.message("zh") and f.to_json("en")["params"]["part"] == part.name
        )
    # the report's export sentence lists parts and alternatives as the language lists things
    from gpuplanner.reports import new_context
    from gpuplanner.reports.sections.project_summary import export_sentences

    alt_names = {lang: [local_name(cat.entries[a], cat, lang) for a in found[0].params["alternative_ids"]]
                 for lang in ("en", "zh")}  # fmt: skip
    for lang, sep in (("en", ", "), ("zh", "、")):
        (sentence,) = export_sentences(new_context(p, lang))
        assert sep.join(alt_names[lang][:2]) in sentence, sentence
    assert "、" not in export_sentences(new_context(p, "en"))[0]
    p.tables["site"]["site"] = dataclasses.replace(p.site, region="DE")
    assert not any(f.rule == "part-not-available-in-region" for f in analyze_project(p).findings)
