"""NVIDIA's published cuDNN SDPA training-kernel measurements (tests/data/cudnn_sdpa, README there) against the
engine's fused-attention time for the same shape (engine/perf/layer_time.py flash_attention_s).

Every row is one pass (forward or backward) of one bf16, non-deterministic cuDNN run. The engine's time is taken
for one layer of a shape with the row's batch, sequence, heads and head dims, on the catalog GPU the row ran on
(GB200 → nvidia-gb200, GB300 → nvidia-gb300, H200 → nvidia-h200-sxm), with everything else the engine adds to a
layer left out. cuDNN counts its FLOPs as the engine does: QK^T and PV over the non-masked elements forward
(2·(d_qk + d_vo) per element), five BMMs backward (2·(3·d_qk + 2·d_vo)), so the two agree on the work up to the
diagonal (cuDNN counts s(s+1)/2 elements under a causal mask, the engine s²/2) and, for d_qk ≠ d_vo, up to the
backward's 2.6× instead of 2.5×; the ratio measured/engine compares times, whatever the FLOP convention.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from gpuplanner.engine.perf.assumptions import load_assumptions
from gpuplanner.engine.perf.layer_time import Hardware, flash_attention_s, hardware_for
from gpuplanner.engine.perf.request import build
from gpuplanner.engine.perf.shapes import ModelShape

DATA = Path(__file__).resolve().parents[1] / "data" / "cudnn_sdpa"
GPU_FOR = {"NVIDIA GB200": "nvidia-gb200", "NVIDIA GB300": "nvidia-gb300", "NVIDIA H200": "nvidia-h200-sxm"}


@dataclass(frozen=True)
class Row:
    file: str
    model: str
    gpu: str  # as the CSV names it
    cudnn: str  # cudnn_backend_version
    mask: str  # top_left (causal) | no_mask
    batch: int
    seq: int
    q_heads: int
    kv_heads: int
    d_qk: int
    d_vo: int
    window: int  # sliding_window_size, 0 = none
    step: str  # fwd | bwd
    ms: float
    tflops: float

    @property
    def label(self) -> str:
        w = f" w{self.window}" if self.window else ""
        d = f"{self.d_qk}" if self.d_qk == self.d_vo else f"{self.d_qk}/{self.d_vo}"
        gpu = self.gpu.replace("NVIDIA ", "")
        return f"{gpu} {self.model} {self.mask}{w} d{d} b{self.batch} s{self.seq} h{self.q_heads}/{self.kv_heads} {self.step}"


def _num(x: str) -> float:
    return float(x) if x else 0.0


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    out: list[Row] = []
    for path in sorted(DATA.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for r in csv.DictReader(fh):
                if (
                    r["data_type"] != "bfloat16"
                    or r["deterministic_bwd"] != "False"
                    or r["success"] != "True"
                ):
                    continue
                common = dict(
                    file=path.name,
                    model=r["model_name"],
                    gpu=r["gpu_name"],
                    cudnn=str(int(_num(r["cudnn_backend_version"]))),
                    mask=r["attn_mask"],
                    batch=int(r["batch_size"]),
                    seq=int(r["q_seqlen"]),
                    q_heads=int(r["num_q_heads"]),
                    kv_heads=int(r["num_kv_heads"]),
                    d_qk=int(r["head_dim_qk"]),
                    d_vo=int(r["head_dim_vo"]),
                    window=int(_num(r["sliding_window_size"])),
                )
                assert r["q_seqlen"] == r["kv_seqlen"], path
                if r["profile_pass"] == "both":  # the H200 files: one line, both passes
                    out.append(
                        Row(**common, step="fwd", ms=_num(r["fwd_time_ms"]), tflops=_num(r["fwd_tflops"]))
                    )
                    out.append(
                        Row(**common, step="bwd", ms=_num(r["bwd_time_ms"]), tflops=_num(r["bwd_tflops"]))
                    )
                else:
                    out.append(
                        Row(**common, step=r["profile_pass"], ms=_num(r["time_ms"]), tflops=_num(r["tflops"]))
                    )
    return tuple(out)


@lru_cache(maxsize=8)
def hardware(gpu_id: str) -> Hardware:
    a = load_assumptions()
    spec = {"layers": 1, "hidden": 4096, "heads": 32, "vocab": 32000, "seq": 4096, "gpu": gpu_id, "gpus": 8}
    _, cluster, cfg = build({**spec, "tp": 1, "pp": 1, "micro_batch": 1, "global_batch": 8})
    return hardware_for(cluster, "bf16", a)


def shape_of(row: Row) -> ModelShape:
    """One layer with the row's attention: causal (a language model) or not (a diffusion transformer), the
    window in that layer, MLA head dims (d_qk = nope + rope) where d_qk ≠ d_vo."""
    mla = {}
    if row.d_qk != row.d_vo:
        mla = dict(
            kv_lora_rank=512,
            qk_nope_head_dim=row.d_vo,
            qk_rope_head_dim=row.d_qk - row.d_vo,
            v_head_dim=row.d_vo,
        )
    return ModelShape(
        architecture="dense" if row.mask == "top_left" else "dit",
        layers=1,
        hidden=row.q_heads * row.d_vo,
        heads=row.q_heads,
        kv_heads=row.kv_heads,
        ffn_hidden=1,
        vocab=1,
        seq_len=row.seq,
        head_dim=row.d_vo,
        sliding_window=row.window,
        sliding_window_layers=1 if row.window else 0,
        **mla,
    )


def engine_ms(row: Row) -> float:
    """The engine's time of the row's pass, milliseconds."""
    a = load_assumptions()
    shape = shape_of(row)
    width = row.q_heads * (row.d_qk + row.d_vo) / 2.0  # mla.score_width for both layouts
    score_flops = 4.0 * row.batch * row.seq * row.seq * width
    fwd, bwd = flash_attention_s(shape, hardware(GPU_FOR[row.gpu]), a, score_flops=score_flops)
    return 1e3 * float(fwd if row.step == "fwd" else bwd)


def table() -> list[tuple[Row, float, float]]:
    """(row, engine ms, measured/engine)."""
    out = []
    for r in rows():
        e = engine_ms(r)
        out.append((r, e, r.ms / e))
    return out


def format_table() -> str:
    lines = [f"{'row':64} {'cuDNN':>6} {'meas ms':>9} {'TFLOP/s':>8} {'engine ms':>9} {'meas/eng':>8}"]
    for r, e, q in table():
        lines.append(f"{r.label:64} {r.cudnn:>6} {r.ms:9.3f} {r.tflops:8.0f} {e:9.3f} {q:8.2f}")
    return "\n".join(lines)
