"""Every generator family, with random link failures, routed by the engine (compile → fabric graph → router,
the path the app and CLI take) and by the per-flow NetworkX oracle built from the project's own tables:
every collective kind the training traffic emits (TP/CP/DP rings, pipeline sends incl. interleaved wraps,
expert all-to-all), link by link, both directions, to 1e-9 relative.

Sizes are small for CI, but each family is big enough to have more than one of its kind of everything
(several SUs / pods / groups), and the 3-tier ones have more than 64 switches, so destinations span several
64-bit words of the router's bit-parallel fields.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.commands import RemoveRows
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.fabric.network import analyze_fabric
from gpuplanner.engine.perf.shapes import TrainConfig, shape_from_entry
from gpuplanner.engine.perf.traffic import training_flows
from gpuplanner.engine.workload import route_flows
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.oracles.project_oracle import NOT_ROUTED, ProjectNetwork

FAMILIES = {
    "single-switch": dict(template="single-switch", servers=4),
    "rail-leaf-spine": dict(template="rail-leaf-spine", servers=8, su_size=2),
    "rail-leaf-spine-2to1": dict(template="rail-leaf-spine", servers=8, su_size=4, oversub=2.0),
    "leaf-spine": dict(template="leaf-spine", servers=12, rails=False),
    # pods of 32 leaves: 4 servers per pod with one-server SUs (5 pods, 153 switches), 8 with two-server SUs
    "fat-tree-3tier": dict(template="fat-tree-3tier", servers=18, su_size=1),
    "fat-tree-3tier-su2": dict(template="fat-tree-3tier", servers=18, su_size=2),
    "two-planes-2tier": dict(template="rail-leaf-spine", servers=8, su_size=2, planes=2),
    "two-planes-3tier": dict(template="fat-tree-3tier", servers=18, su_size=1, planes=2),
    # QM8700: 40 HDR ports → balanced dragonfly a = 20 switches per group, h = 10 global links each
    "dragonfly": dict(
        template="dragonfly", servers=24, server="nvidia-dgx-a100", leaf_switch="nvidia-quantum-qm8700"
    ),
    "with-storage-and-management": dict(
        template="rail-leaf-spine",
        servers=8,
        su_size=4,
        storage_fabric=True,
        storage_system="ddn-ai400x2",
        storage_units=2,
        management_fabric=True,
    ),
}
SEEDS = range(3)  # seed 0: no failure; seeds 1, 2: random links removed


def _project(family: str, seed: int) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(rack_budget_kw=42, **FAMILIES[family]))
    if seed:
        rng = np.random.default_rng(seed)
        ids = sorted(p.links)
        frac = rng.uniform(0.03, 0.2)
        RemoveRows("links", rng.choice(ids, max(1, int(frac * len(ids))), replace=False).tolist()).apply(p)
    return p


def _divisors(n: int) -> list[int]:
    return [k for k in range(1, n + 1) if n % k == 0]


def _config(rng: np.random.Generator, n_gpus: int, gpus_per_server: int) -> tuple[TrainConfig, str]:
    """A random layout that fits the GPUs (TP may cross servers), with every kind of traffic likely."""
    tp = int(rng.choice([t for t in (1, 2, 4, 8, 16) if t <= n_gpus]))
    cp = int(rng.choice([1, 2]))
    pp = int(rng.choice([1, 2, 3, 4]))
    while tp * cp * pp > n_gpus:
        pp = max(1, pp - 1)
        cp = 1 if tp * cp * pp > n_gpus else cp
    dp = int(rng.integers(1, n_gpus // (tp * cp * pp) + 1))
    ep = int(rng.choice([e for e in _divisors(dp * cp) if e <= 8]))
    vpp = int(rng.choice([1, 2])) if pp > 1 else 1
    m = pp * int(rng.integers(1, 3))
    cfg = TrainConfig(
        tp=tp,
        pp=pp,
        dp=dp,
        cp=cp,
        ep=ep,
        vpp=vpp,
        micro_batch=1,
        global_batch=dp * m,
        seq_len=4096,
        zero_stage=int(rng.choice([0, 1, 3])),
    )
    order = "-".join(rng.permutation(["tp", "cp", "dp", "pp"]).tolist())
    return cfg, order


def _wide_all_to_all(n_gpus: int, gpus_per_server: int) -> tuple[TrainConfig, str]:
    """TP inside each server, expert groups over consecutive servers: all-to-all across SUs and pods."""
    dp = n_gpus // gpus_per_server
    ep = max(e for e in _divisors(dp) if e <= 8)
    cfg = TrainConfig(tp=gpus_per_server, pp=1, dp=dp, ep=ep, micro_batch=1, global_batch=dp, seq_len=4096)
    return cfg, "tp-cp-dp-pp"


def _flows(p: Project, cfg: TrainConfig, order: str, gpus_per_server: int):
    shape = shape_from_entry(dict(p.catalog.get("mixtral-8x7b").raw))  # MoE: expert all-to-all too
    return training_flows(shape, cfg, gpus_per_server, order)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("family", list(FAMILIES))
def test_engine_link_loads_match_the_per_flow_oracle(family, seed):
    p = _project(family, seed)
    net = ProjectNetwork(p)
    c = compile_project(p)
    fab = analyze_fabric(c, p.catalog)
    gpus_per_server = max(
        int(getattr(p.catalog.get(d.type_id), "gpu_count", 0) or 0) for d in p.devices.values()
    )
    assert len(net.gpu_endpoint) == len(fab.graph.gpu_endpoint)
    rng = np.random.default_rng(1000 + seed)
    kinds_seen: set[str] = set()
    n_gpus = len(net.gpu_endpoint)
    layouts = [_wide_all_to_all(n_gpus, gpus_per_server)] + [
        _config(rng, n_gpus, gpus_per_server) for _ in range(2)
    ]
    for cfg, order in layouts:
        flows = _flows(p, cfg, order, gpus_per_server)
        _, _, per_kind = route_flows(c, fab.graph, fab.router, flows, cfg.n_gpus)
        ref = net.route_flows(flows)
        what = f"{family} seed {seed}: {cfg.tp=} {cfg.cp=} {cfg.pp=} {cfg.dp=} {cfg.ep=} {cfg.vpp=} {order}"
        assert set(per_kind) == set(ref), what
        row_of = {lid: i for i, lid in enumerate(c.links.ids)}
        for kind, (ab, ba, _, _) in per_kind.items():
            exp_ab, exp_ba = np.zeros(len(row_of)), np.zeros(len(row_of))
            for lid, (x, y) in ref[kind].items():
                exp_ab[row_of[lid]], exp_ba[row_of[lid]] = x, y
            scale = max(exp_ab.max(), exp_ba.max(), 1.0)  # all zero: flows between two planes
            np.testing.assert_allclose(
                ab, exp_ab, rtol=1e-9, atol=1e-12 * scale, err_msg=f"{what} {kind} a→b"
            )
            np.testing.assert_allclose(
                ba, exp_ba, rtol=1e-9, atol=1e-12 * scale, err_msg=f"{what} {kind} b→a"
            )
            kinds_seen.add(kind)
    if seed == 0 and family != "single-switch":
        assert kinds_seen, family  # an unbroken multi-server fabric carries some inter-server traffic


def _other_fabric_links(p: Project, c) -> np.ndarray:
    """bool per compiled link: a port group on either end is management/storage/front-end/in-band."""
    cat = p.catalog

    def role(dev: str, group: str) -> str:
        return cat.get(p.devices[dev].type_id).port_group(group).role

    links = p.links
    return np.array(
        [
            bool({role(lk.a_device, lk.a_group), role(lk.b_device, lk.b_group)} & NOT_ROUTED)
            for lk in (links[lid] for lid in c.links.ids)
        ]
    )


def test_storage_and_management_links_carry_no_compute_traffic():
    """The storage and management fabrics stay out of compute routing: their links are idle, and the
    compute links carry what they carry on the same cluster built without them."""
    with_other = _project("with-storage-and-management", 0)
    bare = Project()
    extra = ("storage_fabric", "storage_system", "storage_units", "management_fabric")
    opts = {k: v for k, v in FAMILIES["with-storage-and-management"].items() if k not in extra}
    generate_into(bare, GenerateOptions(rack_budget_kw=42, **opts))
    cfg = TrainConfig(tp=1, pp=2, dp=32, cp=1, ep=8, micro_batch=1, global_batch=64, seq_len=4096)
    loads = []
    for p in (with_other, bare):
        c = compile_project(p)
        fab = analyze_fabric(c, p.catalog)
        shape = shape_from_entry(dict(p.catalog.get("mixtral-8x7b").raw))
        ab, ba, _ = route_flows(c, fab.graph, fab.router, training_flows(shape, cfg, 8, "dp-tp-cp-pp"), 64)
        other = _other_fabric_links(p, c)
        names = [
            (p.devices[p.links[lid].a_device].name, p.devices[p.links[lid].b_device].name)
            for lid in c.links.ids
        ]
        loads.append((other, dict(zip(names, zip(ab, ba, strict=True), strict=True)), ab, ba))
    (other, named, ab, ba), (other0, named0, _, _) = loads
    assert other.sum() > 10 and not other0.any() and ab.sum() > 0
    assert not ab[other].any() and not ba[other].any()
    compute = {k: v for k, v in named.items() if k in named0}
    assert len(compute) == len(named0)  # every compute link of the bare cluster is there, by its ends' names
    np.testing.assert_allclose(
        np.array([compute[k] for k in named0]), np.array(list(named0.values())), rtol=1e-12
    )
