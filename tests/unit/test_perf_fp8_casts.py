"""FP8 GEMM rate and Transformer Engine cast traffic (session 6), each against its published figure or a
closed form.

Sources: S. Bekman, Machine Learning Engineering, compute/accelerator/README.md, 'Maximum Achievable Matmul
FLOPS comparison table' (BF16 and FP8 rows); Transformer Engine cpp_extensions/transpose.py and
csrc/quantizer.cpp (create_transpose only when non-TN FP8 GEMMs are unsupported, i.e. before Blackwell);
Zadouri, Dao et al., FlashAttention-4, arXiv:2603.05451 (B200: 1613 TFLOP/s, 1.3x cuDNN 9.13); AMD, ROCm Blogs,
'Measuring Max-Achievable FLOPs - Part 2' (MI300X/MI325X MAF, Table 1).
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.layer_time import fp8_cast_bytes, hardware_for, layer_times
from gpuplanner.engine.perf.request import build

A = load_assumptions()

# (MAMF FP8, FP8 peak, MAMF BF16, BF16 peak) as published in the table; B200 and H200 take the sustained,
# power-saturated figures (MSMF columns of the same table, branch fast-mamf, torch 2.13.0+cu130)
MAMF = {
    "NVIDIA H100 SXM": (1402.6, 1979, 794.5, 989),
    "NVIDIA H200 SXM": (1288.7, 1979, 708.5, 989),
    "NVIDIA B200": (2795.7, 4500, 1456.3, 2250),
    "NVIDIA GB200": (3615.6, 5000, 1822.0, 2500),
    "NVIDIA B300 288GB (HGX)": (3353.3, 4500, 1769.0, 2250),
}


@pytest.mark.parametrize("gpu", list(MAMF))
def test_fp8_ratio_is_the_ratio_of_the_two_measured_mamf_efficiencies(gpu):
    fp8, fp8_peak, bf16, bf16_peak = MAMF[gpu]
    expected = (fp8 / fp8_peak) / (bf16 / bf16_peak)
    assert A.number("fp8_gemm_efficiency_ratio", gpu) == pytest.approx(expected, abs=0.0015)


# AMD's Max-Achievable FLOPs table (ROCm Blogs, "Measuring Max-Achievable FLOPs - Part 2", Table 1, hipBLASLt):
# (MAF FP8, MAF BF16) in TFLOP/s, peaks 2614.9 / 1307.4 for both
AMD_MAF = {"AMD Instinct MI300X 192GB": (1273.0, 708.0), "AMD Instinct MI325X 256GB": (1519.0, 843.0)}


@pytest.mark.parametrize("gpu", list(AMD_MAF))
def test_amd_fp8_ratio_and_gemm_efficiency_are_amds_measured_maf(gpu):
    fp8, bf16 = AMD_MAF[gpu]
    ratio = (fp8 / 2614.9) / (bf16 / 1307.4)
    assert A.number("fp8_gemm_efficiency_ratio", gpu) == pytest.approx(ratio, abs=0.0015)
    # measured at the clock the GPU holds under a dense GEMM: the BF16 MAF share is the GEMM efficiency
    assert A.number("gemm_efficiency", gpu) == pytest.approx(bf16 / 1307.4, abs=0.01)


def test_gpus_without_an_fp8_mamf_row_keep_the_earlier_estimate():
    assert A.number("fp8_gemm_efficiency_ratio", "Intel Gaudi 3") == 0.80


EW = A.table("elementwise_bytes")


def test_cast_bytes_of_a_gpt_layer_on_hopper_by_hand():
    """tp 1, no SP, h = q = kv = 4096, ffn 16384: forward 4·q (attention output cast+transpose) + 2·(2h + ffn)
    (transposes of the two norm outputs and the activation); backward 2·4h (proj and FC2 output gradients)
    + 4·3h (QKV output gradient)."""
    h, ffn, tokens = 4096.0, 16384.0, 1000.0
    fwd, bwd = fp8_cast_bytes(tokens, h, h, h, ffn, 1.0, False, EW, 1.0)
    assert float(fwd) == pytest.approx(tokens * (4 * h + 2 * (2 * h + ffn)))
    assert float(bwd) == pytest.approx(tokens * (2 * 4 * h + 4 * 3 * h))


def test_cast_bytes_with_sequence_parallelism_and_on_blackwell():
    h, q, kv, ffn, tp, tokens = 8192.0, 8192.0, 1024.0, 28672.0, 4.0, 2048.0
    fwd, bwd = fp8_cast_bytes(tokens, h, q, kv, ffn, tp, True, EW, 1.0)
    # SP: each rank casts its 1/tp share of the output gradient (r2 w1), the gathered tensor is transposed
    assert float(bwd) == pytest.approx(tokens * (2 * (3 * h / tp + 2 * h) + 4 * (q + 2 * kv) / tp))
    assert float(fwd) == pytest.approx(tokens * (4 * q / tp + 2 * (2 * h + ffn / tp)))
    # Blackwell takes FP8 GEMMs in any layout: casts (r2 w1) only, no transposes
    fwd_b, bwd_b = fp8_cast_bytes(tokens, h, q, kv, ffn, tp, True, EW, 0.0)
    assert float(fwd_b) == pytest.approx(tokens * 3 * q / tp)
    assert float(bwd_b) == pytest.approx(tokens * (2 * 3 * h / tp + 3 * (q + 2 * kv) / tp))
    assert A.number("fp8_gemm_transposes", "NVIDIA B200") == 0
    assert A.number("fp8_gemm_transposes", "NVIDIA H100 SXM 80GB") == 1


def _layer(req):
    shape, cluster, cfg = build(req)
    hw = hardware_for(cluster, cfg.precision, A)
    lt = layer_times(shape, hw, A, tp=cfg.tp, cp=1, ep=1, mb=cfg.micro_batch, sp=True, flash=True)
    return shape, hw, lt


def test_casts_are_charged_only_in_fp8_runs():
    req = {
        "model": "llama3-8b",
        "gpu": "nvidia-h100-sxm",
        "gpus": 8,
        "tp": 1,
        "pp": 1,
        "micro_batch": 1,
        "global_batch": 64,
        "seq": 4096,
    }
    shape, hw8, fp8 = _layer({**req, "precision": "fp8"})
    _, hw16, bf16 = _layer({**req, "precision": "bf16"})
    assert hw8.fp8 and not hw16.fp8
    tokens = 4096.0
    q, kv = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    f, b = fp8_cast_bytes(tokens, float(shape.hidden), q, kv, float(shape.ffn_hidden), 1.0, True, EW, 1.0)
    # the FP8 layer's memory-bound time is the bf16 one plus exactly the casts (same kernels, same bytes)
    assert float(np.ravel(fp8.ew_fwd)[0] - np.ravel(bf16.ew_fwd)[0]) == pytest.approx(f / hw8.ew_byte_per_s)
    assert float(np.ravel(fp8.ew_bwd)[0] - np.ravel(bf16.ew_bwd)[0]) == pytest.approx(b / hw8.ew_byte_per_s)


def test_blackwell_flash_attention_efficiency_follows_the_published_cudnn_figure():
    """H100's 0.45 is 0.60 of FA3's best forward (75 %); the same share of cuDNN 9.13's best B200 forward
    (1613 / 1.3 TFLOP/s of 2250) gives Blackwell's value."""
    share = A.number("flash_attention_efficiency", "NVIDIA H100 SXM") / 0.75
    b200 = share * (1613 / 1.3) / 2250
    assert A.number("flash_attention_efficiency", "NVIDIA B200") == pytest.approx(b200, abs=0.005)


