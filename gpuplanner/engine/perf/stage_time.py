"""One layer's step on one GPU (forward, backward, recomputation, exposed communication), and the slowest
pipeline stage's work per micro-batch, from the layers, MTP modules and output heads it holds.

A pipeline runs at the pace of its slowest rank. Without a stated layout the engine takes the rank with
ceil(layers / pp) layers and the output head (and, as Megatron-Core places them by default, the
multi-token-prediction modules with their extra head passes). With a Megatron-Core
`pipeline_model_parallel_layout` (for example Megatron-Bridge's DeepSeek-V3 recipe "Et|(tt|)*30mL") every rank's
chunks are known: virtual stage i runs on rank i mod pp (Megatron-Core interleaved schedule), "E" is the
embedding, "t" a transformer layer (the first `dense_layers` are dense, the rest MoE), "m" an MTP module and "L"
the output head and loss, which with MTP runs the head once more per module (GPTModel._postprocess). Each rank's
work is summed from the dense and MoE layers' own times, and the slowest rank sets the micro-batch time.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.arrays import FloatArray, Real
from gpuplanner.engine.perf.assumptions import Assumptions
from gpuplanner.engine.perf.layer_time import Hardware, LayerTimes, gemm_s
from gpuplanner.engine.perf.moe import overlapped_ep_s, unpaired_fraction
from gpuplanner.engine.perf.shapes import ModelShape


@dataclass(frozen=True)
class LayerStep:
    """Per layer and micro-batch on one GPU (s): compute, recomputation and exposed communication."""

    fwd: Any
    bwd: Any
    recompute: Any
    tp: Any
    cp: Any
    ep: Any
    lt: LayerTimes

    @property
    def total(self) -> Any:
        return self.fwd + self.bwd + self.recompute + self.tp + self.cp + self.ep


def layer_step(
    shape: ModelShape,
    lt: LayerTimes,
    hw: Hardware,
    a: Assumptions,
    opt: Any,
    *,
    tp: Real,
    mb: Real,
    cp: Real,
    full: Real,
    sel: Real,
    pp: Real,
    v: Real,
    m: Real,
) -> LayerStep:
    """The average layer's step from its LayerTimes under the run's options (training.Options)."""
    from gpuplanner.engine.perf import mla

    layer_fwd = lt.gemm_fwd + lt.attn_fwd + lt.ew_fwd
    layer_bwd = 2.0 * lt.gemm_fwd + lt.attn_bwd + lt.ew_bwd
    recompute = full * layer_fwd + sel * lt.attn_fwd
    if opt.mla_up_proj_recompute and shape.is_mla:  # Megatron-Core "mla_up_proj": q_b and kv_b run again
        tokens_mb = mb * opt.seq_len / cp
        up = sum((gemm_s(tokens_mb, c, k, hw) for _, c, k in mla.up_projections(shape, tp)), 0.0 * tp)
        recompute = recompute + (1.0 - full) * up
    # recompute_norm_act reruns the pre-MLP norm and the experts' activation, unless full recompute reruns all
    if opt.recompute_norm_act:
        recompute = recompute + (1.0 - full) * lt.norm_act_fwd
    # backward TP all-reduces partly hide behind the weight-gradient GEMMs (async all-reduce)
    hidden = a.number("tp_bwd_overlap_fraction") if opt.tp_overlap else 0.0
    tp_bwd = lt.tp_fwd - np.minimum(hidden * lt.tp_fwd, lt.gemm_fwd)
    tp_fwd = lt.tp_fwd
    if opt.tp_comm_overlap:
        # userbuffers split each TP GEMM into tp chunks and ring-exchange chunk i+1 while chunk i multiplies:
        # one chunk's transfer stays exposed, and the rest only where it outlasts the GEMM it hides behind
        # (Wang et al., ASPLOS'23, 'Overlap Communication with Dependent Computation via Decomposition')
        tp_fwd = lt.tp_fwd / tp + np.maximum(0.0, lt.tp_fwd * (1.0 - 1.0 / tp) - lt.gemm_fwd)
        tp_bwd = lt.tp_fwd / tp + np.maximum(0.0, lt.tp_fwd * (1.0 - 1.0 / tp) - 2.0 * lt.gemm_fwd)
    tp_layer = tp_fwd * (1.0 + full) + tp_bwd
    cp_layer = lt.cp_fwd * (3.0 + full)
    ep_layer = lt.ep_fwd * (2.0 + full)
    if opt.ep_overlap and shape.moe_layers > 0:
        # dispatch/combine of one micro-batch run beside another's compute, each transfer beside the piece of
        # compute Megatron-Core pairs it with (moe.py); recomputation's transfers stay exposed
        share = shape.moe_layers / shape.layers
        ep_layer = (
            overlapped_ep_s(
                lt.ep_fwd / (2.0 * share),
                layer_fwd,
                layer_bwd,
                lt.moe_fwd,
                lt.moe_bwd,
                share,
                unpaired_fraction(pp, v, m),
                a.number("overlap_contention_fraction"),
            )
            + lt.ep_fwd * full
        )
    return LayerStep(layer_fwd, layer_bwd, recompute, tp_layer, cp_layer, ep_layer, lt)


@dataclass(frozen=True)
class Stage:
    """The slowest rank's work per micro-batch (s): layers' and heads' compute, and the per-layer rest."""

    compute: Any
    recompute: Any
    tp: Any
    cp: Any
    ep: Any


