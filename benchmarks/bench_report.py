"""Times the PDF proposal (analysis + report) on generated clusters: 1k and 16k GPUs (16k: 3-tier fat tree,
2,048 DGX H100, 42 kW racks, with a Llama 3 70B training workload so every section is filled), in English
and Chinese. Target: a 16k-GPU report in under 10 s.

    python benchmarks/bench_report.py [--sizes 1k,16k] [--runs 3] [--lang en,zh]

Prints the median seconds of the whole build_report call (analysis included), the page count and file size.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from pypdf import PdfReader

from gpuplanner.commands import AddRows
from gpuplanner.model import Project, Workload
from gpuplanner.reports import build_report
from gpuplanner.topology import GenerateOptions, generate_into

SIZES = {
    "1k": GenerateOptions(template="rail-leaf-spine", servers=128, rack_budget_kw=42),
    "16k": GenerateOptions(template="fat-tree-3tier", servers=2048, rack_budget_kw=42),
}
LLAMA3_70B = dict(layers=80, hidden=8192, heads=64, kv_heads=8, ffn_hidden=28672, vocab=128256, seq_len=8192)


def project(size: str) -> Project:
    p = Project()
    generate_into(p, SIZES[size])
    wl = Workload(id=p.new_id("workloads"), name="Llama 3 70B", tp=8, pp=4, global_batch=2048,
                  total_tokens=15e12, **LLAMA3_70B)  # fmt: skip
    AddRows("workloads", [wl]).apply(p)
    return p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1k,16k")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lang", default="en,zh")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(","):
            p = project(size)
            gpus = p.gpu_count()
            for lang in args.lang.split(","):
                out = Path(tmp) / f"report-{size}-{lang}.pdf"
                times = []
                for _ in range(args.runs):
                    t0 = time.perf_counter()
                    build_report(p, out, lang=lang, warn=lambda m: None)
                    times.append(time.perf_counter() - t0)
                pages = len(PdfReader(str(out)).pages)
                print(
                    f"{size:>4} ({gpus:,} GPUs, {len(p.devices):,} devices, {len(p.links):,} links) {lang}: "
                    f"median {statistics.median(times):.2f} s over {args.runs} runs, {pages} pages, "
                    f"{out.stat().st_size / 1e6:.1f} MB"
                )


if __name__ == "__main__":
    main()
