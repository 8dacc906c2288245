"""The workload stage: the project's training workload placed on the drawn cluster, its flows routed over
the fabric, and the performance model fed with what the fabric really delivers to each collective kind.

net_factor[kind] = (time the kind's traffic would take if only the GPUs' own NICs limited it) / (time on the
drawn fabric: the busiest link, per direction). 1.0 on a non-blocking fabric; ≈ 0.5 for traffic crossing a
2:1 oversubscribed tier. Intra-node flows travel over NVLink/HCCS and are not routed through the fabric.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gpuplanner import text
from gpuplanner.catalog import Catalog
from gpuplanner.catalog.names import named
from gpuplanner.catalog.types import GpuType, ModelType, ServerType
from gpuplanner.core.errors import PlannerError
from gpuplanner.engine.arrays import FloatArray
from gpuplanner.engine.compiled import KIND_CODES, Compiled
from gpuplanner.engine.fabric.fabric_graph import FabricGraph
from gpuplanner.engine.fabric.routing import Router
from gpuplanner.engine.perf.shapes import (
    COLLECTIVE_KINDS,
    Calibration,
    ClusterSpec,
    ModelShape,
    TrainConfig,
    shape_from_entry,
)
from gpuplanner.engine.perf.traffic import KIND_CODES as FLOW_KINDS
from gpuplanner.engine.perf.traffic import FlowPattern, Flows, flow_parts, parts_key
from gpuplanner.engine.perf.training import TrainEstimate, estimate
from gpuplanner.engine.traffic_cache import IntArray, RoutedPattern, TrafficCache
from gpuplanner.engine.workload_settings import train_config
from gpuplanner.model.rows import Workload

GIGA = 1e9


@dataclass
class WorkloadResult:
    workload_id: str
    name: str
    shape: ModelShape
    config: TrainConfig
    cluster: ClusterSpec
    estimate: TrainEstimate
    net_factor: dict[str, float]
    link_bytes_ab: np.ndarray  # per compiled link, bytes per step a→b (all kinds)
    link_bytes_ba: np.ndarray
    kind_busiest_link: dict[str, int] = field(default_factory=dict)  # collective kind → compiled link row
    error: str = ""


def shape_of(workload: Workload, catalog: Catalog) -> ModelShape:
    m = catalog.entries.get(workload.model_id) if workload.model_id else None
    if isinstance(m, ModelType):  # the catalog model, read as the performance package reads it
        shape = shape_from_entry(dict(m.raw))
        return dataclasses.replace(shape, seq_len=workload.seq_len or shape.seq_len)
    return ModelShape(
        architecture=workload.architecture,
        layers=workload.layers,
        hidden=workload.hidden,
        heads=workload.heads,
        kv_heads=workload.kv_heads or workload.heads,
        ffn_hidden=workload.ffn_hidden,
        vocab=workload.vocab,
        seq_len=workload.seq_len,
        experts=workload.experts,
        top_k=workload.top_k,
        gated_mlp=workload.ffn_hidden != 4 * workload.hidden,
    )


def cluster_of(
    c: Compiled, catalog: Catalog, fg: FabricGraph, servers: npt.NDArray[np.integer[Any]] | None = None
) -> tuple[ClusterSpec, int]:
    """The GPU servers (all, or the given device rows) as the performance model sees them: the most common
    server type; NIC bandwidth per GPU from the compute links actually drawn (a 400G NIC cabled at 25G counts
    25G)."""
    is_gpu = (c.devices.kind == KIND_CODES["server"]) & (c.devices.gpu_count > 0)
    if servers is not None:
        mask = np.zeros(len(is_gpu), bool)
        mask[servers] = True
        is_gpu &= mask
    if not is_gpu.any():
        raise PlannerError(
            text.Msg("error.no_gpu_servers" if servers is None else "error.no_gpu_servers_in_partition")
        )
    srv = catalog.get_typed(most_common_type(c, is_gpu), ServerType)
    gpu = catalog.get_typed(str(srv.gpu), GpuType)  # a server without a GPU: "no catalog entry 'None'"
    n_gpus = int(c.devices.gpu_count[is_gpu].sum())
    ep = fg.endpoint_link[fg.endpoint_link >= 0]
    ep_dev = fg.node_device[fg.endpoint_link >= 0]
    on = is_gpu[ep_dev]
    drawn = float(c.links.capacity_gbps[ep[on]].sum()) if on.any() else 0.0
    nic_gbps = (
        drawn / n_gpus
        if drawn > 0
        else sum(pg.count * pg.speed_gbps for pg in srv.ports("compute")) / max(srv.gpu_count, 1)
    )
    spec = ClusterSpec(
        gpu_name=gpu.name,
        gpu_label=named(gpu, catalog, with_figures=False),
        peak_bf16_tflops=gpu.bf16_dense_tflops,
        peak_fp8_tflops=gpu.fp8_dense_tflops,
        peak_fp4_tflops=gpu.fp4_dense_tflops,
        mem_gb=gpu.mem_gb,
        mem_bw_tbyte_per_s=gpu.mem_bw_tbyte_per_s,
        gpus_per_node=srv.scaleup_domain_gpus or srv.gpu_count,
        scaleup_bw_gbyte_per_s=gpu.scaleup_bw_gbyte_per_s or 32.0,
        nic_gbps_per_gpu=max(nic_gbps, 1.0),
    )
    return spec, n_gpus


# per collective kind: (bytes a→b per link, bytes b→a per link, sending endpoints, bytes they send)
KindLoads = dict[str, tuple[FloatArray, FloatArray, npt.NDArray[np.integer[Any]], FloatArray]]


def _kind_rows(fg: FabricGraph, flows: Flows) -> dict[str, tuple[IntArray, IntArray, IntArray]]:
    """Per collective kind present: the rows of its inter-node flows that have two distinct endpoints, and
    those endpoints."""
    inter = np.flatnonzero(
        ~flows.intra_node & (flows.src_gpu < len(fg.gpu_endpoint)) & (flows.dst_gpu < len(fg.gpu_endpoint))
    )
    src = fg.gpu_endpoint[flows.src_gpu[inter]]
    dst = fg.gpu_endpoint[flows.dst_gpu[inter]]
    kinds = flows.kind[inter]
    ok = (src >= 0) & (dst >= 0) & (src != dst)
    out: dict[str, tuple[IntArray, IntArray, IntArray]] = {}
    for name, code in FLOW_KINDS.items():  # loop over the five collective kinds
        m = ok & (kinds == code)
        if m.any():
            out[name] = (inter[m], src[m].astype(np.int64), dst[m].astype(np.int64))
    return out


def route_flows(
    c: Compiled,
    fg: FabricGraph,
    router: Router,
    flows: Flows,
    n_gpus_placed: int,
    routed: RoutedPattern | None = None,
) -> tuple[FloatArray, FloatArray, KindLoads]:
    """Per-link bytes (both directions) of the inter-node flows, per collective kind. ``routed``: what the
    flows' pattern needs on this fabric, kept from an earlier solve (filled in here when empty)."""
    L = len(c.links.ids)
    if routed is None:
        routed = RoutedPattern(None)
    if routed.kinds is None:
        routed.kinds = _kind_rows(fg, flows)
    per_kind: KindLoads = {}
    ab = np.zeros(L)
    ba = np.zeros(L)
    for name, (rows, src, dst) in routed.kinds.items():
        vol = flows.bytes_per_step[rows]
        g_ab, g_ba = _kind_loads(router, src, dst, vol, routed.unit, name)
        k_ab = np.zeros(L)
        k_ba = np.zeros(L)
        k_ab[fg.link_rows] = g_ab  # graph links → compiled link rows
        k_ba[fg.link_rows] = g_ba
        per_kind[name] = (k_ab, k_ba, src, vol)
        ab += k_ab
        ba += k_ba
    return ab, ba, per_kind


