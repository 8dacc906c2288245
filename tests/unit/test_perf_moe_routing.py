"""Node-limited MoE routing, per-node deduplicated dispatch (DeepEP) and expert tensor parallelism.

Oracle: a simulation of Megatron-Core's group-limited router (router_groups / router_group_topk, as DeepSeek-V3's
n_group / topk_group) on random scores - DeepSeek-V3 report §2.1.2: each token's experts span at most M = 4
nodes when its EP 64 runs on 8 nodes - counting, token by token, the distinct other nodes its copies go to.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.collectives import (
    all_to_all_s,
    distinct_remote_nodes,
    expert_dispatch_s,
    links_for,
    reachable_nodes,
)
from gpuplanner.engine.perf.request import build, shape_of
from gpuplanner.engine.perf.training import estimate


def _simulated_remote_nodes(
    experts: int, ep: int, per_node: int, groups: int, group_topk: int, top_k: int, tokens: int = 20000
) -> float:
    """Mean number of distinct other nodes a token's experts sit on, under group-limited top-k routing."""
    rng = np.random.default_rng(7)
    scores = rng.random((tokens, experts))
    if groups:
        g = scores.reshape(tokens, groups, experts // groups)
        group_score = np.sort(g, axis=2)[:, :, -2:].sum(axis=2)  # DeepSeek-V3: sum of each group's top 2
        keep = np.argsort(-group_score, axis=1)[:, :group_topk]
        mask = np.zeros((tokens, groups), dtype=bool)
        np.put_along_axis(mask, keep, True, axis=1)
        scores = np.where(np.repeat(mask, experts // groups, axis=1), scores, -1.0)
    chosen = np.argsort(-scores, axis=1)[:, :top_k]
    node = (chosen // (experts // ep)) // per_node  # experts in order over ranks, ranks in order over nodes
    own = rng.integers(0, ep // per_node, size=tokens)
    hit = np.zeros((tokens, ep // per_node), dtype=bool)
    np.put_along_axis(hit, node, True, axis=1)
    hit[np.arange(tokens), own] = False
    return float(hit.sum(axis=1).mean())


def test_deepseek_v3s_own_layout_reaches_at_most_4_nodes():
    assert reachable_nodes(8, 8, 4) == 4  # EP 64 on 8 nodes, 8 groups, top 4 groups (report §2.1.2: M = 4)
    assert reachable_nodes(16, 8, 4) == 8  # a group spans 2 nodes when EP spans 16
    assert reachable_nodes(4, 8, 4) == 4  # fewer nodes than groups: never more than the nodes there are
    assert reachable_nodes(16, 0, 0) == 16  # no groups: no limit


@pytest.mark.parametrize(
    "ep, per_node, groups, group_topk",
    [(64, 8, 8, 4), (64, 4, 8, 4), (32, 8, 8, 4), (64, 8, 0, 0), (256, 8, 8, 4)],
)
def test_distinct_remote_nodes_match_a_simulated_group_limited_router(ep, per_node, groups, group_topk):
    nodes = ep // per_node
    closed = float(distinct_remote_nodes(8, nodes, 256, groups, group_topk))
    simulated = _simulated_remote_nodes(256, ep, per_node, groups, group_topk, 8)
    assert closed == pytest.approx(simulated, rel=0.03)


def test_without_dedup_the_node_limit_moves_no_byte_and_with_it_the_network_share_shrinks():
    cat = default_catalog()
    shape, cluster, cfg = build(
        {"model": "deepseek-v3-671b", "gpu": "nvidia-h100-sxm", "gpus": 512, "tp": 1, "pp": 1}
    )
    links = links_for(cluster, load_assumptions())
    token_bytes = 4096 * 7168 * 2.0
    plain = expert_dispatch_s(token_bytes, 8, 64, 8, links, False, 256, 8, 4)
    assert plain == pytest.approx(all_to_all_s(token_bytes * 8, 64, 8, links, "ep"), rel=1e-12)
    dedup = expert_dispatch_s(token_bytes, 8, 64, 8, links, True, 256, 8, 4)
    unlimited = expert_dispatch_s(token_bytes, 8, 64, 8, links, True, 256)
    assert dedup < unlimited < plain
    # bandwidth-bound: network bytes in the ratio of the copies that cross it (3.5 vs 7 per token)
    ratio = float(distinct_remote_nodes(8, 8, 256, 8, 4)) / (8 * 7 / 8)
    lat = 63 * links.latency(64, 8, "ep")
    assert (dedup - lat) / (plain - lat) == pytest.approx(ratio, rel=1e-6)
    assert shape_of({"model": "deepseek-v3-671b"}, cat).router_groups == 8


def test_experts_not_split_over_tp_hold_twice_the_expert_weights_at_tp_2_and_do_the_same_flops():
    req = {
        "model": "deepseek-v3-671b",
        "gpu": "nvidia-h100-sxm",
        "gpus": 1024,
        "tp": 2,
        "pp": 8,
        "vpp": 4,
        "ep": 64,
        "global_batch": 8192,
        "seq": 4096,
        "precision": "fp8",
    }
    split = estimate(*_swap(build({**req, "expert_tp": True})))
    folded = estimate(*_swap(build({**req, "expert_tp": False})))
    assert folded.memory["weights_gb"] > split.memory["weights_gb"]
    assert folded.tflops_per_gpu * folded.step_time_s == pytest.approx(
        split.tflops_per_gpu * split.step_time_s
    )
    # folding puts 8 EP ranks on a node instead of 4, so fewer copies cross the network
    assert folded.breakdown["ep_comm_s"] < split.breakdown["ep_comm_s"]


def _swap(t):
    shape, cluster, cfg = t
    return shape, cfg, cluster


def test_impossible_router_groups_are_refused_with_the_numbers():
    from gpuplanner.core.errors import ValidationError
    from gpuplanner.engine.perf.shapes import ModelShape

    with pytest.raises(ValidationError, match="router_groups 3 with 8 experts"):
        ModelShape("moe", 2, 64, 4, 4, 64, 10, 8, experts=8, top_k=2, router_groups=3, router_group_topk=1)
    with pytest.raises(ValidationError):
        ModelShape("moe", 2, 64, 4, 4, 64, 10, 8, experts=8, top_k=2, router_groups=4, router_group_topk=5)
    assert ModelShape("moe", 2, 64, 4, 4, 64, 10, 8, experts=8, top_k=2, router_groups=4, router_group_topk=2)
