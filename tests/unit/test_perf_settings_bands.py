"""Run settings and stacks, ZeRO-3 physics, MFU against the precision's peak, goodput and error bands."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.band_groups import pick_group
from gpuplanner.engine.perf.bands import MIN_RUNS, band_for, compute, group_keys, stored_bands
from gpuplanner.engine.perf.goodput import goodput
from gpuplanner.engine.perf.request import build, run
from gpuplanner.engine.perf.settings import DEFAULTS, SETTINGS, load_stacks, resolve
from gpuplanner.engine.perf.shapes import TrainConfig
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.perf.validation import check_all
from tests.known_gaps import GPT_OSS_BLACKWELL, GPT_OSS_BLACKWELL_ROWS


def test_every_stack_names_its_source_and_sets_only_known_settings():
    stacks = load_stacks()
    for name in ("megatron-2021", "megatron-core-2024", "nemo-2024", "deepspeed-zero3", "torchtitan-fsdp2"):
        assert name in stacks
    for name, st in stacks.items():
        assert len(st["source"]) > 30, name
        assert set(st["settings"]) <= set(SETTINGS), name
    # the stack defaults map onto TrainConfig fields one to one
    assert set(DEFAULTS) <= {f.name for f in dataclasses.fields(TrainConfig)}


def test_user_settings_win_over_the_stack_and_the_stack_over_the_defaults():
    out, applied = resolve("megatron-2021", {"precision": "bf16", "recompute": None})
    assert out["precision"] == "bf16" and "precision" not in applied
    assert out["recompute"] == "full" and applied["recompute"] == "full"
    assert out["tp_comm_overlap"] is False and out["grad_dtype"] is None  # default, not stated by the stack
    with pytest.raises(ValidationError):
        resolve("no-such-stack", {})
    with pytest.raises(ValidationError):
        resolve(None, {"recompute": "sometimes"})


REQ = dict(layers=96, hidden=12288, heads=96, vocab=51200, seq=2048, tied_embeddings=True,
           gpu="nvidia-a100-sxm4-80gb", nic_gbps=200, tp=1, pp=1, global_batch=1536)  # fmt: skip


def test_zero3_gathers_are_bounded_by_the_compute_they_hide_behind():
    """One micro-batch of 175B per GPU cannot hide three 350 GB gathers and a reduce-scatter: the step is
    collective-bound and the exposed DP time is most of it; four micro-batch sequences hide most of it."""
    small = run({**REQ, "gpus": 1536, "micro_batch": 1, "stack": "deepspeed-zero3"}).rows[0][1]
    big = run({**REQ, "gpus": 384, "micro_batch": 4, "stack": "deepspeed-zero3"}).rows[0][1]
    assert small.breakdown["dp_comm_s"] > 0.5 * small.step_time_s
    assert big.breakdown["dp_comm_s"] < 0.3 * big.step_time_s
    # FSDP recomputes inside the unit's backward: one gather fewer than DeepSpeed's stage 3
    fsdp = run(
        {
            **REQ,
            "gpus": 1536,
            "micro_batch": 1,
            "stack": "deepspeed-zero3",
            "zero3_regather_on_recompute": False,
        }
    )
    assert fsdp.rows[0][1].step_time_s < small.step_time_s


def test_mfu_is_against_the_peak_of_the_precision_used():
    """Issue 20: H20 showed an MFU of 109% in FP8 (measured against its BF16 peak)."""
    req = dict(model="llama3-8b", gpu="nvidia-h20", gpus=64, tp=1, pp=1, global_batch=256, recompute="full")
    fp8 = run({**req, "precision": "fp8"}).rows[0][1]
    bf16 = run({**req, "precision": "bf16"}).rows[0][1]
    assert 0 < fp8.mfu < 1 and 0 < bf16.mfu < 1
    assert fp8.tflops_per_gpu > bf16.tflops_per_gpu
    assert fp8.mfu == pytest.approx(fp8.tflops_per_gpu / 296.0, rel=1e-6)  # H20 dense FP8 peak


def test_goodput_at_llama3_scale_matches_the_paper():
    """Llama 3 (arXiv:2407.21783) §3.3.4: 419 unexpected interruptions in 54 days on 16,384 GPUs, and
    'higher than 90% effective training time'."""
    g = goodput(16384, checkpoint_gb_per_gpu=0.35)
    assert g["mtbi_h"] == pytest.approx(54 * 24 / 419, rel=0.01)
    assert 0.90 < g["goodput"] < 0.97
    assert goodput(1024, 0.35)["goodput"] > g["goodput"]  # fewer GPUs, fewer interruptions


def test_workload_row_settings_and_stack():
    from gpuplanner.engine.workload_settings import train_config
    from gpuplanner.model import Workload

    wl = Workload(id="w", name="w", tp=8, pp=8, global_batch=1536, seq_len=2048, stack="megatron-2021")
    cfg = train_config(wl, 1024)
    assert cfg.precision == "fp16" and cfg.recompute == "full" and cfg.attention == "unfused"
    stated = dataclasses.replace(wl, recompute="none", sequence_parallel="on", tp_comm_overlap="on")
    cfg2 = train_config(stated, 1024)
    assert cfg2.recompute == "none" and cfg2.sp and cfg2.tp_comm_overlap
    plain = train_config(dataclasses.replace(wl, stack=""), 1024)
    assert plain.precision == "bf16" and plain.attention == "flash"


def test_stored_bands_are_the_ones_the_runs_give():
    """catalogs/validation/error_bands.yaml is generated (python -m gpuplanner.engine.perf.bands); stale = fail."""
    fresh = compute(check_all())
    stored = stored_bands()
    assert stored["runs"] == fresh["runs"]
    for k, g in fresh["groups"].items():
        assert stored["groups"][k]["runs"] == g["runs"]
        assert stored["groups"][k]["low"] == pytest.approx(g["low"], rel=1e-9)
        assert stored["groups"][k]["high"] == pytest.approx(g["high"], rel=1e-9)


def test_bands_contain_the_measured_value_for_90_percent_of_runs_left_out():
    d = compute(check_all())
    assert d["loo_coverage"] >= 0.90 and d["in_sample_coverage"] >= 0.90


def _run_bands():
    out = []
    for c in check_all():
        if c.error is None or not c.counted:
            continue
        shape, cluster, cfg = build(c.run.request)
        lo, hi = band_for(shape, cluster, c.n_gpus).throughput_ratio
        out.append((c, lo, hi, 1.0 / (1.0 + c.error)))
    return out


def test_each_run_band_contains_its_measured_value():
    assert np.mean([lo <= ratio <= hi for _, lo, hi, ratio in _run_bands()]) >= 0.9


@pytest.mark.xfail(strict=True, reason=GPT_OSS_BLACKWELL)
def test_no_run_band_is_wider_than_its_limit():
    wide = [(c.run.id, round(lo, 2), round(hi, 2)) for c, lo, hi, _ in _run_bands() if hi / lo >= 1.5]
    assert not wide  # no band spans more than ±22%


def test_no_run_band_is_wider_than_its_limit_without_the_gpt_oss_blackwell_rows():
    """The bar above, live on the bands the other counted runs give (the known failure is only these rows: they
    widen the MoE groups every MoE prediction takes its band from)."""
    checked = [c for c in check_all() if c.run.id not in GPT_OSS_BLACKWELL_ROWS]
    assert len(checked) == len(check_all()) - len(GPT_OSS_BLACKWELL_ROWS)
    doc = compute(checked)
    assert doc["loo_coverage"] >= 0.90
    wide = []
    for c in checked:
        if c.error is None or not c.counted:
            continue
        g = doc["groups"][pick_group(doc, group_keys(c.moe, c.gpu, c.n_gpus), MIN_RUNS)]
        if g["high"] / g["low"] >= 1.5:
            wide.append((c.run.id, round(g["low"], 2), round(g["high"], 2)))
    assert not wide  # no band spans more than ±22%


def test_estimate_of_a_stated_layout_equals_the_request_path():
    r = run({**REQ, "gpus": 384, "tp": 8, "pp": 12, "micro_batch": 1, "stack": "megatron-2021"})
    shape, cluster, cfg = build(
        {**REQ, "gpus": 384, "tp": 8, "pp": 12, "micro_batch": 1, "stack": "megatron-2021"}
    )
    assert r.rows[0][1].step_time_s == estimate(shape, cfg, cluster).step_time_s


def test_expert_all_to_all_overlap_hides_what_the_other_micro_batch_computes():
    """DeepSeek-V3 (arXiv:2412.19437, §3.2: 2048 H800, PP 16, EP 64, no TP, DualPipe overlapping dispatch and
    combine with computation). Without overlap the engine predicts 879 tokens/s/GPU at this layout (-43%
    against the report's 180K H800 GPU-hours per trillion tokens = 1,543). With it each transfer hides only
    behind the compute Megatron-Core pairs it with (engine/perf/moe.py): about a third of the all-to-all goes,
    and never more than the compute there is to hide behind."""
    req = dict(model="deepseek-v3-671b", gpu="nvidia-h100-sxm", scaleup_gbyte_per_s=400, nic_gbps=400, gpus=2048,
               tp=1, pp=16, ep=64, global_batch=15360, precision="fp8", recompute="selective")  # fmt: skip
    plain = run({**req, "ep_overlap": False}).rows[0][1]
    hidden = run({**req, "ep_overlap": True}).rows[0][1]
    assert hidden.breakdown["ep_comm_s"] < 0.75 * plain.breakdown["ep_comm_s"]
    assert hidden.breakdown["ep_comm_s"] > plain.breakdown["ep_comm_s"] - plain.breakdown["compute_s"]
    assert hidden.tokens_per_s > 1.15 * plain.tokens_per_s
    assert (
        hidden.tokens_per_s / 2048 < 1543
    )  # still short of the report: node-limited routing is not modelled


def test_interleaving_stops_helping_when_micro_batches_run_out_at_scale():
    """Strong scaling GPT-3 175B at a fixed batch of 1536 (TP 4, PP 8): from 12,288 GPUs each pipeline gets
    4 micro-batches, fewer than its 8 stages; Megatron runs the interleaved schedule only with m a multiple of
    p, and the first micro-batch still crosses all p·v chunks in turn, so the bubble is (p-1)·t_mb whatever
    the interleave depth — a loss that grows with scale."""
    base = dict(model="gpt3-175b", gpu="nvidia-h100-sxm", tp=4, pp=8, global_batch=1536, stack="nemo-2024")
    small = {v: run({**base, "gpus": 2048, "vpp": v}).rows[0] for v in (1, 6)}
    large = {v: run({**base, "gpus": 12288, "vpp": v}).rows[0] for v in (1, 6)}
    assert small[6][0].micro_batches == 24 and large[6][0].micro_batches == 4
    assert small[6][1].bubble_fraction == pytest.approx(small[1][1].bubble_fraction / 6)
    assert large[6][1].bubble_fraction == pytest.approx(large[1][1].bubble_fraction)
    assert large[6][1].bubble_fraction == pytest.approx(7 / 4)


def test_kv_heads_constrain_tp_only_for_a_true_gqa_grouping():
    """Megatron requires query groups % tp == 0 (Llama 3 70B: 8 KV heads, so tp 16 is refused); the catalog's
    DeepSeek-V3 gives kv_heads 5 for its compressed MLA cache, which does not group its 128 heads and must not
    refuse tp 8."""
    with pytest.raises(ValidationError, match="key/value heads"):
        run(dict(model="llama3-70b", gpu="nvidia-h100-sxm", gpus=64, tp=16, pp=1))
    res = run(dict(model="deepseek-v3-671b", gpu="nvidia-h100-sxm", gpus=1024, tp=8, pp=16, ep=8,
                   global_batch=1024, recompute="full"))  # fmt: skip
    assert res.rows[0][0].tp == 8


def test_a_misspelt_request_field_in_the_runs_file_is_refused_with_its_name(tmp_path):
    from gpuplanner.core.errors import CatalogError
    from gpuplanner.engine.perf.validation import load_runs

    f = tmp_path / "runs.yaml"
    f.write_text(
        "runs:\n- {id: x, family: f, source: s, states: t, metric: mfu, measured: 0.5,\n"
        "   request: {gpu: nvidia-h100-sxm, gpus: 8, micro_bach: 2}}\n",
        encoding="utf-8",
    )
    with pytest.raises(CatalogError, match="micro_bach"):
        load_runs(f)
