"""Network, performance and storage design checks (the first two of the domain's four classic mistakes:
GPUs without network bandwidth, and slow storage), plus wiring problems on the drawn topology."""

from __future__ import annotations

from functools import cache

import numpy as np
import yaml

from gpuplanner.catalog.loader import bundled_catalog_dir
from gpuplanner.catalog.types import StorageType
from gpuplanner.engine.checks.findings import Finding, register_templates
from gpuplanner.engine.compiled import KIND_CODES, Compiled
from gpuplanner.engine.fabric.cabling import MEDIUM_NAMES
from gpuplanner.engine.fabric.network import FabricResult

register_templates(
    {
        "fabric-oversubscribed-for-training": {
            "message": {
                "en": "The compute fabric is oversubscribed {ratio}:1 at the {tier} tier; training traffic that crosses it gets {share} of the NIC bandwidth.",
                "zh": "计算网络在{tier}层存在 {ratio}:1 的收敛比，跨该层的训练流量只能获得网卡带宽的 {share}。",
            },
            "fix": {
                "en": "Use 1:1 (non-blocking) uplinks for training clusters, or keep each job's data-parallel traffic inside one leaf group.",
                "zh": "训练集群应采用 1:1 无阻塞上联，或把每个作业的数据并行流量限制在同一组叶交换机内。",
            },
        },
        "nic-bandwidth-per-gpu-low": {
            "message": {
                "en": "Each GPU gets {have} Gb/s of network bandwidth; reference designs give {ref} Gb/s to a GPU of this class ({gpu}).",
                "zh": "每块 GPU 只有 {have} Gb/s 的网络带宽；同级 GPU（{gpu}）的参考设计为每卡 {ref} Gb/s。",
            },
            "fix": {
                "en": "Give every GPU its own NIC at the reference speed (rail-optimised), or expect the communication wall.",
                "zh": "为每块 GPU 配置一块参考速率的独立网卡（轨道优化），否则将遭遇“通信墙”。",
            },
        },
        "tp-crosses-node": {
            "message": {
                "en": "Tensor parallelism of {tp} exceeds the {node} GPUs of one NVLink domain: TP traffic would cross the network.",
                "zh": "张量并行度 {tp} 超过单个 NVLink 域的 {node} 块 GPU，张量并行流量将经过网络。",
            },
            "fix": {
                "en": "Keep TP ≤ {node}; use pipeline or data parallelism across nodes.",
                "zh": "将张量并行度控制在 {node} 以内，节点之间使用流水线并行或数据并行。",
            },
        },
        "model-does-not-fit": {
            "message": {
                "en": "The workload needs {need} GB per GPU but the GPU has {have} GB: {why}",
                "zh": "该训练任务每块 GPU 需要 {need} GB 显存，而 GPU 只有 {have} GB：{why}",
            },
            "fix": {
                "en": "Raise TP/PP, use ZeRO/FSDP sharding or full recomputation, or lower the micro-batch.",
                "zh": "提高张量/流水线并行度，使用 ZeRO/FSDP 分片或完全重计算，或减小微批大小。",
            },
        },
        "cable-too-long": {
            "message": {
                "en": "{n} links are longer than any medium at their speed reaches (longest {length} m).",
                "zh": "有 {n} 条链路的长度超过了该速率下任何线缆或光模块的传输距离（最长 {length} 米）。",
            },
            "fix": {
                "en": "Move the racks closer, or choose single-mode optics with a longer reach.",
                "zh": "将机柜靠近摆放，或选用传输距离更长的单模光模块。",
            },
        },
        "copper-missed-by-distance": {
            "message": {
                "en": "{n} cables are just past the {reach} m that copper reaches at their speed ({min}–{max} m, e.g. {a} ↔ {b}), so they need {media_en} and {modules} transceivers.",
                "zh": "有 {n} 根线缆略超出该速率下铜缆 {reach} 米的传输距离（{min}–{max} 米，例如 {a} ↔ {b}），因此需要使用{media_zh}及 {modules} 个光模块。",
            },
            "fix": {
                "en": "Shorten these runs: between racks a run climbs to the tray and back down, with slack — {overhead} m on top of {floor} m across the floor. Put both ends in one rack (or neighbouring racks), or give the real tray height and slack under Site and costs if the route is shorter; copper would then do, with no optics to buy, power or cool.",
                "zh": "缩短这些走线：机柜间走线需上到桥架再下来并留有余量——在地面 {floor} 米之外还要 {overhead} 米。把两端放进同一机柜（或相邻机柜），或在“场地与成本”中填写实际的桥架高度和余量；这样即可改用铜缆，无需采购、供电和散热光模块。",
            },
        },
        "ports-over-subscribed": {
            "message": {
                "en": "{name}: port group '{group}' is asked for {used} ports but has {ports}.",
                "zh": "{name}：端口组“{group}”需要 {used} 个端口，但只有 {ports} 个。",
            },
            "fix": {
                "en": "Move links to another switch or add a switch.",
                "zh": "将部分链路移到其他交换机，或增加交换机。",
            },
        },
        "server-not-connected": {
            "message": {
                "en": "{n} GPU servers have no compute-fabric link (e.g. {name}).",
                "zh": "有 {n} 台 GPU 服务器没有连接计算网络（例如 {name}）。",
            },
            "fix": {
                "en": "Connect each server's compute NICs to the fabric.",
                "zh": "将每台服务器的计算网卡接入计算网络。",
            },
        },
        "storage-missing": {
            "message": {
                "en": "The plan has {gpus} GPUs for training but no shared storage system.",
                "zh": "方案中有 {gpus} 块用于训练的 GPU，却没有共享存储系统。",
            },
            "fix": {
                "en": "Add a parallel file system (Lustre, GPFS, WEKA, BeeGFS) or at least an NFS appliance.",
                "zh": "增加并行文件系统（Lustre、GPFS、WEKA、BeeGFS），至少配置一台 NFS 存储。",
            },
        },
        "storage-too-slow": {
            "message": {
                "en": "Storage reads {have} GB/s; {gpus} GPUs need about {need} GB/s to stay fed.",
                "zh": "存储读带宽为 {have} GB/s，而 {gpus} 块 GPU 需要约 {need} GB/s 才能不等数据。",
            },
            "fix": {
                "en": "Add storage units or use local NVMe caching.",
                "zh": "增加存储节点或使用本地 NVMe 缓存。",
            },
        },
        "checkpoint-too-slow": {
            "message": {
                "en": "A checkpoint of {size} GB takes {seconds} s at {write} GB/s (target {target} s).",
                "zh": "一次 {size} GB 的检查点在 {write} GB/s 写带宽下需 {seconds} 秒（目标 {target} 秒）。",
            },
            "fix": {
                "en": "Add storage write bandwidth or use asynchronous checkpointing.",
                "zh": "提升存储写带宽，或采用异步检查点。",
            },
        },
        "no-fabric-redundancy": {
            "message": {
                "en": "The compute fabric has a single {tier} switch: one failure stops every job.",
                "zh": "计算网络只有一台{tier}交换机：一台故障将中断所有作业。",
            },
            "fix": {
                "en": "Use at least two spines (or two switches) so that a failure only lowers bandwidth.",
                "zh": "至少使用两台脊交换机（或两台交换机），使单台故障只降低带宽而不中断业务。",
            },
        },
        "communication-bound": {
            "message": {
                "en": "Training is limited by the network: {bottleneck}",
                "zh": "训练受网络限制：{bottleneck}",
            },
            "fix": {
                "en": "More NIC bandwidth per GPU, less oversubscription, or a parallel layout that keeps heavy traffic inside nodes.",
                "zh": "提高每卡网络带宽、降低收敛比，或调整并行策略使大流量留在节点内。",
            },
        },
    }
)


