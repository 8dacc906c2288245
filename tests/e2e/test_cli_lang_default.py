"""`generate` and `new` have a --lang for the project's language; with no --lang given their refusals follow
GPUPLANNER_LANG like every other command's (the parser's default "en" used to win over it)."""

from __future__ import annotations

import re

import pytest

from gpuplanner.cli import main
from gpuplanner.storage import open_project


@pytest.mark.parametrize(
    "args",
    [["generate", "nope"], ["new", "{tmp}/no/such/folder/x.gpuplan"]],
)
def test_refusals_follow_gpuplanner_lang(args, tmp_path, monkeypatch, capsys):
    args = [a.format(tmp=tmp_path) for a in args]
    if args[0] == "generate":
        args += ["-o", str(tmp_path / "g.gpuplan")]
    monkeypatch.setenv("GPUPLANNER_LANG", "zh")
    assert main(args) == 2
    zh = capsys.readouterr().err
    assert main([*args, "--lang", "en"]) == 2  # the command's --lang wins
    en = capsys.readouterr().err
    if args[0] == "generate":
        assert "没有名为“nope”的模板" in zh and "unknown template 'nope'" in en
    else:
        assert "无法写入：文件夹“" in zh and "”不存在" in zh, zh
        assert "cannot write here: the folder '" in en and "' does not exist" in en, en


def test_a_project_made_without_lang_is_still_english(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GPUPLANNER_LANG", "zh")
    assert main(["new", str(tmp_path / "n.gpuplan")]) == 0
    assert main(["generate", "pilot-1-node", "-o", str(tmp_path / "g.gpuplan")]) == 0
    capsys.readouterr()
    assert open_project(tmp_path / "n.gpuplan").info.language == "en"
    assert open_project(tmp_path / "g.gpuplan").info.language == "en"


def test_a_mistyped_catalog_id_is_refused_in_the_users_language(monkeypatch, capsys):
    """`gpuplanner estimate --model nope …` with GPUPLANNER_LANG=zh: the refusal is Chinese throughout."""
    monkeypatch.setenv("GPUPLANNER_LANG", "zh")
    assert main(["catalog", "show", "nope"]) == 2
    zh = capsys.readouterr().err
    assert zh.strip() == "gpuplanner: 条目“nope”：目录中没有条目“nope”（见 `gpuplanner catalog list`）", zh
    monkeypatch.setenv("GPUPLANNER_LANG", "en")
    assert main(["estimate", "--model", "nope", "--gpu", "nvidia-h100-sxm", "--gpus", "8"]) == 2
    en = capsys.readouterr().err
    assert (
        en.strip() == "gpuplanner: entry 'nope': no catalog entry 'nope' (see `gpuplanner catalog list`)"
    ), en


@pytest.mark.parametrize(
    ("args", "en", "zh"),
    [
        (["catalog", "list", "gpux"], "unknown kind 'gpux' (one of cable, ", "没有名为“gpux”的目录类别（可选：cable, "),
        (["set", "{plan}", "foo=bar"], "field 'foo': unknown key 'foo' (see `gpuplanner set --help`)",
         "字段“foo”：没有名为“foo”的设置项（见 `gpuplanner set --help`）"),
        (["set", "{plan}", "site.nope=1"], "unknown key 'site.nope' (fields: ambient_temp_c, ",
         "没有名为“site.nope”的设置项（可设字段：ambient_temp_c, "),
        (["set", "{plan}", "partition.all.nope=1"], "(partition.NAME.servers or partition.NAME.phase)",
         "（partition.NAME.servers 或 partition.NAME.phase）"),
        (["advise", "--model", "nope", "--tokens", "1e12", "--deadline-days", "30"],
         "no model 'nope' in the catalog (gpuplanner catalog list model)", "目录中没有模型“nope”"),
    ],
)  # fmt: skip
def test_names_the_cli_looks_up_are_refused_in_the_users_language(
    args, en, zh, tmp_path, monkeypatch, capsys
):
    plan = tmp_path / "p.gpuplan"
    assert main(["generate", "pilot-1-node", "-o", str(plan)]) == 0
    capsys.readouterr()
    args = [a.format(plan=plan) for a in args]
    for lang, want in (("en", en), ("zh", zh)):
        monkeypatch.setenv("GPUPLANNER_LANG", lang)
        assert main(args) == 2
        err = capsys.readouterr().err
        assert want in err and err.count("\n") == 1, err
        if lang == "zh":
            assert not re.search(r"\b(unknown|fields|see|one of|no model)\b", err), err


def test_set_says_setting_or_settings(tmp_path, capsys):
    plan = tmp_path / "p.gpuplan"
    assert main(["generate", "pilot-1-node", "-o", str(plan)]) == 0
    capsys.readouterr()
    assert main(["set", str(plan), "site.target_pue=1.3"]) == 0
    assert capsys.readouterr().out == f"{plan}: 1 setting applied\n"
    assert main(["set", str(plan), "site.target_pue=1.3", "site.tco_years=4"]) == 0
    assert capsys.readouterr().out == f"{plan}: 2 settings applied\n"


@pytest.mark.parametrize(
    ("args", "en", "zh"),
    [
        (["advise", "--goal", "{tmp}/nope.yaml"], "nope.yaml: no such goal file", "nope.yaml：目标文件不存在"),
        (["report", "{plan}", "-o", "{tmp}/x.pdf", "--options", "{tmp}/none"],
         "none: no such file (the designs.json of `gpuplanner advise -o DIR`)",
         "none：文件不存在（应为 `gpuplanner advise -o DIR` 写出的 designs.json）"),
        (["catalog", "install", "{tmp}/nope.gpcat"], "nope.gpcat: no such file", "nope.gpcat：文件不存在"),
        (["catalog", "import-netbox", "{tmp}/nope.yaml"], "nope.yaml: no such file", "nope.yaml：文件不存在"),
        (["catalog", "validate", "{tmp}/none"], "none: not a folder", "none：不是文件夹"),
        (["set", "{plan}", "site.electricity_usd_per_kwh=abc"], "site.electricity_usd_per_kwh: 'abc' is not a number",
         "site.electricity_usd_per_kwh：“abc”不是数字"),
        (["set", "{plan}", "site.tco_years=2.5"], "site.tco_years: '2.5' is not a whole number",
         "site.tco_years：“2.5”不是整数"),
    ],
)  # fmt: skip
def test_missing_files_and_bad_numbers_in_the_users_language(args, en, zh, tmp_path, monkeypatch, capsys):
    plan = tmp_path / "p.gpuplan"
    assert main(["generate", "pilot-1-node", "-o", str(plan)]) == 0
    capsys.readouterr()
    args = [a.format(plan=plan, tmp=tmp_path) for a in args]
    for lang, want in (("en", en), ("zh", zh)):
        monkeypatch.setenv("GPUPLANNER_LANG", lang)
        assert main(args) == 2
        err = capsys.readouterr().err
        assert want in err and err.count("\n") == 1 and "Errno" not in err, err
