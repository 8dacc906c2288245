"""`gpuplanner set FILE workload.NAME.FIELD=…` (and phase.NAME.FIELD) creates the row when the name is new, as
documented; the output says so ("created workload 'X'" / 已新建工作负载“X”), so a typo in an existing name does
not silently add one. An existing name prints no such line; `--json` lists what was created."""

from __future__ import annotations

import json

import pytest

from gpuplanner.cli import main
from gpuplanner.storage import open_project

CREATED = {
    "en": (
        "created workload 'Llama 3 70B pretraning'",
        "created phase 'Pilto'",
        "{plan}: 3 settings applied",
    ),
    "zh": ("已新建工作负载“Llama 3 70B pretraning”", "已新建阶段“Pilto”", "{plan}：已应用 3 项设置"),
}


@pytest.fixture
def plan(tmp_path, capsys):
    plan = tmp_path / "p.gpuplan"
    assert main(["generate", "ib-su-32-node", "-o", str(plan)]) == 0
    capsys.readouterr()
    return plan


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_new_name_is_said_to_be_created(plan, capsys, monkeypatch, lang):
    monkeypatch.setenv("GPUPLANNER_LANG", lang)
    (existing,) = [w.name for w in open_project(plan).tables["workloads"].values()]
    args = [
        f"workload.{existing}.active=false",
        "workload.Llama 3 70B pretraning.active=false",
        "phase.Pilto.order=1",
    ]
    assert main(["set", str(plan), *args]) == 0
    workload, phase, applied = CREATED[lang]
    assert capsys.readouterr().out.splitlines() == [workload, phase, applied.format(plan=plan)]
    names = {w.name for w in open_project(plan).tables["workloads"].values()}
    assert names == {existing, "Llama 3 70B pretraning"}
    # the same names again: nothing new, no such line
    assert main(["set", str(plan), *args]) == 0
    assert capsys.readouterr().out.splitlines() == [applied.format(plan=plan)]


def test_json_lists_the_rows_created(plan, capsys):
    assert (
        main(["set", str(plan), "workload.Typo.active=false", "workload.Typo.model=llama3-8b", "--json"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["created"] == [{"table": "workloads", "name": "Typo"}]
    assert main(["set", str(plan), "workload.Typo.active=true", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["created"] == []


def test_a_refused_edit_creates_nothing_and_says_nothing(plan, capsys):
    assert main(["set", str(plan), "workload.Typo.active=false", "workload.Typo.model=nope"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "created" not in captured.err
    assert "Typo" not in {w.name for w in open_project(plan).tables["workloads"].values()}
