"""Memory formulas against the papers they come from, and the memory-fit refusal."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.memory import (
    activation_bytes_per_layer,
    bytes_per_param,
    kv_cache_bytes,
    layers_in_flight,
)
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.training import estimate, require_fit

A = load_assumptions()
# GPT-3 175B shape: s 2048, h 12288, a 96 (Korthikanti et al. 2022 use it throughout)
S, B, H, HEADS = 2048, 1, 12288, 96
GPT3 = ModelShape("dense", 96, H, HEADS, HEADS, 4 * H, 51200, S)
SBH = S * B * H


def act(tp=1, sp=False, rc=0, flash=False):
    return float(
        activation_bytes_per_layer(
            GPT3, seq_len=S, micro_batch=B, tp=tp, cp=1, sp=sp, recompute=rc, flash=flash
        )
    )


def test_activation_per_layer_without_parallelism_is_sbh_34_plus_5as_over_h():
    """Korthikanti et al., 'Reducing Activation Recomputation in Large Transformer Models', eq. (1)."""
    assert act() == pytest.approx(SBH * (34 + 5 * HEADS * S / H))


@pytest.mark.parametrize("t", [2, 4, 8])
def test_tensor_parallel_variants(t):
    # eq. (2): TP without SP keeps 10sbh replicated
    assert act(tp=t) == pytest.approx(SBH * (10 + 24 / t + 5 * HEADS * S / (H * t)))
    # eq. (4): TP + SP divides everything by t
    assert act(tp=t, sp=True) == pytest.approx(SBH / t * (34 + 5 * HEADS * S / H))
    # eq. (6): selective recomputation with TP + SP: sbh·34/t
    assert act(tp=t, sp=True, rc=1) == pytest.approx(SBH * 34 / t)
    # full recomputation: only the layer input, 2sbh (/t with SP)
    assert act(tp=t, rc=2) == pytest.approx(2 * SBH)
    assert act(tp=t, sp=True, rc=2) == pytest.approx(2 * SBH / t)


def test_flash_attention_drops_the_score_term():
    assert act(flash=True) == pytest.approx(SBH * 34)


def test_pipeline_first_stage_holds_p_microbatches_and_interleaving_factor():
    # 1F1B: p micro-batches in flight on the first stage (so L layers' worth in total)
    assert float(layers_in_flight(8, 1, 64)) == 8
    # interleaved: ×(1 + (p-1)/(p·v)) (Korthikanti et al. 2022, Section 4.2.3)
    assert float(layers_in_flight(35, 3, 280)) == pytest.approx(35 * (1 + 34 / 105))
    # fewer micro-batches than stages: only those are in flight
    assert float(layers_in_flight(8, 1, 3)) == 3


def test_adam_bytes_per_param_16_and_18_and_zero_sharding():
    """Rajbhandari et al., ZeRO (SC 2020) Section 3.1: 2 + 2 + 12 = 16 bytes/param; fp32 main grads: 18."""
    assert bytes_per_param("fp16", 0, 64, A) == 16
    assert bytes_per_param("bf16", 0, 64, A) == 18
    assert bytes_per_param("fp16", 1, 64, A) == pytest.approx(2 + 2 + 12 / 64)
    assert bytes_per_param("fp16", 2, 64, A) == pytest.approx(2 + (2 + 12) / 64)
    assert bytes_per_param("fp16", 3, 64, A) == pytest.approx(16 / 64)


def test_kv_cache_gqa_and_replication():
    llama70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 128256, 8192, gated_mlp=True)
    one = float(kv_cache_bytes(llama70, batch=1, context_len=1, tp=1, kv_precision_bytes=2))
    assert one == 2 * 80 * 8 * 128 * 2  # 320 KiB per token
    assert float(kv_cache_bytes(llama70, batch=1, context_len=1, tp=8, kv_precision_bytes=2)) == one / 8
    # 16 ranks but 8 KV heads: each rank keeps one head (replicated), not half of one
    assert float(kv_cache_bytes(llama70, batch=1, context_len=1, tp=16, kv_precision_bytes=2)) == one / 8


H100 = ClusterSpec(
    gpu_name="NVIDIA H100 SXM",
    peak_bf16_tflops=989,
    mem_gb=80,
    mem_bw_tbyte_per_s=3.35,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=900,
    nic_gbps_per_gpu=400,
)
LLAMA70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 128256, 8192, gated_mlp=True)


def test_memory_fit_refusal_names_the_numbers():
    cfg = TrainConfig(tp=1, pp=1, dp=8, micro_batch=1, global_batch=64, seq_len=8192, zero_stage=0)
    est = estimate(LLAMA70, cfg, H100)
    assert not est.fits
    # 70.6B params × 18 bytes without ZeRO ≈ 1.27 TB on one GPU
    assert est.memory["weights_gb"] + est.memory["grads_gb"] + est.memory["optimizer_gb"] == pytest.approx(
        70.6 * 18, rel=0.02
    )
    # "80 GB" H100 = 81,559 MiB = 85.5e9 B, less 5% fragmentation and 2 GB outside the allocator = 79.2 GB
    # (this test used to expect 72.0 GB: a flat 90% of 80e9 bytes, which treated the GiB of HBM as 1e9 B)
    assert "79.2 GB is usable" in est.refusal and "weights 141" in est.refusal
    with pytest.raises(ValidationError) as exc:
        require_fit(est)
    assert "does not fit" in str(exc.value)


def test_a_sharded_layout_fits():
    cfg = TrainConfig(tp=8, pp=4, dp=4, micro_batch=1, global_batch=64, seq_len=8192, zero_stage=1)
    est = estimate(LLAMA70, cfg, H100)
    assert est.fits and est.refusal == ""
    assert est.memory["total_gb"] < est.memory["usable_gb"] < est.memory["capacity_gb"]
    assert np.isclose(
        sum(est.memory[k] for k in ("weights_gb", "grads_gb", "optimizer_gb", "activations_gb")),
        est.memory["total_gb"],
    )
