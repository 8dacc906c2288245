"""Quota exports parse back with real parsers and carry every team and GPU server."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from gpuplanner.exports.quotas import hostname, kubernetes_quotas, slurm_partitions
from gpuplanner.storage import open_project

ROOT = Path(__file__).resolve().parents[2]


def _slurm_kv(line: str) -> dict[str, str]:
    """Slurm's configuration syntax: whitespace-separated Key=Value pairs, case-insensitive keys."""
    out = {}
    for token in line.split():
        key, sep, value = token.partition("=")
        assert sep, f"not Key=Value: {token!r}"
        out[key.lower()] = value
    return out


def test_slurm_partitions_and_qos():
    p = open_project(ROOT / "examples" / "phased-pilot-to-su.gpuplan")
    text = slurm_partitions(p)
    nodes, parts, qos = {}, {}, {}
    for line in text.splitlines():
        if line.startswith("NodeName="):
            kv = _slurm_kv(line)
            nodes[kv["nodename"]] = kv
        elif line.startswith("PartitionName="):
            kv = _slurm_kv(line)
            parts[kv["partitionname"]] = kv
        elif line.startswith("# sacctmgr"):
            m = re.match(r"# sacctmgr -i add qos (\S+) (.*)", line)
            qos[m.group(1)] = _slurm_kv(m.group(2))
    servers = [d for d in p.devices.values() if d.role == "compute"]
    assert set(nodes) == {hostname(d.name) for d in servers}
    assert set(parts) == {"train", "infer"}
    assert sum(len(v["nodes"].split(",")) for v in parts.values()) == len(servers)
    assert set(qos) == {"foundation-models", "applied-ml", "inference-platform", "interns"}
    assert qos["foundation-models"]["grptres"] == "gres/gpu=256"
    assert "foundation-models" in parts["train"]["allowqos"].split(",")


def test_kubernetes_quotas_yaml():
    p = open_project(ROOT / "examples" / "phased-pilot-to-su.gpuplan")
    docs = list(yaml.safe_load_all(kubernetes_quotas(p)))
    kinds = [d["kind"] for d in docs]
    assert kinds.count("ClusterQueue") == 4 and kinds.count("ResourceQuota") == 4
    cq = next(d for d in docs if d["kind"] == "ClusterQueue" and d["metadata"]["name"] == "foundation-models")
    res = cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]
    assert res == {"name": "nvidia.com/gpu", "nominalQuota": 192, "borrowingLimit": 64}