UNIT_ROUTED_VOLUMES = 4  # a kind with at most this many distinct flow volumes is routed once per volume


def _kind_loads(
    router: Router,
    src: IntArray,
    dst: IntArray,
    vol: FloatArray,
    unit: dict[str, tuple[FloatArray, FloatArray]],
    kind: str,
) -> tuple[FloatArray, FloatArray]:
    """Bytes per graph link (a→b, b→a) of one collective kind's flows. The loads are linear in the volumes,
    and a kind's flows mostly carry one volume (a ring: every rank sends the same bytes) that the global
    batch, micro-batch or sequence length scale: such flows are routed with unit volume, the unit loads
    kept in ``unit`` (by kind, for these flows), and multiplied by the volume. An edit that only changes
    bytes then routes nothing again, and the figures are those of a fresh analysis bit for bit (both
    multiply the same unit loads)."""
    if len(vol) and vol.min() == vol.max():  # the usual case: one volume (no sort)
        values, inv = vol[:1], np.zeros(len(vol), np.intp)
    else:
        values, inv = np.unique(vol, return_inverse=True)
    if len(values) > UNIT_ROUTED_VOLUMES:
        loads = router.link_loads(src, dst, vol)
        return loads.load_ab_bytes, loads.load_ba_bytes
    ab = np.zeros(router.n_links)
    ba = np.zeros(router.n_links)
    for i, v in enumerate(values.tolist()):  # loop over at most UNIT_ROUTED_VOLUMES volumes
        if v <= 0:
            continue  # no bytes: no load
        if len(values) == 1:  # every flow: its unit loads are the pattern's own
            if kind not in unit:
                loads = router.link_loads(src, dst, np.ones(len(src)))
                unit[kind] = (loads.load_ab_bytes, loads.load_ba_bytes)
            u_ab, u_ba = unit[kind]
        else:
            rows = inv == i
            loads = router.link_loads(src[rows], dst[rows], np.ones(int(rows.sum())))
            u_ab, u_ba = loads.load_ab_bytes, loads.load_ba_bytes
        ab += u_ab * v
        ba += u_ba * v
    return ab, ba


