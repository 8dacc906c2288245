"""The tensor-parallel all-reduce of a serving step's prefill tokens (docs/notes/s12-serve405.md).

- A message larger than the stack's custom all-reduce (TensorRT-LLM 8 MB, vLLM 8 MiB: serving.yaml
  custom_allreduce_max_bytes) goes to NCCL, which reduces through NVLink SHARP on an NVSwitch node of 5+ ranks
  (performance.yaml nvls_allreduce_gain): the prompt tokens whose chunks make such messages take that rate
  (serving_worker.nccl_share); decode tokens keep the ring's.
- A deployment that fuses each all-reduce into the GEMM before it (ServingSetup.gemm_allreduce_fusion, TensorRT-LLM
  --gemm_allreduce_plugin) pays per prefill token only what each all-reduce takes beyond its GEMM
  (serving_worker.fused_all_reduce_slope), checked against a tile-by-tile simulation of the fused kernel.
- The eight NVIDIA-harness llama3.1-405b rows state the fusion and quote the build flag; nothing else moves."""

from __future__ import annotations

import pytest
import yaml

from gpuplanner.core.errors import CatalogError, ValidationError
from gpuplanner.engine.perf import mla, serving
from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.collectives import group_all_reduce_s, links_for
from gpuplanner.engine.perf.serving import ServingSetup, serving_assumptions, worker
from gpuplanner.engine.perf.serving_prompts import PromptLengths, prompt_lengths
from gpuplanner.engine.perf.serving_worker import (
    custom_all_reduce_cap_bytes,
    fused_all_reduce_slope,
    gemm_rates,
    nccl_share,
)
from gpuplanner.engine.perf.validation_inference import check, load_runs, runs_path
from tests.serving_cases import model_on, setup_with, setups_checked

SA = serving_assumptions()
A = load_assumptions()


def _model(model: str = "llama3-405b", gpu: str = "nvidia-h200-sxm"):
    return model_on(model, gpu)


def _setup(**kw) -> ServingSetup:
    base = dict(
        prompt_len=9429, output_len=656, precision="fp8", kv_precision="fp8", serving_stack="trtllm",
        max_batched_tokens=2560,
    )  # fmt: skip
    return setup_with(base, **kw)


def _slopes(shape, cluster, tp: int) -> tuple[float, float]:
    """(ring, NVLink SHARP) seconds per token of the 2 all-reduces per layer, by hand from the collectives model:
    the all-reduce of 4096 tokens less that of one, per token (the worker's linear form)."""
    links = links_for(cluster, A)
    h2 = shape.hidden * 2.0
    out = []
    for nvls in (False, True):
        one = float(group_all_reduce_s(h2, tp, tp, links, "tp", nvls=nvls))
        big = float(group_all_reduce_s(4096 * h2, tp, tp, links, "tp", nvls=nvls))
        out.append(2.0 * shape.layers * (big - one) / 4095.0)
    return out[0], out[1]


# ---------------------------------------------------------------- NCCL (NVLink SHARP) for large messages


def test_a_long_prompt_at_tp8_on_an_nvswitch_node_takes_nvlink_sharp_for_its_prefill_tokens():
    shape, cluster = _model()
    ring, nvls = _slopes(shape, cluster, 8)
    w = worker(shape, cluster, _setup(prompt_dist=None), 8)
    assert w.k_tok_s == pytest.approx(ring, rel=1e-12)  # decode tokens: the ring's rate, as before
    assert w.k_tok_c == pytest.approx(nvls, rel=1e-12)
    # the gain is the catalog's NCCL measurement at 8 ranks (480/370 GB/s) on the bandwidth term
    assert ring / nvls == pytest.approx(1.297, rel=0.02)
    # one prefill token more costs its GEMMs and its all-reduces at that rate; a decode-only step is unchanged
    s0 = float(w.step_s(17.0, 0.0))
    assert float(w.step_s(17.0, 1000.0)) - s0 == pytest.approx(1000.0 * (w.cmp_c_s + nvls), rel=1e-12)
    # the same worker with chunks below the cap (a 200-token budget): the ring for all, the same decode step
    ring_only = worker(shape, cluster, _setup(prompt_dist=None, max_batched_tokens=200), 8)
    assert ring_only.k_tok_c == ring_only.k_tok_s
    assert float(ring_only.step_s(17.0, 0.0)) == float(w.step_s(17.0, 0.0))


def test_short_prompts_small_budgets_four_ranks_and_one_gpu_keep_the_ring():
    shape, cluster = _model()
    # 128 tokens x 16384 x 2 bytes = 4 MB: inside TensorRT-LLM's custom all-reduce (8 MB)
    short = worker(shape, cluster, _setup(prompt_len=128), 8)
    assert short.k_tok_c == short.k_tok_s
    # a budget whose chunk is below the cap: every step's message is small
    assert nccl_share(shape, _setup(max_batched_tokens=200), 8, SA) == 0.0
    # 4 ranks: NCCL's NVLink SHARP is no faster than its ring (nvls_allreduce_gain 1.0)
    four = worker(shape, cluster, _setup(), 4)
    assert four.k_tok_c == pytest.approx(four.k_tok_s, rel=1e-12)
    assert nccl_share(shape, _setup(), 1, SA) == 0.0
    tiny, gpu = _model("llama3-8b", "nvidia-h100-sxm")
    one = worker(tiny, gpu, _setup(prompt_len=2048), 1)
    assert one.k_tok_s == 0.0 and one.k_tok_c == 0.0


