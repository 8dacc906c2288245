"""`--phase` on analyze and report (the plan at the end of a phase, as the window's "Show phase" shows it),
and refusals on stderr in the user's language (`--lang`, `GPUPLANNER_LANG`, the locale)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHASED = ROOT / "examples" / "phased-pilot-to-su.gpuplan"
CJK = re.compile(r"[\u4e00-\u9fff]")
FIGURES = ("gpus", "servers", "it_kw_max", "facility_kw_max", "pue", "capex", "tco", "utility_feed_kw_needed")


def run(*args: str, lang: str | None = "en") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    if lang is not None:
        env["GPUPLANNER_LANG"] = lang
    else:
        env.pop("GPUPLANNER_LANG", None)
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


@pytest.fixture(scope="module")
def whole() -> dict:
    r = run("analyze", str(PHASED), "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("which", ["name", "id"])
def test_analyze_phase_gives_the_figures_of_that_phase_in_the_phase_table(whole, which):
    """Oracle: the phase table of the whole analysis (engine/phases.py ``analyze_phases``) lists each phase's
    figures; `analyze --phase P` gives the same for P, by name or by id."""
    assert len(whole["phases"]) == 3 and "phase" not in whole  # the whole plan: as `export -f json` writes it
    for ph in whole["phases"]:
        r = run("analyze", str(PHASED), "--json", "--phase", ph[which])
        assert r.returncode == 0, r.stderr
        data = json.loads(r.stdout)
        assert data["phase"] == {"id": ph["id"], "name": ph["name"]}
        assert data["phases"] == []  # one phase's view, not the phase table
        for k in FIGURES:
            assert data[k] == pytest.approx(ph[k], rel=1e-9), (ph["name"], k, data[k], ph[k])
    first, last = whole["phases"][0], whole["phases"][-1]
    assert first["gpus"] < last["gpus"] == whole["gpus"]  # the phases differ: the check above can fail


def test_analyze_phase_text_says_which_phase():
    r = run("analyze", str(PHASED), "--phase", "Pilot")
    assert r.returncode == 0, r.stderr
    assert "[at the end of phase: Pilot]" in r.stdout.splitlines()[0]
    assert "GPUs 16 in 2 servers" in r.stdout


@pytest.mark.parametrize("command", ["analyze", "report"])
def test_an_unknown_phase_is_refused_naming_the_phases_there_are(command, tmp_path):
    extra = ["-o", str(tmp_path / "x.pdf")] if command == "report" else []
    r = run(command, str(PHASED), "--phase", "Nope", *extra)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == (
        "gpuplanner: field 'phase': no phase 'Nope' (the project has: Pilot, Expansion, Scale)"
    )
    assert not (tmp_path / "x.pdf").exists()
    plain = run("analyze", str(ROOT / "examples" / "cluster-256-h100.gpuplan"), "--phase", "ph1")
    assert plain.returncode == 2 and "(the project has: none)" in plain.stderr


def test_report_phase_prints_that_phase(tmp_path):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    out = tmp_path / "ph2.pdf"
    r = run("report", str(PHASED), "--phase", "ph2", "-o", str(out))
    assert r.returncode == 0, r.stderr
    cover = subprocess.run(["pdftotext", "-l", "1", str(out), "-"], capture_output=True, text=True).stdout
    assert re.search(r"Phase\s+Expansion", cover), cover  # the cover names the phase shown


def test_a_refusal_is_printed_in_the_users_language(tmp_path):
    """The same model refusal (`set` with a value out of range): English by default, Chinese with
    GPUPLANNER_LANG=zh or a zh locale, and the command's own --lang wins."""
    f = tmp_path / "p.gpuplan"
    shutil.copy(ROOT / "examples" / "cluster-256-h100.gpuplan", f)
    en = run("set", str(f), "site.nodes_per_staff=-5")
    assert en.returncode == 2
    assert en.stderr.strip().endswith(
        "site field 'nodes_per_staff' must be between 0 and 1,000,000, got -5"
    ), en.stderr
    zh = run("set", str(f), "site.nodes_per_staff=-5", lang="zh")
    assert zh.returncode == 2
    assert zh.stderr.strip().endswith("场地的字段“nodes_per_staff”应在 0 到 1,000,000 之间，现为 -5"), (
        zh.stderr
    )
    env_zh = subprocess.run(
        [sys.executable, "-m", "gpuplanner", "analyze", str(PHASED), "--phase", "Nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k != "GPUPLANNER_LANG"}, "LC_ALL": "zh_CN.UTF-8"},
        timeout=300,
    )
    assert env_zh.returncode == 2 and "没有名为“Nope”的阶段" in env_zh.stderr, env_zh.stderr
    flag = run("analyze", str(PHASED), "--phase", "Nope", "--lang", "en", lang="zh")
    assert "no phase 'Nope'" in flag.stderr and not CJK.search(flag.stderr), flag.stderr
