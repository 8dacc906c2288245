"""Project files under hostile conditions: a second program holding a lock, FIFOs and devices in place of a
file, files damaged in ways a hand or a bug could, saves that must not write what would not reopen, killed
saves' temp files, two processes saving at once, a full disk and a read-only disk (real mounts where the
machine allows them), and recovery sessions whose process is killed."""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gpuplanner.core.errors import ProjectFileError
from gpuplanner.model import Project
from gpuplanner.storage import open_project, projectfile, save_project, saving
from gpuplanner.storage.session import SessionLock, session_alive
from gpuplanner.topology import GenerateOptions, generate_into
from tests.fsfaults import small_tmpfs

ROOT = Path(__file__).resolve().parents[2]


def _project(servers: int = 4) -> Project:
    p = Project()
    template = "single-switch" if servers <= 8 else "rail-leaf-spine"
    generate_into(p, GenerateOptions(servers=servers, template=template))
    return p


@pytest.fixture
def saved(tmp_path) -> Path:
    path = tmp_path / "p.gpuplan"
    save_project(_project(), path)
    return path


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    try:
        for s in statements:
            conn.execute(s)
        conn.commit()
    finally:
        conn.close()


# -- locks --------------------------------------------------------------------------------------------


def test_exclusive_lock_of_another_program_gives_in_use_after_a_bounded_wait(saved, monkeypatch):
    monkeypatch.setattr(projectfile, "LOCK_WAIT_S", 0.5)
    holder = sqlite3.connect(saved, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.monotonic()
        with pytest.raises(ProjectFileError, match="in use by another program"):
            open_project(saved)
        assert time.monotonic() - t0 < 3
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert open_project(saved).gpu_count() == 32  # the lock gone, the file opens


def test_a_pending_write_of_another_program_does_not_stop_reading(saved):
    """BEGIN IMMEDIATE (a RESERVED lock) lets readers in: the committed content opens."""
    holder = sqlite3.connect(saved, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE project SET name = 'uncommitted'")
    try:
        p = open_project(saved)
        assert p.info.name != "uncommitted" and p.gpu_count() == 32
    finally:
        holder.execute("ROLLBACK")
        holder.close()


# -- not a regular file -------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "p.gpuplan"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(ProjectFileError, match="named pipe"):
        open_project(fifo)
    assert time.monotonic() - t0 < 2


@pytest.mark.parametrize("make", ["folder", "device"])
def test_folder_and_device_are_refused(tmp_path, make):
    if make == "folder":
        target = tmp_path / "p.gpuplan"
        target.mkdir()
        expected = "folder"
    else:
        target = Path("/dev/zero")
        if not target.exists():
            pytest.skip("no /dev/zero")
        expected = "device"
    with pytest.raises(ProjectFileError, match=expected):
        open_project(target)


def test_a_folder_is_refused_in_one_language(tmp_path):
    """The reason is part of the message: the Chinese line is Chinese throughout, not "is a folder, not a
    regular file；项目应是…"."""
    from gpuplanner.text import error_line

    target = tmp_path / "p.gpuplan"
    target.mkdir()
    with pytest.raises(ProjectFileError) as err:
        open_project(target)
    assert str(err.value).endswith("p.gpuplan: is a folder, not a regular file; a project is a .gpuplan file")
    zh = error_line(err.value, "zh")
    assert zh.endswith("p.gpuplan：是文件夹，不是普通文件；项目应是一个 .gpuplan 文件"), zh


# -- damage the loader must name ----------------------------------------------------------------------


@pytest.mark.parametrize("version", [-1, -(2**31), 0x7FFFFFFF])
def test_negative_or_future_versions(saved, version):
    _sql(saved, f"PRAGMA user_version={version}")
    with pytest.raises(ProjectFileError, match="format version|newer GPU Planner"):
        open_project(saved)


def test_duplicate_ids_are_damage_not_last_row_wins(saved):
    # A table without its primary key (a file edited by another tool) with one id twice.
    _sql(
        saved,
        "CREATE TABLE d2 AS SELECT * FROM devices",
        "DROP TABLE devices",
        "ALTER TABLE d2 RENAME TO devices",
        "INSERT INTO devices SELECT * FROM devices LIMIT 1",
    )
    with pytest.raises(ProjectFileError, match="appears more than once in table 'devices'"):
        open_project(saved)


@pytest.mark.parametrize(
    ("json_text", "message"),
    [
        ("[1, 2, 3]", "not an object"),
        ('"text"', "not an object"),
        ("{not json", "not valid JSON"),
        ("[" * 50_000 + "]" * 50_000, "not valid JSON|not an object"),
    ],
)
def test_catalog_copy_that_is_not_an_object(saved, json_text, message):
    conn = sqlite3.connect(saved)
    conn.execute("UPDATE catalog_entries SET json = ? WHERE rowid = 1", (json_text,))
    conn.commit()
    conn.close()
    with pytest.raises(ProjectFileError, match=message):
        open_project(saved)


@pytest.mark.parametrize(
    "price", ["NaN", "Infinity", "-1", "1e300", '"12000"', "true", "null"], ids=lambda s: s[:8]
)
def test_bad_price_copy_is_named(saved, price):
    conn = sqlite3.connect(saved)
    (text,) = conn.execute("SELECT json FROM catalog_prices LIMIT 1").fetchone()
    data = json.loads(text)
    bad = json.dumps(data).replace(json.dumps(data["price_usd"]), price, 1)
    conn.execute("UPDATE catalog_prices SET json = ? WHERE rowid = 1", (bad,))
    conn.commit()
    conn.close()
    with pytest.raises(ProjectFileError, match="price_usd"):
        open_project(saved)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE links SET multiplicity = 'many'", "multiplicity"),
        ("UPDATE links SET multiplicity = -3", "multiplicity"),
        ("UPDATE racks SET position = 1e999", "position|finite"),
        ("UPDATE site SET tco_years = NULL", "tco_years"),
        ("UPDATE devices SET rack_id = 'rack-404'", "missing rack"),
        ("UPDATE racks SET floor_x_m = 1e999", "floor_x_m"),
        ("DROP TABLE links", "table 'links' is missing"),
        ("DELETE FROM site", "exactly one row"),
    ],
)
def test_wrong_types_values_and_references_are_named(saved, sql, message):
    _sql(saved, sql)
    before = saved.read_bytes()
    with pytest.raises(ProjectFileError, match=message):
        open_project(saved)
    assert saved.read_bytes() == before


