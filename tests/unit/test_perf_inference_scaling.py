"""Serving estimate (decode bound, TTFT, KV fit) and scaling curves."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.inference import estimate_inference, max_batch
from gpuplanner.engine.perf.scaling import best_scaling, dp_scaling
from gpuplanner.engine.perf.shapes import ClusterSpec, InferenceConfig, ModelShape, TrainConfig

H100 = ClusterSpec(
    gpu_name="NVIDIA H100 SXM",
    peak_bf16_tflops=989,
    mem_gb=80,
    mem_bw_tbyte_per_s=3.35,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=900,
    nic_gbps_per_gpu=400,
)
LLAMA8 = ModelShape("dense", 32, 4096, 32, 8, 14336, 128256, 8192, gated_mlp=True)
LLAMA70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 128256, 8192, gated_mlp=True)


def test_batch_one_decode_is_bound_by_reading_the_weights():
    est = estimate_inference(LLAMA8, InferenceConfig(batch=1, prompt_len=128, output_len=128), H100)
    assert est.bound == "memory bandwidth"
    weights = param_counts(LLAMA8)["total"] * 2
    floor = weights / 3.35e12  # one full read of the weights at HBM peak per token
    assert floor < est.decode_step_s < 1.6 * floor


def test_large_batches_become_compute_bound_and_raise_throughput():
    small = estimate_inference(LLAMA8, InferenceConfig(batch=1, prompt_len=64, output_len=64), H100)
    big = estimate_inference(LLAMA8, InferenceConfig(batch=512, prompt_len=64, output_len=64), H100)
    assert big.decode_tokens_per_s > 50 * small.decode_tokens_per_s
    assert big.bound == "compute"
    assert big.ttft_s > small.ttft_s


def test_kv_cache_fit_and_cluster_replicas():
    cfg = InferenceConfig(batch=64, prompt_len=4096, output_len=1024, tp=4)
    est = estimate_inference(LLAMA70, cfg, H100, n_gpus=64)
    assert est.fits and est.replicas == 16
    assert est.cluster_tokens_per_s == pytest.approx(16 * est.decode_tokens_per_s)
    too_big = estimate_inference(LLAMA70, replace(cfg, batch=4096), H100, n_gpus=64)
    assert not too_big.fits and "KV cache" in too_big.refusal and too_big.cluster_tokens_per_s == 0
    n = max_batch(LLAMA70, cfg, H100)
    assert estimate_inference(LLAMA70, replace(cfg, batch=n), H100).fits
    assert not estimate_inference(LLAMA70, replace(cfg, batch=n + 1), H100).fits


def test_dp_scaling_keeps_the_layout_and_loses_a_little_to_the_fabric():
    cfg = TrainConfig(
        tp=8, pp=4, dp=1, micro_batch=1, global_batch=16, seq_len=8192, zero_stage=0, dp_overlap=False
    )
    curve = dp_scaling(LLAMA70, cfg, H100, 1024)
    assert curve["n_gpus"].tolist() == [32, 64, 128, 256, 512, 1024]
    assert np.all(curve["global_batch"] == 16 * curve["n_gpus"] // 32)
    assert curve["efficiency"][0] == 1.0 and np.all(curve["efficiency"][1:] < 1.0)
    slow = dp_scaling(LLAMA70, cfg, replace(H100, net_factor={"dp": 0.25}), 1024)
    assert np.all(slow["efficiency"][1:] < curve["efficiency"][1:])


def test_long_context_decode_is_bound_by_the_kv_cache():
    est = estimate_inference(LLAMA8, InferenceConfig(batch=512, prompt_len=512, output_len=128), H100)
    assert est.bound == "memory bandwidth"  # 512 × 576 tokens × 128 KiB of KV per step outweigh the weights


def test_best_scaling_for_a_fixed_batch_loses_efficiency_once_dp_runs_out():
    curve = best_scaling(LLAMA8, H100, 512, 64, cp_options=(1,), vpp_options=(1,))
    eff = curve["efficiency"]
    assert eff[0] == 1.0
    assert eff[-1] < 0.8 * eff[-3]  # 64 sequences cannot keep 512 GPUs busy: tp must grow
    assert all(curve["layout"])
