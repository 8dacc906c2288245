"""Every damaged or hostile file of tests/data/hostile/ through `info`, `analyze`, `fabric`, `report` and
every `export -f` format: each command ends within 10 s with exit 2 and one line naming the file, or
succeeds with well-formed output (JSON parses, the PDF has its trailer, CSV/SVG/PNG/YAML read back);
never a traceback, never a hang, and the input file is byte-identical afterwards.

The commands of one file run in one subprocess through ``gpuplanner.cli.main`` (the same code as the
console script, without paying Python's start-up 13 times per file); the subprocess has a hard timeout so
that a hang fails the test instead of stalling it. FIFOs, locked files, folders and devices are made here
and run through the real `python -m gpuplanner` command.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gpuplanner.cli.export_cmd import FORMATS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "data" / "hostile"))
import make_corpus  # noqa: E402

LIMIT_S = 10.0  # per command, of CPU time: on an idle machine wall ≈ CPU (a report here: ~3 s)
# Wall time is bounded too, more loosely: the CI machine is shared and a loaded one stretched a 3 s report
# to 12.7 s of wall time. A hang (a FIFO, a lock waited for without end) uses no CPU but unbounded wall time.
WALL_LIMIT_S = 30.0
# Failures known to be fixed in another branch of this round (name, command or format) -> whose and what.
# They are reported as xfail (not hidden): the rest of the file's commands are still checked.
# "*" = every command of that file. The huge values are the model's bounds (issue 13 item 3, branch
# i13-model adds them to model/validate.py, which this loader already applies to every row): until then
# they load and overflow int16/int32 arrays, allocate tens of GiB, or run for minutes.
_BOUNDS = "model bounds (i13-model): values beyond the schema's ranges reach the engine"
KNOWN_ELSEWHERE = {
    ("hostile-names.gpuplan", "png"): "exports (i14): PNG text layout of names holding tabs/newlines",
    ("huge-multiplicity.gpuplan", "*"): _BOUNDS,
    ("huge-u-position.gpuplan", "*"): _BOUNDS,
    ("huge-tco-years.gpuplan", "*"): _BOUNDS,
    ("huge-int64.gpuplan", "*"): _BOUNDS,
    ("huge-floor.gpuplan", "*"): _BOUNDS,
}
EXT = {
    "slurm": "conf",
    "netbox": "",
    "bom-csv": "csv",
    "cables-csv": "csv",
    "svg": "svg",
    "png": "png",
    "json": "json",
    "slurm-partitions": "conf",
    "k8s-quotas": "yaml",
    "xlsx": "xlsx",
    "drawio": "drawio",
    "graphml": "graphml",
}

DRIVER = r"""
import contextlib, io, json, sys, time, traceback
from gpuplanner.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    t, cpu = time.monotonic(), time.process_time()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except BaseException:
        rc = "raised"
        err.write(traceback.format_exc())
    results.append({"argv": argv, "rc": rc, "stderr": err.getvalue(), "stdout": out.getvalue(),
                    "seconds": time.monotonic() - t, "cpu_seconds": time.process_time() - cpu})
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("hostile")
    return folder, make_corpus.build(folder)


def _commands(file: Path, out: Path) -> list[list[str]]:
    cmds = [
        ["info", str(file)],
        ["info", str(file), "--json"],
        ["analyze", str(file), "--json"],
        ["analyze", str(file)],
        ["fabric", str(file), "--json"],
        ["report", str(file), "-o", str(out / "report.pdf")],
    ]
    for fmt in FORMATS:
        target = out / (f"export-{fmt}.{EXT[fmt]}" if EXT[fmt] else f"export-{fmt}")
        cmds.append(["export", str(file), "-f", fmt, "-o", str(target)])
    return cmds


def _run_in_one_process(cmds: list[list[str]], timeout: float | None = None) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(cmds)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout or WALL_LIMIT_S * len(cmds) + 30,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


def _one_line_naming(stderr: str, file: Path) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("gpuplanner"), lines[0]
    assert file.name in lines[0], lines[0]
    assert "internal error" not in lines[0] and "Traceback" not in stderr, lines[0]


def _well_formed(argv: list[str], stdout: str, out: Path) -> None:
    cmd = argv[0]
    if "--json" in argv:
        json.loads(stdout)
    if cmd == "report":
        data = (out / "report.pdf").read_bytes()
        assert data.startswith(b"%PDF-") and b"%%EOF" in data[-1024:]
    if cmd != "export":
        return
    fmt = argv[argv.index("-f") + 1]
    target = Path(argv[argv.index("-o") + 1])
    if fmt == "netbox":
        files = [p for p in target.rglob("*") if p.is_file()]
        assert files and all(p.stat().st_size > 0 for p in files)
        return
    data = target.read_bytes()
    assert data, f"{fmt}: an empty file"
    if fmt == "json":
        json.loads(data)
    elif fmt.endswith("csv"):
        rows = list(csv.reader(data.decode("utf-8-sig").splitlines()))
        assert len(rows) >= 2 and len({len(r) for r in rows}) == 1  # a header and rows of equal width
    elif fmt == "svg":
        ET.fromstring(data)
    elif fmt == "png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    elif fmt == "xlsx":
        import openpyxl

        openpyxl.load_workbook(target, read_only=True).close()  # the real reader opens it
    elif fmt in ("drawio", "graphml"):
        ET.fromstring(data)
    else:
        data.decode("utf-8")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", list(make_corpus.CASES))
