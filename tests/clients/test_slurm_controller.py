"""The Slurm files, loaded by the real slurmctld (Debian 12: slurm-wlm 22.05.8; `.ci/run` installs
`slurmctld slurm-client`). The controller recipe is in ``tests/clients/slurmctld.py``.

Every preset (`gpuplanner generate --list`), every example in examples/, and a generated plan of each template —
a partly filled dragonfly group (it crashed slurmctld: a root naming switches that were never defined) and a
two-plane rail fabric among them — is exported (topology.conf + the nodes/partitions fragment + gres.conf),
loaded, and read back with `scontrol show topology|partition|node`. The oracle is the project itself: the
servers cabled to each switch (from the project's links, not the exporter's tree), each server's partition
label, and the catalog's CPUs and GPUs.

What 22.05 cannot load is checked structurally: the block form (topology/block is Slurm 23.11+), topology.yaml
(24.11+), and the accounting lines (they need slurmdbd, which the test controller does not run).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import hostlist
import pytest
import yaml

from gpuplanner.catalog.types import ServerType, SwitchType
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.exports.slurm import device_hostnames, topology_yaml, tree_conf
from gpuplanner.exports.slurm_conf import gres_conf, partition_names, slurm_partitions
from gpuplanner.model import Project
from gpuplanner.storage import open_project
from gpuplanner.topology import GenerateOptions, generate_into
from gpuplanner.topology.presets import build_preset, preset_ids
from tests.clients import slurmctld

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.gpuplan"))
TEMPLATES = {
    "single-switch": GenerateOptions(
        template="single-switch", servers=4, leaf_switch="nvidia-quantum-2-qm9700"
    ),
    "rail-leaf-spine": GenerateOptions(template="rail-leaf-spine", servers=48, su_size=32),
    "leaf-spine": GenerateOptions(template="leaf-spine", servers=40, rails=False),
    "fat-tree-3tier": GenerateOptions(template="fat-tree-3tier", servers=96),
    "dragonfly-partial-group": GenerateOptions(template="dragonfly", servers=20),
    "rail-two-planes": GenerateOptions(template="rail-leaf-spine", servers=32, planes=2),
}
FABRIC_ROLES = {"leaf", "spine", "core"}

pytestmark = pytest.mark.skipif(not slurmctld.available(), reason="slurmctld not installed (see .ci/run)")


def _plan(kind: str, name: str) -> Project:
    if kind == "preset":
        return build_preset(name)
    if kind == "example":
        return open_project(ROOT / "examples" / name)
    p = Project()
    generate_into(p, TEMPLATES[name])
    return p


PLANS = (
    [("preset", n) for n in preset_ids()]
    + [("example", p.name) for p in EXAMPLES]
    + [("template", n) for n in TEMPLATES]
)


def _expected_nodes_below(project: Project) -> dict[str, set[str]]:
    """Fabric switch host name → host names of the compute servers cabled to it (from the project's links)."""
    hosts = device_hostnames(project)
    devs = project.devices
    out: dict[str, set[str]] = defaultdict(set)
    for lk in project.links.values():
        a, b = devs[lk.a_device], devs[lk.b_device]
        for sw, srv in ((a, b), (b, a)):
            if (
                sw.role in FABRIC_ROLES
                and isinstance(project.catalog.entries.get(sw.type_id), SwitchType)
                and srv.role == "compute"
                and isinstance(project.catalog.entries.get(srv.type_id), ServerType)
            ):
                out[hosts[sw.id]].add(hosts[srv.id])
    return out


def _loadable_fragment(text: str) -> str:
    """The nodes/partitions fragment without the accounting lines (they need slurmdbd)."""
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("Accounting")) + "\n"


