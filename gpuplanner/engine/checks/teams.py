"""Shared use by several teams: quotas against the cluster, each team's largest job against its partition,
and the scheduler the domain sources advise for the cluster's size and workload mix."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import Compiled, codes_of
from gpuplanner.model import Project


def partition_gpus(project: Project, c: Compiled) -> dict[str, int]:
    """GPUs per partition ("" = the whole cluster), partitions in order of their first GPU device: the GPU
    devices' partition names coded once (a C-level map), then one ``np.bincount`` of their GPU counts."""
    gpu = c.devices.gpu_count
    rows = np.flatnonzero(gpu).tolist()
    devices = list(project.devices.values())
    code, names = codes_of([devices[i].partition or "" for i in rows])
    sums = np.bincount(code, weights=gpu[rows], minlength=len(names)) if rows else np.zeros(0)
    out = {name: int(n) for name, n in zip(names, sums.tolist(), strict=True)} if rows else {}
    out[""] = int(gpu.sum())
    return out


def team_findings(project: Project, c: Compiled, island_gpus: int | None = None) -> list[Finding]:
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


def scheduler_finding(project: Project, c: Compiled, scheduler: str | None = None) -> Finding | None:
    gpus = int(c.devices.gpu_count.sum())
    if not gpus:
        return None
    wls = list(project.tables["workloads"].values())
    kinds = {w.kind for w in wls} or {"training"}
    mix = {("training",): "training", ("inference",): "inference"}.get(tuple(sorted(kinds)), "mixed")
    choice = scheduler or advised_scheduler(gpus, project)
    # slugs: the sentences name the scheduler, its reason and the mix in words (word.scheduler.* …)
    return Finding("info", "scheduler-advice", (), {"scheduler": choice, "gpus": gpus, "mix": mix})


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


def advised_scheduler(gpus: int, project: Project) -> str:
    """The domain article's advice (000, §5 and §7): Kubernetes + GPU Operator for small and inference clusters,
    Slurm + Kubernetes for mid-size, Slurm for large training clusters."""
    wls = list(project.tables["workloads"].values())
    training = any(w.kind == "training" for w in wls) or not wls
    if gpus <= 64 or not training:
        return "kubernetes"
    if gpus <= 256:
        return "slurm+kubernetes"
    return "slurm"
