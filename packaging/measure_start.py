"""Start-time figures of the one-folder bundle: ``gpuplanner info`` and the window up to the shown project.

    python packaging/measure_start.py [--bundle dist/gpuplanner] [--example cluster-256-h100.gpuplan] [--runs 5]

Cold: before each run every file of the bundle is evicted from the page cache (``posix_fadvise
DONTNEED``, no root needed), as after a reboot or on first launch from a fresh install; system libraries
(libc, fontconfig, X/EGL) stay cached. Warm: the same command run right after itself. The window is started
offscreen with the hidden self-test (``GPUPLANNER_SMOKE_QUIT_MS``, see gpuplanner/ui/smoke.py); "shown" is the
time at which it prints ``smoke: opened …`` (window shown, project open), "analysed" when the first analysis
came back. Prints medians in seconds; the figures go into packaging/README.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def evict(folder: Path) -> int:
    """Drop ``folder``'s files from the page cache; returns how many files were advised."""
    n = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                n += 1
            finally:
                os.close(fd)
    return n


def clean_env(home: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPUPLANNER_", "XDG_"))}
    env.update(HOME=home, QT_QPA_PLATFORM="offscreen")
    return env


def time_cli(exe: Path, example: Path, env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run([str(exe), "info", str(example)], env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def time_gui(exe: Path, example: Path, env: dict[str, str]) -> tuple[float, float]:
    env = dict(env, GPUPLANNER_SMOKE_QUIT_MS="60000")
    t = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), str(example)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    shown = analysed = float("nan")
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("smoke: opened"):
            shown = time.perf_counter() - t
        elif line.startswith("smoke: analysis"):
            analysed = time.perf_counter() - t
    if proc.wait() != 0:
        raise RuntimeError(f"{exe} {example} exited {proc.returncode}")
    return shown, analysed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bundle", type=Path, default=ROOT / "dist" / "gpuplanner")
    ap.add_argument("--example", default="cluster-256-h100.gpuplan")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    exe = args.bundle / ("gpuplanner.exe" if sys.platform == "win32" else "gpuplanner")
    example = args.bundle / "_internal" / "examples" / args.example
    if not exe.is_file() or not example.is_file():
        print(f"measure_start: no bundle at {args.bundle} (run packaging/build.sh)", file=sys.stderr)
        return 2
    rows: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as home:
        env = clean_env(home)
        for mode in ("cold", "warm"):
            for _ in range(args.runs):
                if mode == "cold":
                    evict(args.bundle)
                else:
                    time_cli(exe, example, env)  # warm-up
                rows.setdefault(f"{mode} info", []).append(time_cli(exe, example, env))
                if mode == "cold":
                    evict(args.bundle)
                else:
                    time_gui(exe, example, env)
                shown, analysed = time_gui(exe, example, env)
                rows.setdefault(f"{mode} window shown", []).append(shown)
                rows.setdefault(f"{mode} window analysed", []).append(analysed)
    print(f"bundle {args.bundle}, example {args.example}, median of {args.runs} runs:")
    for name, values in rows.items():
        print(
            f"  {name:<22} {statistics.median(values):6.2f} s   (min {min(values):.2f}, max {max(values):.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
