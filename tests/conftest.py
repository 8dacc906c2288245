"""Test setup: offscreen Qt before any QApplication; a private user catalog folder per session."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_USER_CATALOG", str(Path(__file__).parent / "_no_user_catalog"))

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
