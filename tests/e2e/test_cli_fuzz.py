"""Fuzzed command lines for `generate` and `estimate` (hypothesis), plus the argument errors named in
issue 13: every run ends with exit 0, or exit 2 and one line on stderr naming the argument; never a
traceback or an "internal error", never a hang (each run has an alarm), and a refused `generate` writes
no file. Runs ``gpuplanner.cli.main`` in-process (the console script's own entry point) for speed; the
deterministic cases at the end run the real command in a subprocess."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuplanner.cli import main
from gpuplanner.cli.common import MAX_GPUS, MAX_SERVERS

ROOT = Path(__file__).resolve().parents[2]
HANG_S = 30  # generous on a loaded CI machine; a hang is minutes

# Values that break naive parsing or sizing, mixed with small valid ones.
NUMBERS = st.one_of(
    st.integers(min_value=1, max_value=16).map(str),
    st.sampled_from(
        [
            "0", "-1", "-0", "1e20", "1e3", "nan", "inf", "-inf", "", " ", "abc", "0x10", "1_000", "٣",
            "3.5", "1e-300", "9" * 40, str(MAX_SERVERS + 1), str(MAX_GPUS + 1), "1000000000", "2.5e9",
        ]
    ),
)  # fmt: skip
TEMPLATES = st.sampled_from(
    [
        "single-switch",
        "leaf-spine",
        "rail-leaf-spine",
        "fat-tree-3tier",
        "dragonfly",
        "nonsense",
        "dgx-h100-256",
    ]
)
SERVERS = st.sampled_from(["nvidia-dgx-h100", "huawei-atlas-800t-a2", "nvidia-gb200-nvl72", "no-such", ""])
SWITCHES = st.sampled_from(
    ["nvidia-quantum-2-qm9700", "nvidia-spectrum-4-sn5600", "no-such", "nvidia-dgx-h100"]
)


class Hang(Exception):
    pass


def _run(argv: list[str]) -> tuple[int, str, str]:
    def alarm(signum, frame):
        raise Hang(" ".join(argv))

    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_S)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return rc, out.getvalue(), err.getvalue()


def _check(argv: list[str], rc: int, out: str, err: str) -> None:
    where = f"{argv}: rc={rc} stderr={err[-500:]!r}"
    assert "Traceback" not in err and "internal error" not in err, where
    assert rc in (0, 2), where
    if rc == 2 and err.strip():
        assert len(err.strip().splitlines()) == 1, where
        assert err.startswith("gpuplanner"), where
    elif rc == 2:
        # estimate's own verdict "does NOT fit" (a result on stdout, not an error)
        assert argv[0] == "estimate" and out.strip(), where


@settings(
    max_examples=int(os.environ.get("GPUPLANNER_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    template=TEMPLATES,
    options=st.dictionaries(
        st.sampled_from(
            ["--servers", "--gpus", "--oversub", "--su-size", "--planes", "--rack-kw", "--storage-units"]
        ),
        NUMBERS,
        max_size=3,
    ),
    server=SERVERS,
    switch=SWITCHES,
    flags=st.lists(
        st.sampled_from(["--storage", "--management", "--json", "--rails=no", "--bogus"]), max_size=2
    ),
)
def test_generate_fuzz(tmp_path, template, options, server, switch, flags):
    out = tmp_path / "g.gpuplan"
    out.unlink(missing_ok=True)
    argv = ["generate", template, "-o", str(out), "--force", "--server", server, "--switch", switch]
    for k, v in options.items():
        argv.append(f"{k}={v}")
    argv += flags
    rc, stdout, err = _run(argv)
    _check(argv, rc, stdout, err)
    if rc == 2:
        assert not out.exists(), f"{argv}: a refused generate left a file"
    else:
        assert out.stat().st_size > 0


@settings(
    max_examples=int(os.environ.get("GPUPLANNER_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    model=st.sampled_from(["llama3-8b", "llama3-70b", "gpt3-175b", "no-such", "nvidia-dgx-h100", None]),
    gpu=st.sampled_from(["nvidia-h100-sxm", "nvidia-b200", "no-such", "nvidia-dgx-h100", None]),
    options=st.dictionaries(
        st.sampled_from(
            [
                "--gpus",
                "--tp",
                "--pp",
                "--dp",
                "--cp",
                "--ep",
                "--vpp",
                "--oversub",
                "--global-batch",
                "--micro-batch",
                "--seq",
                "--layers",
                "--hidden",
                "--heads",
                "--top",
                "--tokens",
                "--measured-mfu",
                "--nic-gbps",
                "--gpus-per-node",
            ]
        ),
        NUMBERS,
        max_size=4,
    ),  # fmt: skip
    flags=st.lists(
        st.sampled_from(["--json", "--inference", "--tp-comm-overlap", "--precision=fp8"]), max_size=2
    ),
)
def test_estimate_fuzz(model, gpu, options, flags):
    argv = ["estimate"]
    if model:
        argv += ["--model", model]
    if gpu:
        argv += ["--gpu", gpu]
    for k, v in options.items():
        argv.append(f"{k}={v}")
    argv += flags
    rc, out, err = _run(argv)
    _check(argv, rc, out, err)


# -- the cases named in the issue, through the real command ------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["estimate", "--oversub", "0", "--model", "llama3-8b", "--gpu", "nvidia-h100-sxm", "--gpus", "8"], "--oversub"),
        (["estimate", "--gpus", "1e20", "--model", "llama3-8b"], "--gpus"),
        (["estimate", "--cp", "0", "--gpus", "8"], "--cp"),
        (["generate", "rail-leaf-spine", "--servers", "1000000000", "-o", "x.gpuplan"], "--servers"),
        (["generate", "rail-leaf-spine", "--gpus", "1e20", "-o", "x.gpuplan"], "--gpus"),
        (["info"], "file"),
        (["export", "x.gpuplan", "-f", "nonsense", "-o", "y"], "--format"),
        (["nonsense-command"], "nonsense-command"),
        (["analyze", "x.gpuplan", "--racks", "many"], "--racks"),
    ],
)  # fmt: skip
def test_argument_errors_are_one_line_naming_the_argument(args, names, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr  # not argparse's whole usage
    assert names in lines[0], lines[0]
    assert "usage:" not in proc.stderr
    assert not list(tmp_path.iterdir()), "nothing is written"


def test_generate_refuses_above_the_stated_maximum_before_building(tmp_path):
    """`--gpus` within the argument bound but a server size that makes too many servers is refused by
    the feasibility check (with the maximum stated), quickly and without a file."""
    out = tmp_path / "x.gpuplan"
    servers = str(MAX_SERVERS)  # within the argument's bound, but 72 GPUs each is far above MAX_GPUS
    proc = _cli(
        "generate", "rail-leaf-spine", "--server", "nvidia-gb200-nvl72", "--servers", servers, "-o", str(out)
    )
    assert proc.returncode == 2
    assert f"{MAX_SERVERS:,}" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()