# -- saving -------------------------------------------------------------------------------------------


def test_save_refuses_a_project_that_would_not_reopen(tmp_path):
    """The issue's case: a server's model changed to one without the links' port groups."""
    p = _project()
    server = next(d for d in p.devices.values() if d.role == "compute")
    p.tables["devices"][server.id] = dataclasses.replace(server, type_id="huawei-atlas-800t-a2")
    target = tmp_path / "p.gpuplan"
    target.write_bytes(b"the previous version")
    with pytest.raises(ProjectFileError, match="port group"):
        save_project(p, target)
    assert target.read_bytes() == b"the previous version"
    assert [f.name for f in tmp_path.iterdir()] == ["p.gpuplan"]  # no temp file either


def test_stale_temp_files_of_killed_saves_are_removed_but_not_a_live_saves(tmp_path):
    target = tmp_path / "p.gpuplan"
    stale = tmp_path / ".p.gpuplan.dead1.tmp"
    fresh = tmp_path / ".p.gpuplan.fresh.tmp"
    live = tmp_path / ".p.gpuplan.live1.tmp"
    other = tmp_path / ".q.gpuplan.dead2.tmp"
    for f in (stale, fresh, live, other):
        f.write_bytes(b"partial")
    old = time.time() - 3600
    for f in (stale, live, other):
        os.utime(f, (old, old))
    # Another process is still writing `live`: it holds the flock a saving process holds.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR); "
            "fcntl.flock(fd, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)",
            str(live),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline().strip() == b"locked"
        save_project(_project(), target)
    finally:
        holder.kill()
        holder.wait()
    assert not stale.exists(), "a killed save's temp file is removed"
    assert live.exists(), "a save in progress keeps its temp file"
    assert fresh.exists(), "a temp file younger than the save may belong to a save just starting"
    assert other.exists(), "another file's temp files are not ours to remove"
    assert open_project(target).gpu_count() == 32


