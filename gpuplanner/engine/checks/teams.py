"""Shared use by several teams: quotas against the cluster, each team's largest job against its partition,
and the scheduler the domain sources advise for the cluster's size and workload mix."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from gpuplanner.engine.checks.findings import Finding, register_templates
from gpuplanner.engine.compiled import Compiled

register_templates(
    {
        "quota-exceeds-cluster": {
            "message": {
                "en": "Guaranteed GPU quotas add up to {guaranteed} in partition '{partition}', which has {gpus} GPUs.",
                "zh": "分区“{partition}”的保障 GPU 配额合计 {guaranteed} 块，而该分区只有 {gpus} 块 GPU。",
            },
            "fix": {
                "en": "Lower the guarantees or add GPUs to the partition; let teams burst instead.",
                "zh": "降低保障配额或为该分区增加 GPU，改用可借用（burst）配额。",
            },
        },
        "job-larger-than-partition": {
            "message": {
                "en": "Team '{team}' runs jobs of {job} GPUs, but partition '{partition}' has {gpus}.",
                "zh": "团队“{team}”的最大作业需要 {job} 块 GPU，而分区“{partition}”只有 {gpus} 块。",
            },
            "fix": {
                "en": "Give the team a larger partition or split its jobs.",
                "zh": "为该团队分配更大的分区，或拆分作业。",
            },
        },
        "job-spans-fabric-islands": {
            "message": {
                "en": "Team '{team}' runs jobs of {job} GPUs, more than one non-blocking leaf group ({island} GPUs): its traffic crosses the spines.",
                "zh": "团队“{team}”的最大作业需要 {job} 块 GPU，超过单个无阻塞叶交换机组（{island} 块 GPU），其流量将跨越脊交换机。",
            },
            "fix": {
                "en": "Keep the spine tier non-blocking, or use topology-aware scheduling (Slurm topology/tree or block plugin).",
                "zh": "保持脊层无阻塞，或启用拓扑感知调度（Slurm 的 topology/tree 或 block 插件）。",
            },
        },
        "teams-without-quotas": {
            "message": {
                "en": "{n} teams share the cluster and {without} have no GPU quota: without quotas and priorities, teams end up fighting over GPUs.",
                "zh": "共有 {n} 个团队共享集群，其中 {without} 个没有 GPU 配额：缺少配额和优先级管理，必然出现资源争抢。",
            },
            "fix": {
                "en": "Give every team a guaranteed quota and a priority in the scheduler (Slurm QOS, Kueue ClusterQueue).",
                "zh": "在调度平台中为每个团队设置保障配额和优先级（Slurm QOS、Kueue ClusterQueue）。",
            },
        },
        "scheduler-advice": {
            "message": {
                "en": "Scheduler: {scheduler} fits a cluster of {gpus} GPUs running {mix}.",
                "zh": "调度平台建议：{gpus} 块 GPU、以{mix_zh}为主的集群适合采用 {scheduler_zh}。",
            },
            "fix": {"en": "{why}", "zh": "{why_zh}"},
        },
    }
)

SCHEDULER_TEXT = {
    "kubernetes": (
        "Kubernetes + NVIDIA GPU Operator",
        "containers and MLOps integrate easily; inference and small training jobs do not need Slurm's batch policies",
        "容器化、易于集成 MLOps；推理和小规模训练不需要 Slurm 的批处理调度策略",
    ),
    "slurm+kubernetes": (
        "Slurm + Kubernetes (dual stack)",
        "training jobs on Slurm, inference services on Kubernetes, as mid-size enterprise platforms do",
        "训练任务使用 Slurm 调度，推理服务由 Kubernetes 管理，这是中等规模企业平台的常见做法",
    ),
    "slurm": (
        "Slurm",
        "mature batch scheduling with preemption, fair share and topology-aware placement for large training jobs",
        "成熟的批处理调度，支持抢占、公平共享和拓扑感知放置，适合大规模训练",
    ),
    "volcano": (
        "Kubernetes + Volcano",
        "gang scheduling keeps all ranks of a distributed training job starting together on Kubernetes",
        "Gang 调度保证分布式训练作业的所有进程在 Kubernetes 上同时启动",
    ),
}


def partition_gpus(project, c: Compiled) -> dict[str, int]:
    """GPUs per partition ("" = the whole cluster)."""
    by: dict[str, int] = defaultdict(int)
    devices = list(project.devices.values())
    for d, g in zip(devices, c.devices.gpu_count.tolist(), strict=True):
        if g:
            by[d.partition or ""] += g
    total = int(c.devices.gpu_count.sum())
    out = dict(by)
    out[""] = total
    return out


def team_findings(project, c: Compiled, island_gpus: int | None = None) -> list[Finding]:
    teams = list(project.tables["teams"].values())
    out: list[Finding] = []
    if not teams:
        return out
    gpus = partition_gpus(project, c)
    guaranteed: dict[str, int] = defaultdict(int)
    for t in teams:
        guaranteed[t.partition] += t.gpu_guaranteed
    for part, g in guaranteed.items():
        have = gpus.get(part, 0)
        if g > have:
            out.append(
                Finding(
                    "error",
                    "quota-exceeds-cluster",
                    tuple(t.id for t in teams if t.partition == part),
                    {"guaranteed": g, "partition": part or "all", "gpus": have},
                )
            )
    total_guaranteed = sum(guaranteed.values())
    if total_guaranteed > gpus[""] and len(guaranteed) > 1:
        out.append(
            Finding(
                "error",
                "quota-exceeds-cluster",
                tuple(t.id for t in teams),
                {"guaranteed": total_guaranteed, "partition": "all", "gpus": gpus[""]},
            )
        )
    for t in teams:
        have = gpus.get(t.partition, 0)
        if t.largest_job_gpus > have:
            out.append(
                Finding(
                    "error",
                    "job-larger-than-partition",
                    (t.id,),
                    {
                        "team": t.name,
                        "job": t.largest_job_gpus,
                        "partition": t.partition or "all",
                        "gpus": have,
                    },
                )
            )
        elif island_gpus and t.largest_job_gpus > island_gpus:
            out.append(
                Finding(
                    "info",
                    "job-spans-fabric-islands",
                    (t.id,),
                    {"team": t.name, "job": t.largest_job_gpus, "island": island_gpus},
                )
            )
    without = [t for t in teams if t.gpu_guaranteed <= 0 and t.gpu_burst <= 0]
    if len(teams) > 1 and without:
        out.append(
            Finding(
                "warning",
                "teams-without-quotas",
                tuple(t.id for t in without),
                {"n": len(teams), "without": len(without)},
            )
        )
    return out


def scheduler_finding(project, c: Compiled, scheduler: str | None = None) -> Finding | None:
    gpus = int(c.devices.gpu_count.sum())
    if not gpus:
        return None
    wls = list(project.tables["workloads"].values())
    kinds = {w.kind for w in wls} or {"training"}
    mix = {("training",): "training", ("inference",): "inference"}.get(
        tuple(sorted(kinds)), "training and inference"
    )
    choice = scheduler or advised_scheduler(gpus, project)
    name, why, why_zh = SCHEDULER_TEXT[choice]
    name_zh = name.replace(" (dual stack)", "（双栈）")
    mix_zh = {"training": "训练", "inference": "推理"}.get(mix, "训练与推理")
    return Finding(
        "info",
        "scheduler-advice",
        (),
        {
            "scheduler": name,
            "scheduler_zh": name_zh,
            "gpus": gpus,
            "mix": mix,
            "mix_zh": mix_zh,
            "why": why,
            "why_zh": why_zh,
        },
    )


def island_gpus(c: Compiled) -> int | None:
    """GPUs under one non-blocking leaf: the most GPU servers any leaf switch connects (one SU of a
    rail-optimised fabric, the servers of one ToR otherwise). None when there is no leaf tier."""
    from gpuplanner.engine.compiled import KIND_CODES, ROLE_CODES

    lk, dev = c.links, c.devices
    if not len(lk.ids):
        return None
    a_srv = (dev.kind[lk.a] == KIND_CODES["server"]) & (dev.role[lk.b] == ROLE_CODES["leaf"])
    b_srv = (dev.kind[lk.b] == KIND_CODES["server"]) & (dev.role[lk.a] == ROLE_CODES["leaf"])
    server = np.concatenate([lk.a[a_srv], lk.b[b_srv]])
    leaf = np.concatenate([lk.b[a_srv], lk.a[b_srv]])
    if not len(leaf):
        return None
    pairs = np.unique(leaf.astype(np.int64) * len(dev.ids) + server)
    gpus_per_leaf = np.bincount(pairs // len(dev.ids), weights=dev.gpu_count[pairs % len(dev.ids)])
    return int(gpus_per_leaf.max())


def advised_scheduler(gpus: int, project) -> str:
    """The domain article's advice (000, §5 and §7): Kubernetes + GPU Operator for small and inference clusters,
    Slurm + Kubernetes for mid-size, Slurm for large training clusters."""
    wls = list(project.tables["workloads"].values())
    training = any(w.kind == "training" for w in wls) or not wls
    if gpus <= 64 or not training:
        return "kubernetes"
    if gpus <= 256:
        return "slurm+kubernetes"
    return "slurm"
