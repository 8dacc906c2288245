"""Copy the rows of NVIDIA aiconfigurator's measured per-op databases that tests/unit/test_decode_oracle.py needs
into tests/data/aiconfigurator/ (CSV, no aiconfigurator or parquet reader needed in CI).

    git clone https://github.com/ai-dynamo/aiconfigurator && git -C aiconfigurator checkout 095f58a5
    pip install pandas pyarrow
    python benchmarks/extract_aiconfigurator_ops.py path/to/aiconfigurator   # or its systems/data folder

Source: aic-core/src/aiconfigurator_core/systems/data/<system>/{gemm,quantize,attention,comm}/trtllm/1.3.0rc20/
(Apache-2.0; tests/data/aiconfigurator/README.md). Latencies in milliseconds as stored.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]

SYSTEMS = ("h100_sxm", "h200_sxm", "b200_sxm")
VERSION = "1.3.0rc20"
GRID = (1024, 1536, 2048, 2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192, 10240, 12288, 16384)
MS = (1, 8, 16, 32, 64, 128)
OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "aiconfigurator"


def main(repo: str) -> int:
    data = Path(repo) / "aic-core/src/aiconfigurator_core/systems/data"
    if not data.is_dir():  # the systems/data folder itself (e.g. files exported with `git show`)
        data = Path(repo)
    gemm, quant, attn, comm = [], [], [], []
    for s in SYSTEMS:
        g = pd.read_parquet(data / s / "gemm/trtllm" / VERSION / "gemm_perf.parquet")
        g = g[
            (g.kernel_source == "torch_flow") & g.gemm_dtype.isin(["bfloat16", "fp8", "nvfp4"]) & g.m.isin(MS)
        ]
        grid = g[g.n.isin(GRID) & g.k.isin(GRID)]
        wide = g[
            g.n.isin([51200, 65536]) & (g.k == 8192)
        ]  # wide N at K = hidden: a TP2 gate-up, the output head
        gemm.append(
            pd.concat([grid, wide]).assign(system=s)[["system", "gemm_dtype", "m", "n", "k", "latency"]]
        )
        for name in ("computescale", "scale_matrix"):
            q = pd.read_parquet(data / s / "quantize/trtllm" / VERSION / f"{name}_perf.parquet")
            q = q[(q.quant_dtype == "fp8") & q.m.isin(MS) & q.k.isin(GRID)]
            quant.append(q.assign(system=s, table=name)[["system", "table", "m", "k", "latency"]])
        a = pd.read_parquet(data / s / "attention/trtllm" / VERSION / "generation_attention_perf.parquet")
        a = a[
            (a.kernel_source == "torch_flow")
            & (a.head_dim == 128)
            & (a.window_size == 0)
            & a.batch_size.isin([32, 64, 128])
            & a.num_heads.isin([8, 16, 32])
            & (a.num_heads == 8 * a.num_key_value_heads)
        ].assign(system=s, s=lambda x: x.isl + x.step)
        attn.append(
            a[["system", "kv_cache_dtype", "batch_size", "s", "num_heads", "num_key_value_heads", "latency"]]
        )
        c = pd.read_parquet(data / s / "comm/trtllm" / VERSION / "custom_allreduce_perf.parquet")
        comm.append(c.assign(system=s)[["system", "num_gpus", "message_size", "latency"]])
    OUT.mkdir(parents=True, exist_ok=True)
    for name, frames in (
        ("gemm", gemm),
        ("quantize", quant),
        ("generation_attention", attn),
        ("allreduce", comm),
    ):
        df = pd.concat(frames).sort_values(list(frames[0].columns[:-1]))
        df.to_csv(OUT / f"{name}.csv", index=False, float_format="%.6g")
        print(name, len(df))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
