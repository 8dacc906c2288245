"""Template presets for a first start: five ready-made clusters from a one-server pilot to 8,192 GPUs.

Each preset is a set of ``GenerateOptions`` for the real generators (the same path as the template dialog
and ``gpuplanner generate``) plus a representative training job, so that a new project shows fabric,
performance, power and cost at once. The sizes follow the domain article on building GPU clusters
(article 000, §4 and §7: pilot on 25/100 GbE, a 4-8 node RoCE cluster, then InfiniBand
leaf-spine and a 3-tier Clos beyond 512 GPUs) and NVIDIA's DGX SuperPOD reference architecture (scalable
units of 32 DGX H100 on rail-optimised NDR InfiniBand).

The English and Chinese names here serve the CLI and files; the desktop app shows its own ``tr()`` copies
of the same strings (``ui.welcome``) so that Qt's translation tools find them.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from gpuplanner.catalog import Catalog
from gpuplanner.commands import AddRows
from gpuplanner.core.errors import GenerationError
from gpuplanner.model import Project, Scenario, Workload
from gpuplanner.text import Msg
from gpuplanner.topology.generators import generate
from gpuplanner.topology.options import GenerateOptions


@dataclass(frozen=True)
class Preset:
    id: str
    name_en: str
    name_zh: str
    description_en: str
    description_zh: str
    options: GenerateOptions
    workload: dict[str, Any] = field(default_factory=dict)  # Workload fields; {} = no job
    workload_name_en: str = ""
    workload_name_zh: str = ""
    # what-if scenarios the proposal compares with the base: (name_en, name_zh, description_en, description_zh,
    # overrides as ``Scenario.overrides_json`` takes them); the first is the base (no overrides)
    scenarios: tuple[tuple[str, str, str, str, dict[str, Any]], ...] = ()

    def name(self, lang: str = "en") -> str:
        return self.name_zh if lang == "zh" else self.name_en

    def description(self, lang: str = "en") -> str:
        return self.description_zh if lang == "zh" else self.description_en

    def gpus(self, catalog: Catalog | None = None) -> int:
        """GPUs the preset builds, read from the server's catalog entry (no generation needed)."""
        catalog = catalog if catalog is not None else Project().catalog
        return int(getattr(catalog.get(self.options.server), "gpu_count", 0)) * self.options.servers

    def build(self, catalog: Catalog | None = None, *, lang: str = "en", name: str | None = None) -> Project:
        """A new project holding the generated cluster, its job and the project's name and language."""
        project = Project(catalog)
        generate(project, self.options).to_command(f"Generate {self.id}").apply(project)
        if self.workload:
            wl_name = self.workload_name_zh if lang == "zh" else self.workload_name_en
            wl = Workload(id=project.new_id("workloads"), name=wl_name, **self.workload)
            AddRows("workloads", [wl]).apply(project)
        if self.scenarios:
            rows = [
                Scenario(
                    id=project.new_id("scenarios"),
                    name=zh if lang == "zh" else en,
                    description=dzh if lang == "zh" else den,
                    overrides_json=json.dumps(overrides),
                )
                for en, zh, den, dzh, overrides in self.scenarios
            ]
            AddRows("scenarios", rows).apply(project)
        project.tables["project"]["project"] = dataclasses.replace(
            project.info, name=name or self.name(lang), language=lang
        )
        return project


_HGX = "supermicro-sys-821ge-tnhr"
_DGX = "nvidia-dgx-h100"
_NDR = "nvidia-quantum-2-qm9700"

