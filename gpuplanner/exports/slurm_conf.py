"""The slurm.conf lines a site needs for the plan's servers (node definitions with CPUs, memory and GPUs,
partitions, the GPU accounting lines) with a comment explaining each, the matching gres.conf, and one QOS per
team (``sacctmgr`` commands) whose GPU limit is the team's guarantee + burst — a team with no GPUs gets a QOS
that allows none (``GrpTRES=gres/gpu=0``), as the Kubernetes export gives it a quota of 0.

Node names come from ``slurm.device_hostnames`` (the same names as topology.conf). Partition names never use
Slurm's reserved ``DEFAULT`` record name. Free text only appears in one-line comments.
"""

from __future__ import annotations

from collections import defaultdict

from gpuplanner.catalog.types import ServerType
from gpuplanner.core.outfile import one_line
from gpuplanner.exports.names import hostlist, slug, unique_hostnames
from gpuplanner.exports.slurm import device_hostnames

# Planning value for RealMemory: the firmware and kernel keep a few percent of installed memory, and slurmd
# drains a node that reports less than RealMemory ("Low RealMemory"); the header says to use `slurmd -C`.
REAL_MEMORY_SHARE = 0.95
UNPARTITIONED = "gpu"  # partition of servers the plan puts in none

# Device files of each vendor's GPUs (gres.conf File=): NVIDIA driver /dev/nvidiaN, AMD ROCm render nodes,
# Huawei Ascend /dev/davinciN. Other vendors get Count= only.
DEVICE_FILES = {"nvidia": "/dev/nvidia[{lo}-{hi}]", "amd": "/dev/dri/renderD[{lo128}-{hi128}]",
                "huawei": "/dev/davinci[{lo}-{hi}]"}  # fmt: skip
AUTODETECT = {"nvidia": "nvml", "amd": "rsmi"}

HEADER = """\
# Slurm nodes, partitions and team QOS written by GPU Planner from project: {name}
#
# Add these lines to slurm.conf (or `Include` this file from it) and put gres.conf next to slurm.conf.
#   GresTypes=gpu                  GPUs are a generic resource; without it nodes show Gres=(null)
#   SelectType=select/cons_tres    jobs can ask for GPUs (--gpus, --gres=gpu:N); topology/tree needs it
#   AccountingStorageTRES=gres/gpu GPUs are counted by accounting, so a QOS can limit them
#   AccountingStorageEnforce=...   without it QOS limits are recorded but not enforced
#   AccountingStorageType=...      QOS live in the accounting database: both lines above need slurmdbd
#                                  (slurmctld 22.05 stops with "slurmdbd is required to run with TRES
#                                  gres/gpu" when accounting_storage/none is set)
#   NodeName ...                   CPUs, Sockets, CoresPerSocket, ThreadsPerCore and Gres from the catalog;
#                                  RealMemory (MiB) is {share:.0%} of installed memory as a planning value --
#                                  replace it with what `slurmd -C` prints on the node
#   PartitionName ...              one per partition of the plan ("{unpart}" for servers without one);
#                                  AllowQos lists the teams' QOS that may run there
# The team QOS are created once with the sacctmgr commands at the end (GrpTRES=gres/gpu=N: the team's
# guaranteed + burst GPUs; 0 = a team with no GPU quota may not use GPUs).
"""


def _gres_type(project, server: ServerType) -> tuple[str, str]:
    """(gres type name, vendor slug) of a server's GPUs, e.g. ('h100_sxm', 'nvidia')."""
    gpu = project.catalog.entries.get(server.gpu) if server.gpu else None
    vendor = slug(getattr(gpu, "vendor", "") or "", fallback="")
    gid = server.gpu or "gpu"
    if vendor and gid.startswith(vendor + "-"):
        gid = gid[len(vendor) + 1 :]
    return slug(gid, fallback="gpu").replace("-", "_"), vendor


def _node_attrs(project, e: ServerType) -> str:
    parts = []
    if e.cpu_count and e.cpu_cores_per_socket:
        threads = e.cpu_threads_per_core or 1
        parts.append(
            f"CPUs={e.cpu_count * e.cpu_cores_per_socket * threads} Sockets={e.cpu_count} "
            f"CoresPerSocket={e.cpu_cores_per_socket} ThreadsPerCore={threads}"
        )
    if e.mem_gb:
        parts.append(f"RealMemory={int(e.mem_gb * 1024 * REAL_MEMORY_SHARE)}")
    if e.gpu_count:
        parts.append(f"Gres=gpu:{_gres_type(project, e)[0]}:{e.gpu_count}")
    return " ".join(parts)


def compute_servers(project) -> list[tuple]:
    """(device, server type) of every compute server, in the project's order."""
    out = []
    for d in project.devices.values():
        e = project.catalog.entries.get(d.type_id)
        if isinstance(e, ServerType) and d.role == "compute":
            out.append((d, e))
    return out


