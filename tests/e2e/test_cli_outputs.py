"""Where the command line writes: a read-only disk, a missing folder, a full disk. Each ends with exit 2 and
one line naming the file, and leaves no empty or partial output (real tmpfs mounts where this machine
allows them; the simulated twins always run — as root, permission bits are no test)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.cli import main
from gpuplanner.cli.export_cmd import FORMATS
from gpuplanner.model import Project
from gpuplanner.storage import save_project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.fsfaults import small_tmpfs

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _one_line(proc: subprocess.CompletedProcess, name: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr


@pytest.fixture(scope="module")
def project_file(tmp_path_factory) -> Path:
    p = Project()
    generate_into(p, GenerateOptions(servers=4, template="rail-leaf-spine"))
    path = tmp_path_factory.mktemp("src") / "p.gpuplan"
    save_project(p, path)
    return path


@pytest.mark.parametrize(
    "args",
    [["new", "{out}"], ["generate", "single-switch", "--servers", "2", "-o", "{out}"]],
    ids=["new", "generate"],
)
def test_new_and_generate_into_a_read_only_disk(args, tmp_path):
    with small_tmpfs(256, read_only=True) as disk:
        if disk is None:
            pytest.skip("cannot mount a read-only tmpfs here (see the simulated test)")
        out = disk / "x.gpuplan"
        proc = _cli(*[a.format(out=out) for a in args])
        _one_line(proc, "x.gpuplan")
        assert "read-only" in proc.stderr
        assert not out.exists()


@pytest.mark.parametrize("fmt", FORMATS)
def test_exports_to_a_missing_folder(project_file, tmp_path, fmt):
    out = tmp_path / "no-such-folder" / "out.x"
    proc = _cli("export", str(project_file), "-f", fmt, "-o", str(out))
    _one_line(proc, "out.x")
    assert "does not exist" in proc.stderr and not out.parent.exists()


@pytest.mark.parametrize("fmt", [*FORMATS, "report"])
def test_exports_to_a_full_disk_leave_no_empty_file(project_file, fmt):
    with small_tmpfs(64, fill={"filler": b"\0" * (60 * 1024)}) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here")
        out = disk / ("out-netbox" if fmt == "netbox" else f"out.{fmt}")
        args = ["report", str(project_file)] if fmt == "report" else ["export", str(project_file), "-f", fmt]
        proc = _cli(*args, "-o", str(out))
        if proc.returncode == 0:  # a format small enough for the 4 KiB left: it must be complete
            assert out.exists() and (out.is_dir() or out.stat().st_size > 0)
            return
        _one_line(proc, str(disk))  # names the output or the companion file it writes beside it (gres.conf)
        left = [p for p in disk.rglob("*") if p.is_file() and p.name != "filler"]
        assert not left, f"{fmt}: partial files left: {left}"


def test_simulated_read_only_folder_for_new(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = main(["new", str(tmp_path / "x.gpuplan")])
    assert rc == 2 and "read-only" in err.getvalue() and len(err.getvalue().strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_simulated_full_disk_during_an_export_removes_the_partial_file(project_file, tmp_path, monkeypatch):
    """A writer that dies after creating its file (ENOSPC mid-write) leaves nothing that looks like output."""
    import errno

    import gpuplanner.exports as exports

    out = tmp_path / "cables.csv"

    def failing_export(project, fmt, path, **kw):
        Path(path).write_bytes(b"")  # created, then the disk fills
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(exports, "export", failing_export)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = main(["export", str(project_file), "-f", "cables-csv", "-o", str(out)])
    assert rc == 2 and "No space left" in err.getvalue() and "cables.csv" in err.getvalue()
    assert not out.exists()
