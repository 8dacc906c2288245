"""Predicted TFLOP/s per GPU against published Megatron-LM runs on A100 (DGX A100 80 GB, 8×200 Gb/s HDR IB).

Source of Table 1: Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using
Megatron-LM", SC'21 (arXiv:2104.04473), Table 1 (weak scaling, 1.7B on 32 GPUs to 1T on 3,072 GPUs, full
activation recomputation, fp16). Micro-batch sizes, interleaving (layers per virtual stage) and the DDP
implementation of each row are from the paper's own reproduction script, NVIDIA/Megatron-LM
examples/sc21/run_table_1.sh (with CONFIG.sh: --fp16, seq 2048, vocab 51,200). Table 1's TFLOP/s count eq. 3
(96·B·s·l·h²(1 + s/6h + V/16lh), i.e. with the recomputed forward), so the comparison uses the estimate's
hardware FLOP/s. Megatron-LM of 2021 had no FlashAttention, no sequence parallelism and no overlap of the TP
all-reduce nor of the pipeline sends; rows 5-10 used the "local" DDP, which does not overlap the gradient all-reduce.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.flops import megatron_eq3_flops
from gpuplanner.engine.perf.layer_time import hardware_for, layer_times
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.training import estimate

DGX_A100 = ClusterSpec(
    gpu_name="NVIDIA A100 SXM4 80GB",
    peak_bf16_tflops=312,
    mem_gb=80,
    mem_bw_tbyte_per_s=2.039,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=600,
    nic_gbps_per_gpu=200,
    inter_node_latency_us=5.0,
    intra_node_latency_us=3.0,
)

# params (B), heads, hidden, layers, TP, PP, GPUs, global batch, micro-batch, vpp, DDP overlaps, TFLOP/s/GPU
TABLE1 = [
    (1.7, 24, 2304, 24, 1, 1, 32, 512, 16, 1, True, 137),
    (3.6, 32, 3072, 30, 2, 1, 64, 512, 16, 1, True, 138),
    (7.5, 32, 4096, 36, 4, 1, 128, 512, 16, 1, True, 142),
    (18.4, 48, 6144, 40, 8, 1, 256, 1024, 8, 1, True, 135),
    (39.1, 64, 8192, 48, 8, 2, 512, 1536, 4, 1, False, 138),
    (76.1, 80, 10240, 60, 8, 4, 1024, 1792, 2, 3, False, 140),
    (145.6, 96, 12288, 80, 8, 8, 1536, 2304, 2, 2, False, 148),
    (310.1, 128, 16384, 96, 8, 16, 1920, 2160, 1, 2, False, 155),
    (529.6, 128, 20480, 105, 8, 35, 2520, 2520, 1, 3, False, 163),
    (1008.0, 160, 25600, 128, 8, 64, 3072, 3072, 1, 1, False, 163),
]


def gpt(layers: int, hidden: int, heads: int) -> ModelShape:
    return ModelShape("dense", layers, hidden, heads, heads, 4 * hidden, 51200, 2048, tied_embeddings=True)


def table1_prediction(row) -> tuple[float, object]:
    _, heads, hidden, layers, tp, pp, n, batch, mb, vpp, overlap, _ = row
    cfg = TrainConfig(
        tp=tp,
        pp=pp,
        dp=n // (tp * pp),
        micro_batch=mb,
        global_batch=batch,
        seq_len=2048,
        vpp=vpp,
        precision="fp16",
        zero_stage=0,
        recompute="full",
        attention="unfused",
        sequence_parallel=False,
        dp_overlap=overlap,
        tp_overlap=False,
        pp_overlap=False,
    )
    est = estimate(gpt(layers, hidden, heads), cfg, DGX_A100)
    return est.hw_tflops_per_gpu, est


@pytest.mark.parametrize("row", TABLE1, ids=[f"{r[0]}B" for r in TABLE1])
def test_table1_row_within_8_percent(row):
    predicted, est = table1_prediction(row)
    published = row[-1]
    assert est.fits, est.refusal
    assert abs(predicted - published) / published <= 0.08, f"{predicted:.1f} vs {published}"


def test_table1_mean_error_at_most_4_percent_and_trend():
    predicted = np.array([table1_prediction(r)[0] for r in TABLE1])
    published = np.array([r[-1] for r in TABLE1], dtype=float)
    err = np.abs(predicted - published) / published
    assert err.mean() <= 0.04, err
    # the model must capture *why* throughput rises with size: the 1T row beats the 1.7B row
    assert predicted[-1] > predicted[0] * 1.08
    # and beats a constant 140 TFLOP/s guess (5.4% mean)
    assert err.mean() < np.mean(np.abs(140.0 - published) / published)


def test_eq3_is_what_the_estimate_calls_hardware_flops():
    row = TABLE1[3]
    tflops, est = table1_prediction(row)
    _, heads, hidden, layers, tp, pp, n, batch, *_ = row
    eq3 = megatron_eq3_flops(batch, 2048, layers, hidden, 51200)
    assert tflops == pytest.approx(eq3 / est.step_time_s / n / 1e12, rel=1e-9)


def test_layer_times_match_korthikanti_table4():
    """Korthikanti et al. 2022 (arXiv:2205.05198) Table 4: one 22B layer (h 6144, a 64, t 8, s 2048, b 4) on A100:
    forward 7.7 ms / backward 11.9 ms without sequence parallelism, 7.2 / 11.8 ms with it."""
    a = load_assumptions()
    hw = hardware_for(DGX_A100, "bf16", a)
    shape = ModelShape("dense", 48, 6144, 64, 64, 4 * 6144, 51200, 2048)
    for sp, fwd_ms, bwd_ms in ((False, 7.7, 11.9), (True, 7.2, 11.8)):
        lt = layer_times(shape, hw, a, tp=8, cp=1, ep=1, mb=4, sp=sp, flash=False)
        fwd = float(lt.gemm_fwd + lt.attn_fwd + lt.ew_fwd + lt.tp_fwd) * 1e3
        hidden = a.number("tp_bwd_overlap_fraction")
        bwd = float(2 * lt.gemm_fwd + lt.attn_bwd + lt.ew_bwd + (1 - hidden) * lt.tp_fwd) * 1e3
        assert fwd == pytest.approx(fwd_ms, rel=0.10)
        assert bwd == pytest.approx(bwd_ms, rel=0.10)


# Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (arXiv:2205.05198),
# Tables 3 and 5: A100 80 GB, no data parallelism, seq 2048, vocab 51,200, interleaving 3 for 175B and 530B;
# iteration time with full recomputation and with sequence parallelism + selective recomputation.
# heads, hidden, layers, TP, PP, GPUs, global batch, micro-batch, vpp, full-recompute s, SP+selective s
KORTHIKANTI = [
    ("22B", 64, 6144, 48, 8, 1, 8, 4, 4, 1, 1.42, 1.10),
    ("175B", 96, 12288, 96, 8, 8, 64, 64, 1, 3, 18.13, 13.75),
    ("530B", 128, 20480, 105, 8, 35, 280, 280, 1, 3, 49.05, 37.83),
    ("1T", 160, 25600, 128, 8, 64, 512, 512, 1, 1, 94.42, 71.49),
]


@pytest.mark.parametrize("row", KORTHIKANTI, ids=[r[0] for r in KORTHIKANTI])
def test_korthikanti_2022_iteration_times(row):
    """Megatron-LM of 2022 runs the same 530B/1T layouts ~9% faster than the SC'21 code (cuBLAS/kernel
    updates this model does not know about), so these rows are checked at ±12% and the mean at ≤ 6%."""
    _, heads, hidden, layers, tp, pp, n, batch, mb, vpp, t_full, t_sel = row
    shape = gpt(layers, hidden, heads)
    errors = []
    for recompute, sp, published in (("full", False, t_full), ("selective", True, t_sel)):
        cfg = TrainConfig(
            tp=tp,
            pp=pp,
            dp=n // (tp * pp),
            micro_batch=mb,
            global_batch=batch,
            seq_len=2048,
            vpp=vpp,
            precision="bf16",
            zero_stage=0,
            recompute=recompute,
            attention="unfused",
            sequence_parallel=sp,
            pp_overlap=False,  # Megatron-LM of 2022: blocking pipeline sends
        )
        est = estimate(shape, cfg, DGX_A100)
        errors.append(published / est.step_time_s - 1.0)  # throughput error
    assert max(abs(e) for e in errors) <= 0.12, errors
    assert abs(errors[0] - errors[1]) <= 0.08  # the gain of SP + selective recomputation (29-32%) is right
