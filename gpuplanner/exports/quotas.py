"""Team quotas for Kubernetes: one YAML stream with Kueue v1beta2 objects (v1beta1 is deprecated) and core
objects.

- ``Node`` label patches for every compute server (``kubectl apply`` merges labels into the registered node):
  the GPU type and partition that pick a ResourceFlavor, and the fabric's topology levels.
- ``Topology`` (topology-aware scheduling): block → leaf group → host. A leaf group is the servers that share the
  same leaf switches (one top-of-rack leaf, or the rail leaves of a scalable unit); a block is the leaf groups
  that share the same spine switches (a fat-tree pod; the whole fabric on a 2-tier leaf-spine).
- one ``ResourceFlavor`` per GPU type × partition, selecting nodes by those labels, so a queue for training
  never lands on inference nodes;
- per team a ``Namespace``, a ``ResourceQuota`` (guarantee + burst), a ``ClusterQueue`` in one cohort
  (nominal quota = guarantee spread over the flavors of the team's partition, borrowing limit = burst; a team
  with no GPUs gets 0 and 0) and a ``LocalQueue``. A project without teams gets one queue for everyone.
"""

from __future__ import annotations

from collections import defaultdict

import yaml

from gpuplanner.exports.names import slug
from gpuplanner.exports.slurm import device_hostnames
from gpuplanner.exports.slurm_conf import _gres_type, compute_servers

KUEUE = "kueue.x-k8s.io/v1beta2"
LABEL = "gpuplanner.io"
LEVELS = (f"{LABEL}/block", f"{LABEL}/leaf-group", "kubernetes.io/hostname")
TOPOLOGY = "gpu-fabric"
COHORT = "gpu-cluster"
# Extended resource names of each vendor's device plugin.
RESOURCE = {"nvidia": "nvidia.com/gpu", "amd": "amd.com/gpu", "huawei": "huawei.com/Ascend910"}


def k8s_name(text: str, fallback: str = "x") -> str:
    """An RFC 1123 label (lower-case letters, digits, '-'; at most 63)."""
    return slug(text, fallback=fallback, limit=63)


def _fabric_levels(project) -> dict[str, tuple[str, str]]:
    """Device id → (block, leaf group) from the project's links (servers on no fabric switch are left out)."""
    devs, cat = project.devices, project.catalog.entries
    leaves: dict[str, set[str]] = defaultdict(set)  # server → its leaf switches
    ups: dict[str, set[str]] = defaultdict(set)  # leaf → switches above it
    role = {d.id: d.role for d in devs.values()}
    for lk in project.links.values():
        for x, y in ((lk.a_device, lk.b_device), (lk.b_device, lk.a_device)):
            if (
                role[x] == "leaf"
                and role[y] == "compute"
                and getattr(cat.get(devs[y].type_id), "kind_name", "") == "server"
            ):
                leaves[y].add(x)
            elif role[x] == "leaf" and role[y] in ("spine", "core"):
                ups[x].add(y)
    groups: dict[frozenset, list[str]] = defaultdict(list)
    for srv, ls in leaves.items():
        groups[frozenset(ls)].append(srv)
    blocks: dict[frozenset, int] = {}
    out: dict[str, tuple[str, str]] = {}
    order = sorted(groups, key=lambda g: min(groups[g]))
    for k, g in enumerate(order, start=1):
        above = frozenset().union(*(ups[leaf] for leaf in g))
        b = blocks.setdefault(above, len(blocks) + 1)
        for srv in groups[g]:
            out[srv] = (f"block-{b:02d}", f"leafgroup-{k:03d}")
    return out


def _flavors(project) -> dict[str, dict]:
    """Flavor name → {'labels', 'resource', 'gpus' (capacity), 'partition'}; node id → flavor in '_nodes'."""
    out: dict[str, dict] = {}
    for d, e in compute_servers(project):
        if not e.gpu_count:
            continue
        gtype, vendor = _gres_type(project, e)
        part = k8s_name(d.partition or "all", fallback="all")
        name = k8s_name(f"{gtype}-{part}")
        f = out.setdefault(
            name,
            {
                "labels": {f"{LABEL}/gpu-type": gtype.replace("_", "-"), f"{LABEL}/partition": part},
                "resource": RESOURCE.get(vendor, f"{vendor or 'vendor'}.com/gpu"),
                "gpus": 0,
                "partition": d.partition,
                "nodes": [],
            },
        )
        f["gpus"] += int(e.gpu_count)
        f["nodes"].append(d.id)
    return out