@pytest.mark.parametrize(("kind", "name"), PLANS, ids=[f"{k}:{n}" for k, n in PLANS])
def test_slurmctld_loads_topology_partitions_and_gres(tmp_path, kind, name):
    project = _plan(kind, name)
    results = analyze_project(project)
    topo = tree_conf(project, results)
    frag = slurm_partitions(project)
    with slurmctld.Controller(
        tmp_path / "ctl", _loadable_fragment(frag), topology_conf=topo, gres_conf=gres_conf(project)
    ) as ctl:
        switches = {r["SwitchName"]: r for r in ctl.records("show", "topology")}
        parts = {r["PartitionName"]: r for r in ctl.records("show", "partition")}
        nodes = {r["NodeName"]: r for r in ctl.records("show", "node")}

    # the topology: every switch cabled to servers lists exactly those servers, as the project draws them
    expected = _expected_nodes_below(project)
    level0 = {
        n: set(hostlist.expand_hostlist(r.get("Nodes", ""))) for n, r in switches.items() if r["Level"] == "0"
    }
    assert level0 == {k: v for k, v in expected.items() if v}
    hosts = device_hostnames(project)
    servers = [
        d
        for d in project.devices.values()
        if d.role == "compute" and isinstance(project.catalog.entries.get(d.type_id), ServerType)
    ]
    assert set(nodes) == {hosts[d.id] for d in servers}
    # a higher switch holds the union of its children's nodes (Slurm computes it; we check it is connected)
    for r in switches.values():
        if r.get("Switches"):
            kids = hostlist.expand_hostlist(r["Switches"])
            assert set(kids) <= set(switches)
            union = set().union(*(set(hostlist.expand_hostlist(switches[k].get("Nodes", ""))) for k in kids))
            assert set(hostlist.expand_hostlist(r["Nodes"])) == union

    # partitions: the plan's partition labels, never Slurm's reserved DEFAULT
    pnames = partition_names(project)
    want: dict[str, set[str]] = defaultdict(set)
    for d in servers:
        want[pnames[d.partition]].add(hosts[d.id])
    got = {p: set(hostlist.expand_hostlist(r["Nodes"])) for p, r in parts.items()}
    assert got == want
    assert "default" not in {p.lower() for p in got}
    assert sum(r["Default"] == "YES" for r in parts.values()) == 1

    # nodes: GPUs and CPUs from the catalog
    for d in servers:
        e = project.catalog.entries[d.type_id]
        rec = nodes[hosts[d.id]]
        if e.gpu_count:
            assert re.fullmatch(rf"gpu:\w+:{e.gpu_count}(\(S:.*\))?", rec["Gres"]), rec["Gres"]
        else:
            assert rec["Gres"] == "(null)"
        if e.cpu_cores_per_socket:
            assert int(rec["CPUTot"]) == e.cpu_count * e.cpu_cores_per_socket * (e.cpu_threads_per_core or 1)
            assert rec["Sockets"] == str(e.cpu_count)


def test_dgx_h100_node_line_has_its_datasheet_cpus_and_memory(tmp_path):
    """DGX H100 User Guide: 2 × Xeon Platinum 8480C, 112 cores; 2 TB of memory. Slurm counts hyper-threads."""
    project = build_preset("ib-su-32-node")
    frag = slurm_partitions(project)
    with slurmctld.Controller(tmp_path / "ctl", _loadable_fragment(frag)) as ctl:
        rec = ctl.records("show", "node")[0]
    assert (rec["Sockets"], rec["CoresPerSocket"], rec["ThreadsPerCore"], rec["CPUTot"]) == (
        "2",
        "56",
        "2",
        "224",
    )
    assert 0.9 * 2048 * 1024 <= int(rec["RealMemory"]) <= 2048 * 1024
    assert rec["Gres"].startswith("gpu:h100_sxm:8")


def test_teams_become_qos_and_a_team_without_gpus_gets_none(tmp_path):
    project = open_project(ROOT / "examples" / "phased-pilot-to-su.gpuplan")
    frag = slurm_partitions(project)
    qos = {}
    for m in re.finditer(r"^# sacctmgr -i add qos (\S+) (.*)$", frag, re.M):
        qos[m.group(1)] = dict(t.split("=", 1) for t in m.group(2).split())
    teams = list(project.tables["teams"].values())
    assert len(qos) == len(teams)
    for t in teams:
        limit = [
            v for k, v in qos.items() if k.startswith(re.sub(r"[^a-z0-9]+", "-", t.name.lower()).strip("-"))
        ]
        assert limit and limit[0]["GrpTRES"] == f"gres/gpu={t.gpu_guaranteed + t.gpu_burst}"
    assert "AccountingStorageTRES=gres/gpu" in frag and "AccountingStorageEnforce=" in frag
    assert "GresTypes=gpu" in frag
    # the partitions it allows them on load in slurmctld (AllowQos as written)
    with slurmctld.Controller(tmp_path / "ctl", _loadable_fragment(frag)) as ctl:
        allowed = {q for r in ctl.records("show", "partition") for q in r["AllowQos"].split(",")}
    assert allowed == set(qos)


