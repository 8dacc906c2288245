"""A refused command line is one line in the user's language: argparse's own messages (invalid choice, missing or
unknown arguments) and the CLI's argument types (whole number, range) are said in Chinese with --lang zh or
GPUPLANNER_LANG=zh, word for word as before in English; a form we do not know stays English whole."""

from __future__ import annotations

import re

import pytest

from gpuplanner.cli import main
from gpuplanner.cli.argerrors import argv_language, said

PLAN = "examples/cluster-256-h100.gpuplan"
CASES = [
    (["report", PLAN, "-o", "x.pdf", "--lang", "fr"],
     "gpuplanner report: argument --lang: invalid choice: 'fr' (choose from 'en', 'zh') "
     "(see `gpuplanner report --help`)",
     "gpuplanner report: 参数 --lang：无效的取值 'fr'（可选：'en', 'zh'）（见 `gpuplanner report --help`）"),
    (["generate", "rail-leaf-spine", "--servers", "-3", "-o", "g.gpuplan"],
     "gpuplanner generate: argument --servers: -3 is out of range: 1 to 32,768 (GPU Planner plans up to 262,144 "
     "GPUs in 32,768 servers at once) (see `gpuplanner generate --help`)",
     "gpuplanner generate: 参数 --servers：-3 超出范围（1 至 32,768）（GPU Planner 一次最多规划 32,768 台服务器、"
     "262,144 块 GPU）（见 `gpuplanner generate --help`）"),
    (["generate", "rail-leaf-spine", "--servers", "abc", "-o", "g.gpuplan"],
     "gpuplanner generate: argument --servers: 'abc' is not a whole number (see `gpuplanner generate --help`)",
     "gpuplanner generate: 参数 --servers：“abc”不是整数（见 `gpuplanner generate --help`）"),
    (["generate", "rail-leaf-spine", "--rack-kw", "0", "-o", "g.gpuplan"],
     "gpuplanner generate: argument --rack-kw: 0 is out of range: more than 0 to 1000 "
     "(see `gpuplanner generate --help`)",
     "gpuplanner generate: 参数 --rack-kw：0 超出范围（大于 0 至 1000）（见 `gpuplanner generate --help`）"),
    (["report", PLAN],
     "gpuplanner report: the following arguments are required: -o/--output (see `gpuplanner report --help`)",
     "gpuplanner report: 缺少必需的参数：-o/--output（见 `gpuplanner report --help`）"),
    (["analyze", PLAN, "--bogus"],
     "gpuplanner: unrecognized arguments: --bogus (see `gpuplanner --help`)",
     "gpuplanner: 无法识别的参数：--bogus（见 `gpuplanner --help`）"),
    (["analyze", PLAN, "--scenario"],
     "gpuplanner analyze: argument --scenario: expected one argument (see `gpuplanner analyze --help`)",
     "gpuplanner analyze: 参数 --scenario：需要一个取值（见 `gpuplanner analyze --help`）"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "en", "zh"), CASES)
def test_a_refused_command_line_speaks_the_users_language(args, en, zh, monkeypatch, capsys):
    monkeypatch.setenv("GPUPLANNER_LANG", "en")
    assert main(args) == 2
    assert capsys.readouterr().err == en + "\n"
    monkeypatch.setenv("GPUPLANNER_LANG", "zh")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == zh + "\n"
    assert not re.search(r"\b(argument|invalid|choose|required|unrecognized|expected|see)\b", err), err


def test_the_command_lines_lang_wins_and_an_unknown_form_stays_english(monkeypatch, capsys):
    monkeypatch.setenv("GPUPLANNER_LANG", "en")
    assert main(["analyze", PLAN, "--bogus", "--lang", "zh"]) == 2
    assert "无法识别的参数：--bogus" in capsys.readouterr().err
    assert argv_language(["analyze", "--lang=zh"], "en") == "zh"
    assert argv_language(["analyze", "--lang", "fr"], "zh") == "zh"
    assert said("something argparse says one day", "zh") == "something argparse says one day"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_display_is_one_line_not_a_qt_abort(lang, monkeypatch, capsys):
    """`gpuplanner` over ssh (Linux, no DISPLAY or WAYLAND_DISPLAY): Qt would abort with a core dump."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("GPUPLANNER_LANG", lang)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("DISPLAY" in err) and ("--help" in err)
    assert ("所有命令无需显示即可使用" in err) == (lang == "zh")
