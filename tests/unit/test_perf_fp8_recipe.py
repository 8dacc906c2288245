"""FP8 scaling recipes (issue 20): the HBM passes Transformer Engine adds for per-tensor current scaling and for
MXFP8, each by hand from the kernels the recipe runs (Transformer Engine v2.2 csrc/extensions/cast.cpp,
normalization.cpp, activation.cpp, module/layernorm_mlp.py; OCP MX v1.0: one 1-byte scale per 32 elements).

Current scaling: an amax pass (read 2 bytes) before every cast; the norm, the activation and the activation
gradient write bf16 (2 bytes instead of 1) that the amax pass and the cast (r2 w1) then read.
MXFP8: no amax pass; every operand quantized rowwise and columnwise from bf16 (block scales cannot be
transposed), the fused norm/activation kernels writing the second copy themselves.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.layer_time import fp8_cast_bytes, hardware_for, layer_times
from gpuplanner.engine.perf.request import build
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.perf.validation import load_runs

A = load_assumptions()
EW = A.table("elementwise_bytes")
H, FFN, TOKENS = 4096.0, 16384.0, 1000.0


def test_the_byte_counts_are_the_kernels():
    assert EW["fp8_amax"] == 2  # nvte_compute_amax reads the bf16 tensor once
    assert EW["fp8_cast"] == 3 and EW["fp8_cast_transpose"] == 4
    assert EW["fp8_mx_scale"] == pytest.approx(1 / 32)


def test_current_scaling_on_hopper_by_hand():
    """tp 1, no SP, h = q = kv = 4096, ffn 16384. Delayed: forward 4q + 2(2h + ffn), backward 2·4h + 4·3h.
    Current adds, forward: the amax of the attention output (2q) and, for the two norm outputs and the
    activation, 1 + 2 + 3 = 6 bytes each; backward: the amax of the two output gradients (2·2h) and of the
    QKV gradient (2·3h), and for FC1's output gradient its amax and cast-transpose (2 + 4)."""
    fwd, bwd = fp8_cast_bytes(TOKENS, H, H, H, FFN, 1.0, False, EW, 1.0, "current")
    assert float(fwd) == pytest.approx(TOKENS * (4 * H + 2 * (2 * H + FFN) + 2 * H + 6 * (2 * H + FFN)))
    assert float(bwd) == pytest.approx(TOKENS * (2 * 4 * H + 4 * 3 * H + 2 * 2 * H + 2 * 3 * H + 6 * FFN))
    d_fwd, d_bwd = fp8_cast_bytes(TOKENS, H, H, H, FFN, 1.0, False, EW, 1.0, "delayed")
    assert float(fwd) > float(d_fwd) and float(bwd) > float(d_bwd)


def test_current_scaling_with_sequence_parallelism_runs_the_norms_and_amax_on_the_share():
    h, q, kv, ffn, tp = 8192.0, 8192.0, 1024.0, 28672.0, 4.0
    d_fwd, d_bwd = fp8_cast_bytes(TOKENS, h, q, kv, ffn, tp, True, EW, 1.0, "delayed")
    fwd, bwd = fp8_cast_bytes(TOKENS, h, q, kv, ffn, tp, True, EW, 1.0, "current")
    assert float(fwd - d_fwd) == pytest.approx(TOKENS * (2 * q / tp + 6 * (2 * h / tp + ffn / tp)))
    assert float(bwd - d_bwd) == pytest.approx(TOKENS * (2 * (2 * h / tp + (q + 2 * kv) / tp) + 6 * ffn / tp))


