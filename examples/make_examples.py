"""Generates the bundled example projects through the same generators users use (never edit by hand).

python examples/make_examples.py            # writes examples/*.gpuplan
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from gpuplanner.commands import AddRows
from gpuplanner.model import Project, Scenario, Workload
from gpuplanner.storage import save_project
from gpuplanner.topology import GenerateOptions, generate_into

HERE = Path(__file__).resolve().parent

LLAMA3_70B = dict(
    model_id="",
    architecture="dense",
    layers=80,
    hidden=8192,
    heads=64,
    kv_heads=8,
    ffn_hidden=28672,
    vocab=128256,
    seq_len=8192,
)


def _info(p: Project, **kw) -> None:
    p.tables["project"]["project"] = dataclasses.replace(
        p.info, created="2026-12-01T00:00:00+00:00", modified="2026-12-01T00:00:00+00:00", **kw
    )


def superpod_example() -> Project:
    """128 × DGX H100 (1,024 GPUs), 4 scalable units, rail-optimised NDR InfiniBand, storage and OOB fabrics."""
    p = Project()
    generate_into(
        p,
        GenerateOptions(
            template="rail-leaf-spine",
            server="nvidia-dgx-h100",
            servers=128,
            su_size=32,
            leaf_switch="nvidia-quantum-2-qm9700",
            rack="generic-48u-600x1200-hd",
            rack_budget_kw=42,
            storage_fabric=True,
            storage_switch="nvidia-spectrum-4-sn5600",
            storage_system="ddn-ai400x2",
            storage_units=4,
            management_fabric=True,
        ),
    )
    wl = Workload(
        id=p.new_id("workloads"),
        name="Llama 3 70B pre-training",
        tp=8,
        pp=4,
        dp=0,
        micro_batch=1,
        global_batch=512,
        total_tokens=2.0e12,
        **LLAMA3_70B,
    )
    AddRows("workloads", [wl]).apply(p)
    AddRows(
        "scenarios",
        [
            Scenario(id=p.new_id("scenarios"), name="Base", description="As drawn"),
            Scenario(
                id=p.new_id("scenarios"),
                name="Cheaper power",
                description="Power at 0.06 USD/kWh",
                overrides_json='{"site.electricity_usd_per_kwh": 0.06}',
            ),
        ],
    ).apply(p)
    _info(
        p,
        name="AI training cluster — 1,024 × H100",
        customer="Example Customer Ltd.",
        consultant="GPU Planner example",
        currency="USD",
    )
    return p


def small_example() -> Project:
    """32 × 8-GPU HGX H100 servers (256 GPUs), one SU on NDR InfiniBand with management fabric."""
    p = Project()
    generate_into(
        p,
        GenerateOptions(
            template="rail-leaf-spine",
            server="supermicro-sys-821ge-tnhr",
            servers=32,
            su_size=16,
            rack_budget_kw=42,
            management_fabric=True,
        ),
    )
    AddRows(
        "workloads",
        [
            Workload(
                id=p.new_id("workloads"),
                name="Llama 3 70B fine-tuning",
                tp=8,
                pp=2,
                global_batch=256,
                total_tokens=5.0e10,
                **LLAMA3_70B,
            )
        ],
    ).apply(p)
    _info(
        p,
        name="256-GPU cluster",
        customer="示例客户 (Example)",
        consultant="GPU Planner example",
        currency="CNY",
        usd_exchange_rate=7.2,
        language="zh",
    )
    return p


EXAMPLES = {"superpod-1024-h100.gpuplan": superpod_example, "cluster-256-h100.gpuplan": small_example}


def main(out_dir: Path = HERE) -> list[Path]:
    written = []
    for name, make in EXAMPLES.items():
        path = out_dir / name
        save_project(make(), path)
        written.append(path)
        print(f"wrote {path}")
    return written


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