def test_every_command_on_a_hostile_file(corpus, name, tmp_path):
    folder, expectations = corpus
    file = folder / name
    expect = expectations[name]
    before = _sha(file)
    cmds = _commands(file, tmp_path)
    try:
        # a known hang need not cost 3 minutes: 40 s is 4× what the rest of the corpus takes per file
        results = _run_in_one_process(cmds, 40 if (name, "*") in KNOWN_ELSEWHERE else None)
    except subprocess.TimeoutExpired:
        if (name, "*") in KNOWN_ELSEWHERE:
            pytest.xfail(f"hangs: {KNOWN_ELSEWHERE[name, '*']}")
        raise
    assert len(results) == len(cmds)
    outcomes, known = set(), []
    for r in results:
        where = f"{' '.join(r['argv'][:1] + r['argv'][2:])}: rc={r['rc']} {r['stderr'][-600:]}"
        what = r["argv"][r["argv"].index("-f") + 1] if "-f" in r["argv"] else r["argv"][0]
        reason = KNOWN_ELSEWHERE.get((name, what)) or KNOWN_ELSEWHERE.get((name, "*"))
        slow = r["cpu_seconds"] > LIMIT_S or r["seconds"] > WALL_LIMIT_S
        bad = r["rc"] not in (0, 2) or slow or "not enough memory" in r["stderr"]
        if reason and bad:
            known.append(f"{what}: {reason}")
            continue
        assert r["cpu_seconds"] <= LIMIT_S, f"{where} took {r['cpu_seconds']:.1f} s of CPU"
        assert r["seconds"] <= WALL_LIMIT_S, f"{where} took {r['seconds']:.1f} s"
        assert "Traceback" not in r["stderr"] and "internal error" not in r["stderr"], where
        assert r["rc"] in (0, 2), where
        outcomes.add(r["rc"])
        if r["rc"] == 2:
            assert expect in ("refuse", "either"), where
            _one_line_naming(r["stderr"], file)
        else:
            assert expect in ("open", "either"), where
            _well_formed(r["argv"], r["stdout"], tmp_path)
    if expect != "either" and not known:
        # A file that opens for one command opens for all (analysis problems are findings, not refusals).
        assert outcomes == ({2} if expect == "refuse" else {0}), [r["rc"] for r in results]
    if 2 in outcomes and 0 not in outcomes:
        assert not [p for p in tmp_path.iterdir()], "a refused file left an output behind"
    assert _sha(file) == before, "the input file changed"
    if known:
        pytest.xfail("; ".join(sorted(set(known))))


# -- special files and locks, through the real command --------------------------------------------------


def _cli(*args: str, timeout: float = WALL_LIMIT_S + 20) -> subprocess.CompletedProcess:
    """The real command in a subprocess, with its wall time (``seconds``) and the CPU time it used
    (``cpu_seconds``: user + system of the waited-for child); a hang past ``timeout`` fails the test."""
    t0 = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc.seconds = time.monotonic() - t0  # type: ignore[attr-defined]
    proc.cpu_seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # type: ignore[attr-defined]
    return proc


def _in_time(proc: subprocess.CompletedProcess) -> bool:
    """Within LIMIT_S of CPU (the work done) and WALL_LIMIT_S of wall time (a wait without end)."""
    return proc.cpu_seconds < LIMIT_S and proc.seconds < WALL_LIMIT_S  # type: ignore[attr-defined]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", ["info", "analyze", "report", "export"])
def test_fifo_in_place_of_a_project(tmp_path, command):
    fifo = tmp_path / "p.gpuplan"
    os.mkfifo(fifo)
    extra = {
        "report": ["-o", str(tmp_path / "r.pdf")],
        "export": ["-f", "json", "-o", str(tmp_path / "x.json")],
    }
    proc = _cli(command, str(fifo), *extra.get(command, []))
    assert proc.returncode == 2 and _in_time(proc), (proc.seconds, proc.cpu_seconds)
    _one_line_naming(proc.stderr, fifo)
    assert "named pipe" in proc.stderr


@pytest.mark.parametrize("kind", ["folder", "device-link"])
def test_folder_or_device_in_place_of_a_project(tmp_path, kind):
    target = tmp_path / "p.gpuplan"
    if kind == "folder":
        target.mkdir()
    else:
        if not Path("/dev/zero").exists():
            pytest.skip("no /dev/zero")
        target.symlink_to("/dev/zero")
    proc = _cli("info", str(target))
    assert proc.returncode == 2 and _in_time(proc), (proc.seconds, proc.cpu_seconds)
    _one_line_naming(proc.stderr, target)


@pytest.mark.parametrize("mode", ["EXCLUSIVE", "IMMEDIATE"])
def test_project_locked_by_another_program(corpus, tmp_path, mode):
    """A real second SQLite connection (another process) holds the lock while the CLI opens the file."""
    folder, _ = corpus
    file = tmp_path / "locked.gpuplan"
    file.write_bytes((folder / "good.gpuplan").read_bytes())
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
            f"c.execute('BEGIN {mode}'); c.execute(\"UPDATE project SET name = 'half-written'\"); "
            "print('locked', flush=True); time.sleep(120)",
            str(file),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline().strip() == b"locked"
        proc = _cli("info", str(file), "--json")
    finally:
        holder.kill()
        holder.wait()
    assert _in_time(proc), (proc.seconds, proc.cpu_seconds)
    if mode == "EXCLUSIVE":  # nobody may read: refused after the bounded wait
        assert proc.returncode == 2
        _one_line_naming(proc.stderr, file)
        assert "in use by another program" in proc.stderr
    else:  # a pending write: readers see the last committed state
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["name"] == "base"
    with sqlite3.connect(file) as conn:  # the other program's transaction was its own: nothing of ours
        assert conn.execute("SELECT name FROM project").fetchone()[0] == "base"