@cache
def assumptions() -> dict:
    return yaml.safe_load(
        (bundled_catalog_dir() / "assumptions" / "network.yaml").read_text(encoding="utf-8")
    )


def _v(name: str) -> float:
    return float(assumptions()[name]["value"])


def wiring_findings(c: Compiled, fabric: FabricResult) -> list[Finding]:
    """Cables no medium reaches, and runs just past copper reach: the findings that follow cable lengths
    (so a device moved to another rack re-checks these and nothing else of the network)."""
    out: list[Finding] = []
    lk = c.links
    if fabric.cables.too_long.any():
        rows = np.flatnonzero(fabric.cables.too_long)
        out.append(
            Finding(
                "error",
                "cable-too-long",
                tuple(c.links.ids[i] for i in rows[:50]),
                {"n": int(len(rows)), "length": float(lk.length_m[rows].max())},
            )
        )
    out += _copper_near_misses(c, fabric)
    return out


def network_findings(c: Compiled, fabric: FabricResult, catalog, workload=None) -> list[Finding]:
    """Ports, connectivity, redundancy, NIC bandwidth, training on this fabric, storage (cable lengths: see
    ``wiring_findings``)."""
    out: list[Finding] = []
    lk = c.links
    for p in fabric.port_use:
        if p.used > p.ports + 1e-9:
            out.append(
                Finding(
                    "error",
                    "ports-over-subscribed",
                    (c.devices.ids[p.device_row],),
                    {
                        "name": c.devices.names[p.device_row],
                        "group": p.group,
                        "used": p.used,
                        "ports": p.ports,
                    },
                )
            )
    gpu_servers = np.flatnonzero((c.devices.kind == KIND_CODES["server"]) & (c.devices.gpu_count > 0))
    has_compute = np.zeros(len(c.devices.ids), bool)
    # a link end is a compute port when its (device type, port group) key has the compute role: one test
    # per distinct key, then a gather per end (not a string comparison per link)
    compute_key = np.array([r == "compute" for r in lk.port_key_role] or [False], dtype=bool)
    for side, keys in ((lk.a, lk.a_port_key), (lk.b, lk.b_port_key)):
        has_compute[side[compute_key[keys]]] = True
    lonely = [i for i in gpu_servers if not has_compute[i]]
    if lonely and len(gpu_servers) > 1:
        out.append(
            Finding(
                "warning",
                "server-not-connected",
                tuple(c.devices.ids[i] for i in lonely[:50]),
                {"n": len(lonely), "name": c.devices.names[lonely[0]]},
            )
        )
    # Redundancy: a multi-server fabric hanging off one switch
    tiers = fabric.switches_by_tier
    if len(gpu_servers) > 2 and has_compute.any():
        if tiers.get("spine", 0) == 1:
            out.append(Finding("warning", "no-fabric-redundancy", (), {"tier": "spine"}))
        elif tiers.get("leaf", 0) == 1 and tiers.get("spine", 0) == 0:
            out.append(Finding("warning", "no-fabric-redundancy", (), {"tier": "leaf"}))
    # NIC bandwidth per GPU, against the platform's reference design
    if len(gpu_servers):
        gpu = c.gpu_types.get(next(iter(c.gpu_types))) if c.gpu_types else None
        if gpu is not None:
            srv = catalog.get(c.devices.type_ids[gpu_servers[0]])
            have = sum(pg.count * pg.speed_gbps for pg in srv.ports("compute")) / max(srv.gpu_count, 1)
            ref = reference_nic_gbps_per_gpu(catalog, srv, gpu)
            if have < _v("nic_warn_fraction") * ref and len(gpu_servers) > 1:
                out.append(
                    Finding(
                        "warning",
                        "nic-bandwidth-per-gpu-low",
                        (srv.id,),
                        {"have": have, "ref": round(ref, -1), "gpu": gpu.name},
                    )
                )
    # Training on this fabric
    training = workload is not None and workload.kind == "training"
    if training:
        for tier, ratio in fabric.oversubscription_by_tier.items():
            if ratio > 1.0 + 1e-9:
                out.append(
                    Finding(
                        "warning",
                        "fabric-oversubscribed-for-training",
                        (),
                        {"tier": tier, "ratio": round(ratio, 2), "share": f"{100 / ratio:.0f}%"},
                    )
                )
    out.extend(_storage_findings(c, catalog, training, len(gpu_servers)))
    return out


