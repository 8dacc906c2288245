"""The Kubernetes export validated strictly against the real schemas: the Kueue v1beta2 CRDs (copied from
kubernetes-sigs/kueue, see tests/data/schemas/kueue/ORIGIN.md) with jsonschema, unknown fields refused; the
core objects (Namespace, ResourceQuota, Node) with kubernetes-validate in strict mode against Kubernetes
1.37. CEL rules in the CRDs (x-kubernetes-validations) are not run by jsonschema; the two that apply to our
Topology (unique levels, kubernetes.io/hostname only as the lowest) are checked by hand below."""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

from gpuplanner.catalog.types import ServerType
from gpuplanner.exports.quotas import LEVELS, kubernetes_docs, kubernetes_quotas
from gpuplanner.model import Project
from gpuplanner.storage import open_project
from gpuplanner.topology import GenerateOptions, generate_into
from gpuplanner.topology.presets import build_preset, preset_ids

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "tests" / "data" / "schemas" / "kueue"
K8S_VERSION = "1.37.0"


def _strict(schema: dict) -> dict:
    """An openAPIV3Schema as a JSON Schema that refuses unknown fields (the API server would prune them)."""
    s = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if (
                "properties" in node
                and "additionalProperties" not in node
                and not node.get("x-kubernetes-preserve-unknown-fields")
            ):
                node["additionalProperties"] = False
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(s)
    return s


def _kueue_validators() -> dict[str, jsonschema.Draft7Validator]:
    out = {}
    for f in SCHEMAS.glob("*.yaml"):
        crd = yaml.safe_load(f.read_text())
        kind = crd["spec"]["names"]["kind"]
        v = next(v for v in crd["spec"]["versions"] if v["name"] == "v1beta2")
        assert v["served"] and v["storage"]
        out[kind] = jsonschema.Draft7Validator(_strict(v["schema"]["openAPIV3Schema"]))
    return out


VALIDATORS = _kueue_validators()


def _plans():
    for pid in preset_ids():
        yield f"preset:{pid}", build_preset(pid)
    for f in sorted((ROOT / "examples").glob("*.gpuplan")):
        yield f"example:{f.name}", open_project(f)
    p = Project()
    generate_into(p, GenerateOptions(template="fat-tree-3tier", servers=96))
    yield "template:fat-tree-3tier", p


PLANS = list(_plans())


def validate(doc: dict) -> None:
    if doc["apiVersion"].startswith("kueue.x-k8s.io/"):
        assert doc["apiVersion"] == "kueue.x-k8s.io/v1beta2"
        errors = sorted(VALIDATORS[doc["kind"]].iter_errors(doc), key=str)
        assert not errors, (
            f"{doc['kind']} {doc['metadata']['name']}: {errors[0].message} at {list(errors[0].path)}"
        )
    else:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


@pytest.mark.parametrize(("name", "project"), PLANS, ids=[n for n, _ in PLANS])
def test_every_object_validates_and_flavors_select_the_right_nodes(name, project):
    docs = list(yaml.safe_load_all(kubernetes_quotas(project)))
    assert docs
    for d in docs:
        validate(d)
    kinds = Counter(d["kind"] for d in docs)
    nodes = [d for d in docs if d["kind"] == "Node"]
    flavors = [d for d in docs if d["kind"] == "ResourceFlavor"]
    gpu_servers = [
        d for d in project.devices.values()
        if d.role == "compute" and isinstance(e := project.catalog.entries.get(d.type_id), ServerType) and e.gpu_count
    ]  # fmt: skip
    assert len(nodes) == len(gpu_servers)
    # every GPU node is selected by exactly one flavor, and each flavor by ≥ 1 node
    for n in nodes:
        hits = [f for f in flavors if f["spec"]["nodeLabels"].items() <= n["metadata"]["labels"].items()]
        assert len(hits) == 1, n["metadata"]["name"]
    for f in flavors:
        assert any(f["spec"]["nodeLabels"].items() <= n["metadata"]["labels"].items() for n in nodes)
    # one flavor per (GPU type, partition) of the plan
    pairs = {(project.catalog.entries[d.type_id].gpu, d.partition) for d in gpu_servers}
    assert len(flavors) == len(pairs)
    teams = list(project.tables.get("teams", {}).values())
    assert kinds["ClusterQueue"] == max(1, len(teams)) and kinds["LocalQueue"] == kinds["ClusterQueue"]
    cqs = [d for d in docs if d["kind"] == "ClusterQueue"]
    assert {d["spec"]["cohortName"] for d in cqs} == {"gpu-cluster"}
    # LocalQueues point at existing ClusterQueues; ClusterQueues at existing flavors
    names = {d["metadata"]["name"] for d in cqs}
    assert all(d["spec"]["clusterQueue"] in names for d in docs if d["kind"] == "LocalQueue")
    fnames = {f["metadata"]["name"] for f in flavors}
    for cq in cqs:
        for rg in cq["spec"]["resourceGroups"]:
            assert {f["name"] for f in rg["flavors"]} <= fnames


