"""Finding sentences: counts printed with thousands separators, as every other count in the app and report."""

from __future__ import annotations

import gpuplanner.engine.checks.network  # noqa: F401  (registers the templates)
from gpuplanner.engine.checks.findings import Finding


def test_counts_in_findings_have_thousands_separators():
    f = Finding("warning", "storage-too-slow", (), {"have": 360.0, "gpus": 1024, "need": 512.0})
    assert "1,024 GPUs" in f.message("en") and "1,024 块 GPU" in f.message("zh")
    small = Finding("warning", "storage-missing", (), {"gpus": 256})
    assert "256 GPUs" in small.message("en")
    flag = Finding("info", "storage-missing", (), {"gpus": True})  # a bool is not a count
    assert "True" in flag.message("en")