def test_zero_gpu_team_gets_a_qos_that_allows_no_gpus():
    import dataclasses

    project = open_project(ROOT / "examples" / "phased-pilot-to-su.gpuplan")
    t = next(iter(project.tables["teams"].values()))
    project.tables["teams"][t.id] = dataclasses.replace(t, gpu_guaranteed=0, gpu_burst=0)
    line = next(ln for ln in slurm_partitions(project).splitlines() if ln.startswith("# sacctmgr"))
    assert line.endswith("GrpTRES=gres/gpu=0")


def test_hostile_project_name_stays_in_a_comment(tmp_path):
    import dataclasses

    project = build_preset("ib-su-32-node")
    project.tables["project"]["project"] = dataclasses.replace(
        project.info, name="evil\nSwitchName=x Nodes=node-0001\r\nPartitionName=y Nodes=ALL"
    )
    results = analyze_project(project)
    topo, frag = tree_conf(project, results), slurm_partitions(project)
    for text in (topo, frag, gres_conf(project), topology_yaml(project, results)):
        assert not re.search(r"^(SwitchName=x|PartitionName=y)", text, re.M)
    with slurmctld.Controller(tmp_path / "ctl", _loadable_fragment(frag), topology_conf=topo) as ctl:
        assert "x" not in {r["SwitchName"] for r in ctl.records("show", "topology")}
        assert "y" not in {r["PartitionName"] for r in ctl.records("show", "partition")}


def test_virtual_leaf_per_scalable_unit(tmp_path):
    project = build_preset("superpod-128-node")
    results = analyze_project(project)
    topo = tree_conf(project, results, virtual_leaves=True)
    with slurmctld.Controller(
        tmp_path / "ctl", _loadable_fragment(slurm_partitions(project)), topology_conf=topo
    ) as ctl:
        sw = ctl.records("show", "topology")
    assert "Multiple leaf switches" not in ctl.log
    leaves = [r for r in sw if r["Level"] == "0"]
    assert len(leaves) == 4  # four scalable units of 32 servers
    assert all(len(hostlist.expand_hostlist(r["Nodes"])) == 32 for r in leaves)
    everyone = set().union(*(set(hostlist.expand_hostlist(r["Nodes"])) for r in leaves))
    assert len(everyone) == 128


def test_topology_yaml_matches_the_tree_and_the_blocks():
    """Slurm 24.11's topology.yaml (not loadable by 22.05): the same switches as topology.conf, and the
    scalable units as blocks — checked against topology.yaml(5)'s keys."""
    project = build_preset("superpod-128-node")
    results = analyze_project(project)
    docs = yaml.safe_load(topology_yaml(project, results))
    assert [d["topology"] for d in docs] == ["tree", "blocks"]
    assert docs[0]["cluster_default"] is True and docs[1]["cluster_default"] is False
    conf = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^SwitchName=(\S+)(.*)$", tree_conf(project, results), re.M)
    }
    assert [s["switch"] for s in docs[0]["tree"]["switches"]] == list(conf)
    for s in docs[0]["tree"]["switches"]:
        assert set(s) <= {"switch", "children", "nodes"}
        if "nodes" in s:
            assert f"Nodes={s['nodes']}" in conf[s["switch"]]
    block = docs[1]["block"]
    assert all(set(b) == {"block", "nodes"} for b in block["blocks"])
    sizes = block["block_sizes"]
    assert sizes[0] == 32 and all(b == 2 * a for a, b in zip(sizes, sizes[1:], strict=False))
    assert sum(len(hostlist.expand_hostlist(b["nodes"])) for b in block["blocks"]) == 128
