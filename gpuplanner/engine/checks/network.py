"""Network, performance and storage design checks (the first two of the domain's four classic mistakes:
GPUs without network bandwidth, and slow storage), plus wiring problems on the drawn topology."""

from __future__ import annotations

import numpy as np

from gpuplanner.catalog import Catalog
from gpuplanner.catalog.names import named
from gpuplanner.catalog.types import GpuType, ServerType, StorageType
from gpuplanner.engine.assumptions import load_assumptions
from gpuplanner.engine.checks.findings import Finding
from gpuplanner.engine.compiled import KIND_CODES, Compiled
from gpuplanner.engine.fabric.cabling import MEDIUM_NAMES
from gpuplanner.engine.fabric.network import FabricResult
from gpuplanner.engine.perf.sentences import bottleneck_msg, refusal_msg
from gpuplanner.engine.workload import WorkloadResult
from gpuplanner.model.rows import Workload


def _v(name: str) -> float:
    return load_assumptions("network").number(name)


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


def network_findings(
    c: Compiled, fabric: FabricResult, catalog: Catalog, workload: Workload | None = None
) -> list[Finding]:
    """Ports, connectivity, redundancy, NIC bandwidth, training on this fabric, storage (cable lengths: see
    ``wiring_findings``)."""
    out: list[Finding] = []
    lk = c.links
    pu = fabric.port_use
    for p in (pu[i] for i in pu.over_used().tolist()):
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
    lonely = gpu_servers[~has_compute[gpu_servers]].tolist()
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
            srv = catalog.get_typed(c.devices.type_ids[gpu_servers[0]], ServerType)  # a GPU server
            have = sum(pg.count * pg.speed_gbps for pg in srv.ports("compute")) / max(srv.gpu_count, 1)
            ref = reference_nic_gbps_per_gpu(catalog, srv, gpu)
            if have < _v("nic_warn_fraction") * ref and len(gpu_servers) > 1:
                out.append(
                    Finding(
                        "warning",
                        "nic-bandwidth-per-gpu-low",
                        (srv.id,),
                        {"have": have, "ref": round(ref, -1), "gpu": named(gpu, catalog)},
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


def reference_nic_gbps_per_gpu(catalog: Catalog, srv: ServerType, gpu: GpuType) -> float:
    """The compute-network bandwidth per GPU of the platform's reference design: the server's own sourced
    `ref_nic_gbps_per_gpu` when the catalog gives it; else the best-connected server of the catalog with the
    same GPU (the vendor's reference system, e.g. DGX B200: 8 × 400G for 8 GPUs); else the rule of thumb
    per BF16 TFLOP/s (assumptions/network.yaml)."""
    own = getattr(srv, "ref_nic_gbps_per_gpu", None)
    if own:
        return float(own)
    same = [e for e in catalog.entries.values() if isinstance(e, ServerType) and e.gpu == gpu.id]
    refs = [float(r) for e in same if (r := getattr(e, "ref_nic_gbps_per_gpu", None))]
    if refs:
        return max(refs)
    drawn = [sum(pg.count * pg.speed_gbps for pg in e.ports("compute")) / max(e.gpu_count, 1) for e in same]
    if any(drawn):
        return max(drawn)
    return _v("nic_gbps_per_bf16_tflops") * gpu.bf16_dense_tflops


def _storage_findings(c: Compiled, catalog: Catalog, training: bool, n_servers: int) -> list[Finding]:
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


def workload_findings(c: Compiled, wl_result: WorkloadResult | None, catalog: Catalog) -> list[Finding]:
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
                {"need": need, "have": spec.mem_gb, "why": refusal_msg(est.memory)},
            )
        )
    comm = sum(v for k, v in est.breakdown.items() if k.endswith("comm_s") and not k.startswith("tp"))
    if est.step_time_s > 0 and comm / est.step_time_s > 0.25:
        out.append(
            Finding(
                "warning",
                "communication-bound",
                (wl_result.workload_id,),
                {"bottleneck": bottleneck_msg(est.breakdown, est.tp_intra_node, est.dp_intra_node)},
            )
        )
    if est.extra.get("short_expert_kernels"):
        # fine-grained MoE whose expert GEMMs are launch-bound: the GPU-time estimate is an upper bound
        # (engine/perf/host.py; the threshold is launch_sensitive_kernel_s of the performance assumptions)
        from gpuplanner.engine.perf.assumptions import load_assumptions as perf_assumptions
        from gpuplanner.engine.perf.host import threshold_s

        out.append(
            Finding(
                "warning",
                "short-expert-kernels",
                (wl_result.workload_id,),
                {
                    "us": round(float(est.extra["expert_gemm_us"])),
                    "limit": round(threshold_s(perf_assumptions()) * 1e6),
                    "micro_batch": cfg.micro_batch,
                    "ep": cfg.ep,
                },
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
                "media_kinds": media,  # the sentence names them in words (word.medium.*)
                "modules": int(round(modules)),
                "overhead": f"{float(length[worst]) - floor_m:.1f}",
                "floor": f"{floor_m:.1f}",
            },
        )
    ]