def test_the_share_is_token_weighted_over_the_prompt_lengths():
    shape, _ = _model()
    cap = custom_all_reduce_cap_bytes("trtllm", 8, SA) / (shape.hidden * 2.0)
    assert cap == pytest.approx(8e6 / 32768.0)  # 244 tokens of a 16384-wide bf16 activation
    dist = PromptLengths((100.0, 1000.0), (0.5, 0.5))
    setup = _setup(prompt_len=550, prompt_dist=dist)
    assert nccl_share(shape, setup, 8, SA) == pytest.approx(1000.0 / 1100.0, rel=1e-12)
    # the stacks' caps as their sources set them
    assert custom_all_reduce_cap_bytes("trtllm", 2, SA) == 16e6
    assert custom_all_reduce_cap_bytes("vllm", 8, SA) == 8 * 1024 * 1024
    # the MLPerf 405B histogram: a few prompts below 244 tokens? none (its shortest is 476)
    d = prompt_lengths("mlperf-llama3.1-405b")
    assert nccl_share(shape, _setup(prompt_dist=d), 8, SA) == 1.0


# ---------------------------------------------------------------- the fused GEMM + all-reduce


def _fused_kernel_s(gemm_s: float, reduce_s: float, tiles: int) -> float:
    """A slow, obvious model of the fused kernel: the GEMM makes `tiles` output tiles one after another; each
    finished tile is reduced (its share of the all-reduce) as soon as it is done and the reduction of the tile
    before it has finished. The kernel ends with the last tile's reduction."""
    done = red = 0.0
    for _ in range(tiles):
        done += gemm_s / tiles
        red = max(red, done) + reduce_s / tiles
    return red


@pytest.mark.parametrize(
    ("gpu", "precision", "tp"), [("nvidia-h200-sxm", "fp8", 8), ("nvidia-b200", "fp4", 4)]
)
def test_the_fused_all_reduce_costs_what_the_tile_pipeline_leaves_exposed(gpu, precision, tp):
    shape, cluster = _model(gpu=gpu)
    setup = _setup(precision=precision, gemm_allreduce_fusion=True)
    w = worker(shape, cluster, setup, tp)
    rate = gemm_rates(cluster, precision, "fp8", A)[0]
    _, nvls = _slopes(shape, cluster, tp)
    one = nvls / (2.0 * shape.layers)  # one all-reduce, seconds per token
    tokens = 2048.0
    exposed = 0.0
    for width in (mla.context_width(shape), shape.ffn_hidden):  # attention output, MLP down projection
        g = 2.0 * width * shape.hidden / tp / rate
        exposed += _fused_kernel_s(g * tokens, one * tokens, 20_000) - g * tokens
    by_tiles = shape.layers * exposed / tokens
    assert w.k_tok_c == pytest.approx(by_tiles, rel=2e-3)
    assert w.k_tok_c == pytest.approx(fused_all_reduce_slope(shape, tp, nvls, rate), rel=1e-12)
    # cheaper than the separate all-reduce; decode steps and the per-step latency untouched
    plain = worker(shape, cluster, _setup(precision=precision), tp)
    assert w.k_tok_c < plain.k_tok_c
    assert (w.k_tok_s, w.k0_s, w.cmp_c_s) == (plain.k_tok_s, plain.k0_s, plain.cmp_c_s)
    assert float(w.step_s(40.0, 0.0)) == float(plain.step_s(40.0, 0.0))


def test_a_fused_layer_whose_gemm_outlasts_its_all_reduce_hides_it_whole():
    shape, _ = _model()
    # a GEMM rate so low that every GEMM outlasts its all-reduce: nothing is exposed
    assert fused_all_reduce_slope(shape, 8, 1e-5, 1e9) == 0.0
    # a rate so high that the GEMMs take nothing: the all-reduces are whole again
    assert fused_all_reduce_slope(shape, 8, 1e-5, 1e30) == pytest.approx(1e-5, rel=1e-9)
    assert fused_all_reduce_slope(shape, 1, 1e-5, 1e15) == 0.0


def test_the_fusion_raises_a_ttft_bound_capacity():
    shape, cluster = _model()
    base = dict(
        ttft_s=6.0, ttft_percentile=99.0, tpot_s=0.175, tpot_percentile=99.0, max_seqs=64, kv_fraction=0.9,
        prompt_dist=prompt_lengths("mlperf-llama3.1-405b"),
    )  # fmt: skip
    plans = [
        serving.plan_serving(
            shape, cluster, _setup(gemm_allreduce_fusion=f, **base), n_gpus=8, mode="aggregated", tp=8
        )
        for f in (False, True)
    ]
    assert plans[0].limited_by == plans[1].limited_by == "ttft"
    assert plans[1].output_tokens_per_s > plans[0].output_tokens_per_s


