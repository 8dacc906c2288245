"""Test setup: offscreen Qt before any QApplication; a private user catalog folder and catalog cache per
session."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_USER_CATALOG", str(Path(__file__).parent / "_no_user_catalog"))
# The catalog cache of this test run (subprocesses inherit it): the user's ~/.cache is never touched.
os.environ.setdefault("GPUPLANNER_CACHE_DIR", tempfile.mkdtemp(prefix="gpuplanner-test-cache-"))

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
