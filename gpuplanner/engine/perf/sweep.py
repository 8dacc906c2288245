"""Enumerate parallel layouts for a GPU count and rank them by tokens/s, all as array expressions.

Candidates are the Cartesian product of the option lists (tp, pp, cp, ep, micro-batch, vpp, recompute); the
invalid ones (divisibility, batch, heads, layers, experts) and those that do not fit in memory are dropped,
and every survivor is evaluated in one call of `training.evaluate` - the same code `training.estimate` runs
on a single row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.shapes import RECOMPUTE, ClusterSpec, ModelShape, TrainConfig
from gpuplanner.engine.perf.training import Options, TrainEstimate, evaluate, to_estimate

COLUMNS = ("tp", "pp", "dp", "cp", "ep", "vpp", "mb", "rc", "sp")


@dataclass(frozen=True)
class SweepResult:
    """Valid configurations ranked by tokens/s (best first): `cols[k][i]` and `out[k][i]` for row i."""

    cols: dict[str, np.ndarray]
    out: dict[str, np.ndarray]
    options: Options
    enumerated: int
    valid: int

    def __len__(self) -> int:
        return len(self.cols["tp"])

    def config(self, i: int) -> TrainConfig:
        c = {k: self.cols[k][i] for k in COLUMNS}
        o = self.options
        return TrainConfig(
            tp=int(c["tp"]),
            pp=int(c["pp"]),
            dp=int(c["dp"]),
            cp=int(c["cp"]),
            ep=int(c["ep"]),
            vpp=int(c["vpp"]),
            micro_batch=int(c["mb"]),
            global_batch=o.global_batch,
            seq_len=o.seq_len,
            precision=o.precision,
            zero_stage=o.zero_stage,
            recompute=RECOMPUTE[int(c["rc"])],
            total_tokens=o.total_tokens,
            attention="triton" if o.triton_attention else ("flash" if o.flash else "unfused"),
            sequence_parallel=bool(c["sp"]),
            dp_overlap=o.dp_overlap,
            tp_overlap=o.tp_overlap,
            tp_comm_overlap=o.tp_comm_overlap,
            pp_overlap=o.pp_overlap,
            grad_dtype=o.grad_dtype,
            balanced_pipeline=o.balanced_pipeline,
            param_gather_overlap=o.param_gather_overlap,
            ep_overlap=o.ep_overlap,
            zero3_regather_on_recompute=o.zero3_regather_on_recompute,
            zero3_nics_per_node=o.zero3_nics_per_node,
            optimizer=o.optimizer,
            optimizer_state=o.optimizer_state,
            moe_dispatcher=o.moe_dispatcher,
            expert_tp=o.expert_tp,
            fp8_params=o.fp8_params,
            recompute_norm_act=o.recompute_norm_act,
            mla_up_proj_recompute=o.mla_up_proj_recompute,
            pipeline_layout=o.pipeline_layout,
            fp8_recipe=o.fp8_recipe,
        )

    def estimate(self, i: int) -> TrainEstimate:
        return to_estimate(self.out, i)

    def best(self, k: int = 5) -> list[tuple[TrainConfig, TrainEstimate]]:
        return [(self.config(i), self.estimate(i)) for i in range(min(k, len(self)))]


def _powers_of_two(limit: int) -> list[int]:
    return [1 << i for i in range(int(np.log2(max(limit, 1))) + 1)]


def candidates(
    shape: ModelShape,
    cluster: ClusterSpec,
    n_gpus: int,
    global_batch: int,
    *,
    seq_len: int,
    tp_options: Sequence[int] | None = None,
    pp_options: Sequence[int] | None = None,
    cp_options: Sequence[int] = (1, 2, 4, 8),
    ep_options: Sequence[int] | None = None,
    mb_options: Sequence[int] = (1, 2, 4, 8),
    vpp_options: Sequence[int] = (1, 2, 3, 4, 5, 6, 8, 10),
    recompute_options: Sequence[str] = RECOMPUTE,
    sequence_parallel: bool | None = None,
    dp_options: Sequence[int] | None = None,
) -> tuple[dict[str, np.ndarray], int]:
    """Valid layouts (before the memory check) as columns, and how many were enumerated."""
    tp_o = np.asarray(tp_options or _powers_of_two(cluster.gpus_per_node))
    # divisors of the layer count, and powers of two (uneven stages: the last holds ceil(layers/pp) layers)
    pp_default = {p for p in range(1, shape.layers + 1) if shape.layers % p == 0}
    pp_default |= {p for p in _powers_of_two(shape.layers)}
    pp_o = np.asarray(pp_options or sorted(pp_default))
    ep_o = np.asarray(
        ep_options
        or ([e for e in _powers_of_two(shape.experts) if shape.experts % e == 0] if shape.is_moe else [1])
    )
    rc_o = np.asarray([RECOMPUTE.index(r) for r in recompute_options])
    grids = np.meshgrid(
        tp_o,
        pp_o,
        np.asarray(cp_options),
        ep_o,
        np.asarray(mb_options),
        np.asarray(vpp_options),
        rc_o,
        indexing="ij",
    )
    tp, pp, cp, ep, mb, vpp, rc = (g.reshape(-1).astype(np.int64) for g in grids)
    enumerated = tp.size
    model_par = tp * pp * cp
    ok = (n_gpus % model_par) == 0
    dp = np.where(ok, n_gpus // np.maximum(model_par, 1), 0)
    ok &= dp >= 1
    if dp_options:
        ok &= np.isin(dp, np.asarray(dp_options))
    ok &= (global_batch % np.maximum(dp * mb, 1)) == 0
    ok &= (shape.heads % tp) == 0
    ok &= pp <= shape.layers
    # uneven stages are allowed (the slowest holds ceil(layers / pp)); its layers split evenly into the
    # virtual stages (Megatron: layers per virtual stage is an integer)
    per_stage = -(-shape.layers // np.maximum(pp, 1))
    ok &= (vpp == 1) | ((pp > 1) & (per_stage % vpp == 0))
    if shape.heads % shape.kv_heads == 0:  # true GQA (see request.check_layout)
        ok &= (shape.kv_heads % tp) == 0
    ok &= (seq_len % (2 * cp) == 0) | (cp == 1)
    ok &= (shape.experts % ep == 0) & (((dp * cp) % ep) == 0)
    sp = (tp > 1) if sequence_parallel is None else np.full(tp.shape, bool(sequence_parallel)) & (tp > 1)
    cols = {"tp": tp, "pp": pp, "dp": dp, "cp": cp, "ep": ep, "vpp": vpp, "mb": mb, "rc": rc, "sp": sp}
    return {k: v[ok] for k, v in cols.items()}, enumerated


def sweep(
    shape: ModelShape,
    cluster: ClusterSpec,
    n_gpus: int,
    global_batch: int,
    *,
    seq_len: int | None = None,
    precision: str = "bf16",
    zero_stage: int = 1,
    attention: str = "flash",
    dp_overlap: bool = True,
    tp_overlap: bool = True,
    tp_comm_overlap: bool = False,
    pp_overlap: bool = True,
    total_tokens: float = 0.0,
    require_fit: bool = True,
    assumptions: Assumptions | None = None,
    settings: dict[str, Any] | None = None,
    **options: Any,
) -> SweepResult:
    """Rank every valid layout of `n_gpus` for `global_batch` sequences by tokens/s (best first).

    `options` are the option lists of `candidates` (tp_options, pp_options, cp_options, ep_options,
    mb_options, vpp_options, recompute_options, sequence_parallel, dp_options). `settings`: further
    row-independent Options fields (grad_dtype, balanced_pipeline, param_gather_overlap, ep_overlap, zero3_*).
    """
    seq = seq_len or shape.seq_len
    cols, enumerated = candidates(shape, cluster, n_gpus, global_batch, seq_len=seq, **options)
    opt = Options(
        global_batch=global_batch,
        seq_len=seq,
        precision=precision,
        zero_stage=zero_stage,
        flash=attention != "unfused",
        triton_attention=attention == "triton",
        dp_overlap=dp_overlap,
        tp_overlap=tp_overlap,
        tp_comm_overlap=tp_comm_overlap,
        pp_overlap=pp_overlap,
        total_tokens=total_tokens,
        **(settings or {}),
    )
    valid = len(cols["tp"])
    if valid == 0:
        raise ValidationError(
            text.Msg(
                "error.no_layout_divides",
                {"gpus": n_gpus, "batch": global_batch, "heads": shape.heads, "layers": shape.layers},
            ),
            field="n_gpus",
            value=n_gpus,
            hint=text.Msg("error.no_layout_divides.hint"),
        )
    out = evaluate(shape, cluster, cols, opt, assumptions or load_assumptions())
    keep = np.asarray(out["mem_fits"], dtype=bool) if require_fit else np.ones(valid, dtype=bool)
    idx = np.nonzero(keep)[0]
    order = idx[np.argsort(-out["tokens_per_s"][idx], kind="stable")]
    cols = {k: v[order] for k, v in cols.items()}
    out = {k: (np.asarray(v)[order] if np.ndim(v) else v) for k, v in out.items()}
    return SweepResult(cols=cols, out=out, options=opt, enumerated=enumerated, valid=valid)
