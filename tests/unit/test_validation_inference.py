"""`gpuplanner validate --inference`: the bundled MLPerf Inference rows, predicted through the serving path of
`estimate --inference`, their error bands and the aiconfigurator peer table.

Oracles: the CLI's own `estimate --inference --json` (same prediction), each row's stated samples/s against the
output mean the MLPerf reference README states (the measured figure is the row's own), a compute-bound ceiling
written out by hand, a brute-force leave-one-out over the bands, and the ClusterSpec that
benchmarks/bench_serving_aiconfigurator.py builds for the peer rows."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import yaml

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.cli import main
from gpuplanner.core.errors import CatalogError
from gpuplanner.engine.perf.bands_inference import (
    MIN_RUNS,
    band_for,
    compute,
    coverage_by_min_runs,
    group_keys,
    serving_ranges,
    stored_bands,
)
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.validation_inference import (
    EXCLUDED,
    check,
    check_all,
    load_runs,
    runs_path,
    summary,
)
from gpuplanner.engine.perf.validation_peer import check_peer

# output tokens per sample stated in mlcommons/inference @ b66003e1 (language/<model>/README.md)
STATED_OSL = {"llama2-70b": 294.45, "mixtral-8x7b": 144.84, "llama3.1-405b": 684.68}


@pytest.fixture(scope="module")
def checked():
    return check_all()


def mlperf():
    return [r for r in load_runs() if r.id.startswith("mlperf-")]


def test_every_row_names_its_repository_commit_and_file_and_is_valid():
    runs = load_runs()
    assert len(runs) >= 120
    for r in runs:
        assert re.search(r"github\.com/[\w-]+/[\w.-]+ @ [0-9a-f]{40}: ", r.source), r.id
        assert r.metric == "output_tokens_per_s"
    for r in mlperf():
        assert "closed/" in r.source and "mlperf_log_summary.txt" in r.source and "VALID" in r.states, r.id
        assert r.request["gpus"] == 8
    counted = [r for r in runs if not r.excluded]
    assert len(counted) >= 100
    gpus = {r.request["gpu"] for r in counted}
    assert {"nvidia-h100-sxm", "nvidia-h200-sxm", "amd-mi300x"} <= gpus
    assert {"nvidia-b200"} <= gpus  # the MLPerf v5.1 B200 rows, in NVFP4 (`--precision fp4`)


def test_each_rows_samples_and_tokens_agree_with_the_output_mean_of_the_benchmark():
    """tokens/s ÷ samples/s of the run is its mean output length (the row's `output`), within the benchmark's
    90-110% tokens_per_sample rule of the reference README's."""
    for r in mlperf():
        m = re.search(r"([\d.]+) samples/s, ([\d.]+) output tokens/s", r.states)
        assert m, r.id
        sps, tps = float(m.group(1)), float(m.group(2))
        assert tps == pytest.approx(r.measured, abs=0.051)
        bench = r.family.split()[2]
        assert tps / sps == pytest.approx(STATED_OSL[bench], rel=0.10), r.id
        assert r.request["output"] == round(tps / sps), r.id


def test_server_rows_carry_the_mlperf_latency_limits_and_offline_rows_none():
    """loadgen/mlperf.conf: llama2-70b and mixtral-8x7b 2000/200 ms, llama2-70b-interactive 450/40 ms,
    llama3_1-405b 6000/175 ms (p99)."""
    limits = {
        ("llama2-70b", "Server"): (2.0, 0.2),
        ("mixtral-8x7b", "Server"): (2.0, 0.2),
        ("llama3.1-405b", "Server"): (6.0, 0.175),
        ("llama2-70b", "Interactive"): (0.45, 0.04),
    }
    for r in mlperf():
        bench, scenario = r.family.split()[2:4]
        if scenario == "Offline":
            assert "ttft" not in r.request and "tpot" not in r.request
            continue
        lim = limits[bench, scenario]
        assert (r.request["ttft"], r.request["tpot"]) == pytest.approx(lim), r.id
        # the run met them at the 99th percentile (printed in states)
        ttft, tpot = re.search(r"p99 TTFT ([\d.]+) s, p99 TPOT (\d+) ms", r.states).groups()
        assert float(ttft) <= lim[0] and float(tpot) <= lim[1] * 1e3, r.id


def test_trtllm_rows_state_exact_lengths_and_run_at_an_infinite_rate():
    rows = [r for r in load_runs() if r.id.startswith("trtllm-")]
    assert len(rows) == 60
    for r in rows:
        q = r.request
        assert f"exactly {q['prompt']} input and {q['output']} output tokens" in r.states, r.id
        assert "infinite rate" in r.states and "ttft" not in q and "tpot" not in q
        assert f"TP{q['gpus']}" in r.cite and f"{r.measured:,.0f} tokens/s" in r.states


@pytest.mark.parametrize(
    "row_id",
    [
        "mlperf-v41-nvidia-dgx-h100-h100-sxm-80gbx8-trt-llama2-70b-server",
        "mlperf-v41-nvidia-h200-sxm-141gbx8-trt-mixtral-8x7b-offline",
        "mlperf-v51-nvidia-b200-sxm-180gbx8-trt-llama2-70b-server",
        "mlperf-v51-lambda-b200-sxm-180gbx8-trt-llama3.1-405b-offline",
    ],
)
def test_the_prediction_is_what_estimate_inference_prints(row_id, checked, capsys):
    c = next(c for c in checked if c.run.id == row_id)
    argv = ["estimate", "--inference", "--json"]
    for k, v in c.run.request.items():
        opt = "--" + k.replace("_", "-")
        argv += ([opt] if v else ["--no-" + opt[2:]]) if isinstance(v, bool) else [opt, str(v)]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["serving"]["output_tokens_per_s"] == pytest.approx(c.predicted, rel=1e-9)
    assert c.error == pytest.approx(c.predicted / c.run.measured - 1.0)


def test_offline_predictions_stay_under_the_compute_ceiling(checked):
    """Every token costs 2·N_active FLOPs: output tokens/s ≤ GPUs · peak / (2·N_active) · O / (P + O), the peak of
    the row's GEMMs (FP8, or FP4 for the NVFP4 rows)."""
    cat = default_catalog()
    for c in checked:
        if c.predicted is None or c.scenario != "offline":
            continue
        q = c.run.request
        shape, cluster = shape_of(q, cat), cluster_of(q, cat)
        n_active = param_counts(shape)["active"]
        peak = cluster.peak_fp4_tflops if q.get("precision") == "fp4" else cluster.peak_fp8_tflops
        assert peak
        ceiling = q["gpus"] * peak * 1e12 / (2 * n_active)
        ceiling *= q["output"] / (q["prompt"] + q["output"])
        assert 0 < c.predicted < ceiling, c.run.id


def test_the_fp4_rows_are_counted_and_predicted_on_the_fp4_tensor_cores(checked):
    """The nine MLPerf v5.1 B200 rows state FP4 (NVFP4) weights and an FP8 KV cache: predicted, not left out."""
    fp4 = [c for c in checked if c.run.request.get("precision") == "fp4"]
    assert len(fp4) == 9
    for c in fp4:
        assert not c.run.excluded and c.predicted is not None and c.refusal == "", c.run.id
        assert c.run.request["gpu"] == "nvidia-b200" and c.run.request["kv_bytes"] == 1
        assert "FP4 weights" in c.run.states and "FP8 KV cache" in c.run.states


def test_rows_outside_the_model_are_listed_with_the_reason_and_left_out_of_the_statistics(checked, tmp_path):
    out = [c for c in checked if c.run.excluded]
    assert all(c.predicted is None and c.excluded_reason for c in out)  # none are left out today
    row = {**GOOD, "excluded": "isl_unknown"}
    (c,) = [check(r) for r in load_runs(_write(tmp_path, [row]))]
    assert c.predicted is None and c.excluded_reason and c.refusal == c.excluded_reason
    fams = summary([*checked, c])
    assert fams[-1]["runs"] == sum(not c.run.excluded for c in checked)
    fams = summary(checked)
    assert fams[-1]["family"] == "all rows"
    assert fams[-1]["runs"] == sum(not c.run.excluded for c in checked)
    errors = np.array([c.error for c in checked if c.error is not None and not c.run.excluded])
    assert fams[-1]["mean_abs_error"] == pytest.approx(float(np.mean(np.abs(errors))))


def test_stored_bands_are_the_ones_the_rows_give(checked):
    fresh = compute(checked)
    stored = stored_bands()
    assert stored["runs"] == fresh["runs"] and stored["min_runs"] == MIN_RUNS
    assert stored["loo_coverage"] == pytest.approx(fresh["loo_coverage"])
    for k, g in fresh["groups"].items():
        assert stored["groups"][k]["runs"] == g["runs"]
        assert stored["groups"][k]["low"] == pytest.approx(g["low"])
        assert stored["groups"][k]["high"] == pytest.approx(g["high"])


def test_bands_cover_90_percent_of_rows_left_out(checked):
    counted = [c for c in checked if c.error is not None and not c.run.excluded]
    ratio = np.array([1 / (1 + c.error) for c in counted])
    keys = [group_keys(c.moe, c.scenario) for c in counted]
    # brute force: for each row, the group chosen without it and the range of the others
    inside = 0
    for i in range(len(counted)):
        others = [j for j in range(len(counted)) if j != i]
        for k in keys[i]:
            members = [j for j in others if k in keys[j]]
            if len(members) >= MIN_RUNS or k == "all":
                break
        inside += ratio[members].min() <= ratio[i] <= ratio[members].max()
    assert inside / len(counted) == pytest.approx(stored_bands()["loo_coverage"])
    assert inside / len(counted) >= 0.9
    # MIN_RUNS is the smallest n whose [min, max] holds a further draw with probability (n-1)/(n+1) >= 0.9
    assert (MIN_RUNS - 1) / (MIN_RUNS + 1) >= 0.9 > (MIN_RUNS - 2) / MIN_RUNS
    assert coverage_by_min_runs(checked, [MIN_RUNS])[MIN_RUNS] == pytest.approx(inside / len(counted))


def test_a_prediction_takes_the_band_of_its_group_and_the_range_scales_it():
    b = band_for(moe=True, scenario="server")
    assert b["group"] in ("moe/server", "moe", "all") and b["runs"] >= MIN_RUNS
    lo, hi = b["measured_over_predicted"]
    r = serving_ranges(1000.0, 2.0, moe=True, scenario="server")
    assert r["output_tokens_per_s_range"] == pytest.approx([1000 * lo, 1000 * hi])
    assert r["max_requests_per_s_range"] == pytest.approx([2 * lo, 2 * hi])
    assert "published inference results" in b["explanation"]


def _write(tmp_path, rows):
    p = tmp_path / "rows.yaml"
    p.write_text(yaml.safe_dump({"runs": rows}), encoding="utf-8")
    return p


GOOD = {
    "id": "x",
    "family": "f",
    "source": "s",
    "states": "t",
    "metric": "output_tokens_per_s",
    "measured": 100.0,
    "request": {"model": "llama3-70b", "gpu": "nvidia-h100-sxm", "gpus": 8, "prompt": 100, "output": 100},
}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"request": {**GOOD["request"], "promt": 5}}, "request"),
        ({"request": {**GOOD["request"], "prompt": 0}}, "prompt"),
        ({"measured": -1}, "measured"),
        ({"metric": "tokens"}, "metric"),
        ({"excluded": "because"}, "excluded"),
    ],
)
def test_a_bad_row_is_refused_naming_the_file_row_and_field(tmp_path, change, field):
    p = _write(tmp_path, [{**GOOD, **change}])
    with pytest.raises(CatalogError) as e:
        load_runs(p)
    assert e.value.file == str(p) and e.value.entry == "x" and e.value.field == field


