"""Memory fit of published training runs, and the physics behind it, against the sources that give them.

Every run in test_perf_published_runs.RUNS really ran on 80 GB GPUs, so the engine must say it fits; the
Llama 3 rows use the paper's layout of one layer per virtual pipeline stage (see that file's note).
Korthikanti et al. 2022 give the configurations that do not fit without their techniques.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_perf_published_runs import DGX_A100, GPT3_175B, LLAMA3_405B, RUNS

from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.memory import (
    activation_bytes_per_layer,
    chunks_in_flight,
    first_stage_layer_microbatches,
    usable_memory_gb,
)
from gpuplanner.engine.perf.shapes import TrainConfig
from gpuplanner.engine.perf.training import estimate

A = load_assumptions()


def memory_cfg(run):
    """The run's set-up; Llama 3: one layer per virtual stage (§3.3.2, 'the first model chunk on the first
    stage has only the embedding': 126 layers + embedding + output over 16 ranks = 8 chunks of 1)."""
    return replace(run.cfg, vpp=8) if run.name.startswith("llama3") else run.cfg


@pytest.mark.parametrize("run", RUNS, ids=[r.name for r in RUNS])
def test_published_run_fits_on_its_80gb_gpus(run):
    est = estimate(run.shape, memory_cfg(run), run.cluster)
    assert est.fits, f"{run.name} ({run.source}): {est.refusal}"


def test_nemo_gpt3_fp8_fits_only_with_its_bf16_gradient_buffer():
    """NeMo 24.07 GPT-3 175B FP8 (performance summary; launcher 175b_fp8_performance.yaml, grad_sync_dtype
    bf16): with Megatron-LM's fp32 main grads the same layout would need ~11 GB more than an H100 has."""
    run = next(r for r in RUNS if r.name == "nemo-24.07-gpt3-175b-512")
    ok = estimate(run.shape, run.cfg, run.cluster)
    fp32 = estimate(run.shape, replace(run.cfg, grad_dtype=None), run.cluster)
    assert ok.fits and not fp32.fits
    assert fp32.memory["grads_gb"] == pytest.approx(2 * ok.memory["grads_gb"])


def test_llama3_8k_fits_without_checkpointing_only_with_one_layer_per_virtual_stage():
    """Llama 3 (Dubey et al. 2024) §3.3.2: 8K pre-training 'without activation checkpointing'. With 2 layers
    per chunk or more the first rank holds too many micro-batch·layers for an H100."""
    run = next(r for r in RUNS if r.name == "llama3-405b-8192-cp1")
    fits = {v: estimate(run.shape, replace(run.cfg, vpp=v), run.cluster).fits for v in (2, 8)}
    assert fits == {2: False, 8: True}


def test_korthikanti_175b_does_not_fit_without_sp_and_selective_recompute():
    """Korthikanti et al. 2022, Table 3 (175B: t 8, p 8, micro-batch 1, 64 A100 80GB) and Figure 1: with
    tensor parallelism alone and no recomputation the 175B model exceeds the 80 GB; with sequence
    parallelism and selective recomputation it fits."""
    base = dict(tp=8, pp=8, dp=1, micro_batch=1, global_batch=64, seq_len=2048, attention="unfused")
    plain = estimate(GPT3_175B, TrainConfig(**base, recompute="none", sequence_parallel=False), DGX_A100)
    ours = estimate(GPT3_175B, TrainConfig(**base, recompute="selective", sequence_parallel=True), DGX_A100)
    assert not plain.fits and ours.fits


def test_fp8_keeps_gemm_inputs_in_one_byte():
    """Transformer Engine module/linear.py saves the FP8 input of each GEMM: per GPT-3 layer with SP and
    selective recompute, 34 - (1 QKV + 1 proj + 1 fc1 + 4 fc2) = 27 bytes per s·b·h/t."""
    kw = dict(seq_len=2048, micro_batch=1, tp=4, cp=1, sp=True, flash=True)
    sbh_t = 2048 * 12288 / 4
    assert float(activation_bytes_per_layer(GPT3_175B, recompute=1, precision="fp8", **kw)) == pytest.approx(
        27 * sbh_t
    )
    # without recomputation FlashAttention also keeps its bf16 output (2) beside the projection's FP8 copy
    assert float(activation_bytes_per_layer(GPT3_175B, recompute=0, precision="fp8", **kw)) == pytest.approx(
        29 * sbh_t
    )
    # bf16 with FlashAttention is Korthikanti's 34
    assert float(activation_bytes_per_layer(GPT3_175B, recompute=0, **kw)) == pytest.approx(34 * sbh_t)


def test_llama_layer_without_dropout_masks():
    """Llama 3 405B layer (GQA 8 KV heads, SwiGLU 53248): 2+2+2+0.25+2 attention, 2+2+13+6.5 MLP = 31.75."""
    kw = dict(seq_len=8192, micro_batch=1, tp=8, cp=1, sp=True, flash=True, recompute=0)
    assert float(activation_bytes_per_layer(LLAMA3_405B, **kw)) == pytest.approx(31.75 * 8192 * 16384 / 8)


def test_megatron_interleaved_warmup_count():
    """Megatron-Core schedules.py: rank 0 runs 2(p-1) + (v-1)·p warm-up chunk forwards, then one more before
    its first backward. NeMo GPT-3 (p 8, v 6): 55 chunks of 2 layers = 110 layers = p + (p-1)/v stages."""
    assert float(chunks_in_flight(8, 6, 128)) == 55
    assert float(chunks_in_flight(8, 1, 128)) == 8
    # as many micro-batches as stages: all of them warm up (m·v chunk forwards)
    assert float(chunks_in_flight(16, 8, 16)) == 128


def test_llama3_first_rank_holds_112_layer_microbatches():
    """p 16, v 8, 1 layer per chunk, chunk 0 = the embedding only: of the 143 chunk forwards in flight, 31 are
    of the embedding chunk, so 112 layer·micro-batches (7 layers × 16)."""
    got = first_stage_layer_microbatches(LLAMA3_405B, pp=16, vpp=8, micro_batches=32, balanced=True)
    assert float(got) == 112
    unbalanced = first_stage_layer_microbatches(LLAMA3_405B, pp=16, vpp=8, micro_batches=32, balanced=False)
    assert float(unbalanced) == 143


def test_h100_usable_memory_from_its_81559_mib():
    """modal-labs/modal-client PR #2797: nvidia-smi shows 81,559 MiB (85.52 GB) on an H100 80GB."""
    capacity, usable = usable_memory_gb(80, "NVIDIA H100 SXM 80GB", A)
    assert capacity == pytest.approx(85.52, abs=0.01)
    assert usable == pytest.approx(85.52 * 0.95 - 2.0, abs=0.01)
    assert np.isclose(usable_memory_gb(80, "NVIDIA A100 SXM4 80GB", A)[0], 85.90, atol=0.01)


def test_fp8_weights_carry_their_cached_fp8_copy_and_transpose():
    run = next(r for r in RUNS if r.name == "nemo-24.07-gpt3-175b-512")
    fp8 = estimate(run.shape, run.cfg, run.cluster).memory["weights_gb"]
    bf16 = estimate(run.shape, replace(run.cfg, precision="bf16"), run.cluster).memory["weights_gb"]
    emb = run.shape.vocab * 12288 / 4 * 2 / 1e9  # the bf16 embedding has no FP8 copy
    assert fp8 == pytest.approx(2 * bf16 - emb, rel=1e-6)
