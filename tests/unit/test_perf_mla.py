"""Multi-head Latent Attention, multi-token prediction and Megatron-Core pipeline layouts (DeepSeek-V3).

Oracles, each independent of the engine's code:
- DeepSeek-V3 technical report (arXiv:2412.19437) and model card: 671 B total, 37 B activated, 14 B MTP module
  (the Hugging Face checkpoint, 685 B, stores the MTP module with its own copy of the embedding and head);
- the projections' sizes written out from the report's dimensions (Section 4.2: d_c 512, d'_c 1536, d_h 128,
  d_h^R 64, 128 heads, hidden 7168);
- NVIDIA's published 338 model TFLOP/s/GPU at 1297 tokens/s/GPU (Megatron-Bridge 25.09, DeepSeekV3 row), i.e.
  260.6 GFLOP per token in Megatron-Bridge's convention (causal attention, MTP counted);
- the KV cache of MLA: the latent and the RoPE key, (512 + 64) values per token and layer (report Section 2.1.1).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.flops import layer_forward_flops_per_token, model_flops_per_token, param_counts
from gpuplanner.engine.perf.memory import activation_bytes_per_layer, kv_cache_bytes
from gpuplanner.engine.perf.request import build, shape_of
from gpuplanner.engine.perf.stage_time import parse_layout, rank_loads
from gpuplanner.engine.perf.training import config_columns, evaluate, options_for
from gpuplanner.engine.perf.validation import check_all

CAT = default_catalog()
DSV3 = shape_of({"model": "deepseek-v3-671b"}, CAT)
H, N = 7168, 128


def test_deepseek_v3_catalog_shape_is_the_config_and_not_an_estimate():
    raw = CAT.get("deepseek-v3-671b").raw
    assert raw["estimate"] is False and "estimate_note" not in raw
    assert (DSV3.q_lora_rank, DSV3.kv_lora_rank, DSV3.qk_nope_head_dim, DSV3.qk_rope_head_dim) == (
        1536,
        512,
        128,
        64,
    )
    assert (DSV3.v_head_dim, DSV3.mtp_layers, DSV3.is_mla) == (128, 1, True)


def test_parameter_counts_against_the_report_and_the_model_card():
    c = param_counts(DSV3)
    assert c["total"] / 1e9 == pytest.approx(671.0, rel=0.003)
    assert c["active"] / 1e9 == pytest.approx(37.0, rel=0.02)
    # MTP module as the checkpoint stores it: its block and projection plus its own embedding and head copies
    mtp_checkpoint = c["mtp"] + c["embedding"]
    assert mtp_checkpoint / 1e9 == pytest.approx(14.0, rel=0.04)
    assert (c["total"] + mtp_checkpoint) / 1e9 == pytest.approx(685.0, rel=0.003)


def test_mla_projection_parameters_written_out_from_the_report():
    q_a, q_b = H * 1536, 1536 * N * (128 + 64)
    kv_a, kv_b = H * (512 + 64), 512 * N * (128 + 128)
    o = N * 128 * H
    assert (q_a, q_b, kv_a, kv_b, o) == (11_010_048, 37_748_736, 4_128_768, 16_777_216, 117_440_512)
    assert mla.attention_params(DSV3) == q_a + q_b + kv_a + kv_b + o
    # on a TP rank the down projections stay whole (Megatron-Core TELinear, "duplicated"), the rest split
    per_rank = {name: cols * inner for name, cols, inner in mla.projections(DSV3, tp=2)}
    assert per_rank == {"q_a": q_a, "q_b": q_b / 2, "kv_a": kv_a, "kv_b": kv_b / 2, "o": o / 2}


def test_attention_score_flops_per_token_are_qk_over_192_and_pv_over_128():
    s = 4096
    _, scores = layer_forward_flops_per_token(DSV3, s)
    assert scores == 2 * s * N * (128 + 64) + 2 * s * N * 128  # QK^T + PV over the full square
    gqa = dataclasses.replace(DSV3, kv_lora_rank=0, q_lora_rank=0)  # without MLA: 4·s·heads·head_dim
    assert layer_forward_flops_per_token(gqa, s)[1] == 4 * s * N * (H // N)


def test_model_flops_per_token_match_nvidia_published_model_tflops():
    """Megatron-Bridge counts causal attention (half the square); the engine the full square. Removing half of
    every layer's and the MTP block's scores from the engine's count gives NVIDIA's figure."""
    s = 4096
    full = model_flops_per_token(DSV3, s)
    half_scores = 3.0 * (DSV3.layers + DSV3.mtp_layers) * layer_forward_flops_per_token(DSV3, s)[1] / 2
    published = 338e12 / 1297
    assert (full - half_scores) == pytest.approx(published, rel=0.01)


def test_kv_cache_is_the_latent_and_rope_key_whole_on_every_tp_rank():
    for tp in (1, 2, 8):
        one = kv_cache_bytes(DSV3, batch=1, context_len=1, tp=tp, kv_precision_bytes=2.0)
        assert float(one) == 61 * (512 + 64) * 2
    llama = shape_of(
        {"model": "llama3-70b"}, CAT
    )  # GQA unchanged: 2 · 8 heads · 128 per layer, split over tp
    assert (
        float(kv_cache_bytes(llama, batch=1, context_len=1, tp=1, kv_precision_bytes=2.0))
        == 80 * 2 * 8 * 128 * 2
    )
    assert (
        float(kv_cache_bytes(llama, batch=1, context_len=1, tp=8, kv_precision_bytes=2.0))
        == 80 * 2 * 1 * 128 * 2
    )


def test_serving_worker_caches_the_latent():
    from gpuplanner.engine.perf.request import cluster_of
    from gpuplanner.engine.perf.serving_setup import ServingSetup
    from gpuplanner.engine.perf.serving_worker import worker

    cl = cluster_of({"gpu": "nvidia-h200-sxm"}, CAT)
    w = worker(DSV3, cl, ServingSetup(prompt_len=1024, output_len=256, precision="fp8"), tp=8)
    assert w.kv_gb_per_token * 1e9 == pytest.approx(61 * 576 * 1.0)


def test_mla_up_proj_recompute_drops_q_k_and_v():
    kw = dict(seq_len=4096, micro_batch=1, tp=2, cp=1, sp=True, recompute=0, flash=True, precision="fp8")
    keep = activation_bytes_per_layer(DSV3, **kw)
    drop = activation_bytes_per_layer(DSV3, **kw, mla_up_recompute=True)
    q_k_v = 2 * N * (192 + 192 + 128)  # bf16 bytes per token
    assert float(keep - drop) == pytest.approx(4096 * q_k_v / 2)


def test_layout_parser_places_megatron_bridge_deepseek_v3_chunks():
    stages = parse_layout("Et|(tt|)*30mL")
    assert len(stages) == 32 and stages[0] == "Et" and stages[-1] == "mL" and set(stages[1:-1]) == {"tt"}
    loads = rank_loads("Et|(tt|)*30mL", 8, 4, DSV3)
    assert loads[0] == {
        "dense": 1,
        "moe": 6,
        "mtp": 0,
        "head": 0,
    }  # embedding chunk, layers 0, 15-16, 31-32, 47-48
    assert loads[1] == {"dense": 2, "moe": 6, "mtp": 0, "head": 0}
    assert all(ld == {"dense": 0, "moe": 8, "mtp": 0, "head": 0} for ld in loads[2:7])
    assert loads[7] == {"dense": 0, "moe": 6, "mtp": 1, "head": 1}
    with pytest.raises(ValidationError):
        rank_loads("Et|(tt|)*30mL", 8, 2, DSV3)  # 32 stages for 16
    with pytest.raises(ValidationError):
        parse_layout("Et|tx|L")


def test_a_layout_equal_to_the_even_split_gives_the_even_split():
    """Llama 3 8B on 4 stages, the last one with the head: the layout path and the default path agree."""
    req = dict(model="llama3-8b", gpu="nvidia-h100-sxm", gpus=32, tp=1, pp=4, micro_batch=1, global_batch=64,
               seq=4096, precision="bf16")  # fmt: skip
    shape, cluster, cfg = build(req)
    even = evaluate(shape, cluster, config_columns(cfg), options_for(cfg))
    laid = dataclasses.replace(cfg, pipeline_layout="Et*8|t*8|t*8|t*8L")
    out = evaluate(shape, cluster, config_columns(laid), options_for(laid))
    assert float(out["step_time_s"][0]) == pytest.approx(float(even["step_time_s"][0]), rel=1e-12)


def test_the_heavier_last_stage_sets_the_pace():
    """Moving two layers onto the head's stage makes that stage, and so the step, slower."""
    req = dict(model="llama3-8b", gpu="nvidia-h100-sxm", gpus=32, tp=1, pp=4, micro_batch=1, global_batch=64,
               seq=4096, precision="bf16")  # fmt: skip
    shape, cluster, cfg = build(req)
    even = evaluate(shape, cluster, config_columns(cfg), options_for(cfg))
    heavy = dataclasses.replace(cfg, pipeline_layout="Et*7|t*7|t*8|t*10L")
    out = evaluate(shape, cluster, config_columns(heavy), options_for(heavy))
    ratio = float(out["compute_s"][0]) / float(even["compute_s"][0])
    assert 1.15 < ratio < 10 / 8 + 0.01  # 10 layers + head against 8 layers + head


