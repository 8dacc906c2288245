"""MoE physics of engine/perf/moe.py and gemm_shape.py, and the sliding-window attention of GPT-OSS.

Oracles: closed forms worked by hand from Megatron-Core's combined-1F1B pairing
(megatron/core/models/common/model_chunk_schedule_plan.py, TransformerLayerSchedulePlan.run), Megatron-Core's
warm-up count (schedules.py get_pp_rank_microbatches), NVIDIA's "Matrix Multiplication Background User's
Guide" (tile and wave quantisation), GPT-OSS's config.json (18 of 36 layers over a 128-token window), and the
Megatron-Bridge 26.02 performance summary (Qwen3 235B-A22B on 256 H100, 1,633 tokens/s/GPU).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf import gemm_shape
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.flops import attended_keys
from gpuplanner.engine.perf.gemm_shape import grouped_quantisation
from gpuplanner.engine.perf.layer_time import hardware_for, layer_times
from gpuplanner.engine.perf.moe import overlapped_ep_s, paired_layer_s, unpaired_fraction
from gpuplanner.engine.perf.request import build, run
from gpuplanner.engine.perf.shapes import ModelShape
from gpuplanner.engine.perf.training import config_columns, evaluate, options_for

# ---------------------------------------------------------------- combined 1F1B pairing


def test_pairing_by_hand_transfers_shorter_than_their_partners_are_hidden():
    # c=1 beside attn_fwd 2 | dispatch 1 beside dgrad 1, then 1 beside wgrad 1 + mlp_fwd 1 | 1 beside attn_bwd 4
    t, _ = paired_layer_s(1.0, 2.0, 4.0, 1.0, 2.0, contention=0.0)
    assert float(t) == pytest.approx(2.0 + 3.0 + 4.0)  # = the compute alone: nothing exposed


def test_pairing_by_hand_a_long_dispatch_waits_for_its_partner():
    # c=3: phase 1 max(3, 2) = 3; phase 2: the backward dispatch starts at max(3, dgrad 1) and ends at 6, the
    # expert forward waits for the forward dispatch (3) and ends at 4, so 6; phase 3 max(3, 4) = 4
    t, overlapped = paired_layer_s(3.0, 2.0, 4.0, 1.0, 2.0, contention=0.0)
    assert float(t) == pytest.approx(13.0)
    assert float(t) - 9.0 == pytest.approx(4.0)  # 4 of the 12 s of transfers exposed
    assert float(overlapped) == pytest.approx(2.0 + 3.0 + 3.0)


def test_overlap_never_hides_more_than_the_compute_beside_it():
    # transfers longer than every piece of compute: the pair takes the four transfers back to back
    t, _ = paired_layer_s(10.0, 2.0, 4.0, 1.0, 2.0, contention=0.0)
    assert float(t) == pytest.approx(40.0)


@settings(max_examples=200, deadline=None)
@given(
    c=st.floats(0.0, 50.0),
    a_f=st.floats(0.0, 20.0),
    a_b=st.floats(0.0, 40.0),
    m_f=st.floats(0.0, 20.0),
    m_b=st.floats(0.0, 40.0),
    k=st.floats(0.0, 0.5),
)
def test_pair_time_lies_between_perfect_overlap_and_none(c, a_f, a_b, m_f, m_b, k):
    compute = a_f + a_b + m_f + m_b
    t, overlapped = paired_layer_s(c, a_f, a_b, m_f, m_b, contention=k)
    t0, _ = paired_layer_s(c, a_f, a_b, m_f, m_b, contention=0.0)
    eps = 1e-9 * (1.0 + compute + 4.0 * c)
    assert max(compute, 4.0 * c) - eps <= float(t0) <= compute + 4.0 * c + eps
    assert float(t) == pytest.approx(float(t0) + k * float(overlapped), abs=eps)
    assert float(overlapped) <= min(4.0 * c, compute) + eps
    t_more, _ = paired_layer_s(c * 1.5 + 1e-3, a_f, a_b, m_f, m_b, contention=k)
    assert float(t_more) >= float(t) - eps  # more bytes never finish sooner


def test_warm_up_chunks_of_the_interleaved_schedule_have_no_partner():
    # Megatron-Core: rank 0 runs (p-1)·2 + (v-1)·p warm-up chunks of its m·v
    assert float(unpaired_fraction(8, 4, 128)) == pytest.approx(38 / 512)
    assert float(unpaired_fraction(4, 1, 80)) == pytest.approx(3 / 80)
    assert float(unpaired_fraction(1, 1, 16)) == pytest.approx(1 / 16)
    assert float(unpaired_fraction(8, 4, 2)) == 1.0


def test_unpaired_chunks_expose_all_four_transfers():
    got = overlapped_ep_s(2.0, 5.0, 10.0, 2.0, 4.0, moe_share=0.5, unpaired=1.0, contention=0.25)
    assert float(got) == pytest.approx(0.5 * 4 * 2.0)


def test_qwen3_235b_on_256_h100_against_the_megatron_bridge_figure():
    """Megatron-Bridge docs/performance-summary-archive.md, 26.02 container, DGX-H100: Qwen3_235B_a22B on 256 GPUs,
    TP2 PP8 VP4 EP32, FP8, 1,633 tokens/s/GPU, with moe_a2a_overlap. Hiding each transfer behind the whole layer
    gave +14 %; the pairing gives the measured figure within 10 %."""
    from gpuplanner.engine.perf.validation import check, load_runs

    (row,) = [r for r in load_runs() if r.id == "mbridge-26.02-h100-qwen3-235b-a22b"]
    assert row.measured == 1633
    got = check(row)
    assert got.error is not None and abs(got.error) < 0.10
    plain = run(dict(row.request, ep_overlap=False)).rows[0][1]
    paired = run(dict(row.request)).rows[0][1]
    assert paired.breakdown["ep_comm_s"] < plain.breakdown["ep_comm_s"]
    assert paired.breakdown["ep_comm_s"] > plain.breakdown["ep_comm_s"] - plain.breakdown["compute_s"]


# ---------------------------------------------------------------- grouped-GEMM tile and wave quantisation


def test_wave_quantisation_of_the_nvidia_guide():
    """108 SMs, 256x128 tiles: 1536 x 2304 is 6 x 18 = 108 tiles, one full wave; 1536 x 2432 needs 19 tile
    columns, 114 tiles, two waves for 1.06x the work: 216/114 of the ideal time."""
    assert float(grouped_quantisation(1, 1536, 2304, 108, 256, 128)) == pytest.approx(1.0)
    assert float(grouped_quantisation(1, 1536, 2432, 108, 256, 128)) == pytest.approx(
        216 / (1536 * 2432 / 32768)
    )


def test_tile_quantisation_of_few_rows_per_expert():
    # 16 experts of 8 tokens each: every expert's rows are padded to a 128-row tile (16x the work)
    q = float(grouped_quantisation(16, 8, 1536, 132, 128, 128))
    tiles = 16 * 1 * 12
    assert q == pytest.approx(np.ceil(tiles / 132) * 132 / (16 * 8 * 1536 / 16384))
    assert q > 16.0


def test_qwen3_30b_expert_gemms_fill_their_waves():
    # 16 local experts x 2048 rows x 1536 (gate+up of width 768): 3072 tiles, 24 waves of 132
    assert float(grouped_quantisation(16, 2048, 1536, 132, 128, 128)) == pytest.approx(24 * 132 / 3072)


def test_unknown_sm_count_turns_quantisation_off():
    assert float(grouped_quantisation(3, 7, 9, 0, 128, 128)) == 1.0
    assert float(gemm_shape.grouped_extra_s(3, 7, 9, 11, 1e15, 0, 128, 128)) == 0.0


# ---------------------------------------------------------------- sliding-window attention


def _gpt_oss_like(window_layers: int) -> ModelShape:
    return ModelShape(
        architecture="moe", layers=36, hidden=2880, heads=64, kv_heads=8, head_dim=64, ffn_hidden=2880,
        vocab=201088, seq_len=4096, experts=128, top_k=4, moe_ffn_hidden=2880, gated_mlp=True,
        sliding_window=128 if window_layers else 0, sliding_window_layers=window_layers,
    )  # fmt: skip


def test_gpt_oss_attends_over_2112_keys_on_average_at_4096_tokens():
    # config.json: 18 of 36 layers over a 128-token window, the other 18 over the whole sequence
    assert attended_keys(_gpt_oss_like(18), 4096) == pytest.approx((18 * 4096 + 18 * 128) / 36)
    assert attended_keys(_gpt_oss_like(0), 4096) == 4096.0


def test_windowed_layers_cut_the_flash_attention_time_by_the_closed_form():
    a = load_assumptions()
    _, cluster, _ = build(dict(model="gpt-oss-120b", gpu="nvidia-h100-sxm", gpus=8, tp=1, pp=1, ep=8))
    hw = hardware_for(cluster, "bf16", a)
    kw = dict(tp=1, cp=1, ep=8, mb=1, sp=False, flash=True)
    full = layer_times(_gpt_oss_like(0), hw, a, **kw)
    windowed = layer_times(_gpt_oss_like(18), hw, a, **kw)
    # charged share of the score square: causal 1/2 in 18 layers; in the other 18 the 128 x 128 tiles the
    # 128-key window touches (2 per query tile, 1 for the first: 63 of 1024) and 4.8 tiles' fixed cost per
    # query tile (32 of them) - sliding_window_attention in performance.yaml, docs/notes/s11-attn.md
    win = a.table("sliding_window_attention")
    assert (win["tile"], win["block_overhead_tiles"]) == (128, 4.8)
    share = (63 + 32 * 4.8) / 1024
    assert float(windowed.attn_fwd / full.attn_fwd) == pytest.approx((9 + 18 * share) / 18)
    assert float(windowed.gemm_fwd) == float(full.gemm_fwd)


def test_the_catalog_gpt_oss_carries_its_window():
    shape, _, _ = build(dict(model="gpt-oss-120b", gpu="nvidia-h100-sxm", gpus=8, tp=1, pp=1, ep=8))
    assert (shape.sliding_window, shape.sliding_window_layers) == (128, 18)


@pytest.mark.parametrize("window, layers", [(0, 18), (128, 37), (-1, 0)])
def test_a_window_that_cannot_be_is_refused(window, layers):
    with pytest.raises(ValidationError, match="sliding_window"):
        dataclasses.replace(_gpt_oss_like(0), sliding_window=window, sliding_window_layers=layers)


# ---------------------------------------------------------------- dense models are untouched


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    layers=st.sampled_from([24, 32, 48]),
    heads=st.sampled_from([16, 32]),
    tp=st.sampled_from([1, 2, 4]),
    pp=st.sampled_from([1, 2, 4]),
    mb=st.sampled_from([1, 2]),
    ep_overlap=st.booleans(),
)
def test_a_model_with_one_expert_never_reaches_the_moe_physics(
    monkeypatch, layers, heads, tp, pp, mb, ep_overlap
):
    """Removing MoE (experts = 1) leaves the dense step bit for bit: the overlap and quantisation code is not
    even called, and a dense row evaluates the same with or without the MoE overlap setting."""

    def boom(*_a, **_k):
        raise AssertionError("MoE physics reached by a dense model")

    monkeypatch.setattr("gpuplanner.engine.perf.stage_time.overlapped_ep_s", boom)
    monkeypatch.setattr("gpuplanner.engine.perf.layer_time.grouped_extra_s", boom)
    req = dict(layers=layers, hidden=heads * 128, heads=heads, seq=4096, gpu="nvidia-h100-sxm", gpus=64,
               tp=tp, pp=pp, micro_batch=mb, global_batch=256, precision="fp8", stack="nemo-2024")  # fmt: skip
    shape, cluster, cfg = build(req)
    assert not shape.is_moe
    cols = config_columns(cfg)
    a = evaluate(shape, cluster, cols, options_for(cfg))
    b = evaluate(shape, cluster, cols, dataclasses.replace(options_for(cfg), ep_overlap=ep_overlap))
    moe_model = dataclasses.replace(
        shape, architecture="moe", experts=8, top_k=2, moe_ffn_hidden=shape.hidden
    )
    assert moe_model.is_moe
    removed = dataclasses.replace(moe_model, experts=1, top_k=1)
    c = evaluate(removed, cluster, cols, options_for(cfg))
    for k in a:
        assert np.array_equal(np.asarray(a[k]), np.asarray(b[k])), k
        assert np.array_equal(np.asarray(a[k]), np.asarray(c[k])), k


# ---------------------------------------------------------------- what is counted, and why not


def test_moe_runs_left_out_state_a_reason_that_does_not_rest_on_their_error():
    """A listed MoE run's reason must hold before its error is seen; a run of a model whose catalog shape is an
    approximation (estimate: true) is listed, and every MoE run of an exact shape is counted unless the reason
    names evidence from its source. (The dense rows are another branch's.)"""
    import yaml

    from gpuplanner.catalog.loader import bundled_catalog_dir
    from gpuplanner.engine.perf.validation import load_runs

    approx, moe_models = set(), set()
    for f in (bundled_catalog_dir() / "models").glob("*.yaml"):
        d = yaml.safe_load(f.read_text(encoding="utf-8"))
        if d.get("estimate"):
            approx.add(d["id"])
        if d.get("architecture") == "moe":
            moe_models.add(d["id"])
    moe_runs = [r for r in load_runs() if r.request.get("model") in moe_models]
    assert len(moe_runs) >= 5
    for r in moe_runs:
        assert "after seeing" not in r.excluded, r.id
        if r.request["model"] in approx:
            assert r.excluded.startswith("the model's shape is an approximation"), r.id
        elif r.excluded:
            assert "source" in r.excluded, r.id


def test_an_expert_model_whose_layers_are_all_dense_overlaps_nothing():
    # dense_layers = layers leaves no MoE layer: the overlap has no transfer to hide and must not divide by zero
    shape, cluster, cfg = build(dict(model="mixtral-8x7b", gpu="nvidia-h100-sxm", gpus=8, tp=1, pp=1, ep=8,
                                     global_batch=64))  # fmt: skip
    all_dense = dataclasses.replace(shape, dense_layers=shape.layers)
    cols = config_columns(cfg)
    with np.errstate(all="raise"):
        on = evaluate(all_dense, cluster, cols, dataclasses.replace(options_for(cfg), ep_overlap=True))
    off = evaluate(all_dense, cluster, cols, options_for(cfg))
    assert np.isfinite(on["step_time_s"]).all()
    assert np.array_equal(on["step_time_s"], off["step_time_s"])
