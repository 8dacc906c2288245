"""The document's file service without Qt or a window: open, save, Save As, untitled copies."""

from __future__ import annotations

import pytest

from gpuplanner.core.errors import PlannerError, ProjectFileError
from gpuplanner.model import Project
from gpuplanner.storage import open_project
from gpuplanner.topology import GenerateOptions, generate_into
from gpuplanner.ui.file_service import FileService


def _project() -> Project:
    p = Project()
    generate_into(p, GenerateOptions(template="single-switch", servers=2))
    return p


def test_save_needs_a_name_then_keeps_it(tmp_path):
    files, p = FileService(), _project()
    assert files.untitled
    with pytest.raises(PlannerError, match="Save As"):
        files.save(p)
    first = files.save(p, tmp_path / "a.gpuplan")
    assert files.path == first and not files.untitled
    assert files.save(p) == first
    assert open_project(first).tables == p.tables  # oracle: the storage layer's own reader


def test_a_refused_file_leaves_the_path_and_a_good_one_takes_it(tmp_path):
    files, p = FileService(), _project()
    good = files.save(p, tmp_path / "good.gpuplan")
    bad = tmp_path / "bad.gpuplan"
    bad.write_bytes(b"not a project file")
    with pytest.raises(ProjectFileError):
        files.open(bad)
    assert files.path == good
    other = tmp_path / "other.gpuplan"
    FileService().save(p, other)
    assert files.open(other).tables == p.tables and files.path == other


def test_forget_makes_an_untitled_copy(tmp_path):
    files = FileService()
    files.save(_project(), tmp_path / "x.gpuplan")
    files.forget()
    assert files.untitled
    with pytest.raises(PlannerError):
        files.save(_project())
