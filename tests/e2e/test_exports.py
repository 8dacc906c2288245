"""Exports end to end: `gpuplanner export` in a subprocess on the bundled example, each file parsed back with a
real parser (csv, yaml.safe_load, a Slurm topology.conf parser written from Slurm's syntax, xml, Pillow) and
checked to hold every device and every link of the project."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
import yaml
from PIL import Image

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.storage import open_project

ROOT = Path(__file__).resolve().parents[2]
SUPERPOD = ROOT / "examples" / "superpod-1024-h100.gpuplan"
COMPUTE_SWITCH_ROLES = {"leaf", "spine", "core"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
        env=dict(os.environ),
    )  # fmt: skip


def export(fmt: str, out: Path, *extra: str, src: Path = SUPERPOD) -> Path:
    r = run("export", str(src), "--format", fmt, "-o", str(out), *extra)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def project():
    return open_project(SUPERPOD)


@pytest.fixture(scope="module")
def results(project):
    return analyze_project(project)


# -- a Slurm topology.conf reader, from topology.conf(5): "Key=Value" pairs per line, '#' starts a comment,
# names in hostlist expressions such as tux[0-3,12,18-20] (zero padding kept) joined by commas. -----------
def hostlist(expr: str) -> list[str]:
    out = []
    for item in re.findall(r"[^,\[]*(?:\[[^\]]*\])?[^,]*", expr):
        if not item:
            continue
        m = re.fullmatch(r"([^\[]*)\[([^\]]*)\](.*)", item)
        if not m:
            out.append(item)
            continue
        for rng in m.group(2).split(","):
            lo, _, hi = rng.partition("-")
            out += [f"{m.group(1)}{n:0{len(lo)}d}{m.group(3)}" for n in range(int(lo), int(hi or lo) + 1)]
    return out


def parse_topology_conf(text: str) -> list[dict[str, str]]:
    lines = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        pairs = dict(tok.split("=", 1) for tok in line.split())
        lines.append({k.lower(): v for k, v in pairs.items()})  # parameter names are case-insensitive
    return lines


def test_hostlist_reader_follows_slurm_examples():
    assert hostlist("tux[0-3,12,18-20]") == [
        "tux0",
        "tux1",
        "tux2",
        "tux3",
        "tux12",
        "tux18",
        "tux19",
        "tux20",
    ]
    assert hostlist("node-[0009-0011],leaf1") == ["node-0009", "node-0010", "node-0011", "leaf1"]


def compute_fabric(project, results):
    c = results.compiled
    roles = [project.devices[i].role for i in c.devices.ids]
    names = c.devices.names
    up, nodes = {}, {}
    for a, b in zip(c.links.a.tolist(), c.links.b.tolist(), strict=True):
        for x, y in ((a, b), (b, a)):
            if roles[x] in COMPUTE_SWITCH_ROLES and roles[y] == "compute":
                nodes.setdefault(names[x], set()).add(names[y])
            order = ("leaf", "spine", "core")
            both = roles[x] in COMPUTE_SWITCH_ROLES and roles[y] in COMPUTE_SWITCH_ROLES
            if both and order.index(roles[y]) < order.index(roles[x]):
                up.setdefault(names[x], set()).add(names[y])
    return nodes, up, {n for n, r in zip(names, roles, strict=True) if r == "compute"}


def test_slurm_tree_has_every_switch_node_and_link(tmp_path, project, results):
    conf = parse_topology_conf(export("slurm", tmp_path / "topology.conf").read_text())
    switches = {ln["switchname"]: ln for ln in conf}
    nodes, up, servers = compute_fabric(project, results)
    assert set(switches) == set(nodes) | set(up)
    for sw, expected in nodes.items():
        assert set(hostlist(switches[sw]["nodes"])) == expected
    for sw, expected in up.items():
        assert set(hostlist(switches[sw]["switches"])) == expected
    listed = {n for ln in conf for n in hostlist(ln.get("nodes", ""))}
    assert listed == servers  # every server connected to at least one switch


def test_slurm_block_form_partitions_the_servers(tmp_path, project, results):
    conf = parse_topology_conf(export("slurm", tmp_path / "block.conf", "--plugin", "block").read_text())
    blocks = [hostlist(ln["nodes"]) for ln in conf if "blockname" in ln]
    sizes = [int(x) for ln in conf if "blocksizes" in ln for x in ln["blocksizes"].split(",")]
    _, _, servers = compute_fabric(project, results)
    flat = [n for b in blocks for n in b]
    assert sorted(flat) == sorted(servers) and len(flat) == len(set(flat))
    assert len(blocks) == 4 and sizes[0] == 32 and all(s % sizes[0] == 0 for s in sizes)


def test_netbox_import_files_hold_every_device_rack_and_cable(tmp_path, project, results):
    folder = export("netbox", tmp_path / "netbox")
    read = lambda name: list(csv.DictReader((folder / name).open(encoding="utf-8")))  # noqa: E731
    types = {t["model"]: t for t in yaml.safe_load_all((folder / "03-device-types.yaml").read_text())}
    racks = {r["name"]: r for r in read("06-racks.csv")}
    devices = {d["name"]: d for d in read("09-devices.csv")}
    cables = read("11-cables.csv")
    lanes = {(b["device"], b["name"]) for b in read("10-breakout-interfaces.csv")}
    assert set(racks) == {r.name for r in project.racks.values()}
    assert len(devices) == len(project.devices)
    for d in project.devices.values():
        row = devices[d.name]
        assert row["rack"] == (project.racks[d.rack_id].name if d.rack_id else "")
        assert row["position"] == (str(d.u_position) if d.u_position else "")
        assert row["device_type"] in types
        assert {row["manufacturer"], row["role"]} <= {m["name"] for m in read("01-manufacturers.csv")} | {
            r["name"] for r in read("02-device-roles.csv")
        }
    assert len(cables) == sum(lk.multiplicity for lk in project.links.values())
    assert Counter(c["label"].split("/")[0] for c in cables) == {
        lk.id: lk.multiplicity for lk in project.links.values()
    }
    ports = Counter()
    for c in cables:
        for side in ("a", "b"):
            dev = devices[c[f"side_{side}_device"]]
            names = {i["name"] for i in types[dev["device_type"]].get("interfaces", [])}
            end = (c[f"side_{side}_device"], c[f"side_{side}_name"])
            assert end[1] in names or end in lanes, c
            ports[(c[f"side_{side}_device"], c[f"side_{side}_name"])] += 1
    assert max(ports.values()) == 1  # no port holds two cables


def test_cable_schedule_lists_every_cable_once(tmp_path, project):
    out = export("cables-csv", tmp_path / "cables.csv")
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 byte-order mark, for Excel
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    assert len(rows) == sum(lk.multiplicity for lk in project.links.values())
    assert Counter(r["link_id"] for r in rows) == {lk.id: lk.multiplicity for lk in project.links.values()}
    ends = Counter((r["a_device"], r["a_port"]) for r in rows) + Counter(
        (r["b_device"], r["b_port"]) for r in rows
    )
    assert max(ends.values()) == 1
    assert {r["medium"] for r in rows} <= {"dac", "acc", "aec", "aoc", "utp", "fiber-mmf", "fiber-smf"}
    assert all(float(r["length_m"]) > 0 for r in rows)


def test_bom_csv_adds_up_to_the_capex(tmp_path):
    out = export("bom-csv", tmp_path / "bom.csv")
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8 byte-order mark, for Excel
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    data = json.loads(run("analyze", str(SUPERPOD), "--json").stdout)
    lines, total = rows[:-1], rows[-1]
    assert total["category"] == "total" and float(total["amount"]) == pytest.approx(data["capex"])
    assert sum(float(r["amount"]) for r in lines) == pytest.approx(data["capex"], rel=1e-9)
    by_cat = Counter()
    for r in lines:
        by_cat[r["category"]] += float(r["amount"])
    for cat, amount in data["capex_by_category"].items():
        assert by_cat.get(cat, 0.0) == pytest.approx(amount, abs=0.01)


def test_json_is_analyze_json(tmp_path):
    exported = json.loads(export("json", tmp_path / "a.json").read_text())
    printed = json.loads(run("analyze", str(SUPERPOD), "--json").stdout)
    exported.pop("stage_ms"), printed.pop("stage_ms")
    assert exported == printed


def test_svg_topology_and_rack_parse_as_xml(tmp_path, project):
    root = ET.parse(export("svg", tmp_path / "topology.svg")).getroot()
    texts = {"".join(t.itertext()) for t in root.iter() if t.tag.endswith("text")}
    assert {"spine-01", "spine-16"} <= texts
    rack = next(r.name for r in project.racks.values())
    rack_root = ET.parse(export("svg", tmp_path / "rack.svg", "--rack", rack)).getroot()
    assert rack in {"".join(t.itertext()) for t in rack_root.iter() if t.tag.endswith("text")}


def test_png_topology_is_a_picture(tmp_path):
    with Image.open(export("png", tmp_path / "topology.png")) as img:
        assert img.format == "PNG" and img.width > 1000
        colours = img.convert("RGB").getcolors(maxcolors=1 << 20)
        assert len(colours) > 50  # lines, blocks and text, not a blank page


def test_export_errors_are_one_line(tmp_path):
    r = run(
        "export", str(SUPERPOD), "--format", "png", "--rack", "no-such-rack", "-o", str(tmp_path / "x.png")
    )
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no rack 'no-such-rack'" in r.stderr
    r = run("export", str(SUPERPOD), "--format", "slurm", "-o", str(tmp_path / "nodir" / "t.conf"))
    assert r.returncode == 2 and "does not exist" in r.stderr
    r = run("export", str(SUPERPOD), "--format", "visio", "-o", str(tmp_path / "x"))
    assert r.returncode == 2
