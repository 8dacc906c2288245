"""Build hook (everything else is in pyproject.toml): puts the data the code reads at run time into the wheel.

The repository keeps ``catalogs/``, ``resources/`` and ``examples/`` beside the package, and an editable install
(``pip install -e .``) reads them there. A wheel (``pip install .``) carries them as ``gpuplanner/_data/``,
the second place ``bundled_catalog_dir()``, ``resources_dir()``, ``examples_dir()``, ``translations_dir()`` and
the report's ``font_path()`` look. Copied at build time, so there is no symlink and no second copy in git.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# folder → patterns (relative to it) that go into gpuplanner/_data/<folder>/
DATA = {
    "catalogs": ("**/*.yaml", "**/*.json", "*.md"),
    "resources": ("fonts/*", "icons/*", "translations/*.qm"),  # the .ts sources stay out
    "examples": ("*.gpuplan",),
}


def data_files() -> list[tuple[Path, Path]]:
    """(source, path inside gpuplanner/_data) for every data file."""
    out = []
    for folder, patterns in DATA.items():
        for pattern in patterns:
            for src in sorted((ROOT / folder).glob(pattern)):
                if src.is_file():
                    out.append((src, src.relative_to(ROOT)))
    return out


class BuildPyWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # editable installs read the repository's folders
            return
        target = Path(self.build_lib) / "gpuplanner" / "_data"
        for src, rel in data_files():
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)


setup(cmdclass={"build_py": BuildPyWithData})
