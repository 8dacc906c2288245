"""Project files: exact round-trips, atomic saves, and clear errors for files that are not good projects."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from gpuplanner.core.errors import ProjectFileError
from gpuplanner.model import Project
from gpuplanner.storage import FORMAT_VERSION, open_project, save_project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.strategies import projects


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(project=projects())
def test_round_trip_is_exact(project, tmp_path):
    path = tmp_path / "p.gpuplan"
    save_project(project, path)
    again = open_project(path)
    assert again.snapshot() == project.snapshot()
    assert again.used_type_ids() == project.used_type_ids()


def test_catalog_copy_travels_with_the_file(tmp_path):
    """A file opens with the same figures on a machine whose catalog lacks (or changed) the entries."""
    p = Project()
    generate_into(p, GenerateOptions(servers=4, template="single-switch"))
    path = tmp_path / "p.gpuplan"
    save_project(p, path)
    from gpuplanner.catalog import Catalog

    empty = Catalog()
    again = open_project(path, catalog=empty)
    assert again.catalog.get("nvidia-dgx-h100").power_max_w == p.catalog.get("nvidia-dgx-h100").power_max_w
    assert again.gpu_count() == 32


def test_random_bytes_file(tmp_path):
    bad = tmp_path / "noise.gpuplan"
    bad.write_bytes(os.urandom(4096))
    with pytest.raises(ProjectFileError, match="not a GPU Planner project"):
        open_project(bad)


def test_truncated_project(tmp_path):
    p = Project()
    generate_into(p, GenerateOptions(servers=64))
    path = tmp_path / "p.gpuplan"
    save_project(p, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    before = path.read_bytes()
    with pytest.raises(ProjectFileError, match="damaged|truncated|incomplete"):
        open_project(path)
    assert path.read_bytes() == before  # opening changed nothing


def test_future_schema(tmp_path):
    path = tmp_path / "p.gpuplan"
    save_project(Project(), path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version={FORMAT_VERSION + 1}")
    with pytest.raises(ProjectFileError, match="newer GPU Planner"):
        open_project(path)


def test_other_sqlite_database(tmp_path):
    path = tmp_path / "other.gpuplan"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(ProjectFileError, match="another program"):
        open_project(path)


def test_bad_value_names_table_row_and_field(tmp_path):
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    path = tmp_path / "p.gpuplan"
    save_project(p, path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE links SET multiplicity = -3 WHERE id = (SELECT min(id) FROM links)")
    with pytest.raises(ProjectFileError) as exc:
        open_project(path)
    assert "links" in str(exc.value) and "multiplicity" in str(exc.value)


def test_dangling_reference(tmp_path):
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    path = tmp_path / "p.gpuplan"
    save_project(p, path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE links SET a_device = 'd999999'")
    with pytest.raises(ProjectFileError, match="missing device"):
        open_project(path)


def test_save_into_missing_folder_is_clear(tmp_path):
    with pytest.raises(ProjectFileError, match="folder does not exist"):
        save_project(Project(), tmp_path / "nope" / "p.gpuplan")


def test_sigkill_mid_save_leaves_previous_file_intact(tmp_path):
    """A real subprocess saves a large project again and again; SIGKILL lands mid-save."""
    path = tmp_path / "big.gpuplan"
    p = Project()
    generate_into(p, GenerateOptions(servers=64, management_fabric=True))
    save_project(p, path)
    good = open_project(path).snapshot()
    script = textwrap.dedent(
        f"""
        import sys
        from gpuplanner.model import Project
        from gpuplanner.storage import save_project
        from gpuplanner.topology import GenerateOptions, generate_into
        p = Project()
        generate_into(p, GenerateOptions(servers=256, template="fat-tree-3tier", management_fabric=True))
        print("ready", flush=True)
        while True:
            save_project(p, {str(path)!r})
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=Path(__file__).parents[2]
    )
    assert proc.stdout.readline().strip() == b"ready"
    time.sleep(0.35)  # a few saves in, very likely inside one
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # The file is either the old project or a complete new one, never a damaged one.
    reopened = open_project(path)
    assert reopened.snapshot() == good or len(reopened.devices) > len(good["devices"])