def test_routed_expert_inputs_and_output_gradients_are_cast_per_copy():
    """An FP8 MoE layer's grouped GEMMs quantise every dispatched token copy (FC1 input, forward) and every copy of
    FC2's output gradient (backward): top_k·tokens·h elements, cast and transposed on Hopper (4 B), cast only on
    Blackwell (3 B). Counted as the difference between the FP8 and BF16 layer's elementwise time, after removing
    the dense casts the same layer would have."""
    req = dict(model="mixtral-8x7b", gpu="nvidia-h100-sxm", gpus=8, tp=1, pp=1, ep=8, micro_batch=1,
               global_batch=64, seq=4096)  # fmt: skip
    shape, cluster, _ = build(req)
    h, tokens, k = float(shape.hidden), 4096.0, shape.top_k
    for gpu, per_elem in (("nvidia-h100-sxm", 4.0), ("nvidia-b200", 3.0)):
        _, cl, _ = build({**req, "gpu": gpu})
        fp8 = hardware_for(cl, "fp8", A)
        args = dict(tp=1, cp=1, ep=8, mb=1, sp=False, flash=True, etp=1)
        with_moe = layer_times(shape, fp8, A, **args)
        dense_like = fp8_cast_bytes(tokens, h, h, shape.kv_heads * shape.head_dim,
                                    shape.expert_ffn * (k + shape.shared_experts), 1.0, False, fp8.ew,
                                    fp8.fp8_transposes)  # fmt: skip
        bf16 = layer_times(shape, hardware_for(cl, "bf16", A), A, **args)
        extra_f = (float(with_moe.ew_fwd) - float(bf16.ew_fwd)) * fp8.ew_byte_per_s - float(dense_like[0])
        extra_b = (float(with_moe.ew_bwd) - float(bf16.ew_bwd)) * fp8.ew_byte_per_s - float(dense_like[1])
        assert extra_f == pytest.approx(per_elem * k * tokens * h, rel=1e-9), gpu
        assert extra_b == pytest.approx(per_elem * k * tokens * h, rel=1e-9), gpu


