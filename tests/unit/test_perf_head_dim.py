"""Attention width heads × head_dim where it differs from hidden (Qwen3, GPT-OSS).

Oracles: closed forms of the attention FLOPs and parameters, and the parameter totals the model cards publish
(Qwen3 Technical Report, arXiv:2505.09388, Table 2: 30.5B and 235B; OpenAI gpt-oss model card, Table 1: 116.8B).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.flops import (
    attention_params_per_layer,
    layer_forward_flops_per_token,
    param_counts,
)
from gpuplanner.engine.perf.memory import activation_coefficients, kv_cache_bytes
from gpuplanner.engine.perf.request import shape_of


def _shape(model: str):
    return shape_of({"model": model}, default_catalog())


def test_qwen3_attention_flops_follow_heads_times_head_dim():
    q3 = _shape("qwen3-30b-a3b")
    assert (q3.hidden, q3.heads, q3.head_dim) == (2048, 32, 128)
    s = 4096
    _, scores = layer_forward_flops_per_token(q3, s)
    assert scores == 4.0 * s * 32 * 128  # QK^T and PV over the full square, 4096 wide, not 2048
    narrow = dataclasses.replace(q3, head_dim=q3.hidden // q3.heads)
    assert scores / layer_forward_flops_per_token(narrow, s)[1] == pytest.approx(2.0)


def test_qwen3_attention_parameters_by_the_closed_form():
    q3 = _shape("qwen3-30b-a3b")
    h, q_width, kv_width = 2048, 32 * 128, 4 * 128
    assert attention_params_per_layer(q3) == h * q_width + 2 * h * kv_width + q_width * h


@pytest.mark.parametrize(
    "model, published_b", [("qwen3-30b-a3b", 30.5), ("qwen3-235b-a22b", 235.0), ("gpt-oss-120b", 116.8)]
)
def test_total_parameters_match_the_model_cards(model, published_b):
    assert param_counts(_shape(model))["total"] / 1e9 == pytest.approx(published_b, rel=0.01)


def test_kv_cache_uses_head_dim():
    q3 = _shape("qwen3-235b-a22b")
    per_token = kv_cache_bytes(q3, batch=1, context_len=1, tp=1, kv_precision_bytes=2.0)
    assert per_token == 2 * 94 * 4 * 128 * 2  # K and V, 94 layers, 4 KV heads of 128, bf16


def test_activation_memory_counts_the_wider_attention_and_reduces_to_the_gpt_constant():
    q3 = _shape("qwen3-30b-a3b")
    narrow = dataclasses.replace(q3, head_dim=64)
    wide_total = activation_coefficients(q3)[0]
    narrow_total = activation_coefficients(narrow)[0]
    # Q (2 B) and the projection input (2 B) are twice as wide; K and V grow with the 4 KV heads' width
    assert wide_total - narrow_total == pytest.approx(4.0 * 1.0 + 4.0 * (4 * 64) / 2048)
    gpt = dataclasses.replace(q3, architecture="dense", experts=1, top_k=1, kv_heads=32, head_dim=64)
    gpt = dataclasses.replace(gpt, ffn_hidden=4 * 2048, gated_mlp=False, dropout=True)
    assert activation_coefficients(gpt)[0] == pytest.approx(34.0)  # Korthikanti et al. 2022


def test_head_dim_lets_hidden_not_divide_heads_and_is_checked():
    from gpuplanner.engine.perf.shapes import ModelShape

    s = ModelShape("dense", 2, 2050, 32, 4, 2880, 1000, 128, head_dim=64)
    assert s.head_dim == 64
    with pytest.raises(ValidationError):
        ModelShape("dense", 2, 2050, 32, 4, 2880, 1000, 128)  # 2050 / 32 is not whole
    with pytest.raises(ValidationError):
        ModelShape("dense", 2, 2048, 32, 4, 2880, 1000, 128, head_dim=-1)


def test_estimate_takes_head_dim_on_the_command_line():
    base = [sys.executable, "-m", "gpuplanner", "estimate", "--layers", "48", "--hidden", "2048"]
    base += ["--heads", "32", "--kv-heads", "4", "--ffn", "6144", "--gpu", "nvidia-h100-sxm", "--gpus", "8"]
    base += ["--tp", "1", "--pp", "1", "--seq", "4096", "--global-batch", "64", "--json"]
    import json

    plain = json.loads(subprocess.run(base, capture_output=True, text=True, check=True).stdout)
    wide = json.loads(
        subprocess.run(base + ["--head-dim", "128"], capture_output=True, text=True, check=True).stdout
    )
    assert wide["step_time_s"] > plain["step_time_s"]