@pytest.mark.parametrize(("name", "project"), PLANS, ids=[n for n, _ in PLANS])
def test_topology_levels_follow_the_fabric(name, project):
    docs = kubernetes_docs(project)
    topo = [d for d in docs if d["kind"] == "Topology"]
    nodes = [d for d in docs if d["kind"] == "Node"]
    if not topo:
        return
    levels = [lv["nodeLabel"] for lv in topo[0]["spec"]["levels"]]
    assert levels == list(LEVELS)
    assert len(set(levels)) == len(levels) and levels[-1] == "kubernetes.io/hostname"  # the CRD's CEL rules
    # a leaf group lies inside one block; servers under one leaf group share their leaf switches (oracle:
    # the project's links)
    block_of: dict[str, set[str]] = defaultdict(set)
    for n in nodes:
        lab = n["metadata"]["labels"]
        block_of[lab[LEVELS[1]]].add(lab[LEVELS[0]])
    assert all(len(b) == 1 for b in block_of.values())
    leaves: dict[str, set[str]] = defaultdict(set)
    for lk in project.links.values():
        for x, y in ((lk.a_device, lk.b_device), (lk.b_device, lk.a_device)):
            if project.devices[x].role == "leaf":
                leaves[y].add(x)
    by_group: dict[str, set[frozenset]] = defaultdict(set)
    from gpuplanner.exports.quotas import k8s_name
    from gpuplanner.exports.slurm import device_hostnames

    host_to_id = {k8s_name(h): i for i, h in device_hostnames(project).items()}
    for n in nodes:
        by_group[n["metadata"]["labels"][LEVELS[1]]].add(frozenset(leaves[host_to_id[n["metadata"]["name"]]]))
    assert all(len(v) == 1 for v in by_group.values())
    flavors = [d for d in docs if d["kind"] == "ResourceFlavor"]
    assert all(f["spec"]["topologyName"] == topo[0]["metadata"]["name"] for f in flavors)


def test_superpod_has_one_block_and_four_scalable_units():
    docs = kubernetes_docs(build_preset("superpod-128-node"))
    labels = [d["metadata"]["labels"] for d in docs if d["kind"] == "Node"]
    assert len({lb[LEVELS[0]] for lb in labels}) == 1
    assert Counter(lb[LEVELS[1]] for lb in labels) == dict.fromkeys(
        Counter(lb[LEVELS[1]] for lb in labels), 32
    )
    assert len({lb[LEVELS[1]] for lb in labels}) == 4


def test_teams_quotas_and_a_team_without_gpus():
    import dataclasses

    project = open_project(ROOT / "examples" / "phased-pilot-to-su.gpuplan")
    t0 = next(iter(project.tables["teams"].values()))
    project.tables["teams"][t0.id] = dataclasses.replace(t0, gpu_guaranteed=0, gpu_burst=0)
    docs = kubernetes_docs(project)
    for t in project.tables["teams"].values():
        from gpuplanner.exports.quotas import k8s_name

        cq = next(
            d for d in docs if d["kind"] == "ClusterQueue" and d["metadata"]["name"] == k8s_name(t.name)
        )
        res = [r for rg in cq["spec"]["resourceGroups"] for f in rg["flavors"] for r in f["resources"]]
        assert sum(r["nominalQuota"] for r in res) == t.gpu_guaranteed
        assert all(r["borrowingLimit"] == t.gpu_burst for r in res)
        rq = next(
            d for d in docs if d["kind"] == "ResourceQuota" and d["metadata"]["namespace"] == k8s_name(t.name)
        )
        assert set(rq["spec"]["hard"].values()) == {str(t.gpu_guaranteed + t.gpu_burst)}


def test_a_broken_object_is_refused_by_the_schemas():
    """The validators can fail: an unknown field and a v1beta1-only field are refused."""
    docs = kubernetes_docs(build_preset("ib-su-32-node"))
    cq = copy.deepcopy(next(d for d in docs if d["kind"] == "ClusterQueue"))
    cq["spec"]["cohort"] = "gpu-cluster"  # the v1beta1 spelling
    with pytest.raises(AssertionError):
        validate(cq)
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}, "spec": {"bogus": 1}}
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(ns)
