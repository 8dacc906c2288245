"""Training estimate: pipeline bubble, scalar = sweep, fabric sensitivity, calibration, bottleneck sentence."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gpuplanner.engine.perf.collectives import all_gather_s, reduce_scatter_s, ring_all_reduce_s
from gpuplanner.engine.perf.shapes import Calibration, ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.sweep import sweep
from gpuplanner.engine.perf.training import BREAKDOWN, estimate

H100 = ClusterSpec(
    gpu_name="NVIDIA H100 SXM",
    peak_bf16_tflops=989,
    peak_fp8_tflops=1979,
    mem_gb=80,
    mem_bw_tbyte_per_s=3.35,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=900,
    nic_gbps_per_gpu=400,
)
LLAMA70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 128256, 8192, gated_mlp=True)
BASE = TrainConfig(tp=8, pp=4, dp=16, micro_batch=1, global_batch=512, seq_len=8192, vpp=5)


def test_bubble_is_p_minus_1_over_m_v():
    est = estimate(LLAMA70, BASE, H100)
    m = 512 // (16 * 1)
    assert est.micro_batches == m
    assert est.bubble_fraction == pytest.approx((4 - 1) / (m * 5))
    # the bubble time is that fraction of the steady pipeline time (m micro-batches)
    steady = sum(est.breakdown[k] for k in BREAKDOWN if k not in ("pp_bubble_s", "dp_comm_s", "optimizer_s"))
    assert est.breakdown["pp_bubble_s"] == pytest.approx(steady * (4 - 1) / (m * 5), rel=1e-9)


def test_more_interleaving_shrinks_the_bubble():
    b1 = estimate(LLAMA70, replace(BASE, vpp=1), H100).breakdown["pp_bubble_s"]
    b5 = estimate(LLAMA70, BASE, H100).breakdown["pp_bubble_s"]
    assert b5 < b1 / 3


def test_breakdown_sums_to_step_and_rates_are_consistent():
    est = estimate(LLAMA70, replace(BASE, total_tokens=15e12), H100)
    assert sum(est.breakdown.values()) == pytest.approx(est.step_time_s)
    assert est.tokens_per_s == pytest.approx(512 * 8192 / est.step_time_s)
    assert est.mfu == pytest.approx(est.tflops_per_gpu / 989)
    assert est.hw_tflops_per_gpu > est.tflops_per_gpu  # selective recompute reruns attention
    assert est.time_to_train_s == pytest.approx(15e12 / est.tokens_per_s)


def test_scalar_estimate_equals_the_sweep_row():
    r = sweep(LLAMA70, H100, 512, 512, cp_options=(1, 2), mb_options=(1,), vpp_options=(1, 5))
    assert len(r) > 3
    for i in (0, len(r) // 2, len(r) - 1):
        cfg = r.config(i)
        est = estimate(LLAMA70, cfg, H100)
        assert est.step_time_s == pytest.approx(float(r.out["step_time_s"][i]), rel=1e-12)
        assert est.memory["total_gb"] == pytest.approx(float(r.out["mem_total_gb"][i]), rel=1e-12)


def test_oversubscribed_fabric_slows_dp_bound_training():
    small = ModelShape("dense", 32, 4096, 32, 8, 14336, 128256, 8192, gated_mlp=True)
    cfg = TrainConfig(tp=1, pp=1, dp=256, micro_batch=1, global_batch=256, seq_len=8192, dp_overlap=False)
    full = estimate(small, cfg, H100)
    half = estimate(small, cfg, replace(H100, net_factor={"dp": 0.5}))
    assert half.breakdown["dp_comm_s"] > full.breakdown["dp_comm_s"]
    assert half.tokens_per_s < full.tokens_per_s
    slow_nic = estimate(small, cfg, replace(H100, nic_gbps_per_gpu=25, scaleup_bw_gbyte_per_s=64))
    assert "DP" in slow_nic.bottleneck and "% of step time" in slow_nic.bottleneck


def test_calibration_mfu_overrides_the_model():
    cal = replace(H100, calibration=Calibration(mfu=0.35))
    est = estimate(LLAMA70, BASE, cal)
    assert est.mfu == pytest.approx(0.35)
    assert sum(est.breakdown.values()) == pytest.approx(est.step_time_s)


def test_calibrated_bus_bandwidth_is_used():
    small = ModelShape("dense", 32, 4096, 32, 8, 14336, 128256, 8192, gated_mlp=True)
    cfg = TrainConfig(tp=1, pp=1, dp=256, micro_batch=1, global_batch=256, seq_len=8192, dp_overlap=False)
    slow = replace(H100, calibration=Calibration(busbw_gbyte_per_s={"dp": 5.0}))
    assert (
        estimate(small, cfg, slow).breakdown["dp_comm_s"]
        > 5 * estimate(small, cfg, H100).breakdown["dp_comm_s"]
    )


def test_fp8_is_faster_than_bf16_on_h100():
    bf16 = estimate(LLAMA70, BASE, H100)
    fp8 = estimate(LLAMA70, replace(BASE, precision="fp8"), H100)
    assert 1.1 < fp8.tokens_per_s / bf16.tokens_per_s < 1.8


def test_throughput_per_gpu_rises_with_model_size_at_fixed_layout():
    """Bigger hidden sizes give bigger GEMMs and a smaller memory-bound share (the Table 1 physics)."""
    cfg = TrainConfig(tp=8, pp=1, dp=1, micro_batch=1, global_batch=8, seq_len=4096, recompute="selective")
    mfus = [
        estimate(ModelShape("dense", 8, h, h // 128, h // 128, 4 * h, 0, 4096), cfg, H100).mfu
        for h in (2048, 4096, 8192, 16384)
    ]
    assert np.all(np.diff(mfus) > 0)


def test_collective_bus_bandwidth_relations():
    """nccl-tests: busbw = algbw·2(n-1)/n (all-reduce), algbw·(n-1)/n (reduce-scatter, all-gather)."""
    size, n, bw = 1e9, 8, 100e9
    t = ring_all_reduce_s(size, n, bw, 0.0)
    assert (size / t) * 2 * (n - 1) / n == pytest.approx(bw)
    assert (size / reduce_scatter_s(size, n, bw, 0.0)) * (n - 1) / n == pytest.approx(bw)
    assert all_gather_s(size, n, bw, 0.0) + reduce_scatter_s(size, n, bw, 0.0) == pytest.approx(t)
    assert float(ring_all_reduce_s(size, 1, bw, 1e-5)) == 0.0


def test_bottleneck_sentence_in_chinese_names_the_same_parts():
    from gpuplanner.engine.perf.training import bottleneck_sentence

    breakdown = {"compute_s": 6.0, "dp_comm_s": 3.0, "pp_bubble_s": 1.0}
    en = bottleneck_sentence(breakdown, tp_intra=True, dp_intra=False, lang="en")
    zh = bottleneck_sentence(breakdown, tp_intra=True, dp_intra=False, lang="zh")
    assert (
        en
        == "GEMM and attention compute: 60% of step time; largest overhead: DP all-reduce over the inter-node fabric (30%)"
    )
    assert zh == "GEMM 与注意力计算：占单步时间的 60%；最大开销：跨节点网络上的数据并行 all-reduce（30%）"
    assert "NVLink" in bottleneck_sentence(breakdown, dp_intra=True, lang="zh")
