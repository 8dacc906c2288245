"""Predicted throughput against the published training runs bundled in catalogs/validation/training_runs.yaml.

The same data `gpuplanner validate` prints, run through the same request path as `gpuplanner estimate`
(engine/perf/request.py). Each run names its source (paper and table, or document and row) and the settings it
states; the FLOP convention is the source's own (hardware TFLOP/s with the recomputed forward for Megatron's
eq. 3, model TFLOP/s for NeMo and Llama 3, MFU for MosaicML). Run `pytest -s` on this file for the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest
import yaml

from gpuplanner.engine.perf.request import build
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.perf.validation import check_all, load_runs, summary
from tests.known_gaps import GPT_OSS_BLACKWELL, GPT_OSS_BLACKWELL_ROWS

CHECKED = check_all()
COUNTED = [c for c in CHECKED if c.counted]

# of these, the rows beyond the 20 % bar (26.02 B200 is within it, +13 %, and stays a plain test; the GB300 rows,
# +19-20 % since the sliding-window layers are charged the tiles they touch and Blackwell Ultra's attention its
# measured rate, docs/notes/s11-attn.md, are plain tests too)
WITHIN_20 = (
    "mbridge-26.02-b200-gpt-oss-120b",
    "mbridge-26.02-gb300-gpt-oss-120b",
    "mbridge-26.04-gb300-gpt-oss-120b",
)
GPT_OSS_BLACKWELL_OVER_20 = tuple(r for r in GPT_OSS_BLACKWELL_ROWS if r not in WITHIN_20)


def _known(c):
    if c.run.id in GPT_OSS_BLACKWELL_OVER_20:
        return pytest.param(c, id=c.run.id, marks=pytest.mark.xfail(strict=True, reason=GPT_OSS_BLACKWELL))
    return pytest.param(c, id=c.run.id)


@dataclass(frozen=True)
class Run:
    """A bundled run as engine inputs (used by test_perf_memory_published.py)."""

    name: str
    source: str
    shape: ModelShape
    cluster: ClusterSpec
    cfg: TrainConfig


def _as_inputs(r) -> Run:
    shape, cluster, cfg = build(r.request)
    return Run(r.id, r.source, shape, cluster, cfg)


RUNS = [
    _as_inputs(r) for r in load_runs() if not r.excluded
]  # host-paced runs too (their memory is modelled)
BY_ID = {r.name: r for r in RUNS}
DGX_A100 = BY_ID["sc21-t2-ptd-175b-384"].cluster
GPT3_175B = BY_ID["sc21-t2-ptd-175b-384"].shape
LLAMA3_405B = BY_ID["llama3-405b-8192-cp1"].shape


def test_print_table():
    print()
    for c in CHECKED:
        err = "excluded" if c.run.excluded else f"{c.error * 100:+6.1f}%"
        print(f"{c.run.id:30s} {c.run.metric:18s} {c.run.measured:9.3f} {c.predicted:9.3f} {err}")
    for f in summary(CHECKED):
        print(f)


def test_at_least_30_runs_from_5_families_each_with_source_and_settings():
    assert len(COUNTED) >= 30
    assert len({c.run.family for c in COUNTED}) >= 5
    for c in CHECKED:
        assert len(c.run.source) > 20 and len(c.run.states) > 20, c.run.id
        assert c.run.request.get("gpus") and c.run.request.get("gpu"), c.run.id


def test_no_published_layout_is_refused():
    refused = [(c.run.id, c.refusal) for c in COUNTED if c.error is None]
    assert not refused


@pytest.mark.parametrize("c", [_known(c) for c in COUNTED])
def test_run_within_20_percent(c):
    assert abs(c.error) <= 0.20, f"{c.predicted:.3f} vs {c.run.measured} ({c.run.source})"


@pytest.mark.xfail(strict=True, reason=GPT_OSS_BLACKWELL)
def test_mean_error_at_most_6_percent():
    e = np.abs([c.error for c in COUNTED])
    assert e.mean() <= 0.06, np.round(e, 3)


def test_mean_error_without_the_gpt_oss_blackwell_rows_at_most_6_percent():
    """The bar on the other counted runs still holds (the known failure above is only these eight rows; the
    GPT-OSS H100 rows are held to it)."""
    assert {c.run.id for c in COUNTED} >= set(GPT_OSS_BLACKWELL_ROWS)
    e = np.abs([c.error for c in COUNTED if c.run.id not in GPT_OSS_BLACKWELL_ROWS])
    assert len(e) == len(COUNTED) - 8
    assert e.mean() <= 0.06 and e.max() <= 0.20, np.round(e, 3)


def test_megatron_table1_via_the_cli_stack_within_8_percent_per_row():
    rows = [c for c in COUNTED if c.run.id.startswith("sc21-t1-")]
    assert len(rows) == 10
    assert all(c.run.request["stack"] == "megatron-2021" for c in rows)
    assert max(abs(c.error) for c in rows) <= 0.08


def test_zero3_rows_of_sc21_table2_follow_the_measured_collapse():
    """SC'21 Table 2: ZeRO-3 falls from 144 to 44 TFLOP/s per GPU as 175B goes from 384 to 1536 GPUs (one
    micro-batch per GPU left to hide the gathers behind); before the gathers were bounded by the compute
    they hide behind, the engine predicted ~190 TFLOP/s at every scale (4.3x too fast at 1536)."""
    z = {c.run.id: c for c in COUNTED if "zero3" in c.run.id}
    assert z["sc21-t2-zero3-175b-1536"].predicted < 0.4 * z["sc21-t2-zero3-175b-384"].predicted
    assert all(abs(c.error) <= 0.15 for c in z.values())


def _req(run_id: str) -> dict:
    return dict(next(r for r in load_runs() if r.id == run_id).request)


def test_tp_comm_overlap_is_what_closes_the_fp8_gap():
    """NeMo's FP8 recipes overlap TP collectives with the GEMMs (userbuffers). With the FP8 GEMM rate from the
    MAMF ratio and the casts counted (session 6), the overlap is worth ~6 points on GPT-3 175B at 512 GPUs
    (measured 842 TFLOP/s): without it the engine is more than 5 % pessimistic, with it within 5 %."""
    shape, cluster, cfg = build(_req("nemo-24.07-gpt3-175b-512"))
    with_ub = estimate(shape, cfg, cluster).tflops_per_gpu
    without = estimate(shape, replace(cfg, tp_comm_overlap=False), cluster).tflops_per_gpu
    assert without / 842 - 1.0 < -0.05 < with_ub / 842 - 1.0 < 0.05


def test_overlapped_pipeline_sends_only_expose_what_outlasts_a_chunk():
    """Megatron-Core's overlap_p2p_comm hides the interleaved sends of NeMo's Llama 2 70B run (1 layer per
    virtual stage, 20 chunks); with blocking sends they cost several percent of the step."""
    shape, cluster, cfg = build(_req("nemo-24.07-llama2-70b"))
    overlapped = estimate(shape, cfg, cluster)
    blocking = estimate(shape, replace(cfg, pp_overlap=False), cluster)
    assert overlapped.breakdown["pp_comm_s"] < 0.01 * overlapped.step_time_s
    assert blocking.breakdown["pp_comm_s"] > 0.04 * blocking.step_time_s


def test_every_qwen3_30b_row_states_its_figure_and_layout_and_dates_its_source():
    """The fine-grained MoE evidence (Megatron-Bridge performance summaries, 25.11 to 26.06): each row's
    `states` quotes the published tokens/s/GPU that `measured` holds (thousands separated, as the table prints
    it) and the layout its request uses, and names its source and date."""
    doc = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "catalogs/validation/training_runs.yaml").read_text(
            encoding="utf-8"
        )
    )
    rows = [r for r in doc["runs"] if r["request"].get("model") == "qwen3-30b-a3b"]
    assert len(rows) >= 13
    for r in rows:
        q, st = r["request"], r["states"]
        assert "Megatron-Bridge" in r["source"] and "performance-summary" in r["source"], r["id"]
        assert re.fullmatch(r"20\d\d-\d\d", str(r["as_of"])), r["id"]
        assert f"{int(r['measured']):,} tokens/s/GPU" in st, r["id"]
        assert f"micro-batch {q['micro_batch']}," in st and f"global batch {q['global_batch']}," in st, r[
            "id"
        ]
        assert f"EP {q['ep']}" in st and f"PP {q['pp']}," in st and f"TP {q['tp']}," in st, r["id"]
        assert f"{q['gpus']} " in st.split(",")[1], r["id"]
        release = r["id"].split("-")[1]
        assert f"{release} " in r["source"] and r["as_of"].startswith(("2025-", "2026-")), r["id"]
