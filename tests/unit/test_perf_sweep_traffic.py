"""Sweep validity and ranking; traffic flows of one step (ring decomposition, conservation, placement)."""

from __future__ import annotations

import numpy as np
import pytest

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.sweep import sweep
from gpuplanner.engine.perf.traffic import KIND_CODES, rank_grid, step_bytes_per_rank, training_flows

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
MIXTRAL = ModelShape("moe", 32, 4096, 32, 8, 14336, 32000, 4096, experts=8, top_k=2, gated_mlp=True)


def test_sweep_rows_are_valid_fitting_and_ranked():
    r = sweep(LLAMA70, H100, 256, 256)
    c = r.cols
    assert len(r) > 10 and r.valid >= len(r) and r.enumerated >= r.valid
    assert np.all(c["tp"] * c["pp"] * c["dp"] * c["cp"] == 256)
    assert np.all(256 % (c["dp"] * c["mb"]) == 0)
    assert np.all(64 % c["tp"] == 0)
    # each stage's layers (the largest stage: ceil(80 / pp)) split evenly into its virtual stages
    assert np.all((c["vpp"] == 1) | ((c["pp"] > 1) & (np.ceil(80 / c["pp"]) % c["vpp"] == 0)))
    assert np.all(8 % c["tp"] == 0)  # tp divides the 8 key/value heads (Megatron: query groups % tp == 0)
    assert np.all(r.out["mem_fits"])
    assert np.all(np.diff(r.out["tokens_per_s"]) <= 0)
    best_cfg, best = r.best(1)[0]
    assert best.fits and best_cfg.tp * best_cfg.pp * best_cfg.dp * best_cfg.cp == 256


def test_sweep_expert_parallel_divides_experts():
    r = sweep(MIXTRAL, H100, 64, 256)
    assert np.all(8 % r.cols["ep"] == 0) and np.all((r.cols["dp"] * r.cols["cp"]) % r.cols["ep"] == 0)
    assert (r.cols["ep"] > 1).any()


def test_sweep_refuses_impossible_counts():
    with pytest.raises(ValidationError):
        sweep(LLAMA70, H100, 7, 256)


CFG = TrainConfig(tp=4, pp=2, dp=4, cp=2, micro_batch=1, global_batch=64, seq_len=8192, zero_stage=0)


def test_megatron_rank_order_tp_fastest():
    g = rank_grid(CFG)
    assert g[:, 0, 0, 0].tolist() == [0, 1, 2, 3]  # TP neighbours are consecutive
    assert g[0, 1, 0, 0] == 4 and g[0, 0, 1, 0] == 8 and g[0, 0, 0, 1] == 32
    other = rank_grid(CFG, "tp-dp-cp-pp")
    assert other[0, 0, 1, 0] == 4 and other[0, 1, 0, 0] == 16


def test_ring_all_reduce_flows_conserve_bytes():
    """Ring all-reduce of S over n ranks: every rank sends 2(n-1)/n·S to its successor, n·2(n-1)/n·S in all."""
    f = training_flows(LLAMA70, CFG, 8)
    b = step_bytes_per_rank(LLAMA70, CFG)
    n_dp = CFG.dp * CFG.cp
    dp = f.kind == KIND_CODES["dp"]
    groups = CFG.tp * CFG.pp
    assert f.bytes_per_step[dp].sum() == pytest.approx(groups * n_dp * 2 * (n_dp - 1) / n_dp * b["dp_grad"])
    # each DP rank has exactly one successor and one predecessor in its ring
    assert np.bincount(f.src_gpu[dp], minlength=64).tolist() == [1] * 64
    tp = f.kind == KIND_CODES["tp"]
    assert f.bytes_per_step[tp].sum() == pytest.approx(64 * 2 * 3 / 4 * b["tp"])
    assert f.intra_node[tp].all()  # TP 4 stays inside an 8-GPU node


def test_pipeline_flows_go_both_ways_between_neighbouring_stages():
    f = training_flows(LLAMA70, CFG, 8)
    pp = f.kind == KIND_CODES["pp"]
    b = step_bytes_per_rank(LLAMA70, CFG)
    assert pp.sum() == 2 * 32  # 32 ranks per stage, one send each way
    assert np.allclose(f.bytes_per_step[pp], CFG.micro_batches * b["pp"])
    assert not f.intra_node[pp].any()  # stages are 32 ranks apart: different nodes


def test_all_to_all_sends_to_every_other_member():
    cfg = TrainConfig(tp=1, pp=1, dp=16, ep=8, micro_batch=1, global_batch=64, seq_len=4096)
    f = training_flows(MIXTRAL, cfg, 8)
    ep = f.kind == KIND_CODES["ep"]
    assert ep.sum() == 2 * 8 * 7
    b = step_bytes_per_rank(MIXTRAL, cfg)
    assert f.bytes_per_step[ep].sum() == pytest.approx(16 * 7 / 8 * b["ep"])
    assert f.intra_node[ep].all()


def test_flows_for_a_large_cluster_are_vectorised():
    big = TrainConfig(tp=8, pp=16, dp=128, micro_batch=1, global_batch=1024, seq_len=8192)
    f = training_flows(LLAMA70, big, 8)
    assert f.src_gpu.size > 16384 and f.src_gpu.max() == 16383
    with pytest.raises(ValidationError):
        training_flows(LLAMA70, big, 8, order="tp-dp-pp")
