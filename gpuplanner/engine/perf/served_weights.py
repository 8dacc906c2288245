"""The weights a serving replica holds and streams when its linear layers are quantized (`--precision fp8` /
`fp4`): the input embedding table and the output head (lm_head) stay in BF16.

TensorRT Model Optimizer, which makes NVIDIA's FP8 and NVFP4 checkpoints and quantizes NVIDIA's MLPerf engines,
disables the lm_head quantizer in every stock config (modelopt/torch/quantization/config.py,
_default_disabled_quantizer_cfg: '*lm_head*': {'enable': False}) and quantizes linear layers only, so the
nn.Embedding table keeps the checkpoint's dtype; its exported hf_quant_config.json lists exclude_modules
['lm_head'], and the model cards of nvidia/Llama-3.1-405B-Instruct-FP8 / -FP4 say 'Only the weights and
activations of the linear operators within transformers blocks are quantized'. The byte count per table
parameter is the assumption unquantized_table_bytes (catalogs/assumptions/serving.yaml, 2.0).

So with w bytes per quantized weight and t = max(w, unquantized_table_bytes):
    weights = (total − tables) · w + tables · t
tables = vocab · hidden × (2, or 1 when the embedding is tied to the head). A decode step reads everything but
the input table (a row lookup); the head is read every step and its GEMM runs at the BF16 rate.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.flops import embedding_params, param_counts
from gpuplanner.engine.perf.shapes import ClusterSpec, ModelShape


@dataclass(frozen=True)
class ServedWeights:
    """Bytes of the whole model (divide by the GPUs of a replica for one GPU's share)."""

    total: float  # every weight, the tables at table_bytes
    input_table: float  # the input embedding table: held, not streamed per step (0 when tied to the head)
    head: float  # the output head: read every decode step
    table_bytes: float  # bytes per parameter of the two tables


def table_bytes(weight_bytes: float, sa: Assumptions) -> float:
    """Bytes per parameter of the embedding table and the output head: BF16 when the weights are narrower
    (fp8, fp4), else the weights' own width."""
    return max(float(weight_bytes), sa.number("unquantized_table_bytes"))


def served_weights(shape: ModelShape, weight_bytes: float, sa: Assumptions) -> ServedWeights:
    """The model's weight bytes with the linear layers at `weight_bytes` and the tables at table_bytes."""
    tb = table_bytes(weight_bytes, sa)
    tables = embedding_params(shape)  # one table when tied, else the input table and the head
    one = float(shape.vocab * shape.hidden)
    total = (param_counts(shape)["total"] - tables) * weight_bytes + tables * tb
    return ServedWeights(
        total=total,
        input_table=0.0 if shape.tied_embeddings else one * tb,
        head=one * tb,
        table_bytes=tb,
    )


def head_gemm_rate(cluster: ClusterSpec, weight_bytes: float, gemm_rate: float, a: Assumptions) -> float:
    """FLOP/s of the output head's GEMM per GPU: with quantized weights (narrower than 2 bytes) it stays in BF16
    (peak BF16 × gemm_efficiency); otherwise it runs at the other GEMMs' `gemm_rate`."""
    if weight_bytes >= 2.0:
        return gemm_rate
    return cluster.peak_bf16_tflops * 1e12 * a.number("gemm_efficiency", cluster.gpu_name)
