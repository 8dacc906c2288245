"""GPT-OSS's exact shape: learned attention sinks, biases on every linear layer, the clamped SwiGLU, and the
Megatron-Core recomputation of the norm and the expert activation (`recompute_norm_act`) its recipe runs.

Oracles, independent of the engine's code:
- OpenAI, 'gpt-oss-120b & gpt-oss-20b Model Card' (arXiv:2508.10925), Table 1: 116.83B total and 5.13B active
  parameters (active counts the unembedding, not the embedding lookup);
- openai/gpt-oss-120b config.json and openai/gpt-oss gpt_oss/torch/model.py: hidden 2880, 36 layers, 64 query
  heads and 8 KV heads of 64, 128 experts of 2880, top-4, vocab 201088; a bias on q/k/v/o, the router and both
  expert matrices, one sink per head; the bias counts below are written out by hand from those widths;
- byte counts of the kernels Megatron-Core runs (experts.py TEGroupedMLP._apply_bias, fused_bias_geglu.py
  weighted_bias_quick_geglu_impl), as closed forms in the tokens of one micro-batch.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.flops import layer_forward_flops_per_token, param_counts
from gpuplanner.engine.perf.layer_time import hardware_for, layer_times
from gpuplanner.engine.perf.memory import activation_coefficients
from gpuplanner.engine.perf.request import build, shape_of
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.perf.validation import check_all, load_runs

A = load_assumptions()
EW = A.table("elementwise_bytes")
ROW_ID = "mbridge-26.02-h100-gpt-oss-120b"
H, L, HEADS, KV, HD, E, F, TOPK, V = 2880, 36, 64, 8, 64, 128, 2880, 4, 201088
# bias parameters of one layer, from the widths: q 64·64, k and v 8·64 each, o 2880; router 128; per expert
# gate_up 2·2880 and down 2880
ATTN_BIAS = HEADS * HD + 2 * KV * HD + H  # 8000
EXPERT_BIAS = 2 * F + H  # 8640
ROUTER_BIAS = E


def _shape():
    return shape_of({"model": "gpt-oss-120b"}, default_catalog())


def _plain(shape):
    return dataclasses.replace(shape, attention_sinks=False, linear_bias=False, swiglu_clamp=0.0)


def test_the_catalog_states_sinks_biases_and_the_clamp_and_is_exact():
    s = _shape()
    assert (s.attention_sinks, s.linear_bias, s.swiglu_clamp) == (True, True, 7.0)
    assert default_catalog().get("gpt-oss-120b").raw.get("estimate") is False


def test_total_and_active_parameters_match_the_model_card():
    c = param_counts(_shape())
    assert c["total"] / 1e9 == pytest.approx(116.83, abs=0.005)
    # the card's active count leaves out the input embedding (a lookup, not a multiply)
    assert (c["active"] - V * H) / 1e9 == pytest.approx(5.13, abs=0.005)


def test_biases_and_sinks_add_exactly_their_hand_counted_parameters():
    with_b, without = param_counts(_shape()), param_counts(_plain(_shape()))
    per_layer = ATTN_BIAS + HEADS + E * EXPERT_BIAS + ROUTER_BIAS  # 1,114,112
    assert with_b["total"] - without["total"] == pytest.approx(L * per_layer)
    active = ATTN_BIAS + HEADS + TOPK * EXPERT_BIAS + ROUTER_BIAS
    assert with_b["active"] - without["active"] == pytest.approx(L * active)


def test_a_bias_costs_one_add_per_output_and_a_sink_three_flops_per_head():
    s = 4096
    gemm_b, scores_b = layer_forward_flops_per_token(_shape(), s)
    gemm, scores = layer_forward_flops_per_token(_plain(_shape()), s)
    assert gemm_b - gemm == pytest.approx(ATTN_BIAS + ROUTER_BIAS + TOPK * EXPERT_BIAS)  # 42,688 adds
    assert scores_b - scores == pytest.approx(3 * HEADS)


def _times(shape):
    _, cluster, _ = build(dict(model="gpt-oss-120b", gpu="nvidia-h100-sxm", gpus=64, tp=1, pp=4, ep=8))
    hw = hardware_for(cluster, "bf16", A)
    s = dataclasses.replace(shape, seq_len=4096)
    return hw, layer_times(s, hw, A, tp=1, cp=1, ep=8, mb=1, sp=False, flash=True, etp=1)


def test_bias_and_clamp_kernels_cost_their_bytes_at_the_elementwise_rate():
    tokens = 4096
    routed = TOPK * tokens * H  # token copies × hidden at the experts' fc2 output
    act = TOPK * tokens * F  # activation outputs of the routed copies
    hw, plain = _times(_plain(_shape()))
    _, biased = _times(dataclasses.replace(_plain(_shape()), linear_bias=True))
    _, clamped = _times(dataclasses.replace(_plain(_shape()), swiglu_clamp=7.0))
    rate = hw.ew_byte_per_s
    fwd_bias = (EW["expert_bias_fwd"] * routed + EW["proj_bias_fwd"] * tokens * H) / rate
    bwd_bias = (EW["expert_bias_bwd"] * routed + EW["proj_bias_bwd"] * tokens * H) / rate
    assert float(biased.ew_fwd - plain.ew_fwd) == pytest.approx(fwd_bias)
    assert float(biased.ew_bwd - plain.ew_bwd) == pytest.approx(bwd_bias)
    assert float(clamped.ew_fwd - plain.ew_fwd) == pytest.approx(16 * act / rate)
    assert float(clamped.ew_bwd - plain.ew_bwd) == pytest.approx(20 * act / rate)
    assert float(biased.gemm_fwd) == float(plain.gemm_fwd)  # fc1's bias rides in the GEMM epilogue
    # what an overlapped all-to-all can hide behind includes the per-expert bias and the clamp
    assert float(biased.moe_fwd - plain.moe_fwd) == pytest.approx(EW["expert_bias_fwd"] * routed / rate)
    assert float(clamped.moe_bwd - plain.moe_bwd) == pytest.approx(20 * act / rate)


def test_recompute_norm_act_reruns_the_pre_mlp_norm_and_the_clamped_activation():
    hw, lt = _times(_shape())
    tokens = 4096
    # RMSNorm r2 w2 per token·hidden; quick-GeGLU r4 w2 and the clamp's 16 bytes per activation output
    expected = (4 * tokens * H + (6 + 16) * TOPK * tokens * F) / hw.ew_byte_per_s
    assert float(lt.norm_act_fwd) == pytest.approx(expected)


def test_recompute_norm_act_drops_the_norm_output_and_what_the_activation_kept():
    s = _shape()
    kept, dropped = activation_coefficients(s)[0], activation_coefficients(s, True)[0]
    # per token·hidden: norm output 2; activation 10 (fc1 output 4, clamped copy 4, fc2 input 2) -> 4 per ffn
    assert kept - dropped == pytest.approx(2 + 6 * TOPK * F / H)
    no_clamp = dataclasses.replace(s, swiglu_clamp=0.0)
    assert activation_coefficients(s)[0] - activation_coefficients(no_clamp)[0] == pytest.approx(
        4 * TOPK * F / H
    )


def _row_request(**extra):
    (row,) = [r for r in load_runs() if r.id == ROW_ID]
    return {**row.request, **extra}


def test_recompute_norm_act_adds_its_time_only_where_full_recomputation_does_not_rerun_the_layer():
    on = estimate(*_ordered(build(_row_request())))
    off = estimate(*_ordered(build(_row_request(recompute_norm_act=False))))
    assert on.step_time_s > off.step_time_s
    assert on.memory["activations_gb"] < off.memory["activations_gb"]
    full_on = estimate(*_ordered(build(_row_request(recompute="full"))))
    full_off = estimate(*_ordered(build(_row_request(recompute="full", recompute_norm_act=False))))
    assert full_on.breakdown["recompute_s"] == pytest.approx(full_off.breakdown["recompute_s"])


def _ordered(built):
    shape, cluster, cfg = built
    return shape, cfg, cluster


def test_a_clamp_without_a_gated_activation_is_refused():
    with pytest.raises(ValidationError, match="swiglu_clamp"):
        dataclasses.replace(_shape(), gated_mlp=False)
    with pytest.raises(ValidationError, match="swiglu_clamp"):
        dataclasses.replace(_shape(), swiglu_clamp=-1.0)


def test_the_command_line_takes_recompute_norm_act():
    base = [
        sys.executable,
        "-m",
        "gpuplanner",
        "estimate",
        "--model",
        "gpt-oss-120b",
        "--gpu",
        "nvidia-h100-sxm",
    ]
    base += ["--gpus", "64", "--tp", "1", "--pp", "4", "--ep", "8", "--seq", "4096", "--global-batch", "1280"]
    base += ["--no-expert-tp", "--recompute", "none", "--grad-dtype", "bf16", "--json"]

    def out(flag: str) -> dict:
        return json.loads(subprocess.run(base + [flag], capture_output=True, text=True, check=True).stdout)

    on, off = out("--recompute-norm-act"), out("--no-recompute-norm-act")
    assert on["settings"]["recompute_norm_act"] is True and off["settings"]["recompute_norm_act"] is False
    assert on["step_time_s"] > off["step_time_s"]


def test_the_megatron_bridge_row_is_counted():
    (c,) = [c for c in check_all() if c.run.id == ROW_ID]
    assert not c.run.excluded
    assert c.run.request["recompute_norm_act"] is True and c.run.request["recompute"] == "none"
    assert c.error is not None and abs(c.error) < 0.20


def test_the_all_to_all_dispatcher_sorts_the_received_copies_by_local_expert_and_back():
    """Megatron-Core MoEAlltoAllTokenDispatcher (token_dispatcher.py): with more than one expert per rank the
    copies arrive ordered by source rank and are sorted by local expert before the experts and restored before
    the combine (sort_chunks_by_idxs: split + cat, r2 w2 per element each way), and their gradients the same
    way back. DeepEP/HybridEP hand the copies over already grouped; one expert per rank needs no sort."""
    tokens = 4096
    routed = TOPK * tokens * H
    _, cluster, _ = build(dict(model="gpt-oss-120b", gpu="nvidia-h100-sxm", gpus=64, tp=1, pp=4, ep=8))
    hw = hardware_for(cluster, "bf16", A)
    s = dataclasses.replace(_shape(), seq_len=4096)

    def lt(ep, dedup):
        return layer_times(
            s, hw, A, tp=1, cp=1, ep=ep, mb=1, sp=False, flash=True, etp=1, dedup_dispatch=dedup
        )

    a2a, deepep = lt(8, False), lt(8, True)  # 16 local experts
    assert float(a2a.ew_fwd - deepep.ew_fwd) == pytest.approx(8 * routed / hw.ew_byte_per_s)
    assert float(a2a.ew_bwd - deepep.ew_bwd) == pytest.approx(8 * routed / hw.ew_byte_per_s)
    one_a2a, one_deepep = lt(128, False), lt(128, True)  # one expert per rank
    assert float(one_a2a.ew_fwd) == float(one_deepep.ew_fwd)
    assert float(one_a2a.ew_bwd) == float(one_deepep.ew_bwd)