def test_mxfp8_quantizes_both_orientations_even_on_blackwell():
    s = 1 / 32
    fwd, bwd = fp8_cast_bytes(TOKENS, H, H, H, FFN, 1.0, False, EW, 0.0, "mxfp8")
    assert float(fwd) == pytest.approx(TOKENS * ((4 + 2 * s) * H + (1 + s) * (2 * H + FFN)))
    assert float(bwd) == pytest.approx(TOKENS * (4 + 2 * s) * 5 * H)
    # with SP the output gradient is cast on the share and quantized columnwise from the gathered bf16
    tp = 4.0
    _, bwd_sp = fp8_cast_bytes(TOKENS, H, H, H, FFN, tp, True, EW, 0.0, "mxfp8")
    grad = 3 * H / tp + (3 + s) * H
    assert float(bwd_sp) == pytest.approx(TOKENS * (2 * grad + (4 + 2 * s) * 3 * H / tp))


LLAMA_70B = {
    "model": "llama3-70b",
    "gpu": "nvidia-h100-sxm",
    "nic_gbps": 400,
    "gpus": 64,
    "tp": 4,
    "pp": 8,
    "vpp": 5,
    "micro_batch": 1,
    "global_batch": 128,
    "seq": 8192,
    "precision": "fp8",
    "stack": "nemo-2024",
}


def test_the_layer_pays_exactly_the_extra_bytes_at_the_elementwise_rate():
    outs = {}
    for recipe in ("delayed", "current"):
        shape, cluster, cfg = build({**LLAMA_70B, "fp8_recipe": recipe})
        hw = hardware_for(cluster, cfg.precision, A)
        outs[recipe] = layer_times(
            shape, hw, A, tp=4, cp=1, ep=1, mb=1, sp=True, flash=True, fp8_recipe=recipe
        )
    tokens = 8192.0
    q, kv = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    args = (tokens, float(shape.hidden), q, kv, float(shape.ffn_hidden), 4.0, True, EW, 1.0)
    extra_f = fp8_cast_bytes(*args, "current")[0] - fp8_cast_bytes(*args, "delayed")[0]
    d = np.ravel(outs["current"].ew_fwd)[0] - np.ravel(outs["delayed"].ew_fwd)[0]
    assert float(d) == pytest.approx(float(extra_f) / hw.ew_byte_per_s)
    assert np.allclose(outs["current"].gemm_fwd, outs["delayed"].gemm_fwd)


def test_mxfp8_is_refused_without_block_scaled_tensor_cores_and_runs_on_b200():
    shape, cluster, cfg = build({**LLAMA_70B, "fp8_recipe": "mxfp8"})
    with pytest.raises(ValidationError):
        estimate(shape, cfg, cluster, A)
    shape, cluster, cfg = build(
        {**LLAMA_70B, "gpu": "nvidia-b200", "tp": 2, "pp": 4, "cp": 2, "fp8_recipe": "mxfp8"}
    )
    e = estimate(shape, cfg, cluster, A)
    shape, cluster, cfg = build({**LLAMA_70B, "gpu": "nvidia-b200", "tp": 2, "pp": 4, "cp": 2})
    assert e.step_time_s > estimate(shape, cfg, cluster, A).step_time_s  # the second, columnwise copies


def test_published_runs_that_state_current_scaling_are_modelled_with_it():
    stated = [
        r
        for r in load_runs()
        if r.request.get("precision") == "fp8" and ("FP8-CS" in r.states or "current scaling" in r.states)
    ]
    assert len(stated) >= 6  # Megatron-Bridge 25.11 / 26.02 on DGX-H100
    assert all(r.request.get("fp8_recipe") == "current" for r in stated)


def test_nemo_2025_stack_is_the_nemo_2_recipe():
    """NeMo 2.2 (25.02): delayed scaling with FP8 primary weights, no activation recomputation, bf16 gradient
    reduction; stated settings still win."""
    from gpuplanner.engine.perf.settings import resolve

    out, applied = resolve("nemo-2025", {"recompute": None, "fp8_recipe": "current"})
    assert (
        applied["recompute"] == "none" and applied["fp8_params"] is True and applied["grad_dtype"] == "bf16"
    )
    assert out["fp8_recipe"] == "current" and "fp8_recipe" not in applied
    assert resolve("nemo-2025", {})[0]["fp8_recipe"] == "delayed"
