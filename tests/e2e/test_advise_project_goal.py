"""The goal inside the project file, end to end on the command line: `gpuplanner set FILE goal=GOAL.yaml`
writes it, `gpuplanner advise FILE` searches it, and every design written, opened again and analysed by
`gpuplanner analyze`, holds every limit of the goal as the project file states it (read back from the
file, not from designs.json). Bad goal values exit 2 with one line naming the field and leave the file as
it was."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.advisor.evaluate import limits
from gpuplanner.advisor.goal import project_goal
from gpuplanner.model import Project
from gpuplanner.storage import open_project, save_project
from gpuplanner.topology import GenerateOptions, generate_into
from tests.analyzed import analyzed_figures

GOAL_YAML = """\
kind: training
model_id: llama3-8b
total_tokens: 2.0e11
deadline_days: 30
facility_kw_max: 400
rack_kw_max: 45
max_servers: 16
servers: [nvidia-dgx-h100, nvidia-dgx-b200]
templates: [rail-leaf-spine]
"""


def _gp(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, timeout=timeout
    )


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    path = tmp_path / "customer.gpuplan"
    save_project(p, path)
    return path


def _one_line(run: subprocess.CompletedProcess[str], *words: str) -> None:
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    for w in words:
        assert w in run.stderr, run.stderr


def test_advise_searches_the_goal_stored_in_the_project(project: Path, tmp_path: Path):
    goal_file = tmp_path / "goal.yaml"
    goal_file.write_text(GOAL_YAML, encoding="utf-8")
    run = _gp("set", str(project), f"goal={goal_file}")
    assert run.returncode == 0, run.stderr
    stored = project_goal(open_project(project))
    assert stored is not None and stored.facility_kw_max == 400 and stored.model_id == "llama3-8b"
    info = json.loads(_gp("info", str(project), "--json").stdout)
    assert info["goal"]["facility_kw_max"] == 400 and info["goal"]["templates"] == "rail-leaf-spine"

    out = tmp_path / "advice"
    run = _gp("advise", str(project), "--workers", "2", "--json", "-o", str(out))
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["goal"]["facility_kw_max"] == 400 and summary["goal"]["model_id"] == "llama3-8b"
    assert len(summary["designs"]) >= 2
    for row in summary["designs"]:
        data, figures = analyzed_figures(out / row["file"])
        checked = limits(stored, figures)
        assert {lim["name"] for lim in checked} >= {"facility_kw", "rack_kw", "deadline_days"}
        for lim in checked:
            assert lim["within"], (row["file"], lim)
        assert data["gpus"] == row["gpus"] and data["gpus"] % 8 == 0


def test_options_override_the_project_goal_and_save_goal_writes_it(project: Path, tmp_path: Path):
    assert _gp("set", str(project), "goal.model=llama3-8b", "goal.total_tokens=2e11").returncode == 0
    run = _gp(
        "advise",
        str(project),
        "--deadline-days",
        "45",
        "--facility-kw",
        "300",
        "--max-servers",
        "8",
        "--servers",
        "nvidia-dgx-h100",
        "--templates",
        "rail-leaf-spine",
        "--workers",
        "2",
        "--save-goal",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    goal = project_goal(open_project(project))
    assert goal is not None
    assert (goal.deadline_days, goal.facility_kw_max, goal.total_tokens) == (45, 300, 2e11)
    assert json.loads(run.stdout)["goal"] == goal.to_json() | {
        k: list(v) for k, v in goal.to_json().items() if isinstance(v, tuple)
    }


def test_a_serving_goal_set_in_any_order(project: Path):
    run = _gp("set", str(project), "goal.kind=inference", "goal.requests_per_s=20", "goal.ttft_s_max=0.5")
    assert run.returncode == 0, run.stderr
    goal = project_goal(open_project(project))
    assert goal is not None and (goal.kind, goal.requests_per_s, goal.ttft_s_max) == ("inference", 20, 0.5)


def test_bad_goals_exit_2_naming_the_field_and_keep_the_file(project: Path, tmp_path: Path):
    before = _sha(project)
    assert json.loads(_gp("info", str(project), "--json").stdout)["goal"] is None
    _one_line(_gp("advise", str(project)), "no goal", "goal")
    _one_line(_gp("set", str(project), "goal.oversubs=1,0.5"), "oversubs")
    _one_line(_gp("set", str(project), "goal.deadline_days=-3"), "deadline_days")
    _one_line(_gp("set", str(project), "goal.templates=torus"), "templates")
    _one_line(_gp("set", str(project), "goal.model=acme-9000b"), "model_id")
    _one_line(_gp("set", str(project), f"goal={tmp_path / 'missing.yaml'}"), "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: training\nfacility_kw_max: lots\n", encoding="utf-8")
    _one_line(_gp("set", str(project), f"goal={bad}"), "facility_kw_max")
    _one_line(_gp("advise", "--save-goal", "--tokens", "1e12"), "PROJECT")
    assert _sha(project) == before


def test_an_fp4_goal_is_a_serving_goal_whatever_the_order_of_the_keys(project: Path):
    """fp4 is modelled for serving only: `set` refuses it on a training goal (exit 2, one line naming the
    precision, English and Chinese, file unchanged) and takes it with goal.kind=inference in any order."""
    before = _sha(project)
    _one_line(_gp("set", str(project), "goal.precision=fp4"), "precision", "fp4", "serving goals only")
    zh = subprocess.run(
        [sys.executable, "-m", "gpuplanner", "set", str(project), "goal.kind=training", "goal.precision=fp4"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "GPUPLANNER_LANG": "zh"},
    )
    _one_line(zh, "precision", "fp4", "仅用于推理服务目标")
    assert _sha(project) == before
    run = _gp("set", str(project), "goal.precision=fp4", "goal.kind=inference", "goal.requests_per_s=20")
    assert run.returncode == 0, run.stderr
    goal = project_goal(open_project(project))
    assert goal is not None and (goal.kind, goal.precision) == ("inference", "fp4")
    after = _sha(project)
    _one_line(_gp("set", str(project), "goal.kind=training"), "precision", "fp4")
    assert _sha(project) == after
    run = _gp("set", str(project), "goal.kind=training", "goal.precision=fp8")  # both at once: a valid goal
    assert run.returncode == 0, run.stderr
    goal = project_goal(open_project(project))
    assert goal is not None and (goal.kind, goal.precision) == ("training", "fp8")


def test_advise_on_a_project_with_an_fp4_serving_goal_names_the_gpus_left_out(project: Path):
    run = _gp(
        "set", str(project), "goal.kind=inference", "goal.requests_per_s=10", "goal.precision=fp4",
        "goal.model=llama3-8b", "goal.servers=nvidia-dgx-h100,nvidia-dgx-b200", "goal.max_servers=2",
        "goal.templates=leaf-spine", "goal.oversubs=1",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    run = _gp("advise", str(project), "--json", "--workers", "1")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["goal"]["precision"] == "fp4"
    assert "no FP4 tensor cores" in data["left_out"]["nvidia-dgx-h100"]
    assert data["designs"] and {d["server"] for d in data["designs"]} == {"nvidia-dgx-b200"}
    text = _gp("advise", str(project), "--workers", "1")
    assert text.returncode == 0, text.stderr
    assert "left out nvidia-dgx-h100: its GPU (NVIDIA H100" in text.stdout, text.stdout
