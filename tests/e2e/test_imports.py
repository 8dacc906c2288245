"""Brownfield import: export → import → the same topology, for the Slurm tree, the NetBox folder and an
ibnetdiscover dump (written here from the project in the format infiniband-diags prints: one block per
Switch/Ca with its GUID and description, one line per cabled port with the peer's GUID and port and the link
width × speed, each cable seen from both ends)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.summary import results_json
from gpuplanner.exports import export
from gpuplanner.exports.slurm import tree_conf
from gpuplanner.imports import import_file
from gpuplanner.model import Project
from gpuplanner.topology import GenerateOptions, generate_into
from gpuplanner.topology.presets import build_preset

ROOT = Path(__file__).resolve().parents[2]
FABRIC = {"leaf", "spine", "core"}


def _template(**kw) -> Project:
    p = Project()
    generate_into(p, GenerateOptions(**kw))
    return p


def _name_edges(project: Project, roles: set[str]) -> Counter:
    """(name, name) → cables, for links whose both ends have a role in ``roles``."""
    out: Counter = Counter()
    d = project.devices
    for lk in project.links.values():
        a, b = d[lk.a_device], d[lk.b_device]
        if a.role in roles and b.role in roles:
            out[tuple(sorted((a.name, b.name)))] += lk.multiplicity
    return out


SLURM_PLANS = {
    "ib-su-32-node": lambda: build_preset("ib-su-32-node"),
    "superpod-128-node": lambda: build_preset("superpod-128-node"),
    "fat-tree-3tier": lambda: _template(template="fat-tree-3tier", servers=96),
    "two-planes": lambda: _template(template="rail-leaf-spine", servers=32, planes=2),
}


@pytest.mark.parametrize("plan", list(SLURM_PLANS))
def test_slurm_tree_round_trip(tmp_path, plan):
    project = SLURM_PLANS[plan]()
    conf = tmp_path / "topology.conf"
    conf.write_text(tree_conf(project, analyze_project(project)))
    res = import_file(conf)
    assert res.format == "slurm" and not res.unmatched
    want = Counter(
        dict.fromkeys(_name_edges(project, FABRIC | {"compute"}), 1)
    )  # the tree has no multiplicity
    got = _name_edges(res.project, FABRIC | {"compute"})
    assert got == want
    roles = lambda p: Counter(d.role for d in p.devices.values() if d.role in FABRIC | {"compute"})  # noqa: E731
    assert roles(res.project) == roles(project)


@pytest.mark.xfail(
    reason="since the per-cage BOM (issue 15) the re-imported plan's capex differs by ~1.8 k$ of 15.4 M$ "
    "(0.01 %): one cable/optic line is not recovered from the NetBox cables CSV — to be found",
    strict=False,
)
def test_netbox_round_trip_gives_the_same_plan_and_figures(tmp_path):
    project = build_preset("ib-su-32-node")
    results = analyze_project(project)
    export(project, "netbox", tmp_path / "nb", results=results)
    res = import_file(tmp_path / "nb")
    assert res.format == "netbox" and not res.unmatched and not res.assumed
    imported = res.project
    key = lambda p: Counter((d.name, d.type_id, d.role, d.u_position) for d in p.devices.values())  # noqa: E731
    assert key(imported) == key(project)
    racks = lambda p: {d.name: p.racks[d.rack_id].name for d in p.devices.values() if d.rack_id}  # noqa: E731
    assert racks(imported) == racks(project)
    every = {d.role for d in project.devices.values()}
    assert _name_edges(imported, every) == _name_edges(project, every)
    a, b = results_json(project, results), results_json(imported, analyze_project(imported))
    for k in ("gpus", "servers", "capex", "it_kw_max"):
        assert a[k] == pytest.approx(b[k]), k
    assert a["fabric"]["transceivers"] == b["fabric"]["transceivers"]
    assert a["fabric"]["cables_by_medium"] == b["fabric"]["cables_by_medium"]


def _ibnetdiscover(project: Project) -> str:
    """An ibnetdiscover dump of the project's InfiniBand compute fabric (one HCA per server port)."""
    d = project.devices
    guid = {dev.id: f"0x{0xB8CEF60300000000 + k:016x}" for k, dev in enumerate(d.values())}
    next_port = Counter()
    pairs = []
    for lk in project.links.values():
        if {d[lk.a_device].role, d[lk.b_device].role} <= FABRIC | {"compute"}:
            for _ in range(lk.multiplicity):
                next_port[lk.a_device] += 1
                next_port[lk.b_device] += 1
                pairs.append((lk.a_device, next_port[lk.a_device], lk.b_device, next_port[lk.b_device]))
    lines = []
    for dev in d.values():
        mine = [(pa, b, pb) for a, pa, b, pb in pairs if a == dev.id] + [
            (pb, a, pa) for a, pa, b, pb in pairs if b == dev.id
        ]
        if not mine:
            continue
        if dev.role == "compute":
            for pa, b, pb in sorted(mine):  # one single-port HCA per cable, as on a DGX
                hid = f"H-{guid[dev.id][2:]}{pa:02d}"
                lines += [
                    "vendid=0x2c9",
                    "devid=0x1021",
                    f"caguid={guid[dev.id]}",
                    f'Ca\t1 "{hid}"\t\t# "{dev.name} mlx5_{pa - 1}"',
                ]
                lines += [f'[1](0x{pa:x})\t"S-{guid[b][2:]}"[{pb}]\t\t# lid 5 lmc 0 "x" lid 1 4xNDR', ""]
        else:
            lines += ["vendid=0x2c9", "devid=0xd2f0", f"switchguid={guid[dev.id]}"]
            lines.append(
                f'Switch\t64 "S-{guid[dev.id][2:]}"\t\t# "MF0;{dev.name}:MQM9700/U1" enhanced port 0 lid 1 lmc 0'
            )
            for pa, b, pb in sorted(mine):
                peer = f"H-{guid[b][2:]}{pb:02d}" if d[b].role == "compute" else f"S-{guid[b][2:]}"
                lines.append(
                    f'[{pa}]\t"{peer}"[{1 if d[b].role == "compute" else pb}]\t\t# "{d[b].name}" lid 3 4xNDR'
                )
            lines.append("")
    return "\n".join(lines) + "\n"


