"""Smoke tests of the PyInstaller one-folder bundle (packaging/build.sh → dist/gpuplanner/).

CI does not build the bundle (it takes a minute and 250 MB), so the bundle tests are skipped unless
``dist/gpuplanner/gpuplanner`` exists or ``$GPUPLANNER_BUNDLE`` names the bundle folder or its executable.
They run the frozen executable on the example project it carries: the CLI must return real figures, the
window must open the project offscreen and quit by itself (the hidden ``GPUPLANNER_SMOKE_QUIT_MS`` hook in
gpuplanner/ui/smoke.py), and the bundle must hold the data the code reads at run time.

The hook itself is also run from the source tree (not skipped), so CI keeps it working.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner import __version__

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "cluster-256-h100.gpuplan"
EXE_NAME = "gpuplanner.exe" if sys.platform == "win32" else "gpuplanner"
SMOKE_LINE = re.compile(r"^smoke: opened (?P<name>.+) with (?P<gpus>\d+) GPUs$", re.MULTILINE)


def _bundle_exe() -> Path | None:
    env = os.environ.get("GPUPLANNER_BUNDLE")
    if env:
        p = Path(env)
        return p / EXE_NAME if p.is_dir() else p
    p = ROOT / "dist" / "gpuplanner" / EXE_NAME
    return p if p.is_file() else None


@pytest.fixture(scope="module")
def exe() -> Path:
    p = _bundle_exe()
    if p is None:
        pytest.skip("no bundle: run `bash packaging/build.sh` (or set GPUPLANNER_BUNDLE) to test it")
    if not p.is_file():
        pytest.fail(f"GPUPLANNER_BUNDLE names no executable: {p}")
    return p


@pytest.fixture(scope="module")
def internal(exe: Path) -> Path:
    return exe.parent / "_internal"


@pytest.fixture(scope="module")
def example(internal: Path) -> Path:
    return internal / "examples" / EXAMPLE


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No settings, recovery copies or user catalog of the developer's account; offscreen Qt."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPUPLANNER_", "XDG_"))}
    env.update(HOME=str(home), USERPROFILE=str(home), QT_QPA_PLATFORM="offscreen")
    return env


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)


def test_bundle_holds_the_data_the_code_reads(internal: Path) -> None:
    fonts = internal / "resources" / "fonts"
    assert (fonts / "wqy-microhei.ttc").stat().st_size > 1_000_000
    assert (fonts / "wqy-microhei.LICENSE.txt").is_file()
    assert (internal / "resources" / "icons" / "gpuplanner-256.png").is_file()
    cat = internal / "catalogs"
    for kind in ("gpu", "server", "switch", "cable", "transceiver", "rack", "cooling", "models"):
        assert list((cat / kind).glob("*.yaml")), f"no {kind} entries in the bundle"
    for name in ("performance", "facility", "cost", "network"):
        assert (cat / "assumptions" / f"{name}.yaml").is_file(), name
    assert list((cat / "schema").glob("*.json"))
    assert list((cat / "prices").glob("*.yaml"))
    assert (internal / "examples" / EXAMPLE).is_file()
    # every compiled UI translation of the source tree is in the bundle, and no .ts source
    repo_qm = {p.name for p in (ROOT / "resources" / "translations").glob("*.qm")}
    bundled = internal / "resources" / "translations"
    assert {p.name for p in bundled.glob("*.qm")} >= repo_qm
    assert not list(bundled.glob("*.ts"))


def test_bundle_is_lean(internal: Path) -> None:
    names = {p.name for p in internal.iterdir()}
    assert not names & {"pytest", "_pytest", "hypothesis", "pytestqt", "tkinter", "matplotlib"}
    qt_libs = [p.name for p in (internal / "PySide6" / "Qt" / "lib").glob("libQt6*")]
    unwanted = [n for n in qt_libs if re.match(r"libQt6(WebEngine|Quick|Qml|3D|Multimedia|Pdf)", n)]
    assert not unwanted
    assert not (internal / "scipy" / "optimize").exists()  # only scipy.sparse is used


def test_cli_version(exe: Path, env: dict[str, str]) -> None:
    out = run([str(exe), "--version"], env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"gpuplanner {__version__}"


def test_cli_info_and_analyze_give_real_figures(exe: Path, example: Path, env: dict[str, str]) -> None:
    info = run([str(exe), "info", str(example), "--json"], env)
    assert info.returncode == 0, info.stderr
    summary = json.loads(info.stdout)
    assert summary["gpus"] == 256
    assert summary["devices"] > summary["gpus"] // 8

    analysis = run([str(exe), "analyze", str(example), "--json"], env)
    assert analysis.returncode == 0, analysis.stderr
    res = json.loads(analysis.stdout)
    assert res["gpus"] == 256
    assert res["it_kw_max"] > 100  # 32 × DGX H100 at ~10 kW each, plus the fabric
    assert 1.0 < res["pue"] < 2.0
    assert res["capex"] > 1_000_000
    assert res["performance"]["tokens_per_s"] > 0  # the perf assumptions YAML was found
    assert res["fabric"]["bisection_gbps"] > 0


def test_cli_chinese_report_embeds_the_bundled_font(
    exe: Path, example: Path, env: dict[str, str], tmp_path: Path
) -> None:
    pdf = tmp_path / "proposal.pdf"
    out = run([str(exe), "report", str(example), "-o", str(pdf), "--lang", "zh"], env)
    assert out.returncode == 0, out.stderr
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert b"WenQuanYiMicroHei" in data


def _check_smoke(out: subprocess.CompletedProcess[str], gpus: int) -> None:
    assert out.returncode == 0, f"stdout:\n{out.stdout}\nstderr:\n{out.stderr}"
    m = SMOKE_LINE.search(out.stdout)
    assert m, out.stdout
    assert int(m["gpus"]) == gpus
    assert "smoke: analysis ready in" in out.stdout


def test_window_opens_the_example_offscreen_and_quits(exe: Path, example: Path, env: dict[str, str]) -> None:
    env["GPUPLANNER_SMOKE_QUIT_MS"] = "60000"  # upper bound; it quits as soon as the analysis is shown
    out = run([str(exe), str(example)], env)
    _check_smoke(out, 256)
    assert "256-GPU cluster" in out.stdout


@pytest.mark.skipif(
    not (ROOT / "resources" / "translations" / "gpuplanner_zh.qm").is_file(), reason="no Chinese .qm yet"
)
def test_window_in_chinese_uses_the_bundled_translation(
    exe: Path, example: Path, env: dict[str, str]
) -> None:
    env.update(GPUPLANNER_SMOKE_QUIT_MS="60000", GPUPLANNER_LANG="zh")
    out = run([str(exe), str(example)], env)
    _check_smoke(out, 256)
    assert re.search(r'^smoke: language zh, status bar "256 \S*\s*GPU"$', out.stdout, re.MULTILINE), (
        out.stdout
    )
    assert "块" in out.stdout  # "256 块 GPU": the string came from gpuplanner_zh.qm


def test_smoke_hook_from_source(env: dict[str, str]) -> None:
    """The same hook on the source tree (runs in CI, where no bundle is built)."""
    env["GPUPLANNER_SMOKE_QUIT_MS"] = "60000"
    env["PYTHONPATH"] = str(ROOT)
    out = run([sys.executable, "-m", "gpuplanner", str(ROOT / "examples" / EXAMPLE)], env)
    _check_smoke(out, 256)


def test_smoke_hook_fails_fast_on_a_dialog(env: dict[str, str], tmp_path: Path) -> None:
    """A file that cannot be opened brings up a message box: the hook prints it and exits 1 at once."""
    bad = tmp_path / "broken.gpuplan"
    bad.write_bytes(b"not a database")
    env["GPUPLANNER_SMOKE_QUIT_MS"] = "20000"
    env["PYTHONPATH"] = str(ROOT)
    out = run([sys.executable, "-m", "gpuplanner", str(bad)], env)
    assert out.returncode == 1
    assert re.search(r"^smoke: dialog .*broken\.gpuplan", out.stdout, re.MULTILINE), out.stdout
    assert "smoke: opened" not in out.stdout
