"""Team quotas for the schedulers the customer runs: Slurm partitions and QOS limits, and Kubernetes
ResourceQuota + Kueue ClusterQueue/LocalQueue objects (one namespace per team)."""

from __future__ import annotations

import re
from collections import defaultdict

import yaml

from gpuplanner.catalog.types import ServerType


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-") or "team"


def hostname(name: str) -> str:
    """A Slurm/DNS-safe node name from a device name."""
    return re.sub(r"[^A-Za-z0-9-]+", "-", name).strip("-") or "node"


def _gpu_servers(project) -> dict[str, list]:
    """partition → GPU servers in it ("default" for servers without one)."""
    by: dict[str, list] = defaultdict(list)
    for d in project.devices.values():
        e = project.catalog.entries.get(d.type_id)
        if isinstance(e, ServerType) and e.gpu_count:
            by[d.partition or "default"].append((d, e))
    return by


def slurm_partitions(project) -> str:
    """slurm.conf NodeName/PartitionName lines plus the sacctmgr commands that create one QOS per team."""
    lines = [
        "# GPU Planner: nodes, partitions and team QOS (append to slurm.conf; run the sacctmgr lines once)"
    ]
    teams = list(project.tables["teams"].values())
    for part, members in sorted(_gpu_servers(project).items()):
        for d, e in members:
            lines.append(
                f"NodeName={hostname(d.name)} Gres=gpu:{e.gpu_count} CPUs={max(e.cpu_count, 1) * 32} State=UNKNOWN"
            )
        nodes = ",".join(hostname(d.name) for d, _ in members)
        qos = ",".join(_slug(t.name) for t in teams if (t.partition or "default") == part)
        extra = f" AllowQos={qos}" if qos else ""
        lines.append(
            f"PartitionName={hostname(part)} Nodes={nodes} Default={'YES' if part == 'default' else 'NO'} "
            f"MaxTime=INFINITE State=UP{extra}"
        )
    lines.append("")
    for t in teams:
        limit = t.gpu_guaranteed + t.gpu_burst
        grp = f" GrpTRES=gres/gpu={limit}" if limit else ""
        lines.append(f"# sacctmgr -i add qos {_slug(t.name)} Priority={t.priority * 1000}{grp}")
    return "\n".join(lines) + "\n"


def kubernetes_quotas(project) -> str:
    """A YAML stream: per team a Namespace, a ResourceQuota on nvidia.com/gpu, a Kueue ClusterQueue (nominal
    quota = guarantee, borrowing limit = burst, one cohort) and a LocalQueue; plus the ResourceFlavor."""
    teams = list(project.tables["teams"].values())
    docs: list[dict] = [
        {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ResourceFlavor", "metadata": {"name": "gpu"}}
    ]
    for t in teams:
        ns = _slug(t.name)
        docs.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
        docs.append(
            {
                "apiVersion": "v1",
                "kind": "ResourceQuota",
                "metadata": {"name": "gpu-quota", "namespace": ns},
                "spec": {"hard": {"requests.nvidia.com/gpu": str(t.gpu_guaranteed + t.gpu_burst)}},
            }
        )
        docs.append(
            {
                "apiVersion": "kueue.x-k8s.io/v1beta1",
                "kind": "ClusterQueue",
                "metadata": {"name": ns},
                "spec": {
                    "cohort": "gpu-cluster",
                    "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": ns}},
                    "resourceGroups": [
                        {
                            "coveredResources": ["nvidia.com/gpu"],
                            "flavors": [
                                {
                                    "name": "gpu",
                                    "resources": [
                                        {
                                            "name": "nvidia.com/gpu",
                                            "nominalQuota": t.gpu_guaranteed,
                                            "borrowingLimit": t.gpu_burst,
                                        }
                                    ],
                                }
                            ],
                        }
                    ],
                    "preemption": {"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority"},
                },
            }
        )
        docs.append(
            {
                "apiVersion": "kueue.x-k8s.io/v1beta1",
                "kind": "LocalQueue",
                "metadata": {"name": "default", "namespace": ns},
                "spec": {"clusterQueue": ns},
            }
        )
    return yaml.safe_dump_all(docs, sort_keys=False)