def test_b200_loses_the_published_extra_sustained_clock_relative_to_hopper():
    """MSMF / MAMF (a power-saturated matmul against a boost-clock burst, same torch 2.13 on both), times what a
    full, busy board costs (all 8 GPUs computing): B200 1456.3/1770.9 x 1426.4/1455.7, H200 708.5/841.9 x
    698.6/702.9; B200's gemm_efficiency is the earlier 0.72 times the ratio of the two."""
    b200 = 1456.3 / 1770.9 * 1426.4 / 1455.7
    h200 = 708.5 / 841.9 * 698.6 / 702.9
    assert A.number("gemm_efficiency", "NVIDIA B200") == pytest.approx(0.72 * b200 / h200, abs=0.005)
    assert A.number("gemm_efficiency", "NVIDIA H100 SXM 80GB") == 0.74  # the Hopper reference is unchanged


def test_gb200_takes_its_own_published_mamf_by_the_hopper_rule():
    """ml-engineering's MAMF table: H100 SXM 794.5 of 989, B200 1745.0 of 2250, GB200 1822.0 of 2500. H100's
    gemm_efficiency 0.74 is its MAMF share times a power-cap derating; GB200 takes the same derating of its own
    MAMF share (lower than B200's), not B200's value."""
    derating = 0.74 / (794.5 / 989)
    gb200 = A.number("gemm_efficiency", "NVIDIA GB200")
    assert gb200 == pytest.approx(1822.0 / 2500 * derating, abs=0.005)
    assert gb200 < 1745.0 / 2250 * derating  # below B200's value before its sustained-clock loss


def test_b300_takes_its_own_published_mamf_by_the_hopper_rule_and_gb300_the_defaults():
    """ml-engineering's MAMF table (branches master and fast-mamf, torch 2.9.1+cu130): B300 SXM BF16 1769.0 of
    2250, FP8 3353.3 of 4500; the table's peaks are the catalog's. B300 takes H100's derating of its own BF16
    share, as GB200 does (no MSMF is published for either); GB300 has no row and keeps the defaults under its
    own keys, which the shorter b300 key must not shadow."""
    from gpuplanner.catalog.loader import load_catalog

    entry = load_catalog(include_user=False).entries["nvidia-b300"]
    b300, gb300 = entry.name, "NVIDIA GB300 Blackwell Ultra GPU (NVL72)"
    assert (entry.bf16_dense_tflops, entry.fp8_dense_tflops) == (2250, 4500)
    derating = 0.74 / (794.5 / 989)
    assert A.number("gemm_efficiency", b300) == pytest.approx(1769.0 / 2250 * derating, abs=0.005)
    assert A.number("gemm_efficiency", gb300) == A.number("gemm_efficiency", "unknown") == 0.70
    assert A.number("fp8_gemm_efficiency_ratio", gb300) == A.number("fp8_gemm_efficiency_ratio", "unknown")
