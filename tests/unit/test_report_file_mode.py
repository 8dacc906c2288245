"""The proposal PDF is written with the user's umask like every other file GPU Planner writes (0644 normally),
not with the temporary file's 0600, which left it unreadable to the rest of a shared project folder."""

from __future__ import annotations

import os
import stat

import pytest

from gpuplanner.core.safeio import current_umask
from gpuplanner.model import Project
from gpuplanner.reports import build_report
from gpuplanner.topology import GenerateOptions, generate_into


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_the_report_gets_the_umask_mode(tmp_path):
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    out = build_report(p, tmp_path / "proposal.pdf", lang="en")
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~current_umask()
    assert [f.name for f in tmp_path.iterdir()] == ["proposal.pdf"]  # no temporary file left