def reference_nic_gbps_per_gpu(catalog, srv, gpu) -> float:
    """The compute-network bandwidth per GPU of the platform's reference design: the server's own sourced
    `ref_nic_gbps_per_gpu` when the catalog gives it; else the best-connected server of the catalog with the
    same GPU (the vendor's reference system, e.g. DGX B200: 8 × 400G for 8 GPUs); else the rule of thumb
    per BF16 TFLOP/s (assumptions/network.yaml)."""
    own = getattr(srv, "ref_nic_gbps_per_gpu", None)
    if own:
        return float(own)
    same = [e for e in catalog.entries.values() if e.kind == "server" and getattr(e, "gpu", None) == gpu.id]
    refs = [float(r) for e in same if (r := getattr(e, "ref_nic_gbps_per_gpu", None))]
    if refs:
        return max(refs)
    drawn = [sum(pg.count * pg.speed_gbps for pg in e.ports("compute")) / max(e.gpu_count, 1) for e in same]
    if any(drawn):
        return max(drawn)
    return _v("nic_gbps_per_bf16_tflops") * gpu.bf16_dense_tflops


def _storage_findings(c: Compiled, catalog, training: bool, n_servers: int) -> list[Finding]:
    if not training or n_servers < 2:
        return []
    gpus = int(c.devices.gpu_count.sum())
    st_rows = np.flatnonzero(c.devices.kind == KIND_CODES["storage"])
    if not len(st_rows):
        return [Finding("warning", "storage-missing", (), {"gpus": gpus})]
    types = [catalog.get(c.devices.type_ids[i]) for i in st_rows]
    read = sum(t.read_gbyte_per_s for t in types if isinstance(t, StorageType))
    need = _v("storage_read_gbyte_per_s_per_gpu") * gpus
    out = []
    if read < need:
        out.append(
            Finding(
                "warning",
                "storage-too-slow",
                tuple(c.devices.ids[i] for i in st_rows),
                {"have": read, "need": need, "gpus": gpus},
            )
        )
    return out


