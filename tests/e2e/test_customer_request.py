"""Issue 22's customer request planned from the command line alone (new, set, generate --into, analyze,
report --lang zh), into one project whose Chinese proposal answers each point of the request:

"pre-train a 70B model on 10T tokens within 90 days and serve a 70B model to ~2,000 concurrent users with
first token < 1 s; a hall with 1.5 MW of IT power, 24 rack positions at 40 kW and 8 liquid positions at
120 kW; budget 300 M CNY; InfiniBand for training, Ethernet for inference; Chinese proposal with a pilot
phase"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ),
        timeout=600,
    )


def ok(*args: str) -> subprocess.CompletedProcess:
    r = run(*args)
    assert r.returncode == 0, (args, r.stderr)
    return r


@pytest.fixture(scope="module")
def planned(tmp_path_factory) -> Path:
    f = tmp_path_factory.mktemp("request") / "hall.gpuplan"
    ok("new", str(f), "--currency", "CNY", "--lang", "zh", "--name", "智算中心", "--customer", "某客户")
    ok(
        "set",
        str(f),
        "exchange_rate=7.2",
        "it_kw=1500",
        "margin=20%",
        "positions=24x40kW-air,8x120kW-liquid",
        "budget=300M",
        "region=CN",
        "phase.试点.order=1",
        "phase.全量.order=2",
    )
    # training: B200 on InfiniBand, racks filled under the positions' kW (4 per liquid rack, 2 per air rack)
    ok(
        "generate",
        "rail-leaf-spine",
        "--server",
        "nvidia-dgx-b200",
        "--servers",
        "64",
        "--su-size",
        "32",
        "--switch",
        "nvidia-quantum-2-qm9700",
        "--storage",
        "--storage-system",
        "ddn-ai400x2",
        "--storage-units",
        "8",
        "--into",
        str(f),
        "--partition",
        "train",
        "--fill-positions",
        "--phase",
        "全量",
    )
    # serving: H200 on Ethernet, beside it
    ok(
        "generate",
        "leaf-spine",
        "--server",
        "nvidia-dgx-h200",
        "--servers",
        "8",
        "--switch",
        "nvidia-spectrum-4-sn5600",
        "--into",
        str(f),
        "--partition",
        "infer",
        "--fill-positions",
        "--phase",
        "试点",
    )
    ok(
        "set",
        str(f),
        "workload.预训练.model=llama3-70b",
        "workload.预训练.partition=train",
        "workload.预训练.total_tokens=10e12",
        "workload.预训练.tp=8",
        "workload.预训练.pp=4",
        "workload.预训练.global_batch=512",
        "workload.对话服务.kind=inference",
        "workload.对话服务.model=llama3-70b",
        "workload.对话服务.partition=infer",
        "workload.对话服务.users=2000",
        "workload.对话服务.ttft_target_s=1",
    )
    return f


def test_analyze_answers_each_point(planned):
    d = json.loads(ok("analyze", str(planned), "--json").stdout)
    wl = {w["name"]: w for w in d["workloads"]}
    assert set(wl) == {"预训练", "对话服务"}  # the serving workload is not dropped
    train, serve = wl["预训练"], wl["对话服务"]
    assert (train["kind"], train["partition"], train["gpus"]) == ("training", "train", 512)
    assert train["time_to_train_days"] > 0 and 0 < train["mfu"] < 1
    assert (serve["kind"], serve["partition"], serve["gpus"]) == ("inference", "infer", 64)
    assert serve["ttft_s"] < 1.0 and serve["max_concurrent_users"] >= 2000 and serve["meets_target"] is True
    assert 0 < serve["gpus_needed"] <= 64 and serve["max_requests_per_s"] > 0 and serve["tpot_s"] > 0
    assert d["gpus"] == train["gpus"] + serve["gpus"]
    lim = {x["name"]: x for x in d["limits"]}
    assert lim["it_power_kw"]["limit"] == 1500 and lim["it_power_kw"]["margin"] == pytest.approx(0.2)
    assert lim["it_power_kw"]["plan"] == pytest.approx(d["it_kw_max"] * 1.2)
    # the positions are stated and checked: since switches live in network racks of their own (issue 15) the
    # two pods need more racks than the 32 positions, and the plan says so with a finding
    pos = lim["rack_positions"]
    assert pos["limit"] == 32 and pos["plan"] == len(d["racks"]) and pos["within"] == (pos["plan"] <= 32)
    if not pos["within"]:
        assert any("position" in (f["rule"] + f["message"]).lower() for f in d["findings"])
    assert lim["positions_liquid_120kw"]["plan"] == 8 and lim["positions_air_40kw"]["plan"] <= 24
    assert lim["budget_capex"]["limit"] == 300e6 and lim["budget_capex"]["plan"] == pytest.approx(d["capex"])
    assert lim["budget_capex"]["within"] == (d["capex"] <= 300e6)
    if not lim["budget_capex"]["within"]:
        assert any(f["rule"] == "budget-exceeded" for f in d["findings"])
    # racks filled to the positions: 4 B200 servers (57 kW) in each liquid rack, 2 in the 40 kW ones
    server_racks = sorted(r["kw_max"] for r in d["racks"] if r["kw_max"] > 25)
    assert server_racks.count(max(server_racks)) >= 8 and max(server_racks) <= 120


def test_chinese_report_answers_each_point(planned, tmp_path):
    import pypdf

    pdf = tmp_path / "proposal.pdf"
    ok("report", str(planned), "-o", str(pdf), "--lang", "zh")
    text = "".join(p.extract_text() for p in pypdf.PdfReader(str(pdf)).pages).replace("\n", "")
    d = json.loads(ok("analyze", str(planned), "--json").stdout)
    train = next(w for w in d["workloads"] if w["kind"] == "training")
    assert f"预计训练 {train['time_to_train_days']:.1f} 天" in text  # days to train
    assert "并发用户" in text and "首字时延低于 1.0 秒" in text and "该分区可以满足" in text  # serving
    assert "场地可提供 1,500.0 kW" in text and "20% 设计余量" in text  # MW against 1.5 MW, margin shown
    assert "120 kW 液冷机位 8 个中用 8 个" in text and "40 kW 风冷机位 24 个" in text  # positions
    assert "预算 3.00 亿元" in text  # capex against the budget
    assert "出口管制（CN）" in text  # export rules for the customer's region
    assert "“预训练” GPU 数" in text and "“对话服务” GPU 数" in text  # phase table: each workload's GPUs


def test_set_refuses_bad_input_and_leaves_the_file(planned):
    before = planned.read_bytes()
    for bad in (
        ["nonsense=1"],
        ["it_kw=lots"],
        ["margin=150%"],
        ["positions=24 racks"],
        ["region=China"],
        ["currency=XYZ"],
        ["workload.对话服务.model=no-such-model"],
        ["workload.对话服务.partition=nowhere"],
        ["workload.对话服务.kind=sideways"],
        ["budget=3", "partition.infer.phase=no-such-phase"],  # the first edit is rolled back too
    ):
        r = run("set", str(planned), *bad)
        assert r.returncode == 2, bad
        assert r.stderr.startswith("gpuplanner: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert planned.read_bytes() == before, bad


def test_generate_into_refuses_a_taken_partition_name(planned):
    before = planned.read_bytes()
    r = run(
        "generate",
        "single-switch",
        "--server",
        "nvidia-dgx-h200",
        "--servers",
        "2",
        "--switch",
        "nvidia-spectrum-4-sn5600",
        "--into",
        str(planned),
        "--partition",
        "infer",
    )
    assert r.returncode == 2 and "infer" in r.stderr
    assert planned.read_bytes() == before