def partition_names(project) -> dict[str, str]:
    """Plan partition label → Slurm partition name (never the reserved DEFAULT)."""
    labels = sorted(
        {d.partition for d, _ in compute_servers(project)} | {t.partition for t in _teams(project)}
    )
    labels = [lb for lb in labels if lb]
    names = unique_hostnames(labels, reserved=("default", UNPARTITIONED))
    out = dict(zip(labels, names, strict=True))
    out[""] = UNPARTITIONED
    return out


def _teams(project) -> list:
    return list(project.tables.get("teams", {}).values())


def qos_names(project) -> dict[str, str]:
    """Team id → QOS name (unique slug; never Slurm's built-in 'normal')."""
    teams = _teams(project)
    names = unique_hostnames((slug(t.name, fallback="team") for t in teams), reserved=("normal",))
    return {t.id: n.lower() for t, n in zip(teams, names, strict=True)}


def slurm_partitions(project) -> str:
    """slurm.conf lines (nodes, partitions, GPU accounting) plus the sacctmgr commands of the team QOS."""
    hosts = device_hostnames(project)
    servers = compute_servers(project)
    parts = partition_names(project)
    qos = qos_names(project)
    teams = _teams(project)
    lines = [HEADER.format(name=one_line(project.info.name), share=REAL_MEMORY_SHARE, unpart=UNPARTITIONED)]
    lines += [
        "GresTypes=gpu",
        "SelectType=select/cons_tres",
        "AccountingStorageType=accounting_storage/slurmdbd",
        "AccountingStorageTRES=gres/gpu",
        "AccountingStorageEnforce=associations,limits,qos,safe",
        "",
    ]
    by_attrs: dict[str, list[str]] = defaultdict(list)
    notes = set()
    for d, e in servers:
        by_attrs[_node_attrs(project, e)].append(hosts[d.id])
        if not (e.cpu_count and e.cpu_cores_per_socket):
            notes.add(one_line(e.name))
    for model in sorted(notes):
        lines.append(f"# {model}: the catalog has no core count; `slurmd -C` prints this node's CPU layout")
    for attrs, names in by_attrs.items():
        lines.append(f"NodeName={hostlist(names)} {attrs} State=UNKNOWN".replace("  ", " "))
    lines.append("")
    members: dict[str, list[str]] = defaultdict(list)
    for d, _e in servers:
        members[parts[d.partition]].append(hosts[d.id])
    first = True
    for pname in sorted(members, key=lambda p: (p != UNPARTITIONED, p)):
        allowed = sorted(qos[t.id] for t in teams if not t.partition or parts[t.partition] == pname)
        extra = f" AllowQos={','.join(allowed)}" if allowed else ""
        lines.append(
            f"PartitionName={pname} Nodes={hostlist(members[pname])} Default={'YES' if first else 'NO'} "
            f"MaxTime=INFINITE State=UP{extra}"
        )
        first = False
    lines.append("")
    for t in teams:
        limit = max(0, int(t.gpu_guaranteed) + int(t.gpu_burst))
        lines.append(f"# team: {one_line(t.name)}")
        lines.append(
            f"# sacctmgr -i add qos {qos[t.id]} Priority={int(t.priority) * 1000} GrpTRES=gres/gpu={limit}"
        )
    return "\n".join(lines) + "\n"


def gres_conf(project) -> str:
    """gres.conf for the plan's GPU servers (read by slurmd on each node)."""
    hosts = device_hostnames(project)
    lines = [
        f"# Slurm gres.conf written by GPU Planner from project: {one_line(project.info.name)}",
        "# Put it next to slurm.conf on every node. Each line: the nodes, the GPU type and its device files.",
    ]
    groups: dict[tuple[str, str, int], list[str]] = defaultdict(list)
    for d, e in compute_servers(project):
        if e.gpu_count:
            gtype, vendor = _gres_type(project, e)
            groups[(gtype, vendor, int(e.gpu_count))].append(hosts[d.id])
    auto = sorted({AUTODETECT[v] for (_, v, _) in groups if v in AUTODETECT})
    if auto:
        lines.append(
            f"# With slurmd built against the vendor library, AutoDetect={'/'.join(auto)} finds the same GPUs."
        )
    for (gtype, vendor, count), names in groups.items():
        pattern = DEVICE_FILES.get(vendor)
        if pattern and count > 1:
            where = "File=" + pattern.format(lo=0, hi=count - 1, lo128=128, hi128=127 + count)
        elif pattern:  # one GPU: no bracket range
            where = "File=" + pattern.split("[")[0] + ("128" if vendor == "amd" else "0")
        else:
            where = f"Count={count}"
        lines.append(f"NodeName={hostlist(names)} Name=gpu Type={gtype} {where}")
    return "\n".join(lines) + "\n"
