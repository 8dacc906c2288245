"""Generates the bundled example projects through the same generators users use (never edit by hand).

python examples/make_examples.py            # writes examples/*.gpuplan
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from gpuplanner.commands import AddRows, ReplaceRows
from gpuplanner.model import FloorItem, Phase, Project, Scenario, Team, Workload
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
            storage_system="ddn-ai400x2-eth",
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


def phased_example() -> Project:
    """The domain article's build-out (000, §7): a pilot of 2 servers on 25 GbE, then 4 nodes on 100 Gb RoCE with
    Kubernetes, then a 32-node InfiniBand scalable unit with Slurm; three teams with quotas."""
    p = Project()
    phases = [
        Phase(
            id="ph1", name="Pilot", order=1, description="2 × 8-GPU servers, 25 GbE", scheduler="kubernetes"
        ),
        Phase(
            id="ph2", name="Expansion", order=2, description="4 nodes on 100 Gb RoCE", scheduler="kubernetes"
        ),
        Phase(
            id="ph3", name="Scale", order=3, description="32-node InfiniBand SU", scheduler="slurm+kubernetes"
        ),
    ]
    AddRows("phases", phases).apply(p)
    common = dict(server="supermicro-sys-821ge-tnhr", rack="generic-48u-600x1200-hd", rack_budget_kw=42)
    generate_into(
        p,
        GenerateOptions(
            template="single-switch",
            servers=2,
            leaf_switch="nvidia-spectrum-2-sn3420",
            nic_ports=2,
            prefix="pilot",
            phase_id="ph1",
            first_row=0,
            **common,
        ),
    )
    generate_into(
        p,
        GenerateOptions(
            template="single-switch",
            servers=4,
            leaf_switch="nvidia-spectrum-3-sn4600c",
            prefix="roce",
            phase_id="ph2",
            first_row=1,
            **common,
        ),
    )
    generate_into(
        p,
        GenerateOptions(
            template="rail-leaf-spine",
            servers=32,
            su_size=32,
            leaf_switch="nvidia-quantum-2-qm9700",
            prefix="ib",
            phase_id="ph3",
            first_row=2,
            management_fabric=True,
            **common,
        ),
    )
    parts = [
        dataclasses.replace(d, partition="train" if d.name.startswith("ib-") else "infer")
        for d in p.devices.values()
        if d.role == "compute"
    ]
    ReplaceRows("devices", parts).apply(p)
    AddRows(
        "teams",
        [
            Team(
                id="t1",
                name="Foundation models",
                partition="train",
                gpu_guaranteed=192,
                gpu_burst=64,
                priority=3,
                largest_job_gpus=256,
            ),
            Team(
                id="t2",
                name="Applied ML",
                partition="train",
                gpu_guaranteed=64,
                gpu_burst=64,
                priority=2,
                largest_job_gpus=64,
            ),
            Team(
                id="t3",
                name="Inference platform",
                partition="infer",
                gpu_guaranteed=32,
                gpu_burst=16,
                priority=2,
                largest_job_gpus=8,
            ),
            Team(id="t4", name="Interns", partition="infer"),
        ],
    ).apply(p)
    AddRows(
        "workloads",
        [
            Workload(
                id=p.new_id("workloads"),
                name="Llama 3 8B training",
                model_id="llama3-8b",
                tp=2,
                pp=1,
                global_batch=512,
                seq_len=8192,
                total_tokens=1.5e12,
                partition="train",
            )
        ],
    ).apply(p)
    AddRows(
        "floor_items",
        [
            FloorItem(id="fi1", name="CRAH-1", kind="crah", x_m=-2.0, y_m=0.0, capacity_kw=60.0),
            FloorItem(
                id="fi2",
                name="Rear doors R03",
                kind="rear-door",
                x_m=-1.2,
                y_m=12.0,  # at the end of row R03 (fifth row in label order × 3 m row pitch)
                capacity_kw=300.0,
                row="R03",
                phase_id="ph3",
            ),
            FloorItem(
                id="fi3", name="Utility feed", kind="utility-feed", x_m=-3.0, y_m=-2.0, capacity_kw=600.0
            ),
        ],
    ).apply(p)
    _info(
        p,
        name="Phased GPU platform — pilot to scale",
        customer="Example Customer Ltd.",
        consultant="GPU Planner example",
        currency="USD",
    )
    return p


EXAMPLES = {
    "superpod-1024-h100.gpuplan": superpod_example,
    "cluster-256-h100.gpuplan": small_example,
    "phased-pilot-to-su.gpuplan": phased_example,
}


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
