"""The flows of one training step, for the routing engine.

Ranks are laid out in Megatron order (TP fastest, then CP, then DP, then PP) or a user order such as
"tp-dp-cp-pp"; rank r runs on GPU r, and GPU g lives on node g // gpus_per_node. Each collective is decomposed
as NCCL's ring does it: in a ring all-reduce of S bytes over n ranks every rank sends 2(n-1)/n·S to its ring
successor; reduce-scatter and all-gather (n-1)/n·S each; all-to-all S/n to every other member; pipeline
stages send activations to the next stage and gradients back. One entry per (src, dst, kind), aggregated.
Vectorised: loops run over the five collective kinds only, never over GPUs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gpuplanner import text
from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.arrays import unique_inverse
from gpuplanner.engine.perf import mla
from gpuplanner.engine.perf.assumptions import Assumptions, load_assumptions
from gpuplanner.engine.perf.layer_time import ACT_BYTES
from gpuplanner.engine.perf.shapes import ModelShape, TrainConfig
from gpuplanner.engine.perf.training import params_on_gpu

KIND_CODES = {"tp": 0, "cp": 1, "dp": 2, "pp": 3, "ep": 4}
AXES = ("tp", "cp", "dp", "pp")


@dataclass(frozen=True)
class Flows:
    src_gpu: np.ndarray  # int64
    dst_gpu: np.ndarray  # int64
    bytes_per_step: np.ndarray  # float64
    kind: np.ndarray  # int8, KIND_CODES
    intra_node: np.ndarray  # bool: both ends in one node


def parse_order(order: str) -> list[str]:
    parts = [p.strip().lower() for p in order.replace(",", "-").split("-") if p.strip()]
    if "ep" in parts:
        parts.remove("ep")  # expert groups are carved out of the data-parallel dimension
    if sorted(parts) != sorted(AXES):
        raise ValidationError(
            text.Msg("error.rank_order", {"value": order}),
            field="order",
            value=order,
            hint=text.Msg("error.rank_order.hint"),
        )
    return parts


def rank_grid(cfg: TrainConfig, order: str = "tp-cp-dp-pp") -> np.ndarray:
    """R[t, c, d, p] = rank of the GPU at those coordinates."""
    parts = parse_order(order)
    size = {"tp": cfg.tp, "cp": cfg.cp, "dp": cfg.dp, "pp": cfg.pp}
    slow_first = list(reversed(parts))
    grid = np.arange(cfg.n_gpus, dtype=np.int64).reshape([size[p] for p in slow_first])
    return np.transpose(grid, [slow_first.index(ax) for ax in AXES])


def step_bytes_per_rank(
    shape: ModelShape, cfg: TrainConfig, a: Assumptions | None = None
) -> dict[str, float]:
    """Bytes each rank sends per step, per collective kind, as the ring/all-to-all decomposition needs them.

    tp: all-reduce payload per rank (summed over calls); cp: KV bytes per ring step; dp: gradient/parameter
    payload; pp: activation bytes per send; ep: all-to-all payload per rank.
    """
    a = a or load_assumptions()
    m = cfg.micro_batches
    layers_stage = int(np.ceil(shape.layers / cfg.pp))
    full = cfg.recompute == "full"
    tokens = cfg.micro_batch * cfg.seq_len / cfg.cp
    act = tokens * shape.hidden * ACT_BYTES
    tp_calls = m * layers_stage * (4 + 2 * full)  # all-reduce-equivalents per step
    kv_chunk = tokens * float(mla.kv_exchange_width(shape, cfg.tp)) * ACT_BYTES
    cp_steps = m * layers_stage * (3 + full) * (cfg.cp - 1)
    _, dense, experts = params_on_gpu(shape, cfg.tp, cfg.pp, cfg.ep)
    gb = a.table("grad_reduce_bytes")[cfg.precision]
    params = float(dense + experts)
    moe_layers = layers_stage * shape.moe_layers / shape.layers
    return {
        "tp": tp_calls * act,
        "cp": cp_steps * kv_chunk,
        "dp_grad": gb * params * (m if cfg.zero_stage == 3 else 1),
        "dp_param": 2.0 * params * (2 * m if cfg.zero_stage == 3 else (1 if cfg.zero_stage >= 1 else 0)),
        "pp": act / cfg.tp,
        "ep": m * moe_layers * (4 + 2 * full) * tokens * shape.top_k * shape.hidden * ACT_BYTES,
    }


# One kind of traffic: (source GPU, destination GPU, bytes per step of every one of its flows, kind name).
_Part = tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.integer[Any]], float, str]


def _ring(grid: npt.NDArray[np.integer[Any]], axis: int, per_rank: float, kind: str) -> _Part | None:
    n = grid.shape[axis]
    if n <= 1 or per_rank <= 0:
        return None
    src = grid.reshape(-1)
    dst = np.roll(grid, -1, axis=axis).reshape(-1)
    return src, dst, float(per_rank), kind


def flow_parts(
    shape: ModelShape, cfg: TrainConfig, order: str = "tp-cp-dp-pp", a: Assumptions | None = None
) -> list[_Part]:
    """The flows of one step before aggregation: ring successors for TP/CP/DP, stage neighbours for PP,
    peers for EP; each part's flows carry one volume."""
    b = step_bytes_per_rank(shape, cfg, a)
    grid = rank_grid(cfg, order)
    parts: list[_Part | None] = []
    if cfg.tp > 1:
        parts.append(_ring(grid, 0, 2.0 * (cfg.tp - 1) / cfg.tp * b["tp"], "tp"))
    parts.append(_ring(grid, 1, b["cp"], "cp"))
    # gradients reduce over the dp×cp group (ranks sharing tp and pp coordinates)
    dpcp = np.transpose(grid, (0, 3, 2, 1)).reshape(cfg.tp, cfg.pp, cfg.dp * cfg.cp)
    n = cfg.dp * cfg.cp
    if n > 1:
        if cfg.zero_stage == 0:
            per = 2.0 * (n - 1) / n * b["dp_grad"]
        else:
            per = (n - 1) / n * (b["dp_grad"] + b["dp_param"])
        parts.append(_ring(dpcp, 2, per, "dp"))
    if cfg.pp > 1:
        parts.extend(_pipeline(grid, cfg, b["pp"]))
    if cfg.ep > 1 and shape.is_moe:
        parts.append(_all_to_all(dpcp, cfg.ep, b["ep"]))
    return [p for p in parts if p is not None]


