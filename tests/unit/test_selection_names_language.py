"""An unknown phase or scenario is refused naming the ones the project has, in the reader's language: the list
joined with the language's separator, and a project with none says so in that language ("none" / 无), not an
English "none" inside the Chinese sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.core.errors import ValidationError
from gpuplanner.engine.selection import find_phase, find_scenario
from gpuplanner.storage import open_project
from gpuplanner.text import Msg

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(("find", "what"), [(find_phase, "阶段"), (find_scenario, "场景")])
def test_a_project_with_none_says_none_in_each_language(find, what):
    project = open_project(EXAMPLES / "cluster-256-h100.gpuplan")
    with pytest.raises(ValidationError) as e:
        find(project, "nope")
    assert e.value.msg is not None
    assert e.value.msg.render("en").endswith("(the project has: none)")
    zh = e.value.msg.render("zh")
    assert zh == f"没有名为“nope”的{what}（项目中有：无）"
    assert "none" not in zh


def test_the_names_there_are_are_joined_in_the_language():
    project = open_project(EXAMPLES / "phased-pilot-to-su.gpuplan")
    with pytest.raises(ValidationError) as e:
        find_phase(project, "Nope")
    assert e.value.msg is not None
    assert e.value.msg.render("en") == "no phase 'Nope' (the project has: Pilot, Expansion, Scale)"
    assert e.value.msg.render("zh") == "没有名为“Nope”的阶段（项目中有：Pilot、Expansion、Scale）"


def test_a_list_of_plain_names_is_joined_and_an_empty_one_is_the_word_none():
    assert (
        Msg("error.no_phase", {"name": "x", "names": ["a", "b"]})
        .render("en")
        .endswith("(the project has: a, b)")
    )
    assert Msg("error.no_phase", {"name": "x", "names": []}).render("zh").endswith("（项目中有：无）")
