"""A stated KV-cache share (`estimate --inference --kv-fraction`, a validation row's kv_fraction) replaces the
serving stack's default in its own rule (serving_worker.kv_cache_gb): closed forms for both stacks, the range
check (en + zh), and the MLPerf rows that state it quoting the config line that sets it."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from gpuplanner.catalog.loader import default_catalog
from gpuplanner.cli import main
from gpuplanner.core.errors import CatalogError, ValidationError
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.memory import usable_memory_gb
from gpuplanner.engine.perf.request import cluster_of, shape_of
from gpuplanner.engine.perf.served_weights import served_weights
from gpuplanner.engine.perf.serving import ServingSetup, serving_assumptions, worker
from gpuplanner.engine.perf.serving_setup import GB
from gpuplanner.engine.perf.validation_inference import load_runs, runs_path

SA = serving_assumptions()


@pytest.mark.parametrize("stack", ["vllm", "trtllm"])
@pytest.mark.parametrize("f", [0.8, 0.97])
def test_a_stated_fraction_replaces_the_default_in_the_stacks_rule(stack, f):
    cat = default_catalog()
    req = {"model": "llama3-8b", "gpu": "nvidia-h100-sxm"}
    shape, cluster = shape_of(req, cat), cluster_of(req, cat)
    setup = ServingSetup(2048, 512, precision="fp8", kv_precision="fp8", serving_stack=stack, kv_fraction=f)
    w = worker(shape, cluster, setup, 1)
    weights_gb = served_weights(shape, 1.0, SA).total / GB
    workspace_gb = SA.number("prefill_activation_bytes_per_token_hidden") * 8192 * shape.hidden / GB
    capacity, usable = usable_memory_gb(cluster.mem_gb, cluster.gpu_name, load_assumptions())
    if stack == "vllm":
        kv_gb = min(usable, capacity * f) - weights_gb - workspace_gb
    else:
        # TensorRT-LLM: a share of the device total less the memory outside torch (no allocator fragmentation)
        kv_gb = f * (capacity - load_assumptions().number("memory_reserved_gb") - weights_gb - workspace_gb)
    kv_tok = shape.layers * 2 * shape.kv_heads * (shape.hidden // shape.heads) * 1.0
    assert w.kv_capacity_tokens == pytest.approx(kv_gb * GB / kv_tok, rel=1e-9)
    default = worker(shape, cluster, ServingSetup(2048, 512, "fp8", "fp8", serving_stack=stack), 1)
    assert (w.kv_capacity_tokens > default.kv_capacity_tokens) == (f > 0.9)


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.01, 2.0])
def test_a_fraction_outside_zero_to_one_is_refused_naming_it(bad):
    with pytest.raises(ValidationError) as e:
        ServingSetup(100, 100, kv_fraction=bad)
    assert e.value.field == "kv_fraction" and e.value.msg is not None
    assert "above 0 and at most 1" in e.value.msg.render("en") and "大于 0 且不超过 1" in e.value.msg.render(
        "zh"
    )
    ServingSetup(100, 100, kv_fraction=1.0)  # the whole share is allowed


def _argv(*extra: str) -> list[str]:
    return [
        "estimate",
        "--inference",
        "--model",
        "llama3-8b",
        "--gpu",
        "nvidia-h100-sxm",
        "--gpus",
        "1",
        "--precision",
        "fp8",
        "--prompt",
        "2048",
        "--output",
        "512",
        "--serving-stack",
        "trtllm",
        *extra,
    ]


def test_the_command_line_takes_the_fraction_and_refuses_a_bad_one(capsys, monkeypatch):
    assert main([*_argv(), "--json"]) == 0
    base = json.loads(capsys.readouterr().out)
    assert "kv_fraction" not in base
    assert main([*_argv("--kv-fraction", "0.97"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kv_fraction"] == 0.97
    assert out["serving"]["output_tokens_per_s"] >= base["serving"]["output_tokens_per_s"]
    monkeypatch.setenv("GPUPLANNER_LANG", "en")
    assert main(_argv("--kv-fraction", "1.5")) == 2
    err = capsys.readouterr().err
    assert "KV-cache fraction must be above 0 and at most 1" in err and "Traceback" not in err
    monkeypatch.setenv("GPUPLANNER_LANG", "zh")
    assert main(_argv("--kv-fraction", "0")) == 2
    assert "KV 缓存占比必须大于 0 且不超过 1" in capsys.readouterr().err


def test_rows_that_state_a_fraction_quote_the_config_that_sets_it():
    doc = yaml.safe_load(runs_path().read_text(encoding="utf-8"))
    stated = [r for r in doc["runs"] if "kv_fraction" in r["request"]]
    assert len(stated) == 75  # 60 TensorRT-LLM (NVIDIA harness) rows, 15 vLLM (AMD, Dell MI300X) rows
    for r in stated:
        f = r["request"]["kv_fraction"]
        assert r["id"].startswith("mlperf-"), r["id"]
        src = r["kv_fraction_source"]
        if r["request"]["serving_stack"] == "trtllm":
            assert f in (0.9, 0.95, 0.97), r["id"]
            got = re.search(r"kvcache_free_gpu_mem_frac(?: = |': )([\d.]+)", src)
        else:  # vLLM's --gpu-memory-utilization, as the AMD/Dell harness sets it
            got = re.search(r"gpu[-_]memory[-_]utilization:? ([\d.]+)", src)
        assert got and float(got.group(1)) == f, r["id"]
        # the same results repository and commit as the row's measurement
        assert src.split(":")[0] in r["source"], r["id"]
    # the rows whose sources set none take the stack's default
    assert all("kv_fraction" not in r["request"] for r in doc["runs"] if r["id"].startswith("trtllm-"))


def _write(tmp_path, row):
    p = tmp_path / "rows.yaml"
    p.write_text(yaml.safe_dump({"runs": [row]}), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("value", "source", "field"), [(1.2, "x", "kv_fraction"), (0.9, "", "kv_fraction_source")]
)
def test_the_loader_refuses_a_bad_or_unsourced_fraction(tmp_path, value, source, field):
    base = yaml.safe_load(runs_path().read_text(encoding="utf-8"))["runs"][0]
    row = {**base, "request": {**base["request"], "kv_fraction": value}, "kv_fraction_source": source}
    with pytest.raises(CatalogError) as e:
        load_runs(_write(tmp_path, row))
    assert e.value.field == field
