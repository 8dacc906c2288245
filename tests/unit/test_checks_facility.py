"""Facility findings: each rule has a plan that triggers it and one that does not."""

from __future__ import annotations

import dataclasses
import re

import pytest

from gpuplanner.catalog.loader import load_catalog
from gpuplanner.catalog.names import local_name
from gpuplanner.commands import AddRows, SetFields, UndoStack
from gpuplanner.engine.checks.facility import facility_findings, u_space_problems
from gpuplanner.engine.compiled import compile_project
from gpuplanner.engine.facility.cost import compute_cost
from gpuplanner.engine.facility.power import compute_power
from gpuplanner.engine.facility.thermal import compute_thermal
from gpuplanner.model import Device, Project, Rack
from gpuplanner.text.findings_facility import FINDINGS_FACILITY

DGX = "nvidia-dgx-h100"  # 8U, 10.2 kW max
HD_RACK = "generic-48u-600x1200-hd"  # 48U, 40 kW budget, 2 × 43.6 kW PDUs
CJK = re.compile(r"[\u4e00-\u9fff]")


def build(n=0, u=None, cooling="", budget=None, catalog=None, type_id=DGX, site=None) -> Project:
    p = Project(catalog)
    stack = UndoStack(p)
    stack.push(
        AddRows(
            "racks", [Rack(id="r0", name="R0", type_id=HD_RACK, cooling_id=cooling, power_budget_kw=budget)]
        )
    )
    us = u or [None] * n
    if us:
        stack.push(
            AddRows(
                "devices",
                [
                    Device(id=f"d{i}", name=f"n{i}", type_id=type_id, rack_id="r0", u_position=x)
                    for i, x in enumerate(us)
                ],
            )
        )
    if site:
        stack.push(SetFields(p, "site", "site", **site))
    return p


def findings(p: Project, bom=None, rule: str | None = None):
    c = compile_project(p)
    power = compute_power(c, p.site.load_factor)
    th = compute_thermal(c, power, p.site, p.catalog)
    cost = compute_cost(c, power, th, p.site, p.info, p.catalog, bom=bom)
    out = facility_findings(c, power, th, cost, p.site)
    for f in out:  # every sentence renders fully in both languages
        for lang in ("en", "zh"):
            assert "{" not in f.message(lang) and "{" not in f.fix(lang)
    return [f for f in out if rule is None or f.rule == rule]


def test_every_rule_has_en_and_zh():
    for msg_id, (en, zh) in FINDINGS_FACILITY.items():
        assert en and zh, msg_id


def test_rack_over_power_budget():
    hot = findings(build(4, budget=20.0), rule="rack-over-power-budget")  # 26 kW at load > 20 kW
    assert [(f.severity, f.items) for f in hot] == [("error", ("r0",))]
    assert hot[0].params["budget_kw"] == 20.0
    warm = findings(build(4), rule="rack-over-power-budget")  # 26 kW at load, 40.8 kW at max > 40 kW
    assert [f.severity for f in warm] == ["warning"]
    assert findings(build(3), rule="rack-over-power-budget") == []


def test_rack_over_u_budget_overlap_top_and_total():
    overlap = findings(build(u=[1, 5]), rule="rack-over-u-budget")  # 8U at U1 and U5
    assert overlap[0].items == ("r0", "d1") and overlap[0].params["overlap"] == ["n1"]
    top = findings(build(u=[45]), rule="rack-over-u-budget")  # U45–52 in a 48U rack
    assert top[0].params["beyond"] == ["n0"]
    total = findings(build(7), rule="rack-over-u-budget")  # 56U unplaced in 48U
    assert total[0].params["ru_used"] == 56
    assert findings(build(u=[1, 9, 17, 25]), rule="rack-over-u-budget") == []


def test_u_overlap_finds_a_device_inside_a_tall_one():
    p = build(u=[1])  # DGX at U1–8
    switches = [
        Device(id=f"s{i}", name=f"s{i}", type_id="nvidia-quantum-2-qm9700", rack_id="r0", u_position=u)
        for i, u in enumerate((2, 5, 20))
    ]
    UndoStack(p).push(AddRows("devices", switches))
    c = compile_project(p)
    _, _, overlap = u_space_problems(c, c.devices.rack)
    # U5 overlaps the DGX, not its neighbour at U2: the running top must remember the tall box.
    assert list(overlap) == [False, True, True, False]


def _names_in_both_languages(f, key, entry, cat, with_figures=True):
    """The finding names ``entry`` (its ``key`` parameter) in each language's words, in the sentences and in
    ``to_json``: the catalog's English name in English, the report's Chinese name in Chinese."""
    en, zh = entry.name, local_name(entry, cat, "zh", with_figures)
    assert CJK.search(zh) and zh != en
    said = {"en": f.message("en") + f.fix("en"), "zh": f.message("zh") + f.fix("zh")}
    assert en in said["en"] and zh not in said["en"]
    assert zh in said["zh"] and en not in said["zh"]
    assert f.to_json("en")["params"][key] == en and f.to_json("zh")["params"][key] == zh
    assert f.to_json("zh")["params"][f"{key}_id"] == entry.id  # the id stays in the JSON


