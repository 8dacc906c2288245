"""FLOP and parameter counts: Megatron-LM eq. 3, GQA, MoE active parameters, the bundled model catalog."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuplanner.engine.perf.flops import (
    hardware_flops_per_token,
    megatron_eq3_flops,
    model_flops_per_token,
    param_counts,
)
from gpuplanner.engine.perf.shapes import ModelShape, shape_from_entry

MODELS = Path(__file__).resolve().parents[2] / "catalogs" / "models"


def gpt(layers, hidden, heads):
    return ModelShape("dense", layers, hidden, heads, heads, 4 * hidden, 51200, 2048, tied_embeddings=True)


@pytest.mark.parametrize("layers,hidden,heads", [(24, 2304, 24), (96, 12288, 96), (128, 25600, 160)])
def test_full_recompute_hardware_flops_equal_eq3_and_model_flops_the_72_form(layers, hidden, heads):
    """Narayanan et al. SC'21 eq. 3 counts 4 forward passes of the layers and 3 of the logits."""
    shape = gpt(layers, hidden, heads)
    tokens = 512 * 2048
    eq3 = megatron_eq3_flops(512, 2048, layers, hidden, 51200)
    assert hardware_flops_per_token(shape, 2048, "full") * tokens == pytest.approx(eq3, rel=1e-12)
    h, s, v = hidden, 2048, 51200
    no_recompute = 72 * 512 * s * layers * h * h * (1 + s / (6 * h) + v / (12 * layers * h))
    assert model_flops_per_token(shape, 2048) * tokens == pytest.approx(no_recompute, rel=1e-12)


@pytest.mark.parametrize(
    "params_b,layers,hidden,heads",
    [(1.7, 24, 2304, 24), (18.4, 40, 6144, 48), (145.6, 80, 12288, 96), (1008.0, 128, 25600, 160)],
)
def test_megatron_table1_parameter_counts(params_b, layers, hidden, heads):
    # Table 1 rounds 1.65B to "1.7"; the paper's own formula 12lh²(1 + 13/12h + (V+s)/12lh) gives 1.652B
    assert param_counts(gpt(layers, hidden, heads))["total"] / 1e9 == pytest.approx(params_b, rel=0.035)


def test_gqa_shrinks_kv_projections_only():
    mha = ModelShape("dense", 1, 4096, 32, 32, 14336, 0, 8192, gated_mlp=True)
    gqa = ModelShape("dense", 1, 4096, 32, 8, 14336, 0, 8192, gated_mlp=True)
    saved = param_counts(mha)["total"] - param_counts(gqa)["total"]
    assert saved == 2 * 4096 * (32 - 8) * 128


def load(name):
    with open(MODELS / f"{name}.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.mark.parametrize("path", sorted(MODELS.glob("*.yaml")), ids=lambda p: p.stem)
def test_catalog_params_match_the_published_total(path):
    entry = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert entry["source"] and entry["as_of"]
    counts = param_counts(shape_from_entry(entry))
    assert counts["total"] / 1e9 == pytest.approx(entry["params_b"], rel=0.05), entry["id"]


@pytest.mark.parametrize(
    "name,active_b,tol", [("mixtral-8x7b", 12.9, 0.02), ("deepseek-v3-671b", 37.0, 0.02)]
)
def test_moe_active_parameters(name, active_b, tol):
    """Mixtral: 12.9B active of 46.7B (Jiang et al. 2024); DeepSeek-V3: 37B of 671B (tech report), with its
    Multi-head Latent Attention counted exactly (engine/perf/mla.py)."""
    counts = param_counts(shape_from_entry(load(name)))
    assert counts["active"] / 1e9 == pytest.approx(active_b, rel=tol)
    assert counts["active"] < counts["total"] / 3
