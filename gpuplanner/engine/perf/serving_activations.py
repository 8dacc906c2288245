"""Per-token activation traffic of a serving step: the HBM bytes the memory-bound kernels between the GEMMs
move for every token a step runs (decode or prefill alike), per GPU of a tensor-parallel group.

Per layer and token, counted from the kernels vLLM and TensorRT-LLM run at inference (no dropout, no saved
activations, no sequence parallelism: the norms run on the full hidden width on every TP rank):
- two fused residual-add + RMSNorm kernels (vLLM `fused_add_rms_norm`, TensorRT-LLM's residual RMSNorm):
  read the input and the residual, write the new residual and the normalised output;
- the QKV split / rotary embedding / KV-cache write before attention and the output permute after it (MLA:
  over the up-projected Q, K and V, mla.py);
- the gated MLP activation (SiLU(gate)·up: reads two ffn-wide inputs, writes one), per routed expert copy;
- for MoE layers, the permute of each routed token copy to its expert and the weighted un-permute back;
- with FP8 GEMMs, the cast of each GEMM's input activation to FP8 (read 2 bytes, write 1); with FP4 GEMMs
  (`--precision fp4`: weights and activations in FP4), its cast to FP4 (read 2, write 0.5 plus the block scales:
  NVFP4 one 1-byte E4M3 scale per 16 elements, MXFP4 one E8M0 per 32; performance.yaml fp4_block_scale_bytes).

The bytes per element are catalogs/assumptions/serving.yaml `serving_elementwise_bytes`; they are moved at
`elementwise_hbm_efficiency` of the HBM bandwidth (performance.yaml). These kernels run between the GEMMs
of the step, so their time adds to it (the additive roofline of serving_worker.Worker).
"""

from __future__ import annotations

from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.shapes import ModelShape


def activation_bytes_per_token(
    shape: ModelShape,
    tp: int,
    pp: int,
    fp8: bool,
    ew: dict[str, float],
    fp4_scale_bytes: float | None = None,
) -> float:
    """HBM bytes one token moves through the memory-bound kernels of one pipeline stage, per GPU. `fp8`: the GEMM
    inputs are cast to FP8; `fp4_scale_bytes` (bytes of block scales per element) given: cast to FP4 instead."""
    h = float(shape.hidden)
    q_width = mla.context_width(shape) / tp  # the attention output entering the output projection
    if shape.is_mla:  # MLA: Q, K and V up-projected per head (n·(d_n + d_r) each for Q and K, n·d_v for V)
        qkv_width = mla.up_projected_width(shape) / 2.0 / tp
    else:
        qkv_width = q_width + 2.0 * max(shape.kv_heads / tp, 1.0) * shape.head_dim
    n_moe = shape.layers - shape.dense_layers if shape.is_moe else 0
    n_dense = shape.layers - n_moe
    dense_ffn = shape.ffn_hidden / tp
    gate = ew["mlp_act_gated"] if shape.gated_mlp else ew["mlp_act"]
    cast = ew["fp8_cast"] if fp8 else 0.0
    if fp4_scale_bytes is not None:
        cast = ew["fp4_cast"] + fp4_scale_bytes

    def layer(ffn_width: float, routed_copies: float) -> float:
        b = ew["norm_residual"] * h  # full width on every rank
        b += ew["attn_io"] * qkv_width
        b += gate * ffn_width
        b += ew["moe_permute"] * routed_copies * h
        # the inputs of the QKV, output, gate/up and down projections cast to FP8 or FP4 (gate/up: once per
        # token, before the MoE permute)
        b += cast * (h + q_width + h + ffn_width)
        return b

    total = n_dense * layer(dense_ffn, 0.0)
    if n_moe:
        moe_ffn = shape.moe_ffn_hidden or shape.ffn_hidden
        # EP = TP: the experts are spread over the tp ranks, each routed copy runs its full expert width once
        copies = float(shape.top_k + shape.shared_experts)
        total += n_moe * layer(copies * moe_ffn / tp, shape.top_k / tp)
    return total / pp
