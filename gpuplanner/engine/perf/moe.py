"""Expert all-to-all overlapped with another micro-batch's compute (Megatron-Core "combined 1F1B", DualPipe).

With `--overlap-moe-expert-parallel-comm` Megatron-Core runs the forward of one micro-batch's layer beside the
backward of another's, the communication on its own CUDA stream. The pairing is fixed by the code
(megatron/core/models/common/model_chunk_schedule_plan.py, `TransformerLayerSchedulePlan.run`):

    comm stream: combine_bwd | dispatch_fwd -> dispatch_bwd          | combine_fwd
    comp stream: attn_fwd    | mlp_bwd(dgrad) -> mlp_dw -> mlp_fwd   | attn_bwd

so each transfer hides only behind the one piece of compute it is paired with, and what outlasts it stays on
the critical path. The dependencies inside the middle phase are kept: the backward dispatch needs the expert
dgrad, the expert forward needs the forward dispatch. DeepSeek-V3's DualPipe (report §3.2.1, Figure 4) pairs
the same components.

Two more effects, each from a source and not fitted:
- micro-batch chunks of the pipeline warm-up (forward only) and cool-down (backward only) have no partner:
  their transfers are exposed. Megatron-Core's interleaved schedule gives the first rank
  (pp - 1)·2 + (v - 1)·pp warm-up chunks (schedules.py `get_pp_rank_microbatches`); without interleaving
  pp - 1; without a pipeline the first forward and the last backward run alone
  (`combined_1f1b_schedule_for_no_pipelining`);
- while a transfer runs beside compute, the communication kernels take SMs and HBM bandwidth from it: the
  overlapped span costs `overlap_contention_fraction` more (the assumption the ZeRO-3 overlap already uses;
  DeepSeek-V3 §3.2.2 gives 20 of 132 SMs to communication, a 1.18x slowdown, inside its 1.1-1.4x range).

The overlap can never hide more than the compute it runs beside: every phase costs max(transfer, compute).
"""

from __future__ import annotations

import numpy as np

from gpuplanner.engine.arrays import FloatArray, Num


def unpaired_fraction(pp: Num, vpp: Num, micro_batches: Num) -> FloatArray:
    """Share of a rank's micro-batch chunks whose forward (and backward) runs without a partner."""
    pp = np.asarray(pp, dtype=np.float64)
    v = np.asarray(vpp, dtype=np.float64)
    m = np.asarray(micro_batches, dtype=np.float64)
    chunks = np.maximum(m * v, 1.0)
    warmup = np.where(
        pp > 1,
        np.where(v > 1, (pp - 1.0) * 2.0 + (v - 1.0) * pp, pp - 1.0),
        1.0,
    )
    return np.asarray(np.clip(warmup / chunks, 0.0, 1.0))


def paired_layer_s(
    comm_s: Num,
    attn_fwd_s: Num,
    attn_bwd_s: Num,
    mlp_fwd_s: Num,
    mlp_bwd_s: Num,
    contention: float,
) -> tuple[FloatArray, FloatArray]:
    """(time, overlapped span) of one MoE layer's forward run beside another micro-batch's backward.

    `comm_s` is one dispatch (a combine moves the same bytes); the expert backward splits evenly into the
    data-gradient and weight-gradient GEMMs (each the size of the forward). The time includes the contention
    of the overlapped span.
    """
    c = np.asarray(comm_s, dtype=np.float64)
    a_f = np.asarray(attn_fwd_s, dtype=np.float64)
    a_b = np.asarray(attn_bwd_s, dtype=np.float64)
    m_f = np.asarray(mlp_fwd_s, dtype=np.float64)
    m_dx = 0.5 * np.asarray(mlp_bwd_s, dtype=np.float64)
    m_dw = m_dx
    phase1 = np.maximum(c, a_f)  # combine_bwd beside attn_fwd
    dispatch_bwd_end = np.maximum(c, m_dx) + c  # needs the forward dispatch done and the expert dgrad
    mlp_fwd_end = np.maximum(m_dx + m_dw, c) + m_f  # needs the forward dispatch
    phase2 = np.maximum(dispatch_bwd_end, mlp_fwd_end)
    phase3 = np.maximum(c, a_b)  # combine_fwd beside attn_bwd
    # both streams busy: each transfer overlaps at most its own length and at most the compute beside it
    overlapped = np.minimum(c, a_f) + np.minimum(2.0 * c, m_dx + m_dw + m_f) + np.minimum(c, a_b)
    return phase1 + phase2 + phase3 + contention * overlapped, overlapped


def overlapped_ep_s(
    comm_s: Num,
    layer_fwd_s: Num,
    layer_bwd_s: Num,
    moe_fwd_s: Num,
    moe_bwd_s: Num,
    moe_share: float,
    unpaired: Num,
    contention: float,
) -> FloatArray:
    """Exposed expert all-to-all of the average layer (forward + backward of one micro-batch), overlapped.

    `comm_s` is one dispatch of a MoE layer; `layer_*` are the average layer's compute and `moe_*` its expert
    part (already weighted by `moe_share`, the MoE layers' share of the layers). Paired chunks expose what
    the pairing of `paired_layer_s` leaves; unpaired ones expose their four transfers.
    """
    share = max(moe_share, 1e-12)
    m_f = np.asarray(moe_fwd_s, dtype=np.float64) / share
    m_b = np.asarray(moe_bwd_s, dtype=np.float64) / share
    a_f = np.maximum(0.0, np.asarray(layer_fwd_s, dtype=np.float64) - np.asarray(moe_fwd_s))
    a_b = np.maximum(0.0, np.asarray(layer_bwd_s, dtype=np.float64) - np.asarray(moe_bwd_s))
    c = np.asarray(comm_s, dtype=np.float64)
    pair, _ = paired_layer_s(c, a_f, a_b, m_f, m_b, contention)
    exposed_pair = pair - (a_f + a_b + m_f + m_b)
    u = np.asarray(unpaired, dtype=np.float64)
    return np.asarray(moe_share * ((1.0 - u) * exposed_pair + u * 4.0 * c))
