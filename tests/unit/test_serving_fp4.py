"""`estimate --inference --precision fp4`: NVFP4 serving on GPUs with FP4 tensor cores.

Oracles: (1) the NVFP4 layout counted by hand — a block of 16 E2M1 values is 16 × 4 bits = 8 bytes plus one
1-byte E4M3 scale, 9 bytes per 16 parameters (NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision
Inference", 2025; TensorRT Model Optimizer NVFP4_DEFAULT_CFG: block_sizes {-1: 16, scale_bits (4, 3)}); (2) the
GEMM and attention rates written out from the catalog peaks and the assumptions; (3) a worker's per-token compute
term rebuilt from those rates; (4) the NVFP4 cast bytes of a Llama 2 70B layer counted by hand; (5) the refusals,
through the command line, in English and Chinese.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
import yaml

from gpuplanner.catalog.loader import bundled_catalog_dir, default_catalog
from gpuplanner.catalog.names import local_name
from gpuplanner.cli import main
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.flops import param_counts
from gpuplanner.engine.perf.inference import estimate_inference
from gpuplanner.engine.perf.kv_cache import held_tokens
from gpuplanner.engine.perf.request import shape_of
from gpuplanner.engine.perf.serving import ServingSetup, plan_serving, worker
from gpuplanner.engine.perf.serving_activations import activation_bytes_per_token
from gpuplanner.engine.perf.serving_setup import PRECISION_BYTES, serving_assumptions
from gpuplanner.engine.perf.serving_worker import gemm_rates, weight_bytes
from gpuplanner.engine.perf.shapes import ClusterSpec, InferenceConfig, ModelShape
from gpuplanner.engine.summary import results_json
from gpuplanner.model import Project, Workload
from gpuplanner.topology import GenerateOptions
from gpuplanner.topology.compose import add_pod

A = load_assumptions()
B200 = ClusterSpec(
    gpu_name="NVIDIA B200 180GB (HGX)",
    peak_bf16_tflops=2250,
    peak_fp8_tflops=4500,
    peak_fp4_tflops=9000,
    mem_gb=180,
    mem_bw_tbyte_per_s=8.0,
    gpus_per_node=8,
    scaleup_bw_gbyte_per_s=1800,
    nic_gbps_per_gpu=400,
)
H100 = dataclasses.replace(
    B200,
    gpu_name="NVIDIA H100 SXM 80GB",
    peak_bf16_tflops=989,
    peak_fp8_tflops=1979,
    peak_fp4_tflops=None,
    mem_gb=80,
    mem_bw_tbyte_per_s=3.35,
)
LLAMA2_70 = ModelShape("dense", 80, 8192, 64, 8, 28672, 32000, 4096, gated_mlp=True)


def test_nvfp4_weights_are_nine_bytes_per_sixteen_parameters():
    per_block = 16 * 4 / 8 + 1  # 16 E2M1 values packed two per byte, one E4M3 scale
    assert PRECISION_BYTES["fp4"] == per_block / 16 == 0.5625
    setup = ServingSetup(prompt_len=222, output_len=273, precision="fp4", kv_precision="fp8")
    w = worker(LLAMA2_70, B200, setup, tp=1)
    # the linear layers at 9/16 byte; the embedding table and the output head stay in BF16 (served_weights.py)
    tables = 2 * 32000 * 8192
    layers = param_counts(LLAMA2_70)["total"] - tables
    assert w.weights_gb == pytest.approx((layers * 0.5625 + tables * 2.0) / 1e9, rel=1e-12)
    fp8 = worker(LLAMA2_70, B200, dataclasses.replace(setup, precision="fp8"), tp=1)
    assert fp8.weights_gb == pytest.approx((layers * 1.0 + tables * 2.0) / 1e9, rel=1e-12)
    # the weights streamed each step: the layers and the BF16 head (not the input table, a lookup), at the
    # measured decode-GEMM share of HBM of the layers' GEMM type (performance.yaml decode_gemm_hbm_efficiency_*)
    bw4 = 8.0e12 * A.number("decode_gemm_hbm_efficiency_fp4", B200.gpu_name)
    bw8 = 8.0e12 * A.number("decode_gemm_hbm_efficiency_fp8", B200.gpu_name)
    assert w.mem0_s == pytest.approx((layers * 0.5625 + tables / 2 * 2.0) / bw4, rel=1e-12)
    assert fp8.mem0_s == pytest.approx((layers * 1.0 + tables / 2 * 2.0) / bw8, rel=1e-12)
    # and each GEMM kernel's fixed part: 4 per layer at the layers' type, the BF16 head once
    head = A.number("decode_gemm_fixed_us_bf16", B200.gpu_name)
    assert w.gemm_fixed_s == pytest.approx(
        (80 * 4 * A.number("decode_gemm_fixed_us_fp4", B200.gpu_name) + head) * 1e-6, rel=1e-12
    )


def test_mxfp4_gpus_take_one_e8m0_scale_per_32_elements():
    """AMD CDNA 4 runs MXFP4 (OCP MX v1.0: 32-element blocks, E8M0 scales): 0.5 + 1/32 bytes per weight."""
    mi355x = dataclasses.replace(B200, gpu_name="AMD Instinct MI355X 288GB", peak_fp4_tflops=10066)
    setup = ServingSetup(prompt_len=222, output_len=273, precision="fp4", kv_precision="fp8")
    w = worker(LLAMA2_70, mi355x, setup, tp=1)
    tables = 2 * 32000 * 8192  # embedding and output head in BF16 (served_weights.py)
    expect = (param_counts(LLAMA2_70)["total"] - tables) * (0.5 + 1 / 32) + tables * 2.0
    assert w.weights_gb == pytest.approx(expect / 1e9, rel=1e-12)
    assert weight_bytes("fp4", mi355x, A) == 0.53125 and weight_bytes("fp4", B200, A) == 0.5625
    assert weight_bytes("fp8", H100, A) == 1.0


def test_the_kv_cache_of_fp4_weights_is_what_is_stated_else_bf16():
    assert ServingSetup(10, 10, precision="fp4", kv_precision="fp8").kv_bytes == 1.0
    assert ServingSetup(10, 10, precision="fp4").kv_bytes == 2.0  # an NVFP4 KV cache is not modelled
    with pytest.raises(ValidationError, match="kv_precision"):
        ServingSetup(10, 10, precision="fp8", kv_precision="fp4")


def test_fp4_gemms_run_at_the_fp4_peak_and_attention_at_the_fp8_rate():
    g = B200.gpu_name
    eff = A.number("gemm_efficiency", g)
    assert eff == 0.69 and A.number("fp4_gemm_efficiency_ratio", g) == A.number(
        "fp8_gemm_efficiency_ratio", g
    )
    lin, attn, cast = gemm_rates(B200, "fp4", "fp8", A)
    assert lin == pytest.approx(9000e12 * eff * 0.960)
    assert attn == pytest.approx(4500e12 * eff * 0.960)  # FP8 context FMHA over the FP8 KV cache
    assert cast == "fp4"
    assert gemm_rates(B200, "fp4", None, A)[1] == pytest.approx(2250e12 * eff)  # bf16 KV: bf16 attention
    assert gemm_rates(B200, "fp8", "fp8", A) == (attn, attn, "fp8")
    assert gemm_rates(B200, "bf16", None, A) == (2250e12 * eff, 2250e12 * eff, "")
    # B300 takes its measured FP8 ratio (MAMF), GB300 has none: the default 0.80; all said to be an estimate
    for gpu in ("NVIDIA B300 SXM", "NVIDIA GB300"):
        assert A.number("fp4_gemm_efficiency_ratio", gpu) == A.number("fp8_gemm_efficiency_ratio", gpu)
    assert A.number("fp4_gemm_efficiency_ratio", "NVIDIA GB300") == 0.80
    doc = yaml.safe_load(
        (bundled_catalog_dir() / "assumptions" / "performance.yaml").read_text(encoding="utf-8")
    )
    assert doc["entries"]["fp4_gemm_efficiency_ratio"]["estimate"] is True


def test_a_workers_compute_term_is_the_linear_flops_at_fp4_plus_attention_at_fp8():
    setup = ServingSetup(prompt_len=222, output_len=273, precision="fp4", kv_precision="fp8")
    w = worker(LLAMA2_70, B200, setup, tp=2)
    lin, attn, _ = gemm_rates(B200, "fp4", "fp8", A)
    c = param_counts(LLAMA2_70)
    ctx = 222 + 273 / 2
    # the output head's GEMM at the BF16 rate (lm_head not quantized, served_weights.py)
    bf16 = 2250e12 * A.number("gemm_efficiency", B200.gpu_name)
    gemm = (2 * c["layers_active"] + 2 * 32000 * 8192 * lin / bf16) / 2
    score = 4 * 80 * mla.score_width(LLAMA2_70) * float(held_tokens(LLAMA2_70, ctx)) / 2
    ew = serving_assumptions().table("serving_elementwise_bytes")
    act = activation_bytes_per_token(LLAMA2_70, 2, 1, False, ew, 1 / 16) / (
        8.0e12 * A.number("elementwise_hbm_efficiency")
    )
    assert w.cmp_b_s == pytest.approx(gemm / lin + score / attn + act, rel=1e-12)


def test_nvfp4_casts_of_the_gemm_inputs_are_counted_by_hand():
    ew = serving_assumptions().table("serving_elementwise_bytes")
    assert ew["fp4_cast"] == 2 + 0.5  # read bf16, write E2M1; the block scales come from the GPU's format
    h, tp = 8192, 2
    per_layer_elements = h + 64 * 128 / tp + h + 28672 / tp  # QKV, output, gate/up and down inputs
    none = activation_bytes_per_token(LLAMA2_70, tp, 1, False, ew)
    fp4 = activation_bytes_per_token(LLAMA2_70, tp, 1, False, ew, 1 / 16)  # NVFP4
    mx = activation_bytes_per_token(LLAMA2_70, tp, 1, False, ew, 1 / 32)  # MXFP4
    fp8 = activation_bytes_per_token(LLAMA2_70, tp, 1, True, ew)
    assert fp4 - none == pytest.approx(80 * 2.5625 * per_layer_elements)
    assert mx - none == pytest.approx(80 * 2.53125 * per_layer_elements)
    assert fp8 - none == pytest.approx(80 * 3 * per_layer_elements)
    assert activation_bytes_per_token(LLAMA2_70, tp, 1, True, ew, 1 / 16) == fp4


def test_fp4_serves_more_than_fp8_on_b200_and_the_static_estimate_agrees():
    setup = ServingSetup(prompt_len=2048, output_len=512, precision="fp4", kv_precision="fp8")
    fp4 = plan_serving(LLAMA2_70, B200, setup, n_gpus=8)
    fp8 = plan_serving(LLAMA2_70, B200, dataclasses.replace(setup, precision="fp8"), n_gpus=8)
    assert fp4.fits and fp4.output_tokens_per_s > fp8.output_tokens_per_s
    cfg = InferenceConfig(64, 2048, 512, tp=2, kv_precision_bytes=1, weight_precision_bytes=0.5625)
    s4 = estimate_inference(LLAMA2_70, dataclasses.replace(cfg, weight_precision="fp4"), B200)
    s8 = estimate_inference(LLAMA2_70, dataclasses.replace(cfg, weight_precision_bytes=1.0), B200)
    tables = (
        2 * 32000 * 8192
    )  # embedding and output head, in BF16 beside the NVFP4 layers (served_weights.py)
    expect = ((param_counts(LLAMA2_70)["total"] - tables) * 0.5625 + tables * 2.0) / 2 / 1e9
    assert s4.memory["weights_gb"] == pytest.approx(expect)
    assert s4.ttft_s < s8.ttft_s  # the prefill is compute-bound: FP4's doubled tensor-core peak
    # A decode step at batch 64 is not faster in FP4: TensorRT-LLM 1.3.0rc20's measured GEMMs (aiconfigurator
    # b200_sxm gemm_perf at M 64, performance.yaml decode_gemm_*) take ~108 us per layer of this model at TP2 in
    # NVFP4 (QKV 21.9, output 14.5, gate-up ~36.5, down ~35.2 us, N interpolated) against ~95 us in static-scale
    # FP8 (dynamic FP8 less its compute_scale and, for the FP8-input GEMMs, its scale_matrix: 13.3, 10.8, ~47.3,
    # ~23.9 us): the step follows the measured kernels' order
    assert s4.decode_step_s > s8.decode_step_s


@pytest.mark.parametrize(
    "call",
    [
        lambda: worker(LLAMA2_70, H100, ServingSetup(100, 100, precision="fp4"), tp=8),
        lambda: estimate_inference(
            LLAMA2_70,
            InferenceConfig(1, 100, 100, tp=8, weight_precision_bytes=0.5625, weight_precision="fp4"),
            H100,
        ),
    ],
)
def test_fp4_on_a_gpu_without_fp4_tensor_cores_is_refused_naming_it(call):
    with pytest.raises(ValidationError) as e:
        call()
    assert e.value.field == "precision" and e.value.value == "fp4"
    assert e.value.msg is not None
    msg = e.value.msg.render("en")
    assert "NVIDIA H100 SXM 80GB has no FP4 tensor cores" in msg and "precision fp4" in msg
    zh = e.value.msg.render("zh")
    assert "NVIDIA H100 SXM 80GB 没有 FP4 张量核心" in zh and "fp4" in zh


def _estimate(gpu: str, *extra: str) -> list[str]:
    return [
        "estimate",
        "--inference",
        "--model",
        "llama3-70b",
        "--gpu",
        gpu,
        "--gpus",
        "8",
        "--precision",
        "fp4",
        *extra,
    ]


@pytest.mark.parametrize(
    ("gpu", "name"),
    [
        ("nvidia-h100-sxm", "NVIDIA H100 SXM 80GB"),
        ("nvidia-h200-sxm", "H200"),
        ("nvidia-a100-sxm4-80gb", "A100"),
        ("amd-mi300x", "AMD Instinct MI300X 192GB"),
        ("amd-mi325x", "MI325X"),
    ],
)
def test_the_command_line_refuses_fp4_without_fp4_tensor_cores(gpu, name, capsys, monkeypatch):
    monkeypatch.setenv("GPUPLANNER_LANG", "en")
    assert main(_estimate(gpu)) == 2
    err = capsys.readouterr().err
    assert name in err and "has no FP4 tensor cores" in err and "precision fp4" in err
    assert "Traceback" not in err
    monkeypatch.setenv("GPUPLANNER_LANG", "zh")
    assert main(_estimate(gpu)) == 2
    err = capsys.readouterr().err
    cat = default_catalog()  # named in Chinese as the report and the desktop name it
    assert local_name(cat.get(gpu), cat, "zh", with_figures=False) in err and "没有 FP4 张量核心" in err


@pytest.mark.parametrize(
    ("gpu", "per_param"),
    [
        ("nvidia-b200", 0.5625),
        ("nvidia-b300", 0.5625),
        ("nvidia-gb200", 0.5625),
        ("nvidia-gb300", 0.5625),
        ("amd-mi355x", 0.53125),
    ],
)
def test_the_command_line_serves_fp4_on_gpus_with_fp4_tensor_cores(gpu, per_param, capsys):
    assert main([*_estimate(gpu), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["precision"] == "fp4" and out["serving"]["fits"] and out["serving"]["output_tokens_per_s"] > 0
    # NVFP4 0.5625 / MXFP4 0.53125 bytes per parameter, split over the replica's TP
    n = out["serving"]["tp"] * out["serving"]["pp"]
    shape = shape_of({"model": "llama3-70b"}, default_catalog())
    total = param_counts(shape)["total"]
    # the embedding table and the output head (2 × vocab × hidden) stay in BF16 (served_weights.py)
    tables = 2 * shape.vocab * shape.hidden
    static = ((total - tables) * per_param + tables * 2.0) / 1e9
    assert out["serving"]["weights_gb_per_gpu"] * n == pytest.approx(static, rel=1e-9)
    assert out["memory"]["weights_gb"] == pytest.approx(static, rel=1e-9)


def test_training_in_fp4_is_refused(capsys, monkeypatch):
    monkeypatch.setenv("GPUPLANNER_LANG", "en")
    argv = ["estimate", "--model", "llama3-70b", "--gpu", "nvidia-b200", "--gpus", "64", "--precision", "fp4"]
    assert main(argv) == 2
    assert "--precision fp4 is modelled for serving only" in capsys.readouterr().err


def _project_with(*workloads: Workload) -> Project:
    p = Project()
    add_pod(p, GenerateOptions(template="single-switch", server="nvidia-dgx-b200", servers=1), "blackwell")
    add_pod(
        p,
        GenerateOptions(
            template="single-switch",
            server="nvidia-dgx-h200",
            servers=1,
            leaf_switch="nvidia-spectrum-4-sn5600",
        ),
        "hopper",
    )
    for w in workloads:
        p.insert("workloads", w)
    return p


def test_a_project_inference_workload_serves_fp4_on_blackwell_and_is_refused_elsewhere():
    serve = dict(kind="inference", model_id="llama3-70b", precision="fp4", kv_bytes=1, users=100)
    p = _project_with(
        Workload(id="w1", name="b200-fp4", partition="blackwell", **serve),
        Workload(id="w2", name="h200-fp4", partition="hopper", **serve),
        Workload(id="w3", name="train-fp4", model_id="llama3-8b", partition="blackwell", precision="fp4"),
    )
    res = analyze_project(p)
    wl = {w["name"]: w for w in results_json(p, res)["workloads"]}
    ok = wl["b200-fp4"]
    assert ok["error"] is None and ok["serving"]["fits"] and ok["serving"]["output_tokens_per_s"] > 0
    n = ok["serving"]["tp"] * ok["serving"]["pp"]
    total = param_counts(shape_of({"model": "llama3-70b"}, default_catalog()))["total"]
    tables = 2 * 128256 * 8192  # embedding and output head in BF16 (served_weights.py)
    expect = ((total - tables) * 0.5625 + tables * 2.0) / 1e9
    assert ok["serving"]["weights_gb_per_gpu"] * n == pytest.approx(expect, rel=1e-9)
    assert "H200" in wl["h200-fp4"]["error"] and "no FP4 tensor cores" in wl["h200-fp4"]["error"]
    assert "train-fp4" in wl["train-fp4"]["error"] and "inference workloads only" in wl["train-fp4"]["error"]
    assert {f.items for f in res.findings if f.rule == "workload-not-evaluated"} >= {("w2",), ("w3",)}
