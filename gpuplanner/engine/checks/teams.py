"""Shared use by several teams: quotas against the cluster, each team's largest job against its partition,
and the scheduler the domain sources advise for the cluster's size and workload mix."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import Compiled
from gpuplanner.model.rows import Workload


def partition_gpus(c: Compiled) -> dict[str, int]:
    """GPUs per partition ("" = the whole cluster), from the compiled partition codes."""
    dev = c.devices
    per = np.bincount(dev.partition_code, weights=dev.gpu_count, minlength=len(dev.partitions))
    out = {p: int(g) for p, g in zip(dev.partitions, per.tolist(), strict=True) if g}
    out[""] = int(dev.gpu_count.sum())
    return out


def team_findings(c: Compiled, island_gpus: int | None = None) -> list[Finding]:
    teams = list(c.inputs.teams)
    out: list[Finding] = []
    if not teams:
        return out
    gpus = partition_gpus(c)
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


def scheduler_finding(c: Compiled, scheduler: str | None = None) -> Finding | None:
    gpus = int(c.devices.gpu_count.sum())
    if not gpus:
        return None
    wls = c.inputs.workloads
    kinds = {w.kind for w in wls} or {"training"}
    mixes: dict[tuple[str, ...], str] = {("training",): "training", ("inference",): "inference"}
    mix = mixes.get(tuple(sorted(kinds)), "mixed")
    choice = scheduler or advised_scheduler(gpus, wls)
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


def advised_scheduler(gpus: int, workloads: Iterable[Workload]) -> str:
    """The domain article's advice (000, §5 and §7): Kubernetes + GPU Operator for small and inference clusters,
    Slurm + Kubernetes for mid-size, Slurm for large training clusters."""
    wls = list(workloads)
    training = any(w.kind == "training" for w in wls) or not wls
    if gpus <= 64 or not training:
        return "kubernetes"
    if gpus <= 256:
        return "slurm+kubernetes"
    return "slurm"
