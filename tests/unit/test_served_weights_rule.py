"""The rule of served_weights.py on its own: with fp8 / fp4 layers the input embedding and the output head
(lm_head) stay in BF16 (TensorRT Model Optimizer's _default_disabled_quantizer_cfg; NVIDIA's FP8/NVFP4
checkpoints). Oracle: Llama 3.1 405B's weight bytes per GPU at TP8 counted by hand from its published shape
(Llama Team, 'The Llama 3 Herd of Models', Table 3: 126 layers, hidden 16384, 128 query / 8 KV heads of 128,
SwiGLU 53248, vocabulary 128256). The engine paths that use it are tested in test_served_weights.py."""

from __future__ import annotations

import dataclasses

import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.served_weights import head_gemm_rate, served_weights, table_bytes
from gpuplanner.engine.perf.serving_setup import serving_assumptions
from gpuplanner.engine.perf.serving_worker import weight_bytes

CAT = default_catalog()
A = load_assumptions()
SA = serving_assumptions()
ATTN = 2 * 16384 * 16384 + 2 * 16384 * 1024
MLP = 3 * 16384 * 53248
LAYERS = 126 * (ATTN + MLP + 2 * 16384)  # 401,650,679,808
TABLE = 128256 * 16384
SHAPE = shape_of({"model": "llama3-405b"}, CAT)


def test_the_table_bytes_are_a_sourced_assumption():
    assert SA.number("unquantized_table_bytes") == 2.0
    assert table_bytes(0.5625, SA) == table_bytes(1.0, SA) == table_bytes(2.0, SA) == 2.0


def test_llama31_405b_nvfp4_and_fp8_at_tp8_by_hand():
    nvfp4 = weight_bytes("fp4", cluster_of({"gpu": "nvidia-b200"}, CAT), A)
    assert nvfp4 == 0.5625
    fp4_by_hand = (LAYERS * 0.5625 + 2 * TABLE * 2.0) / 8 / 1e9  # 29.29 GB (all at NVFP4: 28.54)
    fp8_by_hand = (LAYERS * 1.0 + 2 * TABLE * 2.0) / 8 / 1e9  # 51.26 GB (all at FP8: 50.73)
    assert fp4_by_hand == pytest.approx(29.291736576, rel=1e-12)
    assert fp8_by_hand == pytest.approx(51.257008128, rel=1e-12)
    assert served_weights(SHAPE, nvfp4, SA).total / 8 / 1e9 == pytest.approx(fp4_by_hand, rel=1e-12)
    assert served_weights(SHAPE, 1.0, SA).total / 8 / 1e9 == pytest.approx(fp8_by_hand, rel=1e-12)
    assert served_weights(SHAPE, 2.0, SA).total == (LAYERS + 2 * TABLE) * 2.0  # bf16: unchanged


def test_the_input_table_is_held_and_the_head_streamed():
    sw = served_weights(SHAPE, 1.0, SA)
    assert sw.input_table == sw.head == TABLE * 2.0
    tied = served_weights(dataclasses.replace(SHAPE, tied_embeddings=True), 1.0, SA)
    assert tied.total == LAYERS + TABLE * 2.0 and tied.input_table == 0.0 and tied.head == TABLE * 2.0


def test_the_head_gemm_rate_is_bf16_beside_quantized_layers():
    h100 = cluster_of({"gpu": "nvidia-h100-sxm"}, CAT)
    bf16 = h100.peak_bf16_tflops * 1e12 * A.number("gemm_efficiency", h100.gpu_name)
    assert head_gemm_rate(h100, 1.0, 3e15, A) == pytest.approx(bf16)
    assert head_gemm_rate(h100, 0.5625, 3e15, A) == pytest.approx(bf16)
    assert head_gemm_rate(h100, 2.0, 123.0, A) == 123.0
