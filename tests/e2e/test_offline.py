"""The application needs no network at any time: the CLI runs with every socket call refused."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCK = textwrap.dedent(
    """
    import socket, sys
    class _NoNetwork(OSError):
        pass
    def _refuse(*a, **k):
        raise _NoNetwork("network access attempted: " + repr(a[:2]))
    socket.socket.connect = _refuse
    socket.socket.connect_ex = _refuse
    socket.create_connection = _refuse
    socket.getaddrinfo = _refuse
    from gpuplanner.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK, *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_cli_runs_without_network(tmp_path):
    example = str(ROOT / "examples" / "superpod-1024-h100.gpuplan")
    for args in (
        ("catalog", "list", "--json"),
        ("analyze", example, "--json"),
        (
            "estimate",
            "--model",
            "llama3-8b",
            "--gpu",
            "nvidia-h100-sxm",
            "--gpus",
            "16",
            "--global-batch",
            "64",
        ),
        ("generate", "leaf-spine", "--servers", "8", "-o", str(tmp_path / "g.gpuplan")),
    ):
        r = _run(*args)
        assert r.returncode == 0, (args, r.stderr[-2000:])
        assert "network access attempted" not in r.stderr
