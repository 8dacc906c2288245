"""Exports are safe against the user's names and the file system: every format is written atomically with the
umask's mode (0644 under umask 022; mkstemp would make 0600, unreadable by the slurm user), CSV cells that a
spreadsheet would run as formulas are neutralised (OWASP CSV injection), a project name with a newline cannot
add a line to a Slurm or YAML file, and a failed write leaves no file and no temp file."""

from __future__ import annotations

import csv
import dataclasses
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gpuplanner.core.outfile import ExportError, csv_cell, write_atomic
from gpuplanner.storage import save_project
from gpuplanner.topology.presets import build_preset

ROOT = Path(__file__).resolve().parents[2]
FORMATS = {
    "slurm": "t.conf", "slurm-partitions": "nodes.conf", "k8s-quotas": "q.yaml", "netbox": "nb",
    "bom-csv": "bom.csv", "cables-csv": "c.csv", "xlsx": "w.xlsx", "drawio": "t.drawio",
    "graphml": "t.graphml", "svg": "t.svg", "png": "t.png", "json": "a.json",
}  # fmt: skip
EVIL = "=cmd|' /C calc'!A0\nSwitchName=evil Nodes=ALL\r\nPartitionName=evil"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    project = build_preset("ib-su-32-node")
    project.tables["project"]["project"] = dataclasses.replace(project.info, name=EVIL)
    leaf = next(d for d in project.devices.values() if d.role == "leaf")
    project.tables["devices"][leaf.id] = dataclasses.replace(leaf, name="+SUM(1,2)")
    return save_project(project, folder / "evil.gpuplan"), folder


def _run(*args: str, umask: int = 0o022) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
        preexec_fn=lambda: os.umask(umask),
    )  # fmt: skip


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_is_written_with_the_umask_mode(hostile, fmt):
    src, folder = hostile
    out = folder / f"{fmt}-{FORMATS[fmt]}"
    r = _run("export", str(src), "-f", fmt, "-o", str(out))
    assert r.returncode == 0, r.stderr
    files = [p for p in folder.iterdir() if p.name.startswith(f"{fmt}-")]
    files = [f for p in files for f in (p.iterdir() if p.is_dir() else [p])]
    assert files
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o644, f
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    text_files = [f for f in files if f.suffix in (".conf", ".yaml", ".csv")]
    for f in text_files:
        for line in f.read_text(encoding="utf-8-sig").splitlines():
            assert not line.startswith(("SwitchName=evil", "PartitionName=evil")), (f, line)


def test_umask_077_gives_0600(hostile, tmp_path):
    src, _ = hostile
    r = _run("export", str(src), "-f", "slurm", "-o", str(tmp_path / "t.conf"), umask=0o077)
    assert r.returncode == 0 and stat.S_IMODE((tmp_path / "t.conf").stat().st_mode) == 0o600


def test_csv_cells_that_start_a_formula_are_neutralised(hostile):
    src, folder = hostile
    out = folder / "inj.csv"
    assert _run("export", str(src), "-f", "cables-csv", "-o", str(out)).returncode == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    cells = {r["b_device"] for r in rows} | {r["a_device"] for r in rows}
    assert "'+SUM(1,2)" in cells and "+SUM(1,2)" not in cells
    assert not any(c.startswith(("=", "+", "-", "@")) for r in rows for c in r.values() if c)
    assert [csv_cell(v) for v in ("=1+2", "@x", "-12.5", "+3", "\tx", "name")] == [
        "'=1+2", "'@x", "-12.5", "+3", "'\tx", "name",
    ]  # fmt: skip


def test_kubernetes_yaml_holds_no_free_text_line(hostile):
    src, folder = hostile
    out = folder / "k.yaml"
    assert _run("export", str(src), "-f", "k8s-quotas", "-o", str(out)).returncode == 0
    docs = list(yaml.safe_load_all(out.read_text()))
    assert docs and all("evil" not in str(d).lower() for d in docs)


def test_a_failed_write_leaves_nothing(tmp_path, monkeypatch):
    import errno

    (tmp_path / "t.conf").write_text("old")

    def full_disk(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)  # the disk fills while the temp file is flushed
    with pytest.raises(ExportError, match="No space left"):
        write_atomic(tmp_path / "t.conf", "new")
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["t.conf"] and (tmp_path / "t.conf").read_text() == "old"
    with pytest.raises(ExportError, match="does not exist"):
        write_atomic(tmp_path / "missing" / "t.conf", "x")
