"""Where the bundled resources and example projects are: the repository, a PyInstaller bundle or an
installed wheel. Qt-free, imported by the start-up code, the window and the welcome screen alike."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    here = Path(__file__).resolve().parent.parent  # gpuplanner/
    for candidate in (here.parent / "resources", here / "_data" / "resources"):
        if candidate.is_dir():
            return candidate
    return here.parent / "resources"


def examples_dir() -> Path:
    """The bundled example projects: examples/ next to resources/ (the repository, or the bundle root of a
    PyInstaller build, where both sit side by side), else gpuplanner/_data/examples (an installed wheel)."""
    here = Path(__file__).resolve().parent.parent  # gpuplanner/
    candidates = [resources_dir().parent / "examples", here.parent / "examples", here / "_data" / "examples"]
    if getattr(sys, "_MEIPASS", None):
        candidates.insert(0, Path(sys._MEIPASS) / "examples")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return here.parent / "examples"
