"""fp8 / fp4 serving keeps the input embedding and the output head (lm_head) in BF16 (served_weights.py).

Oracles: (1) Llama 3.1 405B's weight bytes per GPU at TP8 counted by hand from its published shape (Llama Team,
'The Llama 3 Herd of Models', Table 3: 126 layers, hidden 16384, 128 query / 8 KV heads of 128, SwiGLU 53248,
vocabulary 128256) with NVFP4 (0.5 + 1/16 bytes) / FP8 (1 byte) layers and BF16 tables, as NVIDIA's
nvidia/Llama-3.1-405B-Instruct-FP4 / -FP8 checkpoints hold them (ModelOpt leaves lm_head and the embedding
unquantized); (2) a memory-bound decode step rebuilt from those bytes; (3) a compute-bound step with the head's
GEMM at the BF16 rate; (4) a tied table counted once.
"""

from __future__ import annotations

import dataclasses

import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.inference import estimate_inference, max_batch
from gpuplanner.engine.perf.memory import kv_cache_bytes, usable_memory_gb
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.served_weights import head_gemm_rate, served_weights, table_bytes
from gpuplanner.engine.perf.serving_activations import activation_bytes_per_token
from gpuplanner.engine.perf.serving_setup import serving_assumptions
from gpuplanner.engine.perf.shapes import InferenceConfig

CAT = default_catalog()
A = load_assumptions()
SA = serving_assumptions()

# Llama 3.1 405B by hand: per layer q and o 16384 × (128 · 128) each, k and v 16384 × (8 · 128) each,
# gate/up/down 3 × 16384 × 53248, two RMSNorm weight vectors of 16384
ATTN = 2 * 16384 * 16384 + 2 * 16384 * 1024
MLP = 3 * 16384 * 53248
LAYERS = 126 * (ATTN + MLP + 2 * 16384)  # 401,650,679,808
TABLE = 128256 * 16384  # one vocab × hidden table: the input embedding, and the output head again


def _static(precision: str, gpu: str, tp: int = 8, batch: int = 1) -> float:
    shape = shape_of({"model": "llama3-405b"}, CAT)
    cluster = cluster_of({"gpu": gpu}, CAT)
    pb = {"fp4": 0.5625, "fp8": 1.0, "bf16": 2.0}[precision]
    cfg = InferenceConfig(batch, 1024, 128, tp=tp, kv_precision_bytes=1, weight_precision_bytes=pb)
    cfg = dataclasses.replace(cfg, weight_precision=precision)
    return estimate_inference(shape, cfg, cluster).memory["weights_gb"]


def test_the_hand_count_is_the_model():
    assert LAYERS == 401_650_679_808
    assert LAYERS + 2 * TABLE == 405_853_372_416  # the published "405B"


def test_llama31_405b_nvfp4_tp8_weights_per_gpu_by_hand():
    # 0.5625 bytes per layer weight, 2 per table parameter, over 8 GPUs: 29.29 GB (all at NVFP4: 28.54 GB)
    by_hand = (LAYERS * 0.5625 + 2 * TABLE * 2.0) / 8 / 1e9
    assert by_hand == pytest.approx(29.291736576, rel=1e-12)
    assert _static("fp4", "nvidia-b200") == pytest.approx(by_hand, rel=1e-12)


def test_llama31_405b_fp8_tp8_weights_per_gpu_by_hand():
    by_hand = (LAYERS * 1.0 + 2 * TABLE * 2.0) / 8 / 1e9  # 51.26 GB (all at FP8: 50.73 GB)
    assert by_hand == pytest.approx(51.257008128, rel=1e-12)
    assert _static("fp8", "nvidia-h200-sxm") == pytest.approx(by_hand, rel=1e-12)


def test_bf16_weights_are_unchanged():
    assert _static("bf16", "nvidia-h200-sxm") == pytest.approx(
        (LAYERS + 2 * TABLE) * 2.0 / 8 / 1e9, rel=1e-12
    )
    assert table_bytes(2.0, SA) == 2.0 and table_bytes(1.0, SA) == 2.0 and table_bytes(0.5625, SA) == 2.0


def test_a_tied_table_is_held_once_and_streamed_as_the_head():
    shape = dataclasses.replace(shape_of({"model": "llama3-405b"}, CAT), tied_embeddings=True)
    sw = served_weights(shape, 1.0, SA)
    assert sw.total == pytest.approx(LAYERS * 1.0 + TABLE * 2.0)
    assert sw.input_table == 0.0 and sw.head == TABLE * 2.0