def training_flows(
    shape: ModelShape,
    cfg: TrainConfig,
    gpus_per_node: int,
    order: str = "tp-cp-dp-pp",
    a: Assumptions | None = None,
) -> Flows:
    """All flows of one step, one entry per (src, dst, kind)."""
    parts = flow_parts(shape, cfg, order, a)
    return FlowPattern.of(parts, gpus_per_node).flows(parts)


def _pipeline(grid: npt.NDArray[np.integer[Any]], cfg: TrainConfig, per_send: float) -> list[_Part]:
    m, v, p = cfg.micro_batches, cfg.vpp, cfg.pp
    src = grid[..., :-1].reshape(-1)
    dst = grid[..., 1:].reshape(-1)
    fwd = float(m * v * per_send)
    out: list[_Part] = [(src, dst, fwd, "pp"), (dst, src, fwd, "pp")]  # activations forward, gradients back
    if v > 1:  # interleaved chunks wrap from the last device to the first v-1 times per micro-batch
        last, first = grid[..., p - 1].reshape(-1), grid[..., 0].reshape(-1)
        wrap = float(m * (v - 1) * per_send)
        out += [(last, first, wrap, "pp"), (first, last, wrap, "pp")]
    return out


def _all_to_all(dpcp: npt.NDArray[np.integer[Any]], ep: int, per_rank: float) -> _Part:
    groups = dpcp.reshape(-1, ep)  # consecutive members of the dp×cp axis form an expert group
    src = np.broadcast_to(groups[:, :, None], (groups.shape[0], ep, ep))
    dst = np.broadcast_to(groups[:, None, :], (groups.shape[0], ep, ep))
    keep = src != dst
    return src[keep], dst[keep], float(per_rank / ep), "ep"


def parts_key(parts: list[_Part]) -> tuple[tuple[str, int], ...]:
    """What the parts' endpoints follow besides the configuration's degrees and rank order: which parts there
    are (a part with no bytes is left out) and their sizes."""
    return tuple((p[3], len(p[0])) for p in parts)


@dataclass(frozen=True)
class FlowPattern:
    """The aggregated (src, dst, kind) entries of a list of parts and, per part flow, its entry: the flows'
    volumes can then be summed again for new part volumes (a global batch or sequence length edit) without
    aggregating the endpoints again — with the same sums, so the bytes equal a fresh aggregation."""

    src: npt.NDArray[np.int64]
    dst: npt.NDArray[np.int64]
    kind: npt.NDArray[np.int8]
    intra_node: npt.NDArray[np.bool_]
    inverse: npt.NDArray[np.int64]  # per part flow (parts concatenated in order): its entry

    @staticmethod
    def of(parts: list[_Part], gpus_per_node: int) -> FlowPattern:
        if not parts:
            e = np.zeros(0, dtype=np.int64)
            return FlowPattern(e, e.copy(), np.zeros(0, np.int8), np.zeros(0, bool), e.copy())
        src = np.concatenate([p[0] for p in parts]).astype(np.int64)
        dst = np.concatenate([p[1] for p in parts]).astype(np.int64)
        kind = np.concatenate([np.full(len(p[0]), KIND_CODES[p[3]], dtype=np.int64) for p in parts])
        n = int(max(src.max(), dst.max())) + 1
        key = (src * n + dst) * len(KIND_CODES) + kind
        uniq, inv = unique_inverse(key)  # np.unique's answer; the parts' sorted runs merge, not re-sort
        k = (uniq % len(KIND_CODES)).astype(np.int8)
        pair = uniq // len(KIND_CODES)
        s, d = pair // n, pair % n
        return FlowPattern(s, d, k, (s // gpus_per_node) == (d // gpus_per_node), inv)

    def flows(self, parts: list[_Part]) -> Flows:
        """The flows with the bytes of ``parts`` (the parts this pattern was made of, volumes may differ)."""
        if not parts:
            return Flows(self.src, self.dst, np.zeros(0), self.kind, self.intra_node)
        val = np.concatenate([np.full(len(p[0]), p[2]) for p in parts]).astype(float)
        total = np.bincount(self.inverse, weights=val, minlength=self.src.size)
        return Flows(self.src, self.dst, total, self.kind, self.intra_node)
