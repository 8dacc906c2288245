"""A non-editable install (``pip install .``) finds the catalogs, resources and examples.

The wheel's data comes from setup.py's ``build_py`` hook, which copies them to ``gpuplanner/_data/``. This runs
that same command into a temporary folder (no network, no wheel package needed) and then runs the package
from there, away from the repository, so every "next to the package" lookup must take the ``_data`` branch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("setuptools", reason="setup.py build_py needs setuptools in this environment")


@pytest.fixture(scope="module")
def build_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("build_lib")
    proc = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out


def test_wheel_carries_every_data_file(build_lib: Path) -> None:
    data = build_lib / "gpuplanner" / "_data"
    catalog_files = [
        p.relative_to(ROOT) for p in (ROOT / "catalogs").rglob("*") if p.suffix in {".yaml", ".json"}
    ]
    assert len(catalog_files) > 50
    missing = [str(p) for p in catalog_files if not (data / p).is_file()]
    assert not missing
    assert (data / "resources" / "fonts" / "wqy-microhei.ttc").is_file()
    assert (data / "resources" / "fonts" / "wqy-microhei.LICENSE.txt").is_file()
    assert (data / "resources" / "icons" / "gpuplanner-256.png").is_file()
    qm = {p.name for p in (ROOT / "resources" / "translations").glob("*.qm")}
    assert {p.name for p in (data / "resources" / "translations").glob("*.qm")} == qm
    assert not list(data.rglob("*.ts"))
    assert {p.name for p in (data / "examples").glob("*.gpuplan")} == {
        p.name for p in (ROOT / "examples").glob("*.gpuplan")
    }


def test_installed_layout_finds_its_data(build_lib: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUPLANNER_")}
    env.update(PYTHONPATH=str(build_lib), HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    probe = (
        "import json, gpuplanner\n"
        "from gpuplanner.catalog.loader import bundled_catalog_dir\n"
        "from gpuplanner.reports.fonts import font_path\n"
        "from gpuplanner.engine.perf.assumptions import load_assumptions\n"
        "from gpuplanner.ui.app import resources_dir, examples_dir\n"
        "print(json.dumps([gpuplanner.__file__, str(bundled_catalog_dir()), str(font_path()),\n"
        "    load_assumptions().path, str(resources_dir()), str(examples_dir())]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    paths = [Path(p) for p in json.loads(out.stdout)]
    for p in paths:
        assert p.is_relative_to(build_lib / "gpuplanner"), p
    assert all(p.exists() for p in paths[1:])

    example = build_lib / "gpuplanner" / "_data" / "examples" / "cluster-256-h100.gpuplan"
    out = subprocess.run(
        [sys.executable, "-m", "gpuplanner", "analyze", str(example), "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["gpus"] == 256
    assert res["performance"]["tokens_per_s"] > 0