def _cluster_queue(name: str, flavors: dict[str, dict], guaranteed: int, burst: int, ns_selector) -> dict:
    by_resource: dict[str, list[str]] = defaultdict(list)
    for fname, f in flavors.items():
        by_resource[f["resource"]].append(fname)
    groups, left = [], guaranteed
    for resource, names in sorted(by_resource.items()):
        fl = []
        for fname in names:
            nominal = min(left, flavors[fname]["gpus"])
            left -= nominal
            fl.append(
                {
                    "name": fname,
                    "resources": [{"name": resource, "nominalQuota": nominal, "borrowingLimit": burst}],
                }
            )
        groups.append({"coveredResources": [resource], "flavors": fl})
    return {
        "apiVersion": KUEUE,
        "kind": "ClusterQueue",
        "metadata": {"name": name},
        "spec": {
            "cohortName": COHORT,
            "namespaceSelector": ns_selector,
            "resourceGroups": groups,
            "preemption": {"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority"},
        },
    }


def kubernetes_docs(project) -> list[dict]:
    hosts = device_hostnames(project)
    levels = _fabric_levels(project)
    flavors = _flavors(project)
    docs: list[dict] = []
    for f in flavors.values():
        for dev in f["nodes"]:
            labels = dict(f["labels"])
            if dev in levels:
                labels[LEVELS[0]], labels[LEVELS[1]] = levels[dev]
            docs.append(
                {
                    "apiVersion": "v1",
                    "kind": "Node",
                    "metadata": {"name": k8s_name(hosts[dev], fallback="node"), "labels": labels},
                }
            )
    use_topology = bool(levels) and all(dev in levels for f in flavors.values() for dev in f["nodes"])
    if use_topology:
        docs.append(
            {
                "apiVersion": KUEUE,
                "kind": "Topology",
                "metadata": {"name": TOPOLOGY},
                "spec": {"levels": [{"nodeLabel": lb} for lb in LEVELS]},
            }
        )
    for fname, f in flavors.items():
        spec: dict = {"nodeLabels": dict(f["labels"])}
        if use_topology:
            spec["topologyName"] = TOPOLOGY
        docs.append(
            {"apiVersion": KUEUE, "kind": "ResourceFlavor", "metadata": {"name": fname}, "spec": spec}
        )
    teams = list(project.tables.get("teams", {}).values())
    if not teams and flavors:  # one queue for everyone, in the default namespace
        total = sum(f["gpus"] for f in flavors.values())
        docs.append(_cluster_queue("cluster", flavors, total, 0, {}))
        docs.append(_local_queue("default", "cluster"))
    taken: set[str] = set()
    for t in teams:
        ns = k8s_name(t.name, fallback="team")
        k = 1
        while ns in taken:
            k += 1
            ns = k8s_name(f"{t.name}-{k}", fallback=f"team-{k}")
        taken.add(ns)
        mine = {n: f for n, f in flavors.items() if not t.partition or f["partition"] == t.partition}
        guaranteed, burst = max(0, int(t.gpu_guaranteed)), max(0, int(t.gpu_burst))
        docs.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
        resources = sorted({f["resource"] for f in mine.values()}) or ["nvidia.com/gpu"]
        docs.append(
            {
                "apiVersion": "v1",
                "kind": "ResourceQuota",
                "metadata": {"name": "gpu-quota", "namespace": ns},
                "spec": {"hard": {f"requests.{r}": str(guaranteed + burst) for r in resources}},
            }
        )
        if mine:
            selector = {"matchLabels": {"kubernetes.io/metadata.name": ns}}
            docs.append(_cluster_queue(ns, mine, guaranteed, burst, selector))
            docs.append(_local_queue(ns, ns))
    return docs


def _local_queue(namespace: str, cluster_queue: str) -> dict:
    return {
        "apiVersion": KUEUE,
        "kind": "LocalQueue",
        "metadata": {"name": "default", "namespace": namespace},
        "spec": {"clusterQueue": cluster_queue},
    }


def kubernetes_quotas(project) -> str:
    head = "# Kubernetes + Kueue v1beta2 objects written by GPU Planner (kubectl apply -f)\n"
    return head + yaml.safe_dump_all(kubernetes_docs(project), sort_keys=False, allow_unicode=False)