def test_the_decode_step_streams_the_head_in_bf16():
    """Batch 1 is memory bound: the step reads every weight but the input table (layers at 1 byte, the head at
    2) and the KV cache, plus the GEMM kernels' fixed part and the activation traffic."""
    shape = shape_of({"model": "llama3-8b"}, CAT)
    cluster = cluster_of({"gpu": "nvidia-h100-sxm"}, CAT)
    cfg = InferenceConfig(1, 512, 128, tp=1, kv_precision_bytes=1, weight_precision_bytes=1.0)
    est = estimate_inference(shape, cfg, cluster)
    assert est.bound == "memory bandwidth"
    layers = shape.layers * (
        2 * shape.hidden * shape.hidden
        + 2 * shape.hidden * shape.kv_heads * 128
        + 3 * shape.hidden * shape.ffn_hidden
        + 2 * shape.hidden
    )
    read = layers * 1.0 + shape.vocab * shape.hidden * 2.0
    kv = float(kv_cache_bytes(shape, batch=1, context_len=512 + 64, tp=1, kv_precision_bytes=1))
    hbm = cluster.mem_bw_tbyte_per_s * 1e12
    act = activation_bytes_per_token(shape, 1, 1, True, SA.table("serving_elementwise_bytes")) / (
        hbm * A.number("elementwise_hbm_efficiency")
    )
    # the weights through the FP8 GEMMs at their measured decode share of HBM, each GEMM kernel's fixed part
    # (4 per layer at FP8, the BF16 head once: performance.yaml decode_gemm_*), the KV cache at decode_hbm_efficiency
    g = cluster.gpu_name
    weights_s = read / (hbm * A.number("decode_gemm_hbm_efficiency_fp8", g))
    fixed = (
        4 * shape.layers * A.number("decode_gemm_fixed_us_fp8", g) + A.number("decode_gemm_fixed_us_bf16", g)
    ) * 1e-6
    kv_s = kv / (hbm * A.number("decode_hbm_efficiency"))
    assert est.decode_step_s == pytest.approx(weights_s + fixed + kv_s + act)


def test_the_head_gemm_runs_at_the_bf16_rate():
    cluster = cluster_of({"gpu": "nvidia-h100-sxm"}, CAT)
    eff = A.number("gemm_efficiency", cluster.gpu_name)
    fp8 = cluster.peak_fp8_tflops * 1e12 * eff
    assert head_gemm_rate(cluster, 1.0, fp8, A) == pytest.approx(cluster.peak_bf16_tflops * 1e12 * eff)
    assert head_gemm_rate(cluster, 2.0, 123.0, A) == 123.0
    # a compute-bound static step: the layers at the FP8 rate, the head at the BF16 rate
    shape = shape_of({"model": "llama3-8b"}, CAT)
    cfg = InferenceConfig(2048, 16, 2, tp=1, kv_precision_bytes=1, weight_precision_bytes=1.0)
    est = estimate_inference(shape, cfg, cluster)
    assert est.bound == "compute"
    from gpuplanner.engine.perf import mla
    from gpuplanner.engine.perf.flops import param_counts

    linear = 2.0 * param_counts(shape)["layers_active"]
    head = 2.0 * shape.vocab * shape.hidden
    attn = 4.0 * shape.layers * mla.score_width(shape) * 17.0
    act = activation_bytes_per_token(shape, 1, 1, True, SA.table("serving_elementwise_bytes")) / (
        cluster.mem_bw_tbyte_per_s * 1e12 * A.number("elementwise_hbm_efficiency")
    )
    bf16 = cluster.peak_bf16_tflops * 1e12 * eff
    expect = 2048 * ((linear + attn) / fp8 + head / bf16) + 2048 * act
    assert est.decode_step_s == pytest.approx(expect, rel=1e-9)


def test_max_batch_leaves_room_for_the_bf16_tables():
    shape = shape_of({"model": "llama3-405b"}, CAT)
    cluster = cluster_of({"gpu": "nvidia-h200-sxm"}, CAT)
    cfg = InferenceConfig(1, 1024, 128, tp=8, kv_precision_bytes=1, weight_precision_bytes=1.0)
    n = max_batch(shape, cfg, cluster)
    assert estimate_inference(shape, dataclasses.replace(cfg, batch=n), cluster).fits
    assert not estimate_inference(shape, dataclasses.replace(cfg, batch=n + 1), cluster).fits
    usable = usable_memory_gb(cluster.mem_gb, cluster.gpu_name, A)[1] * 1e9
    per_seq = float(kv_cache_bytes(shape, batch=1, context_len=1152, tp=8, kv_precision_bytes=1))
    per_seq += 4.0 * 1024 * shape.hidden * 2.0 / 8
    assert n == int((usable - (LAYERS + 2 * TABLE * 2.0) / 8) // per_seq)
