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
from gpuplanner.engine.perf.request import build
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.perf.validation import load_runs

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

# Table 1's rows, as bundled for `gpuplanner validate` (catalogs/validation/training_runs.yaml, stack
# megatron-2021, torch DDP with overlapped gradient all-reduce on rows 1-4 as run_table_1.sh)
TABLE1 = [r for r in load_runs() if r.id.startswith("sc21-t1-")]


def table1_prediction(run) -> tuple[float, object]:
    shape, cluster, cfg = build(run.request)
    est = estimate(shape, cfg, cluster)
    return est.hw_tflops_per_gpu, est


@pytest.mark.parametrize("row", TABLE1, ids=[r.id for r in TABLE1])
def test_table1_row_within_8_percent(row):
    predicted, est = table1_prediction(row)
    assert est.fits, est.refusal
    assert abs(predicted - row.measured) / row.measured <= 0.08, f"{predicted:.1f} vs {row.measured}"


def test_table1_mean_error_at_most_4_percent_and_trend():
    predicted = np.array([table1_prediction(r)[0] for r in TABLE1])
    published = np.array([r.measured for r in TABLE1], dtype=float)
    assert len(TABLE1) == 10
    err = np.abs(predicted - published) / published
    assert err.mean() <= 0.04, err
    # the model must capture *why* throughput rises with size: the 1T row beats the 1.7B row
    assert predicted[-1] > predicted[0] * 1.08
    # and beats a constant 140 TFLOP/s guess (5.4% mean)
    assert err.mean() < np.mean(np.abs(140.0 - published) / published)


def test_eq3_is_what_the_estimate_calls_hardware_flops():
    row = TABLE1[3]
    tflops, est = table1_prediction(row)
    q = row.request
    n, batch, layers, hidden = q["gpus"], q["global_batch"], q["layers"], q["hidden"]
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
# iteration time with full recomputation and with sequence parallelism + selective recomputation (bundled as
# the mlsys23-* rows, stack megatron-2022).
KORTHIKANTI = ["22b", "175b", "530b", "1t"]


@pytest.mark.parametrize("model", KORTHIKANTI)
def test_korthikanti_2022_iteration_times(model):
    """Megatron-LM of 2022 runs the same 530B/1T layouts ~9% faster than the SC'21 code (cuBLAS/kernel
    updates this model does not know about), so these rows are checked at ±12%; the gain of SP + selective
    recomputation over full recomputation (29-32%) must come out within 8 points."""
    runs = {r.id: r for r in load_runs()}
    errors = []
    for kind in ("full", "selective"):
        run = runs[f"mlsys23-{model}-{kind}"]
        shape, cluster, cfg = build(run.request)
        est = estimate(shape, cfg, cluster)
        errors.append(run.measured / est.step_time_s - 1.0)  # throughput error
    assert max(abs(e) for e in errors) <= 0.12, errors
    assert abs(errors[0] - errors[1]) <= 0.08