def test_cooling_cannot_take_load():
    bad = findings(build(2, cooling="generic-air-crah-open"), rule="cooling-cannot-take-load")
    assert bad[0].items == ("r0",) and bad[0].params["suggestion_id"] == "generic-air-contained-aisle"
    assert bad[0].params["cooling_id"] == "generic-air-crah-open"
    cat = load_catalog(include_user=False)
    for key in ("cooling", "suggestion"):  # the sentence gives the kW: the Chinese name leaves it out
        _names_in_both_languages(
            bad[0], key, cat.entries[bad[0].params[f"{key}_id"]], cat, with_figures=False
        )
    assert "开放式风冷的单柜散热能力（10.0 kW）" in bad[0].message("zh")
    assert "改用封闭通道风冷（单柜最高 25.0 kW）" in bad[0].fix("zh")
    assert "generic-" not in bad[0].message("zh") + bad[0].fix("zh") + bad[0].message("en") + bad[0].fix("en")
    assert findings(build(2), rule="cooling-cannot-take-load") == []


def test_cooling_not_in_catalog():
    bad = findings(build(1, cooling="made-up"), rule="cooling-not-in-catalog")
    assert bad[0].items == ("r0",)
    # the id as written (no entry to name) and the cooling chosen instead, named in each language
    assert "'made-up'" in bad[0].message("en") and "“made-up”" in bad[0].message("zh")
    cat = load_catalog(include_user=False)
    _names_in_both_languages(bad[0], "chosen", cat.entries[bad[0].params["chosen_id"]], cat)
    assert findings(build(1), rule="cooling-not-in-catalog") == []


def test_psu_redundancy_not_met():
    cat = load_catalog(include_user=False)
    cat.add_entries([dataclasses.replace(cat.entries[DGX], id="test-dgx-weak-psu", psu_rating_w=2000.0)])
    weak = findings(build(2, catalog=cat, type_id="test-dgx-weak-psu"), rule="psu-redundancy-not-met")
    assert len(weak) == 1 and weak[0].items == ("d0", "d1") and weak[0].params["capacity_w"] == 8000.0
    _names_in_both_languages(weak[0], "type", cat.entries["test-dgx-weak-psu"], cat)
    assert weak[0].message("zh").startswith("2 台 GPU 服务器 DGX H100（8 × H100 SXM5 80GB）：")
    assert weak[0].message("en").startswith("2 × NVIDIA DGX H100: ")
    assert findings(build(2), rule="psu-redundancy-not-met") == []


def test_feed_redundancy_not_met():
    bad = findings(build(5), rule="feed-redundancy-not-met")  # 51 kW; one 43.6 kW PDU left
    assert bad[0].items == ("r0",) and bad[0].params["need_kw"] == pytest.approx(51.0)
    assert findings(build(4), rule="feed-redundancy-not-met") == []


def test_facility_feed_exceeded():
    assert findings(build(4, site={"utility_kw_available": 50.0}), rule="facility-feed-exceeded")
    assert findings(build(4, site={"utility_kw_available": 100.0}), rule="facility-feed-exceeded") == []
    assert findings(build(4), rule="facility-feed-exceeded") == []  # 0 = not stated


def test_pue_above_target():
    hi = findings(build(1, cooling="generic-air-crah-open"), rule="pue-above-target")
    assert hi[0].params == {"pue": 1.58, "target": 1.3}
    assert findings(build(1, cooling="generic-cold-plate-dlc-cdu"), rule="pue-above-target") == []


def test_prices_missing():
    info = findings(build(1), bom={"no-such-optic": 2}, rule="prices-missing")
    assert info[0].severity == "info" and info[0].items == ("no-such-optic",)
    assert "no-such-optic" in info[0].message("zh")
    assert findings(build(1), bom={"nvidia-mfp7e10-nxxx": 2}, rule="prices-missing") == []


def test_prices_missing_names_each_part_with_its_id():
    """A catalog entry without a price is named in the sentence's language, with the id a price list is keyed
    by (the reader types it there)."""
    cat = load_catalog(include_user=False)
    optic = dataclasses.replace(cat.entries["nvidia-mfp7e10-nxxx"], id="test-optic-no-price")
    cat.add_entries([optic])
    info = findings(build(1, catalog=cat), bom={"test-optic-no-price": 2}, rule="prices-missing")
    assert info[0].items == ("test-optic-no-price",) and info[0].params["ids"] == ["test-optic-no-price"]
    zh_name = local_name(optic, cat, "zh")
    assert CJK.search(zh_name)
    assert f"{optic.name} (test-optic-no-price)" in info[0].message("en")
    assert f"{zh_name}（test-optic-no-price）" in info[0].message("zh") and optic.name not in info[0].message(
        "zh"
    )
    assert info[0].to_json("zh")["params"]["parts"] == [f"{zh_name}（test-optic-no-price）"]
