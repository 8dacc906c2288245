"""The command line end to end, in a subprocess, on real files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=e,
        timeout=300,
    )


def test_catalog_list_gpu_json():
    r = run("catalog", "list", "gpu", "--json")
    assert r.returncode == 0, r.stderr
    gpus = {g["id"]: g for g in json.loads(r.stdout)}
    assert len(gpus) >= 15
    for g in gpus.values():
        for key in (
            "id",
            "name",
            "tdp_w",
            "mem_gb",
            "mem_bw_tbps",
            "bf16_dense_tflops",
            "fp8_dense_tflops",
            "source",
            "as_of",
        ):
            assert key in g, (g["id"], key)
    assert gpus["nvidia-a100-sxm4-80gb"]["fp8_dense_tflops"] is None
    assert gpus["nvidia-h100-sxm"]["mem_bw_tbps"] == pytest.approx(3.35)


def test_catalog_list_server_json():
    r = run("catalog", "list", "server", "--json")
    assert r.returncode == 0, r.stderr
    servers = {s["id"]: s for s in json.loads(r.stdout)}
    dgx = servers["nvidia-dgx-h100"]
    assert (dgx["ru"], dgx["gpu_count"], dgx["power_max_w"], dgx["psu_count"], dgx["psu_redundancy"]) == (
        8,
        8,
        10200,
        6,
        "4+2",
    )


def test_broken_user_catalog_is_reported_and_bundled_still_loads(tmp_path):
    (tmp_path / "gpu").mkdir()
    (tmp_path / "gpu" / "bad.yaml").write_text("id: bad\nkind: gpu\nvendor: X\n", encoding="utf-8")
    env = {"GPUPLANNER_USER_CATALOG": str(tmp_path)}
    r = run("catalog", "list", "gpu", "--json", env=env)
    assert r.returncode == 0
    assert len(json.loads(r.stdout)) >= 15
    assert "bad.yaml" in r.stderr and "entry 'bad'" in r.stderr
    v = run("catalog", "validate", str(tmp_path))
    assert v.returncode == 2 and "bad.yaml" in v.stdout and "required" in v.stdout


def test_catalog_show_and_unknown_id():
    assert run("catalog", "show", "nvidia-quantum-2-qm9700", "--json").returncode == 0
    r = run("catalog", "show", "no-such-thing")
    assert r.returncode == 2 and "no-such-thing" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_new_info_and_bad_files(tmp_path):
    f = tmp_path / "p.gpuplan"
    assert run("new", str(f), "--name", "Demo", "--lang", "zh").returncode == 0
    info = json.loads(run("info", str(f), "--json").stdout)
    assert info["name"] == "Demo" and info["language"] == "zh"
    noise = tmp_path / "noise.gpuplan"
    noise.write_bytes(os.urandom(2000))
    r = run("info", str(noise))
    assert r.returncode == 2 and "not a GPU Planner project" in r.stderr
    assert run("info", str(tmp_path / "missing.gpuplan")).returncode == 2


def test_generate_and_fabric_json(tmp_path):
    f = tmp_path / "f.gpuplan"
    r = run(
        "generate",
        "rail-leaf-spine",
        "--server",
        "nvidia-dgx-h100",
        "--servers",
        "127",
        "--su-size",
        "32",
        "--switch",
        "nvidia-quantum-2-qm9700",
        "--oversub",
        "1",
        "-o",
        str(f),
    )
    assert r.returncode == 0, r.stderr
    fab = json.loads(run("fabric", str(f), "--json").stdout)
    assert fab["switches_by_tier"]["leaf"] == 32 and fab["switches_by_tier"]["spine"] == 16
    assert fab["switches_by_tier"]["core"] == 0
    assert fab["gpus"] == 1016 and fab["endpoints"] == 1016
    for key in ("cables_by_tier", "transceivers", "bisection_gbps", "oversubscription_by_tier", "max_hops"):
        assert key in fab
    assert fab["max_hops"] == 4
    assert fab["oversubscription_by_tier"]["leaf"] == 1.0


def test_generate_refuses_impossible_request(tmp_path):
    r = run("generate", "rail-leaf-spine", "--servers", "1000", "-o", str(tmp_path / "x.gpuplan"))
    assert r.returncode == 2 and "3 tiers" in r.stderr
    assert not (tmp_path / "x.gpuplan").exists()


EXAMPLE = ROOT / "examples" / "superpod-1024-h100.gpuplan"


def test_analyze_json_documented_keys():
    r = run("analyze", str(EXAMPLE), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    for key in (
        "it_kw_max",
        "it_kw_typical",
        "facility_kw",
        "pue",
        "annual_mwh",
        "racks",
        "capex",
        "opex_per_year",
        "tco",
        "tco_years",
        "currency",
        "network_share_of_gpu_server_capex",
        "findings",
        "performance",
    ):
        assert key in d, key
    rack = d["racks"][0]
    for key in (
        "name",
        "kw_max",
        "kw_typical",
        "kw_budget",
        "cooling",
        "liquid_kw",
        "air_kw",
        "airflow_cfm",
        "coolant_l_per_min",
    ):
        assert key in rack, key
    assert abs(sum(r["kw_max"] for r in d["racks"]) - d["it_kw_max"]) < 1e-6 * d["it_kw_max"] + 0.01
    perf = d["performance"]
    for key in (
        "step_time_s",
        "tokens_per_s",
        "tflops_per_gpu",
        "mfu",
        "memory_per_gpu_gb",
        "fits",
        "breakdown",
        "bottleneck",
    ):
        assert key in perf, key
    assert 0.2 < perf["mfu"] < 0.7 and perf["fits"]
    for f in d["findings"]:
        assert set(f) >= {"severity", "rule", "message", "items"}


def test_analyze_scenario_changes_energy_cost_only():
    base = json.loads(run("analyze", str(EXAMPLE), "--json").stdout)
    cheap = json.loads(run("analyze", str(EXAMPLE), "--json", "--scenario", "Cheaper power").stdout)
    assert cheap["scenario"] == "Cheaper power"
    assert cheap["energy_cost_per_year"] < base["energy_cost_per_year"]
    assert cheap["it_kw_max"] == base["it_kw_max"]
    bad = run("analyze", str(EXAMPLE), "--scenario", "nope")
    assert bad.returncode == 2 and "Cheaper power" in bad.stderr


def test_estimate_by_shape_and_by_catalog_model():
    r = run(
        "estimate",
        "--layers",
        "96",
        "--hidden",
        "12288",
        "--heads",
        "96",
        "--gpu",
        "nvidia-a100-sxm4-80gb",
        "--gpus",
        "1024",
        "--tp",
        "8",
        "--pp",
        "8",
        "--global-batch",
        "1536",
        "--seq",
        "2048",
        "--json",
    )
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    for key in (
        "step_time_s",
        "tokens_per_s",
        "tflops_per_gpu",
        "mfu",
        "memory_per_gpu_gb",
        "fits",
        "breakdown",
        "bottleneck",
    ):
        assert key in d
    assert d["dp"] == 16
    r2 = run(
        "estimate",
        "--model",
        "llama3-8b",
        "--gpu",
        "nvidia-h100-sxm",
        "--gpus",
        "64",
        "--global-batch",
        "256",
        "--json",
    )
    assert r2.returncode == 0, r2.stderr
    assert json.loads(r2.stdout)["fits"]


def test_estimate_refuses_what_does_not_fit():
    r = run(
        "estimate",
        "--model",
        "llama3-405b",
        "--gpu",
        "nvidia-rtx-4090",
        "--gpus",
        "8",
        "--tp",
        "8",
        "--pp",
        "1",
        "--global-batch",
        "8",
    )
    assert r.returncode == 2
    assert "GB" in r.stdout + r.stderr


def test_empty_project_analyzes_and_exports_quotas(tmp_path):
    f = tmp_path / "e.gpuplan"
    assert run("new", str(f)).returncode == 0
    r = run("analyze", str(f), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["gpus"] == 0
    out = tmp_path / "p.conf"
    assert (
        run(
            "export",
            str(ROOT / "examples" / "phased-pilot-to-su.gpuplan"),
            "-f",
            "slurm-partitions",
            "-o",
            str(out),
        ).returncode
        == 0
    )
    assert "PartitionName=train" in out.read_text()


# Modules a quick command must not load: the engine (numpy/scipy), storage (sqlite-utils), reports
# (reportlab), the catalog loader (YAML, JSON Schema) and Qt.
HEAVY = (
    "numpy",
    "scipy",
    "sqlite_utils",
    "reportlab",
    "jsonschema",
    "yaml",
    "PySide6",
    "gpuplanner.engine",
    "gpuplanner.storage",
    "gpuplanner.reports",
    "gpuplanner.exports",
    "gpuplanner.topology",
    "gpuplanner.catalog",
)


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["analyze", "--help"], ["catalog", "--help"]])
def test_quick_commands_import_nothing_heavy(args):
    code = (
        "import sys\n"
        "from gpuplanner.cli import main\n"
        f"rc = main({args!r})\n"
        f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m in {HEAVY!r}"
        " or any(m.startswith(h + '.') for h in " + repr(HEAVY) + "))\n"
        "print('HEAVY', heavy, rc, file=sys.stderr)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "HEAVY [] 0" in r.stderr, r.stderr[-2000:]


def test_help_lists_every_command_in_order():
    r = run("--help")
    assert r.returncode == 0
    listed = re.findall(r"^    ([a-z-]+)  ", r.stdout, flags=re.MULTILINE)
    assert listed == [
        "new",
        "info",
        "catalog",
        "generate",
        "fabric",
        "analyze",
        "estimate",
        "validate",
        "report",
        "export",
        "advise",
        "import",
        "set",
    ]


def test_export_format_choices_match_the_writers():
    # export_cmd spells its choices out so that `--help` imports neither package; they must stay in step.
    from gpuplanner.cli.export_cmd import FORMATS
    from gpuplanner.exports import FORMATS as DATA_FORMATS
    from gpuplanner.reports.files import FORMATS as REPORT_FORMATS

    assert set(FORMATS) == {*DATA_FORMATS, *REPORT_FORMATS}


def test_estimate_overlap_flags_change_the_prediction_the_way_the_physics_says():
    base = [
        "estimate", "--model", "gpt3-175b", "--gpu", "nvidia-h100-sxm", "--server", "nvidia-dgx-h100",
        "--gpus", "512", "--tp", "4", "--pp", "8", "--vpp", "6", "--micro-batch", "1",
        "--global-batch", "2048", "--precision", "fp8", "--json",
    ]  # fmt: skip

    def tflops(*extra: str) -> float:
        r = run(*base, *extra)
        assert r.returncode == 0, r.stderr
        data = json.loads(r.stdout)
        return (data[0] if isinstance(data, list) else data)["tflops_per_gpu"]

    plain = tflops()
    assert tflops("--tp-comm-overlap") > plain * 1.02  # TP transfers hidden under the GEMMs
    assert tflops("--blocking-pp-sends") < plain  # pipeline sends back on the critical path


def test_estimate_grad_dtype_bf16_fits_nemos_gpt3_fp8_run():
    """NeMo 24.07 GPT-3 175B FP8 on 512 H100 (micro-batch 2) keeps bf16 gradient buffers and fits in 80 GB;
    with Megatron-LM's fp32 main grads the same layout does not."""
    args = [
        "estimate", "--model", "gpt3-175b", "--gpu", "nvidia-h100-sxm", "--server", "nvidia-dgx-h100",
        "--gpus", "512", "--tp", "4", "--pp", "8", "--vpp", "6", "--micro-batch", "2",
        "--global-batch", "2048", "--precision", "fp8", "--tp-comm-overlap", "--json",
    ]  # fmt: skip
    fp32 = run(*args)
    bf16 = run(*args, "--grad-dtype", "bf16")
    assert fp32.returncode == 2 and not json.loads(fp32.stdout)["fits"]
    assert bf16.returncode == 0 and json.loads(bf16.stdout)["fits"]
