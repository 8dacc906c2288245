"""Print the prompt-length block of catalogs/validation/inference_datasets.yaml from a per-sample CSV.

The MLPerf dataset files (.pkl) are not redistributed here; their per-sample token lengths are published as
CSV (input_length,output_length) in github.com/openshift-psap/performance-dashboard mlperf-data/summaries/.
Usage: python tools/prompt_histogram.py FILE.csv BIN_WIDTH
Each bin is [lo, count, mean]: the samples with lo <= length < lo + BIN_WIDTH, and their mean length (so the
histogram's mean is the dataset's mean exactly).
"""

from __future__ import annotations

import sys

import numpy as np


def main(path: str, width: int) -> None:
    x = np.loadtxt(path, delimiter=",", skiprows=1, usecols=0)
    print(f"samples: {x.size}")
    print(f"mean: {x.mean():.2f}")
    print(f"std: {x.std():.1f}")
    for q in (50, 90, 99):
        print(f"p{q}: {np.percentile(x, q):.0f}")
    print(f"min: {x.min():.0f}")
    print(f"max: {x.max():.0f}")
    print(f"bin_width: {width}")
    print("bins:  # [lo, count, mean]")
    lo = np.floor(x / width).astype(int)
    for b in np.unique(lo):
        s = x[lo == b]
        print(f"  - [{b * width}, {s.size}, {s.mean():.1f}]")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