def test_a_missing_field_or_a_twice_listed_row_is_refused(tmp_path):
    with pytest.raises(CatalogError, match="missing measured"):
        load_runs(_write(tmp_path, [{k: v for k, v in GOOD.items() if k != "measured"}]))
    with pytest.raises(CatalogError, match="twice"):
        load_runs(_write(tmp_path, [GOOD, GOOD]))
    assert set(EXCLUDED) == {"isl_unknown"}
    assert runs_path().name == "inference_runs.yaml"


def test_peer_rows_recompute_ours_as_the_benchmark_does():
    """benchmarks/bench_serving_aiconfigurator.py builds the cluster by hand; the CLI's request path must give
    the same figures."""
    from gpuplanner.engine.perf import ClusterSpec, shape_from_entry
    from gpuplanner.engine.perf.serving import ServingSetup, at_concurrency, worker

    cat = default_catalog()
    rows = check_peer(cat)
    assert len(rows) >= 10
    p = next(r for r in rows if r.model == "llama3-70b" and r.tp == 4)
    g = cat.get(p.gpu)
    spec = ClusterSpec(
        gpu_name=g.name,
        peak_bf16_tflops=g.bf16_dense_tflops,
        peak_fp8_tflops=g.fp8_dense_tflops,
        mem_gb=g.mem_gb,
        mem_bw_tbyte_per_s=g.mem_bw_tbyte_per_s,
        gpus_per_node=8,
        scaleup_bw_gbyte_per_s=g.scaleup_bw_gbyte_per_s,
        nic_gbps_per_gpu=400.0,
    )
    setup = ServingSetup(prompt_len=p.prompt, output_len=p.output, precision=p.precision)
    w = worker(shape_from_entry(dict(cat.get(p.model).raw)), spec, setup, p.tp)
    op = at_concurrency(w, setup, p.concurrency)
    assert p.ours["tpot_ms"] == pytest.approx(float(op.tpot_s[0]) * 1e3, rel=1e-9)
    assert p.ours["tokens_per_s_per_gpu"] == pytest.approx(float(op.rate_per_s[0]) * p.output / p.tp)
    assert p.diff("tpot_ms") == pytest.approx(p.ours["tpot_ms"] / p.peer["tpot_ms"] - 1)


