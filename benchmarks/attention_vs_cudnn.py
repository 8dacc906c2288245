"""The engine's fused-attention time against NVIDIA's published cuDNN SDPA training-kernel measurements
(tests/data/cudnn_sdpa: cuDNN 9.22 on GB200/GB300, 9.19 on H200; NVIDIA/cudnn-frontend, MIT), one line per
bf16, non-deterministic pass: measured ms, measured TFLOP/s, the engine's ms for the same shape on the catalog GPU
(engine/perf/layer_time.py flash_attention_s) and measured/engine. tests/unit/test_attention_vs_cudnn.py asserts
the bars; docs/notes/s11-attn.md discusses the table.

    python benchmarks/attention_vs_cudnn.py
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from tests.oracles import cudnn_sdpa


def main() -> None:
    print(cudnn_sdpa.format_table())
    groups: dict[str, list[float]] = defaultdict(list)
    for r, _, q in cudnn_sdpa.table():
        kind = f"window {r.window}" if r.window else r.mask
        groups[f"{r.gpu.replace('NVIDIA ', '')} {kind} d{r.d_qk} {r.step}"].append(q)
    print()
    print(f"{'group':40} {'rows':>4} {'min':>5} {'median':>6} {'max':>5}  (measured/engine)")
    for k in sorted(groups):
        v = groups[k]
        print(f"{k:40} {len(v):4d} {min(v):5.2f} {statistics.median(v):6.2f} {max(v):5.2f}")


if __name__ == "__main__":
    main()
