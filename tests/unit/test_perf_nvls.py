"""NVLink SHARP on NVSwitch nodes: the all-reduce bus bandwidths NCCL reaches on 8x H100 (NVIDIA/nccl issue
#1455: ring 365-370 GB/s at 2-8 GPUs; NVLS 370 at 2-4 GPUs, 420/440/460/480 GB/s at 5/6/7/8 GPUs;
NVIDIA/nccl-tests issue #212: ~480 GB/s on 8 GPUs)."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.collectives import group_all_reduce_s, links_for
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.training import estimate

A = load_assumptions()


def cluster(name: str, per_node: int = 8) -> ClusterSpec:
    return ClusterSpec(
        gpu_name=name,
        peak_bf16_tflops=989.4,
        mem_gb=80,
        mem_bw_tbyte_per_s=3.35,
        gpus_per_node=per_node,
        scaleup_bw_gbyte_per_s=900,
        nic_gbps_per_gpu=400,
    )


@pytest.mark.parametrize(("ranks", "nvls_gbyte_per_s"), [(4, 370), (5, 420), (6, 440), (7, 460), (8, 480)])
def test_h100_node_all_reduce_speeds_up_as_nccl_measured(ranks, nvls_gbyte_per_s):
    links = links_for(cluster("NVIDIA H100 SXM 80GB"), A)
    size = 4e9  # large: bandwidth-bound, as the measurements
    ring = group_all_reduce_s(size, ranks, 8, links, "tp")
    nvls = group_all_reduce_s(size, ranks, 8, links, "tp", nvls=True)
    assert ring / nvls == pytest.approx(nvls_gbyte_per_s / 370.0, rel=0.01)


def test_no_nvls_without_an_nvswitch_or_across_nodes():
    size = 4e9
    for c in (cluster("NVIDIA A100 SXM4 80GB"), cluster("NVIDIA H100 PCIe", per_node=8)):
        links = links_for(c, A)
        assert group_all_reduce_s(size, 8, 8, links, "tp", nvls=True) == group_all_reduce_s(
            size, 8, 8, links, "tp"
        )
    links = links_for(cluster("NVIDIA H100 SXM 80GB"), A)
    # 64 ranks over 8 nodes: the inter-node part bounds it, no in-switch gain
    assert group_all_reduce_s(size, 64, 8, links, "dp", nvls=True) == group_all_reduce_s(
        size, 64, 8, links, "dp"
    )


def test_tp_without_sequence_parallelism_gets_the_gain_and_with_it_does_not():
    shape = ModelShape("dense", 80, 8192, 64, 8, 28672, 128256, 4096, gated_mlp=True, dropout=False)
    kw = dict(tp=8, pp=1, dp=8, micro_batch=1, global_batch=64, seq_len=4096, recompute="full")
    h100, a100 = cluster("NVIDIA H100 SXM 80GB"), cluster("NVIDIA A100 SXM4 80GB")
    plain = estimate(shape, TrainConfig(**kw, sequence_parallel=False), h100).breakdown["tp_comm_s"]
    same_links_no_nvls = estimate(shape, TrainConfig(**kw, sequence_parallel=False), a100).breakdown[
        "tp_comm_s"
    ]
    assert plain < 0.85 * same_links_no_nvls  # a100 here differs only in its name: no NVLS
    sp_h = estimate(shape, TrainConfig(**kw, sequence_parallel=True), h100).breakdown["tp_comm_s"]
    sp_a = estimate(shape, TrainConfig(**kw, sequence_parallel=True), a100).breakdown["tp_comm_s"]
    assert np.isclose(sp_h, sp_a)