HOP_SAMPLE = 2048  # flows per kind whose routes are measured for the latency model


def switch_hops(
    fg: FabricGraph, router: Router, flows: Flows, routed: RoutedPattern | None = None
) -> dict[str, float]:
    """Switches the farthest inter-node step of each collective kind crosses on the drawn fabric (a route of h
    links between two GPU endpoints crosses h - 1 switches). A ring step waits for its slowest pair, so the
    farthest route counts. At most HOP_SAMPLE evenly spaced flows per kind are measured (their routes repeat
    over the ranks: rings and all-to-all groups have the same shape everywhere). ``routed``: the flows'
    pattern on this fabric; its hops are kept there (they follow the pattern, not the bytes)."""
    if routed is not None and routed.hops is not None:
        return dict(routed.hops)
    kinds = routed.kinds if routed is not None and routed.kinds is not None else _kind_rows(fg, flows)
    out: dict[str, float] = {}
    for name, (_rows, src, dst) in kinds.items():  # loop over the collective kinds present
        if name not in COLLECTIVE_KINDS:
            continue
        step = max(1, src.size // HOP_SAMPLE)
        hops = router.hop_counts(src[::step], dst[::step])
        hops = hops[hops > 0]  # unroutable rows (-1) carry no latency; the routing findings report them
        if hops.size:
            out[name] = float(max(int(hops.max()) - 1, 1))
    if routed is not None:
        routed.hops = dict(out)
    return out


def most_common_type(c: Compiled, rows: npt.NDArray[np.bool_]) -> str:
    """The type id most of the masked devices have (ties: the first id in sorting order), counted over type
    codes (np.unique of 26k id strings sorts them; this does not)."""
    t_code, t_names = c.devices.type_codes
    counts = np.bincount(t_code[rows], minlength=len(t_names))
    return min(t_names[k] for k in np.flatnonzero(counts == counts.max()).tolist())


def switch_latency_ns(c: Compiled, catalog: Catalog) -> float | None:
    """The largest port-to-port latency the catalog prints for the plan's switch models (None: none printed)."""
    is_switch = c.devices.kind == KIND_CODES["switch"]
    found = []
    t_code, t_names = c.devices.type_codes
    present = np.bincount(t_code[is_switch], minlength=len(t_names)) > 0
    for type_id in sorted(t_names[k] for k in np.flatnonzero(present).tolist()):  # loop over models
        value = getattr(catalog.get(str(type_id)), "latency_ns", None)
        if value is not None:
            found.append(float(value))
    return max(found) if found else None


def net_factors(
    c: Compiled, fg: FabricGraph, per_kind: KindLoads, nic_gbps_per_gpu: float
) -> tuple[dict[str, float], dict[str, int]]:
    cap = c.links.capacity_gbps * GIGA / 8  # bytes/s per direction
    factors: dict[str, float] = {}
    busiest: dict[str, int] = {}
    ep_cap = np.full(fg.n_nodes, nic_gbps_per_gpu * GIGA / 8)
    has = fg.endpoint_link >= 0
    ep_cap[has] = c.links.capacity_gbps[fg.endpoint_link[has]] * GIGA / 8
    for kind, (ab, ba, src, vol) in per_kind.items():
        t_link = np.maximum(
            np.divide(ab, cap, out=np.zeros_like(ab), where=cap > 0),
            np.divide(ba, cap, out=np.zeros_like(ba), where=cap > 0),
        )
        if not len(t_link) or t_link.max() <= 0:
            continue
        busiest[kind] = int(np.argmax(t_link))
        # The GPUs' own NIC bound: the busiest sender's bytes over its NIC share.
        # The senders' own NIC bound: bytes each endpoint sends over that endpoint's link capacity (one
        # endpoint may be a bundle of NICs when a server's ports share one ToR).
        sent = np.bincount(src, weights=vol, minlength=fg.n_nodes)
        t_nic = float(np.max(sent / ep_cap))
        if kind in COLLECTIVE_KINDS:
            factors[kind] = float(min(1.0, max(1e-3, t_nic / t_link.max())))
    return factors, busiest


def analyze_workload(
    c: Compiled,
    fg: FabricGraph,
    router: Router,
    workload: Workload,
    settings: dict[str, Any] | None = None,
    traffic: TrafficCache | None = None,
) -> WorkloadResult:
    """The workload placed, its flows routed, its step estimated. ``traffic``: the caller's routed patterns
    (the runner owns one): a later solve of the same flows on the same fabric reuses them."""
    catalog = c.inputs.catalog
    shape = shape_of(workload, catalog)
    servers = None
    if workload.partition:
        servers = c.devices.partition_rows(workload.partition)
        if not len(servers):
            raise PlannerError(
                text.Msg(
                    "error.workload_partition_empty",
                    {"workload": workload.name, "partition": workload.partition},
                ),
                field="partition",
                value=workload.partition,
            )
    spec, n_gpus = cluster_of(c, catalog, fg, servers)
    cfg = train_config(workload, n_gpus, settings)
    used = cfg.tp * cfg.pp * cfg.dp * cfg.cp
    if used > n_gpus:
        raise PlannerError(
            text.Msg(
                "error.workload_needs_gpus",
                {
                    "workload": workload.name,
                    "used": used,
                    "tp": cfg.tp,
                    "pp": cfg.pp,
                    "dp": cfg.dp,
                    "cp": cfg.cp,
                    "gpus": n_gpus,
                },
            ),
            field="dp",
        )
    order = workload.placement_order or "tp-cp-dp-pp"
    parts = flow_parts(shape, cfg, order)
    # the flows' endpoints follow the degrees, the rank order, the parts present, the node size and the
    # partition; the bytes (batch, sequence, precision, model) only the parts' volumes
    key = (
        (cfg.tp, cfg.cp, cfg.dp, cfg.pp, cfg.ep, cfg.vpp, order, spec.gpus_per_node),
        parts_key(parts),
        None if servers is None else np.asarray(servers, np.int64).tobytes(),
    )
    routed = traffic.get(key, fg, router) if traffic is not None else None
    if routed is None:
        routed = RoutedPattern(FlowPattern.of(parts, spec.gpus_per_node))
        if traffic is not None:
            traffic.put(key, fg, router, routed)
    assert routed.pattern is not None
    flows = routed.pattern.flows(parts)
    if servers is not None:  # ranks → the partition's GPUs, in device order
        gpu_ids = np.flatnonzero(np.isin(fg.gpu_server, servers))
        flows = dataclasses.replace(flows, src_gpu=gpu_ids[flows.src_gpu], dst_gpu=gpu_ids[flows.dst_gpu])
    ab, ba, per_kind = route_flows(c, fg, router, flows, n_gpus, routed)
    factors, busiest = net_factors(c, fg, per_kind, spec.nic_gbps_per_gpu)
    calib = None
    if workload.measured_mfu is not None or workload.measured_busbw_gbyte_per_s is not None:
        calib = Calibration(
            mfu=workload.measured_mfu,
            busbw_gbyte_per_s={"dp": workload.measured_busbw_gbyte_per_s}
            if workload.measured_busbw_gbyte_per_s
            else {},
        )
    spec = ClusterSpec(
        **{
            **spec.__dict__,
            "net_factor": factors,
            "calibration": calib,
            "switch_hops": switch_hops(fg, router, flows, routed),
            "switch_latency_ns": switch_latency_ns(c, catalog),
        }
    )
    est = estimate(shape, cfg, spec)
    return WorkloadResult(workload.id, workload.name, shape, cfg, spec, est, factors, ab, ba, busiest)