def test_sigkill_mid_save_then_a_later_save_cleans_its_temp(tmp_path):
    path = tmp_path / "big.gpuplan"
    save_project(_project(), path)
    script = textwrap.dedent(
        f"""
        from gpuplanner.model import Project
        from gpuplanner.storage import save_project
        from gpuplanner.topology import GenerateOptions, generate_into
        p = Project()
        generate_into(p, GenerateOptions(servers=512, template="fat-tree-3tier"))
        print("ready", flush=True)
        while True:
            save_project(p, {str(path)!r})
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout.readline().strip() == b"ready"
    deadline = time.monotonic() + 20
    while not list(tmp_path.glob(".big.gpuplan.*.tmp")) and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)  # while a temp file exists: inside a save
    proc.wait()
    left = list(tmp_path.glob(".big.gpuplan.*.tmp"))
    assert left, "the kill landed inside a save (a temp file was left)"
    open_project(path)  # the target is a complete file (old or new)
    old = time.time() - 3600
    for f in left:
        os.utime(f, (old, old))
    save_project(_project(), path)
    assert not list(tmp_path.glob(".big.gpuplan.*.tmp"))


def test_two_processes_saving_at_once_leave_one_complete_file(tmp_path):
    path = tmp_path / "shared.gpuplan"
    script = textwrap.dedent(
        """
        import sys, dataclasses
        from gpuplanner.model import Project
        from gpuplanner.storage import save_project
        from gpuplanner.topology import GenerateOptions, generate_into
        n = int(sys.argv[2])
        p = Project()
        generate_into(p, GenerateOptions(servers=n, template="single-switch"))
        p.tables["project"]["project"] = dataclasses.replace(p.info, name=f"writer {n}")
        print("ready", flush=True)
        sys.stdin.readline()
        for _ in range(15):
            save_project(p, sys.argv[1])
        """
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path), str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        for n in (3, 5)
    ]
    for p in procs:
        assert p.stdout.readline().strip() == b"ready"
    for p in procs:  # start both as close together as possible
        p.stdin.write(b"go\n")
        p.stdin.flush()
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    reopened = open_project(path)
    name, gpus = reopened.info.name, reopened.gpu_count()
    assert (name, gpus) in {("writer 3", 24), ("writer 5", 40)}  # one writer's whole file, never a mix
    assert not list(tmp_path.glob(".shared.gpuplan.*.tmp"))


def test_full_disk_leaves_the_previous_file_and_no_temp(tmp_path):
    big = _project(64)
    with small_tmpfs(256) as disk:
        if disk is None:
            pytest.skip("cannot mount a tmpfs here (see the simulated ENOSPC test)")
        target = disk / "p.gpuplan"
        save_project(_project(1), target)
        before = target.read_bytes()
        with pytest.raises(ProjectFileError, match="disk is full"):
            save_project(big, target)
        assert target.read_bytes() == before
        assert sorted(f.name for f in disk.iterdir()) == ["p.gpuplan"]


def test_simulated_full_disk(tmp_path, monkeypatch):
    """Where no tmpfs can be mounted: ENOSPC from the final fsync, the same promise."""
    target = tmp_path / "p.gpuplan"
    save_project(_project(1), target)
    before = target.read_bytes()

    def enospc(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(saving.os, "fsync", enospc)
    with pytest.raises(ProjectFileError, match="disk is full"):
        save_project(_project(2), target)
    assert target.read_bytes() == before
    assert [f.name for f in tmp_path.iterdir()] == ["p.gpuplan"]


def test_read_only_disk(tmp_path):
    with small_tmpfs(256, read_only=True, fill={"old.gpuplan": b"x"}) as disk:
        if disk is None:
            pytest.skip("cannot mount a read-only tmpfs here (see the simulated test)")
        with pytest.raises(ProjectFileError, match="Read-only file system"):
            save_project(_project(1), disk / "p.gpuplan")


def test_simulated_read_only_folder(tmp_path, monkeypatch):
    def refuse(*a, **k):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(saving.tempfile, "mkstemp", refuse)
    with pytest.raises(ProjectFileError, match="Permission denied"):
        save_project(_project(1), tmp_path / "p.gpuplan")
    assert not list(tmp_path.iterdir())


# -- recovery sessions --------------------------------------------------------------------------------


def test_a_killed_sessions_lock_is_free_and_a_live_ones_is_not(tmp_path):
    folder = tmp_path / "recovery"
    script = (
        "import sys, time; from pathlib import Path; from gpuplanner.storage.session import SessionLock; "
        "lock = SessionLock(Path(sys.argv[1]), sys.argv[2]); assert lock.acquire(); "
        "print('held', flush=True); time.sleep(60)"
    )
    session = "0123456789abcdef0123456789abcdef"
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(folder), session], stdout=subprocess.PIPE, cwd=ROOT
    )
    try:
        assert proc.stdout.readline().strip() == b"held"
        assert session_alive(folder, session)
        assert not SessionLock(folder, session).acquire()  # nobody else can take a live session's lock
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert (folder / f"session-{session}.lock").exists()  # the file stays after a kill …
    assert not session_alive(folder, session)  # … but its lock is free: the session is gone
    assert not session_alive(folder, "f" * 32)  # a session without a lock file is gone too
    mine = SessionLock(folder, "a" * 32)
    assert mine.acquire() and session_alive(folder, "a" * 32)
    mine.release()
    assert not session_alive(folder, "a" * 32) and not mine.path.exists()
