"""`gpuplanner export -f xlsx` read back with openpyxl (a reader independent of XlsxWriter) and compared with
`gpuplanner analyze --json`: BOM total = capex, rack kW = the racks' kW, row power = the sum of its racks,
the cable schedule has one row per cable and its module columns add up to the BOM's transceiver counts."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import openpyxl
import pytest

from gpuplanner.storage import open_project, save_project
from gpuplanner.topology.presets import build_preset

ROOT = Path(__file__).resolve().parents[2]
SUPERPOD = ROOT / "examples" / "superpod-1024-h100.gpuplan"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("xlsx") / "plan.xlsx"
    r = run("export", str(SUPERPOD), "-f", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    data = json.loads(run("analyze", str(SUPERPOD), "--json").stdout)
    return openpyxl.load_workbook(out, data_only=True), openpyxl.load_workbook(out), data


def test_sheets_and_bom_total_is_the_capex(book):
    wb, wb_formulas, data = book
    assert wb.sheetnames == ["BOM", "Cable schedule", "Racks", "Power"]
    ws = wb["BOM"]
    header = [c.value for c in ws[1]]
    assert header == [
        "Category",
        "Item",
        "Part number",
        "Quantity",
        "Unit",
        "Unit price",
        "Extended price",
        "Currency",
    ]
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=2)]
    lines, total = rows[:-1], rows[-1]
    assert total[6] == pytest.approx(data["capex"])
    assert sum(r[6] for r in lines) == pytest.approx(data["capex"], rel=1e-9)
    assert wb_formulas["BOM"].cell(ws.max_row, 7).value.startswith("=SUM(G2:G")  # live in Excel
    for r in lines:
        if r[5] is not None:
            assert r[3] * r[5] == pytest.approx(r[6], rel=1e-9)
        assert r[7] == data["currency"]
    project = open_project(SUPERPOD)
    parts = {r[2] for r in lines}
    assert {d.type_id for d in project.devices.values()} <= parts  # every device model has its part number
    assert set(data["fabric"]["transceivers"]) <= parts


def test_cable_schedule_counts_cables_and_transceivers_like_the_bom(book):
    wb, _, data = book
    ws = wb["Cable schedule"]
    assert "twin-port" in ws["A1"].value
    header = [c.value for c in ws[2]]
    rows = [dict(zip(header, (c.value for c in r), strict=True)) for r in ws.iter_rows(min_row=3)]
    project = open_project(SUPERPOD)
    assert len(rows) == sum(lk.multiplicity for lk in project.links.values())
    modules: dict[str, float] = defaultdict(float)
    for r in rows:
        for side in ("from", "to"):
            if r[f"Transceiver ({side})"]:
                modules[r[f"Transceiver ({side})"]] += r[f"Modules ({side})"]
    bom = data["fabric"]["transceivers"]
    assert set(modules) == set(bom)
    for part, n in bom.items():
        assert modules[part] == pytest.approx(n, abs=0.5 + 1e-9)  # the BOM rounds each part up
    ends = Counter((r["From device"], r["From port"]) for r in rows) + Counter(
        (r["To device"], r["To port"]) for r in rows
    )
    assert max(ends.values()) == 1
    devs = {d.name: d for d in project.devices.values()}
    assert all(r["From U"] == devs[r["From device"]].u_position for r in rows)


def test_rack_elevations_and_power_match_the_analysis(book):
    wb, _, data = book
    ws = wb["Racks"]
    racks = {r["name"]: r for r in data["racks"]}
    names = [c.value for c in ws[1]][1:]
    assert set(names) == set(racks)
    for col, name in enumerate(names, start=2):
        assert ws.cell(3, col).value == pytest.approx(racks[name]["kw_load"], rel=1e-9)
        assert ws.cell(4, col).value == pytest.approx(racks[name]["kw_max"], rel=1e-9)
    # the U map: every racked device appears in its rack's column at its top U
    project = open_project(SUPERPOD)
    labels = {ws.cell(r, 1).value: r for r in range(7, ws.max_row + 1)}
    rack_names = {r.id: r.name for r in project.racks.values()}
    for d in list(project.devices.values())[:300]:
        if d.rack_id and d.u_position:
            col = names.index(rack_names[d.rack_id]) + 2
            top_u = d.u_position + project.entry(d.type_id).ru - 1
            assert ws.cell(labels[f"U{top_u}"], col).value == d.name
    pw = wb["Power"]
    rows = {}
    for r in pw.iter_rows(min_row=2, values_only=True):
        if r[0] is None:
            break
        rows[r[0]] = r
    by_row = defaultdict(float)
    for rk in data["racks"]:
        by_row[rk["row"]] += rk["kw_max"]
    for row, kw in by_row.items():
        assert rows[row][5] == pytest.approx(kw, rel=1e-9)
    assert rows["Total IT"][5] == pytest.approx(data["it_kw_max"], rel=1e-9)


def test_chinese_project_gets_chinese_sheets_and_names_stay_text(tmp_path):
    project = build_preset("ib-su-32-node", lang="zh")
    dev = next(d for d in project.devices.values() if d.role == "compute")
    project.tables["devices"][dev.id] = dataclasses.replace(dev, name='=HYPERLINK("http://x","y")')
    project.tables["project"]["project"] = dataclasses.replace(project.info, name="上海\t集群\n第二期")
    src = save_project(project, tmp_path / "zh.gpuplan")
    out = tmp_path / "zh.xlsx"
    r = run("export", str(src), "-f", "xlsx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["物料清单", "线缆清单", "机柜布局", "电力"]
    assert wb["物料清单"]["A1"].value == "类别"
    found = [c for ws in wb for row in ws.iter_rows() for c in row if c.value == '=HYPERLINK("http://x","y")']
    assert found and all(c.data_type == "s" for c in found)  # a string, not a formula
