"""A written design re-analysed by the real command line: the figures the advisor's limits are checked on.

Read from ``gpuplanner analyze --json`` (not from the advisor's own results), so a test compares the advisor
against what a user's re-analysis of the file says.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def analyzed_figures(file: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """``gpuplanner analyze FILE --json`` → (its whole JSON, the figures the goal's limits name)."""
    got = subprocess.run(
        [sys.executable, "-m", "gpuplanner", "analyze", str(file), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert got.returncode == 0, got.stderr
    data = json.loads(got.stdout)
    racks = data["racks"]
    return data, {
        "facility_kw_max": data["facility_kw_max"],
        "rack_kw_max": max(r["kw_max"] for r in racks),
        "racks": len(racks),
        "capex_usd": data["capex_usd"],
        "tco_usd": data["tco_usd"],
        "time_to_train_days": data["performance"]["time_to_train_days"],
        "cooling": sorted({r["cooling"] for r in racks}),
    }