def workload_findings(c: Compiled, wl_result, catalog) -> list[Finding]:
    """Findings from the performance estimate of the active workload."""
    if wl_result is None:
        return []
    out: list[Finding] = []
    est, cfg, spec = wl_result.estimate, wl_result.config, wl_result.cluster
    if cfg.tp > spec.gpus_per_node:
        out.append(
            Finding(
                "warning",
                "tp-crosses-node",
                (wl_result.workload_id,),
                {"tp": cfg.tp, "node": spec.gpus_per_node},
            )
        )
    if not est.fits:
        need = (
            sum(v for k, v in est.memory.items() if k not in ("usable_gb", "capacity_gb", "total_gb"))
            if "total_gb" not in est.memory
            else est.memory["total_gb"]
        )
        out.append(
            Finding(
                "error",
                "model-does-not-fit",
                (wl_result.workload_id,),
                {"need": need, "have": spec.mem_gb, "why": est.refusal},
            )
        )
    comm = sum(v for k, v in est.breakdown.items() if k.endswith("comm_s") and not k.startswith("tp"))
    if est.step_time_s > 0 and comm / est.step_time_s > 0.25:
        out.append(
            Finding(
                "warning", "communication-bound", (wl_result.workload_id,), {"bottleneck": est.bottleneck}
            )
        )
    # Checkpoint write time
    st_rows = np.flatnonzero(c.devices.kind == KIND_CODES["storage"])
    if len(st_rows):
        write = sum(getattr(catalog.get(c.devices.type_ids[i]), "write_gbyte_per_s", 0.0) for i in st_rows)
        from gpuplanner.engine.perf.flops import params_total

        size_gb = params_total(wl_result.shape) * _v("checkpoint_bytes_per_param") / 1e9
        seconds = size_gb / write if write > 0 else float("inf")
        if seconds > _v("checkpoint_target_s"):
            out.append(
                Finding(
                    "warning",
                    "checkpoint-too-slow",
                    tuple(c.devices.ids[i] for i in st_rows),
                    {
                        "size": size_gb,
                        "seconds": seconds,
                        "write": write,
                        "target": _v("checkpoint_target_s"),
                    },
                )
            )
    return out


# The optical media a finding names, in words (the slugs "fiber-mmf" … stay in the params for tools).
MEDIUM_WORDS = {
    "fiber-mmf": ("multimode fibre", "多模光纤"),
    "fiber-smf": ("single-mode fibre", "单模光纤"),
    "aoc": ("active optical cables", "有源光缆"),
}


def _copper_near_misses(c: Compiled, fabric: FabricResult) -> list[Finding]:
    """Runs that need optics (or active optical cables) only because they are a little past copper reach."""
    cab = fabric.cables
    lk = c.links
    if not len(lk.ids):
        return []
    copper = np.nan_to_num(cab.copper_reach_m, nan=-np.inf)
    length = lk.length_m
    optical = np.isin(cab.medium_code, [MEDIUM_NAMES.index(m) for m in ("fiber-mmf", "fiber-smf", "aoc")])
    near = optical & ~lk.length_given & (length > copper) & (length <= copper + _v("copper_near_miss_m"))
    rows = np.flatnonzero(near)
    if not len(rows):
        return []
    worst = rows[np.argmax(length[rows])]
    ra, rb = c.devices.rack[lk.a[worst]], c.devices.rack[lk.b[worst]]
    floor_m = (
        abs(c.racks.floor_x_m[ra] - c.racks.floor_x_m[rb])
        + abs(c.racks.floor_y_m[ra] - c.racks.floor_y_m[rb])
        if ra >= 0 and rb >= 0
        else 0.0
    )
    names = c.devices.names
    media = sorted({cab.medium[i] for i in rows.tolist()})
    modules = float((cab.transceivers_a[rows] + cab.transceivers_b[rows]).sum())
    return [
        Finding(
            "info",
            "copper-missed-by-distance",
            tuple(lk.ids[i] for i in rows[:50]),
            {
                "n": int(lk.multiplicity[rows].sum()),  # cables, not links (a bundle is one link)
                "reach": f"{float(np.max(cab.copper_reach_m[rows])):g}",
                "min": f"{float(length[rows].min()):.1f}",
                "max": f"{float(length[rows].max()):.1f}",
                "a": names[int(lk.a[worst])],
                "b": names[int(lk.b[worst])],
                "media": "/".join(media),
                "media_en": " / ".join(MEDIUM_WORDS.get(m, (m, m))[0] for m in media),
                "media_zh": "/".join(MEDIUM_WORDS.get(m, (m, m))[1] for m in media),
                "modules": int(round(modules)),
                "overhead": f"{float(length[worst]) - floor_m:.1f}",
                "floor": f"{floor_m:.1f}",
            },
        )
    ]
