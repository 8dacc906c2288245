"""The report's "options considered": the design advisor's front as `gpuplanner advise -o DIR` wrote it.
Its rows are the rows of designs.json (same designs, same order, same figures converted to the project's
currency), the design a proposal was made from is marked as that option in each written file, the
sentence says why it wins in English and Chinese, and a bad designs.json or a project without a goal is
refused on the command line with one line (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pypdf import PdfReader

from gpuplanner.advisor import Goal, advise
from gpuplanner.cli.advise_cmd import designs_json, write_designs
from gpuplanner.cli.report_options import mark_other_goal, read_options
from gpuplanner.reports import build_report, fmt, new_context
from gpuplanner.reports.sections import options as section
from gpuplanner.storage import open_project

GOAL = Goal(
    model_id="llama3-8b",
    total_tokens=2e11,
    deadline_days=30,
    facility_kw_max=400,
    rack_kw_max=45,
    servers=("nvidia-dgx-h100", "nvidia-dgx-b200"),
    templates=("rail-leaf-spine",),
    max_servers=16,
)


@pytest.fixture(scope="module")
def advice(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("advice")
    with ThreadPoolExecutor(2) as ex:
        res = advise(GOAL, executor=ex)
    summary = designs_json(res)
    write_designs(res, summary, out)
    return out, json.loads((out / "designs.json").read_text(encoding="utf-8"))


def _ctx(out: Path, file: str, lang: str = "en"):
    project = open_project(out / file)
    ctx = new_context(project, lang)
    ctx.options = mark_other_goal(read_options(out), project)
    return ctx


def test_the_rows_are_the_designs_json_rows_and_each_file_is_its_own_option(advice):
    out, written = advice
    designs = written["designs"]
    assert len(designs) >= 3
    for row in designs:
        ctx = _ctx(out, row["file"])
        assert not ctx.options["other_goal"]  # each design file carries the goal it was found for
        chosen = section.chosen_rank(ctx, ctx.options["designs"])
        assert chosen == row["rank"], row["file"]
        rows = section.table_rows(ctx, ctx.options["designs"], True, chosen)
        assert len(rows) == len(designs)
        for cells, d in zip(rows, designs, strict=True):
            assert cells[1] == f"{d['servers']} × {d['server']}"
            assert cells[2] == fmt.integer(d["gpus"])
            assert cells[3] == f"{d['fabric']} {d['oversubscription']:g}:1"
            assert cells[5] == fmt.num(d["time_to_train_days"], 1)
            assert cells[6] == fmt.num(d["facility_kw_max"], 0)
            rate = ctx.project.info.usd_exchange_rate
            assert cells[7] == fmt.money(d["capex_usd"] * rate) and cells[8] == fmt.money(d["tco_usd"] * rate)
            assert (cells[0] != str(d["rank"])) == (d["rank"] == row["rank"])  # only this proposal marked


def test_the_pdf_prints_the_front_and_why_the_chosen_design_wins(advice, tmp_path):
    out, written = advice
    designs = written["designs"]
    row = designs[1]  # not the cheapest: the sentence must name what it buys
    project = open_project(out / row["file"])
    opts = mark_other_goal(read_options(out), project)
    pdf = build_report(project, tmp_path / "en.pdf", lang="en", options=opts)
    text = " ".join((p.extract_text() or "") for p in PdfReader(str(pdf)).pages)
    text = " ".join(text.split())
    assert "Options considered" in text
    for d in designs:
        assert fmt.money(d["tco_usd"]) in text
    assert f"This proposal is option {row['rank']}" in text
    assert "more in total cost of ownership than option 1" in text
    zh = build_report(project, tmp_path / "zh.pdf", lang="zh", options=opts)
    ztext = "".join((p.extract_text() or "") for p in PdfReader(str(zh)).pages)
    ztext = "".join(ztext.split())
    assert "备选方案" in ztext and f"本方案即方案{row['rank']}" in ztext
    plain = build_report(project, tmp_path / "plain.pdf", lang="en")
    assert "Options considered" not in " ".join((p.extract_text() or "") for p in PdfReader(str(plain)).pages)


def _gp(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, timeout=300
    )


def test_report_options_on_the_command_line(advice, tmp_path):
    out, written = advice
    file = str(out / written["designs"][0]["file"])
    run = _gp("report", file, "-o", str(tmp_path / "r.pdf"), "--options", str(out))
    assert run.returncode == 0, run.stderr
    bad = tmp_path / "designs.json"
    data = json.loads((out / "designs.json").read_text(encoding="utf-8"))
    data["designs"][0]["tco_usd"] = "cheap"
    bad.write_text(json.dumps(data), encoding="utf-8")
    for args, words in (
        (["--options", str(bad)], ("designs.json", "design 1", "tco_usd")),
        (["--options", str(tmp_path / "nowhere")], ("no such file",)),
    ):
        run = _gp("report", file, "-o", str(tmp_path / "x.pdf"), *args)
        assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
        assert all(w in run.stderr for w in words), run.stderr
    from gpuplanner.model import Project
    from gpuplanner.storage import save_project
    from gpuplanner.topology import GenerateOptions, generate_into

    p = Project()
    generate_into(p, GenerateOptions(servers=2, template="single-switch"))
    save_project(p, tmp_path / "nogoal.gpuplan")
    run = _gp("report", str(tmp_path / "nogoal.gpuplan"), "-o", str(tmp_path / "y.pdf"), "--advise")
    assert run.returncode == 2 and "no goal" in run.stderr and run.stderr.count("\n") == 1, run.stderr