_TOKEN = re.compile(r"\(([^()]*)\)\*(\d+)|([EtmL])\*(\d+)")


def parse_layout(layout: str) -> list[str]:
    """Megatron-Core's layout string as its stages, each a string over E, t, m, L.

    The syntax of PipelineParallelLayerLayout.from_str: stages separated by "|", "X*n" repeats a symbol,
    "(...)*n" repeats a group (which may contain "|").
    """
    s = layout.replace(" ", "")
    prev = None
    while prev != s:
        prev = s
        s = _TOKEN.sub(
            lambda g: (g.group(1) or "") * int(g.group(2) or 0) + (g.group(3) or "") * int(g.group(4) or 0), s
        )
    stages = s.split("|")
    if stages and stages[-1] == "":  # a trailing "|" closes the last stage
        stages = stages[:-1]
    if not stages or any(set(st) - set("EtmL") for st in stages) or s.count("E") != 1 or s.count("L") != 1:
        raise ValidationError(text.Msg("error.pipeline_layout", {"layout": layout}), field="pipeline_layout")
    return stages


def rank_loads(layout: str, pp: int, vpp: int, shape: ModelShape) -> list[dict[str, int]]:
    """Per pipeline rank: dense and MoE layers, MTP modules, embedding and head it holds."""
    stages = parse_layout(layout)
    if len(stages) != pp * vpp or "".join(stages).count("t") != shape.layers:
        raise ValidationError(
            text.Msg(
                "error.pipeline_layout_size",
                {
                    "layout": layout,
                    "stages": len(stages),
                    "pp": pp,
                    "vpp": vpp,
                    "layers": shape.layers,
                    "t": "".join(stages).count("t"),
                },
            ),
            field="pipeline_layout",
        )
    n_dense = shape.layers - shape.moe_layers
    loads = [{"dense": 0, "moe": 0, "mtp": 0, "head": 0} for _ in range(pp)]
    layer = 0
    for i, st in enumerate(stages):
        load = loads[i % pp]
        for ch in st:
            if ch == "t":
                load["dense" if layer < n_dense else "moe"] += 1
                layer += 1
            elif ch == "m":
                load["mtp"] += 1
            elif ch == "L":
                load["head"] += 1
    return loads


def slowest_stage(
    shape: ModelShape,
    step: LayerStep,
    layers_stage: FloatArray,
    logits: Real,
    mtp_glue: Real,
    *,
    layout: str,
    pp: FloatArray,
    vpp: FloatArray,
    step_for: Callable[[ModelShape], LayerStep],
) -> Stage:
    """The slowest rank's work per micro-batch. `logits` is one pass of the output head (forward and backward)
    and `mtp_glue` an MTP module's work besides its transformer block (its 2h -> h projection)."""
    n_mtp = float(shape.mtp_layers)
    heads = (1.0 + n_mtp) * logits
    if not layout:
        mtp = n_mtp * (step.fwd + step.bwd + mtp_glue) if n_mtp else 0.0
        mtp_rest = n_mtp * (step.recompute + step.tp + step.cp + step.ep) if n_mtp else 0.0
        return Stage(
            layers_stage * (step.fwd + step.bwd) + heads + mtp,
            layers_stage * step.recompute + mtp_rest,
            layers_stage * step.tp,
            layers_stage * step.cp,
            layers_stage * step.ep,
        )
    dense = step_for(dataclasses.replace(shape, dense_layers=shape.layers))
    moe = step_for(dataclasses.replace(shape, dense_layers=0)) if shape.is_moe else dense
    rows = np.broadcast_shapes(np.shape(pp), np.shape(step.fwd))
    out = {k: np.zeros(rows) for k in ("compute", "recompute", "tp", "cp", "ep")}
    best = np.full(rows, -1.0)
    p_arr, v_arr = np.broadcast_to(pp, rows), np.broadcast_to(vpp, rows)
    for p, v in {(int(x), int(y)) for x, y in zip(p_arr.ravel(), v_arr.ravel(), strict=True)}:
        sel = (p_arr == p) & (v_arr == v)
        for load in rank_loads(layout, p, v, shape):
            blocks = {"dense": load["dense"], "moe": load["moe"] + load["mtp"]}
            parts = {
                "compute": load["head"] * heads + load["mtp"] * mtp_glue,
                "recompute": 0.0,
                "tp": 0.0,
                "cp": 0.0,
                "ep": 0.0,
            }
            for kind, st in (("dense", dense), ("moe", moe)):
                n = blocks[kind]
                parts["compute"] = parts["compute"] + n * (st.fwd + st.bwd)
                for k in ("recompute", "tp", "cp", "ep"):
                    parts[k] = parts[k] + n * getattr(st, k)
            total = np.broadcast_to(sum(parts.values()), rows)
            take = sel & (total > best)
            best = np.where(take, total, best)
            for k, val in parts.items():
                out[k] = np.where(take, np.broadcast_to(val, rows), out[k])
    return Stage(out["compute"], out["recompute"], out["tp"], out["cp"], out["ep"])
