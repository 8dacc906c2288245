"""The engine's fused-attention time against NVIDIA's published cuDNN SDPA training kernels (oracle).

Data: tests/data/cudnn_sdpa (NVIDIA/cudnn-frontend 3929da2e, MIT): cuDNN 9.22 on GB200 and GB300 (2026-04), cuDNN
9.19 on H200 (2026-02), bf16, non-deterministic backward; every forward and backward row, causal and unmasked,
head dims 64 (windowed), 128, 192/128 (MLA) and 256 (forward only). The engine's time is its own
(engine/perf/layer_time.py flash_attention_s) on the catalog GPU: GB200 → nvidia-gb200, GB300 → nvidia-gb300,
H200 → nvidia-h200-sxm. `python benchmarks/attention_vs_cudnn.py` prints the table; docs/notes/s11-attn.md
discusses it.

The bars, and why not ±25 % on every row: the engine's rate (flash_attention_efficiency) stands for the cuDNN the
validated NeMo 25.02 / Megatron-Bridge runs used, older than 9.22, and it is not replaced by these measurements.
On Blackwell cuDNN 9.22 runs full attention 1.0-1.8x faster than the engine charges (measured/engine 0.55-0.94
over forward + backward), on H200 cuDNN 9.19 0.73-1.17; and the engine charges forward and backward at one rate
while cuDNN's forward runs ~1.2-1.5x its backward's rate, so a single pass spreads wider (0.44-1.32). What the
measurements fix is the sliding window: before, the engine charged a 128-key window w/s of the square and was
4.4-9.2x too fast on those rows; now a window costs the tiles it touches and a fixed cost per query tile, and
the windowed rows sit where the full-attention rows of the same GPU sit.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

import pytest

from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.layer_time import window_square_share
from tests.oracles import cudnn_sdpa

A = load_assumptions()
TABLE = cudnn_sdpa.table()


def _pairs() -> dict[tuple, dict[str, tuple[float, float]]]:
    """(gpu, model, mask, window, batch, seq, d_qk) → {pass: (measured ms, engine ms)}."""
    d: dict[tuple, dict[str, tuple[float, float]]] = defaultdict(dict)
    for r, e, _ in TABLE:
        d[(r.gpu, r.model, r.mask, r.window, r.batch, r.seq, r.d_qk)][r.step] = (r.ms, e)
    return d


def _fwd_bwd(v: dict[str, tuple[float, float]]) -> float:
    return (v["fwd"][0] + v["bwd"][0]) / (v["fwd"][1] + v["bwd"][1])


PAIRS = {k: _fwd_bwd(v) for k, v in _pairs().items() if "fwd" in v and "bwd" in v}


def test_every_row_is_read_and_compared():
    print("\n" + cudnn_sdpa.format_table())
    assert len(TABLE) == 220  # 190 GB200/GB300 passes, 15 H200 lines of two passes each
    gpus = {r.gpu for r, _, _ in TABLE}
    assert gpus == {"NVIDIA GB200", "NVIDIA GB300", "NVIDIA H200"}
    assert {r.d_qk for r, _, _ in TABLE} == {64, 128, 192, 256}
    assert {r.window for r, _, _ in TABLE} == {0, 128, 1024}


def test_each_pass_within_the_stated_bar():
    """Every single pass: 0.40 ≤ measured/engine ≤ 1.35 (one rate for both passes; see the module docstring)."""
    bad = [(r.label, round(q, 2)) for r, _, q in TABLE if not 0.40 <= q <= 1.35]
    assert not bad, bad


def test_forward_plus_backward_within_the_stated_bar():
    """Forward + backward of each shape: 0.50 ≤ measured/engine ≤ 1.30 on every GPU."""
    bad = {k: round(q, 2) for k, q in PAIRS.items() if not 0.50 <= q <= 1.30}
    assert not bad, bad
    assert len(PAIRS) == 105


def test_blackwell_cudnn_9_22_is_not_slower_than_the_engine_from_4k_tokens():
    """The engine's Blackwell rate stands for the older cuDNN of the validated runs: cuDNN 9.22 is at least as
    fast on every full-attention shape from 4,096 tokens (the direction of the gap the note records)."""
    for k, q in PAIRS.items():
        if k[0] != "NVIDIA H200" and not k[3] and k[5] >= 4096:
            assert q <= 1.0, (k, q)


@pytest.mark.parametrize("gpu", ["NVIDIA GB200", "NVIDIA GB300", "NVIDIA H200"])
def test_windowed_rows_sit_with_the_full_attention_rows_of_their_gpu(gpu):
    """The bar the sliding-window change is held to: each windowed shape's forward + backward measured/engine is
    within ±25 % of the causal Llama 3.1 shape's on the same GPU at the same sequence length (the same batch ×
    heads × head dim). At 32,768 tokens ±50 % (GB200 1.27, GB300 1.46): there cuDNN's windowed forward takes 3.2x the time of 16,384
    tokens for twice the tiles (GB200 0.822 → 2.634 ms; the backward doubles, 1.818 → 3.692 ms), which no
    per-tile charge follows."""
    windowed = {k: q for k, q in PAIRS.items() if k[0] == gpu and k[3]}
    assert len(windowed) == 5
    for k, q in windowed.items():
        ref = PAIRS[(gpu, "llama3.1", "top_left", 0, 2 if gpu != "NVIDIA H200" else 1, k[5], 128)]
        bar = 0.50 if k[5] == 32768 else 0.25
        assert abs(q / ref - 1.0) <= bar, (k, q, ref)


def test_the_old_window_charge_was_four_times_too_fast():
    """w/s of the square (the charge before) against the tile count + per-tile-row cost now, GPT-OSS shape."""
    win = A.table("sliding_window_attention")
    old = 128 / 4096
    new = window_square_share(4096, 128, win["tile"], win["block_overhead_tiles"])
    assert new / old == pytest.approx(6.77, abs=0.01)
    # tiles alone: 63 of 1024 tiles of 128 x 128 (2 per query tile, 1 for the first): twice the useful FLOPs
    assert window_square_share(4096, 128, 128, 0.0) == pytest.approx(63 / 1024)
    # a window as long as the sequence is causal attention; longer windows change nothing
    assert window_square_share(4096, 4096, 128, 0.0) == window_square_share(4096, 1 << 20, 128, 0.0)


def test_block_overhead_is_the_gb200_measurement():
    """n0 from the source rows: GPT-OSS-shape windowed (w 128) over Llama-3.1-shape causal, forward + backward,
    GB200, seq 4096, the same batch × heads × head dim: (63 + 32 n0) / 512 = measured ratio."""
    rows = {
        (r.model, r.seq, r.step): r.ms
        for r, _, _ in TABLE
        if r.gpu == "NVIDIA GB200" and r.mask == "top_left"
    }
    ratio = (rows["gpt_oss", 4096, "fwd"] + rows["gpt_oss", 4096, "bwd"]) / (
        rows["llama3.1", 4096, "fwd"] + rows["llama3.1", 4096, "bwd"]
    )
    n0 = (ratio * 512 - 63) / 32
    assert A.table("sliding_window_attention")["block_overhead_tiles"] == pytest.approx(n0, abs=0.05)


def test_blackwell_ultra_rate_is_the_measured_gb300_over_gb200_ratio():
    """b300/gb300 take gb200's efficiency times NVIDIA's measured GB300/GB200 cuDNN 9.22 speed (forward +
    backward of the 40 full-attention shapes measured on both: median 1.12), both at 2,500 TFLOP/s dense."""
    by = defaultdict(dict)
    for k, q in _pairs().items():
        if not k[3] and "bwd" in q:
            by[k[1:]][k[0]] = q["fwd"][0] + q["bwd"][0]
    speed = [v["NVIDIA GB200"] / v["NVIDIA GB300"] for v in by.values() if len(v) == 2]
    assert len(speed) == 40
    med = statistics.median(speed)
    assert min(speed) <= 1.12 <= max(speed)
    gb200 = A.number("flash_attention_efficiency", "NVIDIA GB200")
    for name in ("NVIDIA GB300 Blackwell Ultra GPU (NVL72)", "NVIDIA B300 288GB (HGX)"):
        assert A.number("flash_attention_efficiency", name) == pytest.approx(gb200 * med, abs=0.005)


def test_backward_over_forward_flops_are_cudnns():
    """The engine's backward over forward time (one rate) is cuDNN's FLOP ratio (3·d_qk + 2·d_vo)/(d_qk + d_vo):
    2.5 for equal head dims, 2.6 for MLA's 192/128."""
    seen = set()
    for k, v in _pairs().items():
        if "fwd" in v and "bwd" in v:
            d_qk = k[6]
            d_vo = 128 if d_qk == 192 else d_qk
            assert v["bwd"][1] / v["fwd"][1] == pytest.approx((3 * d_qk + 2 * d_vo) / (d_qk + d_vo)), k
            seen.add(d_qk)
    assert seen == {64, 128, 192}