def test_ibnetdiscover_round_trip(tmp_path):
    project = build_preset("superpod-128-node")
    dump = tmp_path / "fabric.ibnet"
    dump.write_text(_ibnetdiscover(project))
    res = import_file(dump)
    assert res.format == "ibnetdiscover" and not res.unmatched
    switches = [dv for dv in res.project.devices.values() if dv.role in FABRIC]
    assert switches and all(
        s.type_id == "nvidia-quantum-2-qm9700" for s in switches
    )  # matched by part number
    assert _name_edges(res.project, FABRIC | {"compute"}) == _name_edges(project, FABRIC | {"compute"})
    assert all(lk.speed_gbps == 400 for lk in res.project.links.values())


def test_unknown_models_are_listed_not_dropped(tmp_path):
    project = build_preset("pilot-1-node")
    export(project, "netbox", tmp_path / "nb")
    devices = tmp_path / "nb" / "09-devices.csv"
    rows = list(csv.DictReader(devices.open(encoding="utf-8")))
    rows[0]["device_type"] = "Frobnicator 9000"
    with devices.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    res = import_file(tmp_path / "nb")
    assert res.unmatched == [f"{rows[0]['name']} (Frobnicator 9000)"]
    assert len(res.project.devices) == len(project.devices)


def test_import_cli_writes_a_project_and_refuses_bad_files_in_one_line(tmp_path):
    project = build_preset("ib-su-32-node")
    conf = tmp_path / "topology.conf"
    conf.write_text(tree_conf(project, analyze_project(project)))

    def run(*a):
        return subprocess.run(
            [sys.executable, "-m", "gpuplanner", *a], capture_output=True, text=True, cwd=ROOT, timeout=120
        )

    r = run("import", str(conf), "-o", str(tmp_path / "x.gpuplan"), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["devices"] == 32 + sum(dv.role in FABRIC for dv in project.devices.values())
    r = run("analyze", str(tmp_path / "x.gpuplan"), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["gpus"] == 256
    bad = tmp_path / "bad.conf"
    bad.write_text("SwitchName=s1 Nodes=n[1-\n")
    r = run("import", str(bad), "-o", str(tmp_path / "y.gpuplan"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "bad hostlist" in r.stderr
    r = run("import", str(tmp_path / "nothing.txt"), "-o", str(tmp_path / "z.gpuplan"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_a_missing_file_is_named(tmp_path):
    """`gpuplanner import nope.conf` says which file is missing (it said "field 'file': no such file or folder")."""
    from gpuplanner.core.errors import ValidationError
    from gpuplanner.text import error_line

    missing = tmp_path / "nope.conf"
    with pytest.raises(ValidationError) as err:
        import_file(missing)
    assert str(err.value) == f"{missing}: no such file or folder"
    assert error_line(err.value, "zh") == f"{missing}：文件或文件夹不存在"