def test_validate_inference_prints_the_table_and_json(capsys):
    assert main(["validate", "--inference"]) == 0
    out = capsys.readouterr().out
    assert "MLPerf Inference v4.1 closed, NVIDIA DGX-H100_H100-SXM-80GBx8_TRT" in out
    assert "aiconfigurator" in out and "leave-one-out" in out
    assert "listed but not counted" not in out  # every bundled row is counted (the B200 FP4 rows too)
    assert "llama2-70b Offline" in out and "fp4 (KV fp8), in 222 / out 273" in out
    assert main(["validate", "--inference", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    b200 = [r for r in doc["runs"] if r["precision"] == "fp4"]
    assert len(b200) == 9 and all(r["kv_precision"] == "fp8" and r["predicted"] > 0 for r in b200)
    assert {"runs", "families", "bands", "peer"} <= set(doc)
    row = doc["runs"][0]
    assert row["command"].startswith("gpuplanner estimate --inference")
    assert (
        row["precision"] == "fp8"
        and row["kv_precision"] == "fp8"
        and row["measured"] > 0
        and row["source"].startswith("github.com/")
    )


def test_estimate_inference_carries_the_band_of_its_group(capsys):
    argv = ["estimate", "--inference", "--json", "--model", "mixtral-8x7b", "--gpu", "nvidia-h100-sxm"]
    argv += ["--gpus", "8", "--precision", "fp8", "--prompt", "500", "--output", "200"]
    assert main([*argv, "--ttft", "2", "--tpot", "0.2"]) == 0
    out = json.loads(capsys.readouterr().out)
    rng, plan = out["serving_ranges"], out["serving"]
    band = band_for(moe=True, scenario="server")
    assert rng["band"]["group"] == band["group"]
    lo, hi = band["measured_over_predicted"]
    assert rng["output_tokens_per_s_range"] == pytest.approx(
        [plan["output_tokens_per_s"] * lo, plan["output_tokens_per_s"] * hi]
    )
    assert main(argv) == 0  # no latency target: the offline band
    assert (
        json.loads(capsys.readouterr().out)["serving_ranges"]["band"]["group"]
        == band_for(moe=True, scenario="offline")["group"]
    )