PRESETS: tuple[Preset, ...] = (
    Preset(
        id="pilot-1-node",
        name_en="1-node pilot",
        name_zh="单节点试点",
        description_en="One 8-GPU HGX H100 server on a 25/100 GbE switch (2 × 100 GbE) in a standard 12 kW "
        "rack, with a management network: the pilot phase.",
        description_zh="一台 8 卡 HGX H100 服务器，以 2 × 100 GbE 接入一台 25/100 GbE 交换机，"
        "放在 12 kW 普通机柜中，含管理网络：试点阶段。",
        options=GenerateOptions(
            template="single-switch",
            server=_HGX,
            servers=1,
            leaf_switch="nvidia-spectrum-2-sn3420",
            nic_ports=2,
            rack="generic-42u-600x1200",
            management_fabric=True,
        ),
        workload=dict(model_id="llama3-8b", tp=8, pp=1, global_batch=64, total_tokens=2.0e9),
        workload_name_en="Llama 3 8B fine-tuning",
        workload_name_zh="Llama 3 8B 微调",
    ),
    Preset(
        id="roce-4-node",
        name_en="4-node RoCE cluster",
        name_zh="4 节点 RoCE 集群",
        description_en="Four 8-GPU HGX H100 servers, 8 × 400 GbE RoCE v2 each on one Spectrum-4 switch, "
        "with BeeGFS storage and management networks.",
        description_zh="四台 8 卡 HGX H100 服务器，每台 8 × 400 GbE RoCE v2 接入一台 Spectrum-4 交换机，"
        "含 BeeGFS 存储网络和管理网络。",
        options=GenerateOptions(
            template="single-switch",
            server=_HGX,
            servers=4,
            leaf_switch="nvidia-spectrum-4-sn5600",
            rack_budget_kw=42,
            storage_fabric=True,
            storage_system="generic-beegfs-2u-nvme-server",
            storage_units=2,
            management_fabric=True,
        ),
        workload=dict(model_id="llama3-8b", tp=8, pp=1, global_batch=256, total_tokens=1.0e11),
        workload_name_en="Llama 3 8B training",
        workload_name_zh="Llama 3 8B 训练",
    ),
    Preset(
        id="ib-su-32-node",
        name_en="32-node InfiniBand SU",
        name_zh="32 节点 InfiniBand 可扩展单元",
        description_en="One scalable unit of 32 DGX H100 on a rail-optimised, non-blocking NDR InfiniBand "
        "leaf-spine, with Lustre storage and management networks.",
        description_zh="一个由 32 台 DGX H100 组成的可扩展单元，轨道优化、无收敛的 NDR InfiniBand "
        "叶脊网络，含 Lustre 存储网络和管理网络。",
        options=GenerateOptions(
            template="rail-leaf-spine",
            server=_DGX,
            servers=32,
            su_size=32,
            leaf_switch=_NDR,
            rack_budget_kw=42,
            storage_fabric=True,
            storage_system="ddn-ai400x2-eth",
            storage_units=2,
            management_fabric=True,
        ),
        workload=dict(model_id="llama3-70b", tp=8, pp=4, global_batch=256, total_tokens=1.0e11),
        workload_name_en="Llama 3 70B continued pre-training",
        workload_name_zh="Llama 3 70B 继续预训练",
        # the two questions a buyer of one SU asks: the newer GPU in the same chassis, and owning the hall
        scenarios=(
            ("Base", "基准", "As generated: DGX H100, colocation", "按生成结果：DGX H100，托管机房", {}),
            (
                "DGX H200",
                "DGX H200",
                "The same SU with DGX H200 (141 GB HBM3e) in place of DGX H100",
                "同一可扩展单元以 DGX H200（141 GB HBM3e）替换 DGX H100",
                {"swap.nvidia-dgx-h100": "nvidia-dgx-h200"},
            ),
            (
                "Own data hall",
                "自建机房",
                "An owned data hall instead of colocation",
                "以自建机房替代托管机房",
                {"site.facility_model": "build"},
            ),
        ),
    ),
    Preset(
        id="superpod-128-node",
        name_en="128-node SuperPOD-like",
        name_zh="128 节点 SuperPOD 式集群",
        description_en="Four scalable units of 32 DGX H100 on a rail-optimised NDR InfiniBand leaf-spine, "
        "six Lustre appliances on a 400 GbE storage fabric, management network.",
        description_zh="四个 32 台 DGX H100 的可扩展单元，轨道优化的 NDR InfiniBand 叶脊网络，"
        "6 台 Lustre 存储设备接入 400 GbE 存储网络，含管理网络。",
        options=GenerateOptions(
            template="rail-leaf-spine",
            server=_DGX,
            servers=128,
            su_size=32,
            leaf_switch=_NDR,
            rack_budget_kw=42,
            storage_fabric=True,
            storage_system="ddn-ai400x2-eth",
            storage_units=6,
            management_fabric=True,
        ),
        workload=dict(model_id="llama3-70b", tp=8, pp=4, global_batch=512, total_tokens=2.0e12),
        workload_name_en="Llama 3 70B pre-training",
        workload_name_zh="Llama 3 70B 预训练",
    ),
    Preset(
        id="fat-tree-1024-node",
        name_en="1,024-node 3-tier fat tree",
        name_zh="1,024 节点三层胖树",
        description_en="1,024 DGX H100 (32 scalable units) on a non-blocking 3-tier NDR InfiniBand fat tree, "
        "rail-optimised, with 48 Lustre appliances on a 200 GbE storage fabric and a management network.",
        description_zh="1,024 台 DGX H100（32 个可扩展单元），无收敛的三层 NDR InfiniBand 胖树，"
        "轨道优化，含 48 台 Lustre 存储设备的 200 GbE 存储网络和管理网络。",
        # The DGX 200 GbE storage links run up to ~66 m from the middle row: AOC to 30 m, QSFP112 SR4 in 200G
        # mode to 50 m, QSFP112 DR4 in 200G mode (single-mode) to 100 m. 48 appliances (8 × the 128-node preset's
        # six) read 4.3 TB/s, the ~0.5 GB/s per GPU the storage check asks for.
        # ui.welcome keeps tr() copies of the descriptions (a test checks they match): change both together.
        options=GenerateOptions(
            template="fat-tree-3tier",
            server=_DGX,
            servers=1024,
            su_size=32,
            leaf_switch=_NDR,
            rack_budget_kw=42,
            storage_fabric=True,
            storage_system="ddn-ai400x2-eth",
            storage_units=48,
            management_fabric=True,
        ),
        workload=dict(model_id="gpt3-175b", tp=8, pp=8, global_batch=1536, total_tokens=3.0e11),
        workload_name_en="GPT-3 175B pre-training",
        workload_name_zh="GPT-3 175B 预训练",
    ),
)


def preset_ids() -> list[str]:
    return [p.id for p in PRESETS]


def get_preset(preset_id: str) -> Preset:
    for p in PRESETS:
        if p.id == preset_id:
            return p
    raise GenerationError(
        Msg("error.gen.unknown_preset", {"name": preset_id}),
        hint=Msg("error.gen.one_of", {"options": ", ".join(preset_ids())}),
    )


def build_preset(
    preset_id: str, catalog: Catalog | None = None, *, lang: str = "en", name: str | None = None
) -> Project:
    return get_preset(preset_id).build(catalog, lang=lang, name=name)
