"""NetBox names: ASCII slugs from Chinese names (pinyin), manufacturer/model/slug and interface names of the
community devicetype-library for the models it has (checked against device-types/Nvidia/{QM9700,SN5600,
SN2201}.yaml — only those names are used here), power ports, panels and feeds; and `catalog import-netbox`
keeping interface names, inferring the kind, refusing fields it cannot map."""

from __future__ import annotations

import csv
import dataclasses
import io
import re

import pytest
import yaml

from gpuplanner.catalog.netbox import convert
from gpuplanner.core.errors import CatalogError
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.exports.netbox import netbox_files
from gpuplanner.topology.presets import build_preset

SLUG = re.compile(r"^[a-z0-9-]+$")


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def files():
    project = build_preset("superpod-128-node")
    return project, netbox_files(project, analyze_project(project))


def test_library_names_for_the_models_it_has(files):
    project, f = files
    assert {"name": "Nvidia", "slug": "nvidia"} in _rows(f["01-manufacturers.csv"])
    types = {t["slug"]: t for t in yaml.safe_load_all(f["03-device-types.yaml"])}
    qm = types["nvidia-qm9700"]
    assert (qm["manufacturer"], qm["model"]) == ("Nvidia", "QM9700")
    names = [i["name"] for i in qm["interfaces"] if i["type"] == "infiniband-ndr"]
    assert names[:3] == ["P0.0", "P0.1", "P1.0"] and names[-1] == "P31.1" and len(set(names)) == 64
    sn = types["nvidia-sn5600"]
    assert [i["name"] for i in sn["interfaces"]][:2] == ["swp1", "swp2"]
    assert "eth0" in {i["name"] for i in sn["interfaces"]}
    # cables end on those names
    cables = _rows(f["11-cables.csv"])
    leaf_ends = {c["side_b_name"] for c in cables if "leaf" in c["side_b_device"]}
    assert leaf_ends and all(re.fullmatch(r"(P\d+\.[01]|swp\d+)(s\d)?|eth0", n) for n in leaf_ends)


def test_power_ports_panels_and_feeds(files):
    project, f = files
    types = list(yaml.safe_load_all(f["03-device-types.yaml"]))
    dgx = next(t for t in types if t["model"] == "DGX H100")
    e = project.catalog.entries["nvidia-dgx-h100"]
    assert [p["name"] for p in dgx["power-ports"]] == [f"PSU{k}" for k in range(1, e.psu_count + 1)]
    assert all(
        p["maximum_draw"] == e.psu_rating_w and p["allocated_draw"] <= p["maximum_draw"]
        for p in dgx["power-ports"]
    )
    assert sum(p["allocated_draw"] for p in dgx["power-ports"]) >= e.power_typical_w
    panels = _rows(f["07-power-panels.csv"])
    feeds = _rows(f["08-power-feeds.csv"])
    racks = _rows(f["06-racks.csv"])
    assert {p["name"] for p in panels} == {f"Panel {r['location']}" for r in racks}
    per_rack = {r["name"]: 0 for r in racks}
    for fd in feeds:
        per_rack[fd["rack"]] += 1
        assert fd["power_panel"] == f"Panel {fd['location']}" and fd["phase"] in (
            "single-phase",
            "three-phase",
        )
    for r in project.racks.values():
        assert per_rack[r.name] == project.catalog.entries[r.type_id].pdu_count


def test_chinese_names_give_distinct_ascii_slugs():
    slugs = []
    for name in ("上海集群", "北京集群"):
        project = build_preset("pilot-1-node", lang="zh")
        project.tables["project"]["project"] = dataclasses.replace(project.info, name=name)
        f = netbox_files(project, analyze_project(project))
        slugs.append(_rows(f["04-sites.csv"])[0]["slug"])
        for fname, text in f.items():
            if fname.endswith(".csv"):
                for row in _rows(text):
                    if "slug" in row:
                        assert SLUG.match(row["slug"]), (fname, row)
    assert slugs == ["shang-hai-ji-qun", "bei-jing-ji-qun"]


def _quantum_type() -> dict:
    """A QM9700 device type shaped like the library's (interfaces P<cage>.<port>, typed 400gbase-x-osfp)."""
    return {
        "manufacturer": "Nvidia", "model": "QM9700", "slug": "nvidia-qm9700", "u_height": 1,
        "power-ports": [{"name": "PSU1", "maximum_draw": 1720}, {"name": "PSU2", "maximum_draw": 1720}],
        "interfaces": [{"name": f"P{c}.{k}", "type": "400gbase-x-osfp"} for c in range(32) for k in range(2)],
    }  # fmt: skip


def test_import_netbox_keeps_interface_names_and_reads_quantum_as_infiniband():
    from gpuplanner.catalog.types import PortGroup

    entry = convert(_quantum_type(), "QM9700.yaml")
    assert entry["kind"] == "switch" and entry["technology"] == "infiniband"
    pg = PortGroup(**entry["port_groups"][0])
    assert [pg.port_name(i) for i in (1, 2, 64)] == ["P0.0", "P0.1", "P31.1"]


def test_import_netbox_reads_our_own_export_back_with_the_same_interfaces(files):
    from gpuplanner.catalog.types import PortGroup

    _, f = files
    for t in yaml.safe_load_all(f["03-device-types.yaml"]):
        if not t.get("power-ports"):
            continue
        entry = convert(t, "export.yaml", gpu="nvidia-h100-sxm" if "DGX" in t["model"] else None, gpu_count=8)
        got = [PortGroup(**pg).port_name(i) for pg in entry["port_groups"] for i in range(1, pg["count"] + 1)]
        want = [i["name"] for i in t["interfaces"]]
        assert sorted(got) == sorted(want), t["model"]


def test_import_netbox_infers_a_gpu_server_from_the_file():
    dgx_like = {
        "manufacturer": "Nvidia", "model": "NVIDIA DGX A100 640GB", "u_height": 6,
        "comments": "GPUs: 8 NVIDIA A100 GPUs, 80GB of HBM2e",
        "power-ports": [{"name": f"Power Supply {k}", "maximum_draw": 1071} for k in (1, 2)],
        "interfaces": [{"name": f"Ethernet1/{n}", "type": "100gbase-x-qsfp28"} for n in range(1, 29)],
    }  # fmt: skip
    assert convert(dgx_like, "a100.yaml", gpu="nvidia-a100-sxm4-80gb", gpu_count=8)["kind"] == "server"


def test_import_netbox_refuses_fields_it_cannot_map_by_name():
    bad = {**_quantum_type(), "port_speed": "fast"}
    with pytest.raises(CatalogError) as exc:
        convert(bad, "bad.yaml")
    assert "port_speed" in str(exc.value) and "bad.yaml" in str(exc.value)