def test_deepseek_v3_row_is_counted_with_its_exact_shape():
    (row,) = [c for c in check_all() if c.run.id == "mbridge-25.09-h100-deepseek-v3"]
    assert not row.run.excluded and row.error is not None
    assert row.run.request["pipeline_layout"] == "Et|(tt|)*30mL" and row.run.request["mla_up_proj_recompute"]
    assert abs(row.error) <= 0.20, row.error
    assert np.isfinite(row.predicted)


def test_a_layout_fixes_the_searched_pipeline():
    from gpuplanner.engine.perf.request import run

    req = dict(model="deepseek-v3-671b", gpu="nvidia-h100-sxm", gpus=1024, ep=64, global_batch=8192,
               precision="fp8", expert_tp=False, pipeline_layout="Et|(tt|)*30mL")  # fmt: skip
    with pytest.raises(ValidationError):
        run(req)  # no pp: the layout's 32 stages could be 8 × 4, 16 × 2, ...
    res = run({**req, "pp": 8, "tp": None})
    assert {(cfg.pp, cfg.vpp) for cfg, _ in res.rows} == {(8, 4)}


def test_a_run_without_mtp_states_mtp_layers_zero():
    """Megatron-Bridge's 25.11 'DeepSeekV3 (w/o MTP)' rows: the request's mtp_layers replaces the catalog's 1.
    Oracle: NVIDIA's published 782 model TFLOP/s/GPU at 3139 tokens/s/GPU (25.11, DGX-GB200, BF16, w/o MTP),
    i.e. 249.1 GFLOP per token in Megatron-Bridge's convention (causal attention, no MTP)."""
    s = 4096
    without = shape_of({"model": "deepseek-v3-671b", "mtp_layers": 0, "seq": s}, CAT)
    assert (DSV3.mtp_layers, without.mtp_layers) == (1, 0)
    assert dataclasses.replace(DSV3, mtp_layers=0, seq_len=s) == without
    full = model_flops_per_token(without, s)
    half_scores = 3.0 * without.layers * layer_forward_flops_per_token(without, s)[1] / 2
    assert (full - half_scores) == pytest.approx(782e12 / 3139, rel=0.01)
    assert param_counts(without)["mtp"] == 0 < param_counts(DSV3)["mtp"]
