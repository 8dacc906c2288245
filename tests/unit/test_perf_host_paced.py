"""Host-paced fine-grained MoE (engine/perf/host.py): the rule that replaced a hand-written exclusion.

A run is host-paced when one expert's grouped GEMM (per micro-batch and layer, on its GPU) is shorter than
launch_sensitive_kernel_s (catalogs/assumptions/performance.yaml, 50 µs from NVIDIA's CUDA Graph guidance).
The rule reads only the prediction: the measured figure never decides it. For such a run the GPU-time
prediction is an upper bound, and the published data has to agree: every host-paced run measured at or below
it. Oracles: closed-form GEMM rooflines, the published Megatron-Bridge figures, and the threshold read back
from a copy of the catalog file.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from gpuplanner import text
from gpuplanner.cli import main
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.bands import HOST_PACED_GROUP, band_for, compute, ranges, stored_bands
from gpuplanner.engine.perf.host import expert_gemm_s, threshold_s
from gpuplanner.engine.perf.layer_time import hardware_for
from gpuplanner.engine.perf.request import build
from gpuplanner.engine.perf.training import estimate
from gpuplanner.engine.perf.validation import check, check_all, host_paced_summary, load_runs, summary
from tests.known_gaps import GPT_OSS_BLACKWELL

CHECKED = check_all()
BY_ID = {c.run.id: c for c in CHECKED}
HOST_PACED = [c for c in CHECKED if c.host_paced and not c.run.excluded]
QWEN3_30B_B200 = dict(model="qwen3-30b-a3b", gpu="nvidia-b200", gpus=8, tp=1, pp=1, ep=8, micro_batch=4,
                      global_batch=512, seq=4096, precision="fp8", expert_tp=False)  # fmt: skip


def test_the_threshold_is_the_catalog_entry_with_a_source_and_marked_as_an_estimate():
    path = Path(load_assumptions().path)
    entry = yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]["launch_sensitive_kernel_s"]
    assert entry["value"] == pytest.approx(50e-6) and entry["estimate"] is True
    assert "TensorRT-LLM" in entry["source"] and "arXiv:2603.07685" in entry["source"]
    assert threshold_s(load_assumptions()) == entry["value"]


def test_changing_the_threshold_in_the_catalog_changes_the_rule(tmp_path):
    """The rule reads the catalog value, not a constant: the same B200 run (~40 µs) is host-paced at 50 µs, not
    at 10 µs."""
    doc = yaml.safe_load(Path(load_assumptions().path).read_text(encoding="utf-8"))
    shape, cluster, cfg = build(QWEN3_30B_B200)
    flags = {}
    for limit in (10e-6, 50e-6, 1.0):
        doc["entries"]["launch_sensitive_kernel_s"]["value"] = limit
        f = tmp_path / f"performance-{limit}.yaml"
        f.write_text(yaml.safe_dump(doc), encoding="utf-8")
        flags[limit] = estimate(shape, cfg, cluster, load_assumptions(f)).extra["short_expert_kernels"]
    assert flags == {10e-6: False, 50e-6: True, 1.0: True}


def test_expert_gemm_time_is_the_roofline_of_one_experts_up_and_down_projection():
    """B300 has NVIDIA's published 160 SMs (catalogs/assumptions/performance.yaml gpu_sm_count): one expert's
    forward is the additive roofline of its gate+up GEMM (rows × 2·768 × 2048) and down GEMM (rows × 2048 × 768),
    rows = micro-batch tokens · top_k · ep / experts = 16,384, plus the idle SMs of the last wave of each grouped
    launch: 16 local experts · 128 row tiles · 12 column tiles = 24,576 tiles in ceil(24,576/160) = 154 waves,
    and 16 · 128 · 16 = 32,768 tiles in 205 waves."""
    req = {**QWEN3_30B_B200, "gpu": "nvidia-b300", "micro_batch": 8}
    shape, cluster, cfg = build(req)
    hw = hardware_for(cluster, "fp8", load_assumptions())
    assert hw.sm_count == 160 and (hw.tile_rows, hw.tile_cols) == (128, 128)
    rows = 8 * 4096 * 8 * 8 / 128
    assert rows == 16384
    h, f = 2048.0, 768.0

    def roofline(m, n, k):
        return 2 * m * n * k / hw.gemm_flop_per_s + 1.5 * (m * k + k * n + m * n) / hw.gemm_byte_per_s

    def last_wave(m, n, k, tiles, waves):
        return 2 * m * n * k / hw.gemm_flop_per_s * (waves * 160 / tiles - 1)

    want = roofline(rows, 2 * f, h) + roofline(rows, h, f)
    want += last_wave(rows, 2 * f, h, 24576, 154) + last_wave(rows, h, f, 32768, 205)
    got = expert_gemm_s(shape, hw, tp=1, cp=1, ep=8, mb=8, etp=1)
    assert float(got) == pytest.approx(want, rel=1e-12)
    # without an SM count (0: no quantisation) the same expert is the bare roofline, a little shorter
    bare = expert_gemm_s(shape, dataclasses.replace(hw, sm_count=0.0), tp=1, cp=1, ep=8, mb=8, etp=1)
    assert float(bare) == pytest.approx(roofline(rows, 2 * f, h) + roofline(rows, h, f), rel=1e-12)
    assert float(bare) < float(got) < 1.01 * float(bare)
    # twice the micro-batch, twice the rows: the time grows (nearly) in proportion
    assert float(expert_gemm_s(shape, hw, tp=1, cp=1, ep=8, mb=16, etp=1)) > 1.9 * want


def test_a_dense_model_is_never_host_paced():
    shape, cluster, cfg = build(
        dict(model="llama3-8b", gpu="nvidia-b200", gpus=8, tp=1, pp=1, global_batch=64)
    )
    est = estimate(shape, cfg, cluster)
    assert "short_expert_kernels" not in est.extra and "expert_gemm_us" not in est.extra
    assert ranges(est, shape, cluster)["host_paced"] is None


@pytest.mark.parametrize("c", [c for c in CHECKED if c.moe], ids=lambda c: c.run.id)
def test_the_rule_is_decided_from_the_prediction_never_from_the_measurement(c):
    for factor in (0.01, 0.5, 2.0, 100.0):
        again = check(dataclasses.replace(c.run, measured=c.run.measured * factor))
        assert again.host_paced == c.host_paced
        assert again.expert_gemm_us == pytest.approx(c.expert_gemm_us)
        assert again.error != pytest.approx(c.error)


def test_which_published_runs_the_rule_marks():
    """Reported, not tuned: Qwen3 30B-A3B at micro-batch 1-4 on H100/B200/GB200 (11-48 µs) is host-paced,
    across the Megatron-Bridge releases 25.11, 26.02, 26.04 and 26.06; at micro-batch 8 on B300/GB300
    (~80-90 µs) it is not; Qwen3 235B (~160 µs), GPT-OSS 120B (~100 µs), DeepSeek-V3 (~360 µs) and Mixtral
    8x7B (~2 ms) are far from it."""
    marked = {c.run.id for c in HOST_PACED}
    assert marked == {
        "mbridge-25.11-b200-qwen3-30b-a3b",
        "mbridge-25.11-gb200-qwen3-30b-a3b",
        "mbridge-26.02-h100-qwen3-30b-a3b",
        "mbridge-26.02-b200-qwen3-30b-a3b",
        "mbridge-26.02-gb200-qwen3-30b-a3b",
        "mbridge-26.04-h100-qwen3-30b-a3b",
        "mbridge-26.04-b200-qwen3-30b-a3b",
        "mbridge-26.04-gb200-qwen3-30b-a3b",
        "mbridge-26.06-h100-qwen3-30b-a3b",
    }
    for rel in ("26.02", "26.04"):
        for gpu in ("b300", "gb300"):
            c = BY_ID[f"mbridge-{rel}-{gpu}-qwen3-30b-a3b"]
            assert c.counted and 60 < c.expert_gemm_us < 120, c.run.id
    # micro-batch 1 on B200 (25.11 and 26.02 recipes) gives a quarter of micro-batch 4's rows per expert
    mb1, mb4 = BY_ID["mbridge-26.02-b200-qwen3-30b-a3b"], BY_ID["mbridge-26.04-b200-qwen3-30b-a3b"]
    assert mb1.expert_gemm_us < 0.5 * mb4.expert_gemm_us
    for rid, lo in (("mbridge-26.02-h100-qwen3-235b-a22b", 120), ("nemo-25.02-b200-mixtral-8x7b", 1000)):
        assert BY_ID[rid].expert_gemm_us > lo and not BY_ID[rid].host_paced
    assert all(c.expert_gemm_us is None for c in CHECKED if not c.moe)


def test_the_gpu_time_prediction_bounds_every_host_paced_published_run():
    """Megatron-Bridge figures (tokens/s/GPU, docs/performance-summary-archive.md): each at or below what the
    GPU time alone allows."""
    assert len(HOST_PACED) >= 4
    for c in HOST_PACED:
        assert c.bound_holds is True, c.run.id
        assert c.run.measured <= c.predicted
    hs = host_paced_summary(CHECKED)
    assert hs["runs"] == hs["bound_holds"] == len(HOST_PACED)
    published = {
        "mbridge-25.11-b200-qwen3-30b-a3b": 9299,
        "mbridge-25.11-gb200-qwen3-30b-a3b": 23766,
        "mbridge-26.02-h100-qwen3-30b-a3b": 5113,
        "mbridge-26.02-b200-qwen3-30b-a3b": 9691,
        "mbridge-26.02-gb200-qwen3-30b-a3b": 26084,
        "mbridge-26.04-h100-qwen3-30b-a3b": 8901,
        "mbridge-26.04-b200-qwen3-30b-a3b": 26859,
        "mbridge-26.04-gb200-qwen3-30b-a3b": 26032,
        "mbridge-26.06-h100-qwen3-30b-a3b": 8826,
    }
    assert {c.run.id: c.run.measured for c in HOST_PACED} == published


def test_no_qwen3_30b_row_is_excluded_by_hand_and_the_summary_counts_the_counted_runs():
    for r in load_runs():
        if r.request.get("model") == "qwen3-30b-a3b":
            assert not r.excluded, r.id
    counted = [c for c in CHECKED if c.counted]
    assert not any(c.host_paced for c in counted)
    assert summary(CHECKED)[-1]["runs"] == len(counted)


@pytest.mark.xfail(strict=True, reason=GPT_OSS_BLACKWELL)
def test_counted_statistics_stay_within_bounds():
    e = np.abs([c.error for c in CHECKED if c.counted])
    assert e.mean() <= 0.06 and e.max() <= 0.20


def test_host_paced_runs_have_their_own_band_and_group():
    fresh = compute(CHECKED)
    hp = fresh["host_paced"]
    ratios = [1.0 / (1.0 + c.error) for c in HOST_PACED]
    assert hp["group"] == HOST_PACED_GROUP and hp["runs"] == len(HOST_PACED)
    assert hp["low"] == pytest.approx(min(ratios)) and hp["high"] == 1.0  # the upper end is the bound
    assert 0.0 <= hp["loo_coverage"] <= 1.0
    assert fresh["runs"] == sum(c.counted and c.error is not None for c in CHECKED)
    assert fresh["loo_coverage"] >= 0.90
    stored = stored_bands()["host_paced"]
    assert stored["low"] == pytest.approx(hp["low"]) and stored["runs"] == hp["runs"]
    shape, cluster, cfg = build(QWEN3_30B_B200)
    band = band_for(shape, cluster, 8, host_paced=True)
    assert band.group == HOST_PACED_GROUP and band.throughput_ratio == (stored["low"], stored["high"])
    assert band_for(shape, cluster, 8).group != HOST_PACED_GROUP


def test_a_host_paced_estimate_says_why_with_its_numbers():
    shape, cluster, cfg = build(QWEN3_30B_B200)
    est = estimate(shape, cfg, cluster)
    r = ranges(est, shape, cluster)
    assert r["band"]["group"] == HOST_PACED_GROUP
    hp = r["host_paced"]
    assert hp["expert_gemm_us"] == pytest.approx(est.extra["expert_gemm_us"]) and hp["threshold_us"] == 50.0
    assert f"{hp['expert_gemm_us']:.0f} µs" in hp["explanation"] and "upper bound" in hp["explanation"]
    zh = text.render("perf.short_expert_kernels", "zh", us=38.4, limit_us=50.0, runs=4)
    assert "38 µs" in zh and "上限" in zh
    # the measured over predicted range never exceeds 1: the prediction is the top of the range
    assert r["tokens_per_s_range"][1] == pytest.approx(est.tokens_per_s)


def _cli(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_estimate_prints_a_host_paced_line_only_when_it_applies(capsys):
    args = ["estimate", "--model", "qwen3-30b-a3b", "--gpu", "nvidia-b200", "--gpus", "8", "--tp", "1", "--pp",
            "1", "--ep", "8", "--micro-batch", "4", "--global-batch", "512", "--seq", "4096", "--precision",
            "fp8", "--no-expert-tp"]  # fmt: skip
    d = json.loads(_cli(capsys, *args, "--json"))
    assert d["host_paced"]["group"] == HOST_PACED_GROUP and d["host_paced"]["expert_gemm_us"] < 50
    out = _cli(capsys, *args)
    us = d["host_paced"]["expert_gemm_us"]
    assert f"\nhost-paced: one expert's GEMM takes {us:.0f} µs" in out and HOST_PACED_GROUP in out
    dense = _cli(capsys, "estimate", "--model", "llama3-8b", "--gpu", "nvidia-b200", "--gpus", "8")
    assert "host-paced" not in dense


def test_validate_prints_the_host_paced_runs_apart_and_as_bounds(capsys):
    out = _cli(capsys, "validate")
    counted_part, rest = out.split("host-paced fine-grained MoE", 1)
    for c in HOST_PACED:
        assert c.run.id not in counted_part.split("small collectives")[0]
        assert c.run.id in rest
    assert f"host-paced: {len(HOST_PACED)} runs, bound holds for {len(HOST_PACED)}" in rest
    d = json.loads(_cli(capsys, "validate", "--json"))
    rows = {x["id"]: x for x in d["runs"]}
    for c in CHECKED:
        x = rows[c.run.id]
        assert x["counted"] == c.counted and x["host_paced"] == c.host_paced
        assert x["expert_gemm_us"] == c.expert_gemm_us
        assert x["measured_under_prediction"] == c.bound_holds
    assert d["host_paced"]["runs"] == len(HOST_PACED)


def _project(micro_batch: int):
    from tests.moe_project import qwen3_moe_project

    return qwen3_moe_project(micro_batch)


def _analyzed(micro_batch: int):
    from gpuplanner.engine.analysis import analyze_project

    return analyze_project(_project(micro_batch))


def test_the_design_advisor_warns_of_short_expert_kernels_in_both_languages():
    """Micro-batch 1 with 16 experts per GPU: ~2,000 rows per expert, tens of µs (host-paced); micro-batch 16
    gives each expert 16 times the rows and hundreds of µs: no warning."""
    res = _analyzed(1)
    found = [f for f in res.findings if f.rule == "short-expert-kernels"]
    est = res.workload.estimate
    assert est.extra["short_expert_kernels"] and len(found) == 1
    f = found[0]
    assert f.severity == "warning" and f.items == ("w1",)
    assert f.params["us"] == round(est.extra["expert_gemm_us"]) < f.params["limit"] == 50
    en = text.finding("short-expert-kernels", "message", "en", f.params)
    zh = text.finding("short-expert-kernels", "message", "zh", f.params)
    assert f"{f.params['us']} µs" in en and "upper bound" in en
    assert f"{f.params['us']} µs" in zh and "上限" in zh
    assert text.finding("short-expert-kernels", "fix", "zh", f.params)
    big = _analyzed(16)
    assert not big.workload.estimate.extra["short_expert_kernels"]
    assert not [f for f in big.findings if f.rule == "short-expert-kernels"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_proposal_summary_notes_a_host_paced_estimate_and_cites_the_host_paced_runs(lang):
    import datetime as dt

    from gpuplanner.reports import new_context
    from gpuplanner.reports.sections import exec_summary
    from gpuplanner.reports.sources import published_runs

    ctx = new_context(_project(1), lang, today=dt.date(2026, 12, 6), warn=lambda m: None)
    perf = ctx.data["performance"]
    assert perf["band"]["group"] == HOST_PACED_GROUP
    _, note = exec_summary.fast_rows(ctx)
    us = f"{perf['host_paced']['expert_gemm_us']:,.0f} µs"
    assert us in note and ("upper bound" in note if lang == "en" else "上限" in note)
    assert {c.run.id for c in published_runs(ctx)} == {c.run.id for c in HOST_PACED}
    plain = new_context(_project(16), lang, today=dt.date(2026, 12, 6), warn=lambda m: None)
    assert plain.data["performance"]["host_paced"] is None
    assert "µs" not in exec_summary.fast_rows(plain)[1]
