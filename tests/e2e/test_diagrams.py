"""draw.io and GraphML exports read back: the mxfile parsed as XML (what draw.io loads), the GraphML by
networkx, both compared with the project (devices, links, cables, positions) and the canvas's own geometry and
colour buckets (ui/canvas/geometry.py, ui/theme.py)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.exports import drawio
from gpuplanner.exports.ports import cables
from gpuplanner.storage import open_project, save_project
from gpuplanner.topology.presets import build_preset

ROOT = Path(__file__).resolve().parents[2]
SUPERPOD = ROOT / "examples" / "superpod-1024-h100.gpuplan"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


@pytest.fixture(scope="module")
def superpod(tmp_path_factory):
    folder = tmp_path_factory.mktemp("diagrams")
    for fmt, name in (("drawio", "t.drawio"), ("graphml", "t.graphml")):
        r = run("export", str(SUPERPOD), "-f", fmt, "-o", str(folder / name))
        assert r.returncode == 0, r.stderr
    project = open_project(SUPERPOD)
    return folder, project, analyze_project(project)


def _cells(path: Path) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == "mxfile" and root.find("diagram/mxGraphModel/root") is not None
    return {c.get("id"): c for c in root.iter("mxCell")}


def _abs(cells, cid: str) -> tuple[float, float]:
    g = cells[cid].find("mxGeometry")
    x, y = float(g.get("x", 0)), float(g.get("y", 0))
    parent = cells[cid].get("parent")
    if parent not in ("0", "1"):
        px, py = _abs(cells, parent)
        x, y = x + px, y + py
    return x, y


def test_drawio_has_every_device_at_its_canvas_position_and_racks_as_containers(superpod):
    folder, project, _ = superpod
    cells = _cells(folder / "t.drawio")
    for r in project.racks.values():
        c = cells[f"rack:{r.id}"]
        assert "container=1" in c.get("style") and c.get("value") == r.name
    in_rack = 0
    for d in project.devices.values():
        c = cells[f"dev:{d.id}"]
        assert c.get("value") == d.name
        assert _abs(cells, f"dev:{d.id}") == pytest.approx((d.x, d.y), abs=0.001)  # WYSIWYG (to 1/1000 px)
        if c.get("parent").startswith("rack:"):
            assert c.get("parent") == f"rack:{d.rack_id}"
            in_rack += 1
    assert in_rack >= sum(d.role == "compute" for d in project.devices.values())  # every DGX in its rack


def test_drawio_has_one_edge_per_cable_with_port_labels_and_utilisation_colour(superpod):
    folder, project, results = superpod
    cells = _cells(folder / "t.drawio")
    edges = [c for c in cells.values() if c.get("edge") == "1"]
    assert len(edges) == sum(lk.multiplicity for lk in project.links.values())
    per_link = Counter(c.get("id").split(":", 1)[1].split("/")[0] for c in edges)
    assert per_link == {lk.id: lk.multiplicity for lk in project.links.values()}  # parallel rails separate
    expected = {
        f"cable:{results.compiled.links.ids[cb.link_row]}/{cb.index}": cb for cb in cables(project, results)
    }
    from gpuplanner.ui import theme  # the canvas's own buckets and colours

    buckets = theme.util_buckets(results.link_util)
    row = {lid: i for i, lid in enumerate(results.compiled.links.ids)}
    for e in edges:
        eid = e.get("id")
        link = project.links[eid.split(":", 1)[1].split("/")[0]]
        assert (e.get("source"), e.get("target")) == (f"dev:{link.a_device}", f"dev:{link.b_device}")
        assert cells[f"{eid}:a"].get("value") == expected[eid].a_port
        assert cells[f"{eid}:b"].get("value") == expected[eid].b_port
        assert cells[f"{eid}:a"].get("parent") == eid
        colour = theme.BUCKET_COLORS[int(buckets[row[link.id]])].name().upper()
        assert f"strokeColor={colour};" in e.get("style")
    assert len({e.get("style") for e in edges}) >= 2  # the superpod's links are not all one bucket


def test_drawio_constants_follow_the_canvas():
    from gpuplanner.ui import theme
    from gpuplanner.ui.canvas import geometry

    assert (drawio.RACK_W, drawio.RACK_HEADER_H, drawio.FRAME_INSET) == (
        geometry.RACK_W, geometry.RACK_HEADER_H, geometry.FRAME_INSET,
    )  # fmt: skip
    assert (drawio.FREE_SWITCH_W, drawio.FREE_SWITCH_H, drawio.FREE_SERVER_MIN_H) == (
        geometry.FREE_SWITCH_W, geometry.FREE_SWITCH_H, geometry.FREE_SERVER_MIN_H,
    )  # fmt: skip
    assert list(drawio.UTIL_EDGES) == list(theme.UTIL_EDGES)
    assert [c.upper() for c in drawio.BUCKET_COLOURS] == [c.name().upper() for c in theme.BUCKET_COLORS]
    u = np.array([0.0, 0.1, 0.3, 0.6, 0.8, 0.95, np.nan])
    assert drawio.util_buckets(u).tolist() == theme.util_buckets(u).tolist()


def test_graphml_reads_back_with_networkx(superpod):
    folder, project, _ = superpod
    g = nx.read_graphml(folder / "t.graphml", force_multigraph=True)
    assert g.number_of_nodes() == len(project.devices)
    assert g.number_of_edges() == len(project.links)
    assert sum(m for *_, m in g.edges(data="multiplicity")) == sum(
        lk.multiplicity for lk in project.links.values()
    )
    assert {d: g.nodes[d]["name"] for d in g} == {d.id: d.name for d in project.devices.values()}
    degree = Counter()
    for lk in project.links.values():
        degree[lk.a_device] += 1
        degree[lk.b_device] += 1
    assert {n: g.degree(n) for n in g} == {d: degree.get(d, 0) for d in project.devices}


def test_names_with_control_characters_still_give_well_formed_files(tmp_path):
    project = build_preset("ib-su-32-node")
    dev = next(d for d in project.devices.values() if d.role == "leaf")
    project.tables["devices"][dev.id] = dataclasses.replace(dev, name="leaf\x01\tone\n<b>&")
    src = save_project(project, tmp_path / "p.gpuplan")
    for fmt in ("drawio", "graphml", "svg", "png"):
        out = tmp_path / f"p.{fmt}"
        r = run("export", str(src), "-f", fmt, "-o", str(out))
        assert r.returncode == 0, (fmt, r.stderr)
        if fmt != "png":
            ET.parse(out)
    g = nx.read_graphml(tmp_path / "p.graphml")
    assert g.nodes[dev.id]["name"] == "leaf \tone\n<b>&"
