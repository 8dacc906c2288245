"""A small plan with a fine-grained MoE workload (Qwen3 30B-A3B on two 8-GPU servers): micro-batch 1 gives
each expert tens of µs of GEMM (host-paced, engine/perf/host.py); no recomputation at micro-batch 1 does not
fit in 80 GB. Shared by the host-paced, results-panel and memory-message tests."""

from __future__ import annotations

from gpuplanner.commands import AddRows
from gpuplanner.model import Project
from gpuplanner.model.rows import Workload
from gpuplanner.topology import GenerateOptions, generate_into


def qwen3_moe_project(micro_batch: int = 1, recompute: str = "none") -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="leaf-spine", servers=2, rack_budget_kw=42))
    wl = Workload(id="w1", name="qwen", model_id="qwen3-30b-a3b", tp=1, pp=1, ep=8, micro_batch=micro_batch,
                  global_batch=256, seq_len=4096, precision="fp8", recompute=recompute)  # fmt: skip
    AddRows("workloads", [wl]).apply(p)
    return p