@pytest.mark.parametrize("bad", [1, 0, "yes", None, 1.0])
def test_a_bad_fusion_flag_is_refused_naming_the_field(bad):
    with pytest.raises(ValidationError) as e:
        _setup(gemm_allreduce_fusion=bad)
    assert e.value.field == "gemm_allreduce_fusion" and e.value.msg is not None
    assert "true or false" in e.value.msg.render("en") and "true 或 false" in e.value.msg.render("zh")


# ---------------------------------------------------------------- the validation rows


FUSED = {
    f"mlperf-v51-{who}-trt-llama3.1-405b-{scenario}"
    for who in (
        "nebius-h200-sxm-141gbx8",
        "quanta-cloud-technology-d74u-7u-h200-sxm-141gbx8",
        "nvidia-b200-sxm-180gbx8",
        "lambda-b200-sxm-180gbx8",
    )
    for scenario in ("offline", "server")
}


def test_exactly_the_nvidia_harness_405b_rows_state_the_fusion_and_quote_the_build_flag():
    runs = load_runs()
    stated = {r.id for r in runs if "gemm_allreduce_fusion" in r.request}
    assert stated == FUSED
    doc = yaml.safe_load(runs_path().read_text(encoding="utf-8"))
    for row in doc["runs"]:
        if row["id"] not in FUSED:
            continue
        assert row["request"]["gemm_allreduce_fusion"] is True
        src = row["gemm_allreduce_fusion_source"]
        assert "965182b03376a00fcae415c54e560e1c83937932" in src
        assert "'gemm_allreduce_plugin': 'float16' (line 3" in src
        assert "llama3_1-405b.py" in src and "RowLinear.multiply_collect" in src


def test_a_row_that_states_the_fusion_passes_it_to_the_setup(monkeypatch):
    seen = setups_checked(monkeypatch, "mlperf-v51-lambda-b200-sxm-180gbx8-trt-llama3.1-405b-offline")
    assert seen and all(s.gemm_allreduce_fusion for s in seen)
    seen = setups_checked(monkeypatch, "mlperf-v51-nvidia-b200-sxm-180gbx8-trt-llama2-70b-server")
    assert seen and not any(s.gemm_allreduce_fusion for s in seen)


def _row_file(tmp_path, **changes) -> str:
    doc = yaml.safe_load(runs_path().read_text(encoding="utf-8"))
    row = next(
        r for r in doc["runs"] if r["id"] == "mlperf-v51-nebius-h200-sxm-141gbx8-trt-llama3.1-405b-server"
    )
    for k, v in changes.items():
        if k == "request":
            row["request"].update(v)
        elif v is None:
            row.pop(k)
        else:
            row[k] = v
    doc["runs"] = [row]
    p = tmp_path / "runs.yaml"
    p.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("bad", [1, "true", "yes"])
def test_the_loader_refuses_a_flag_that_is_not_true_or_false(tmp_path, bad):
    with pytest.raises(CatalogError) as e:
        load_runs(_row_file(tmp_path, request={"gemm_allreduce_fusion": bad}))
    assert e.value.field == "gemm_allreduce_fusion"


def test_the_loader_refuses_a_flag_without_its_source(tmp_path):
    with pytest.raises(CatalogError) as e:
        load_runs(_row_file(tmp_path, gemm_allreduce_fusion_source=None))
    assert e.value.field == "gemm_allreduce_fusion_source"
    assert "gemm_allreduce_fusion_source" in e.value.msg.render("zh")


def test_the_rows_this_moves_and_the_rows_it_keeps():
    """Before (main @ cc35a21) → now. Moved: the TP8 rows whose prompts make all-reduces above the custom kernel's
    8 MB (NVLink SHARP), and the rows stating the fusion. Kept bit for bit: TP8 with a 128-token prompt (4 MB),
    TP4 and below (no NVLink SHARP gain), TP1 (no all-reduce). The kept values re-pinned when the trtllm KV budget
    became TensorRT-LLM's (s12-kvh100; the all-reduce plays no part): before it 5401.887004976557,
    4514.562010958639, 4012.176112491491."""
    runs = {r.id: r for r in load_runs()}
    kept = {
        "trtllm-v1.0-llama3-405b-h200-tp8-128-2048": 5443.2311980753475,
        "trtllm-v1.0-llama3-70b-h100-tp2-128-4096": 4649.855219647627,
        "trtllm-v1.0-llama3-70b-h200-tp1-128-128": 4027.950044799772,
    }
    for rid, value in kept.items():
        assert check(runs[rid]).predicted == value, rid
    before = {
        "trtllm-v1.0-llama3-405b-h200-tp8-1000-2000": 3647.8509550555136,
        "mlperf-v51-nebius-h200-sxm-141gbx8-trt-llama3.1-405b-server": 183.3,
        "mlperf-v51-nvidia-b200-sxm-180gbx8-trt-llama3.1-405b-server": 1048.0,
    }
    for rid, value in before.items():
        assert check(runs[rid]).predicted > value * 1.01, rid
