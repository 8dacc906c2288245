"""The floor plan of the report: geometry from the engine's rack positions, aisles, unit loads, and a drawing
that fits the page for a 4-rack pilot and a ~140-rack, 1,024-GPU hall."""

from __future__ import annotations

import numpy as np
import pytest
from reportlab.graphics.shapes import Group, Rect, String

from gpuplanner.commands import AddRows
from gpuplanner.engine.analysis import analyze_project
from gpuplanner.engine.summary import results_json
from gpuplanner.model import AisleRow, FloorItem, Project
from gpuplanner.reports.drawings.floor import LABEL_SIZE, density_bucket, floor_drawing
from gpuplanner.reports.drawings.floor_model import build_floor_plan
from gpuplanner.reports.fonts import fonts_for
from gpuplanner.reports.styles import BOTTOM, MARGIN, PAGE, TOP
from gpuplanner.topology import GenerateOptions, generate_into

WIDTH, HEIGHT = PAGE[0] - 2 * MARGIN, PAGE[1] - TOP - BOTTOM - 118


def _project(servers: int, rack_kw: float, units: list[FloorItem], aisles: list[AisleRow] = ()) -> tuple:
    p = Project()
    generate_into(p, GenerateOptions(servers=servers, su_size=32, rack_budget_kw=rack_kw))
    if units:
        AddRows("floor_items", units).apply(p)
    if aisles:
        AddRows("aisle_rows", list(aisles)).apply(p)
    res = analyze_project(p)
    return p, res, results_json(p, res)


@pytest.fixture(scope="module")
def pilot():
    units = [
        FloorItem(id="fi1", name="CRAH-1", kind="crah", x_m=-2.0, y_m=0.0, capacity_kw=60.0),
        FloorItem(id="fi2", name="Tiny PDU", kind="pdu", x_m=3.0, y_m=0.0, capacity_kw=5.0, row="R01"),
    ]
    return _project(2, 42, units, [AisleRow(id="R01", aisle="cold", contained=True)])


@pytest.fixture(scope="module")
def hall_1024():
    units = [
        FloorItem(id="fi1", name="Utility feed", kind="utility-feed", x_m=-3, y_m=-2, capacity_kw=2500.0)
    ]
    return _project(128, 12, units)


def _walk(node, dx=0.0, dy=0.0):
    """Every shape with its absolute offset (the drawing only translates or rotates text groups)."""
    for c in node.contents if hasattr(node, "contents") else []:
        if isinstance(c, Group):
            t = c.transform
            yield from _walk(c, dx + t[4], dy + t[5])
        else:
            yield c, dx, dy


def test_racks_sit_where_the_engine_puts_them_and_units_carry_the_engine_load(pilot):
    p, res, data = pilot
    plan = build_floor_plan(p, res, data["floor_units"])
    c = res.compiled
    assert [r.name for r in plan.racks] == c.racks.names
    assert np.allclose([r.x for r in plan.racks], c.racks.floor_x_m)
    assert np.allclose([r.y for r in plan.racks], c.racks.floor_y_m)
    assert [r.kw for r in plan.racks] == pytest.approx(res.power.rack_kw_max.tolist())
    loads = {u["name"]: (u["load_kw"], u["capacity_kw"]) for u in data["floor_units"]}
    assert {u.name: (u.load_kw, u.capacity_kw) for u in plan.units} == loads
    pdu = next(u for u in plan.units if u.name == "Tiny PDU")
    assert pdu.overloaded and not next(u for u in plan.units if u.name == "CRAH-1").overloaded
    # every row faces the aisle before it; R01's is the contained cold aisle
    first = next(r for r in plan.rows if r.label == "R01")
    faced = {a.y1: a for a in plan.aisles}
    assert len(plan.aisles) == len(plan.rows) and faced[first.y0].kind == "cold" and faced[first.y0].contained
    assert not any(a.contained for a in plan.aisles if a is not faced[first.y0])


def test_density_buckets():
    assert [density_bucket(kw) for kw in (0.5, 10, 10.1, 25, 41, 75, 130)] == [0, 0, 1, 1, 2, 3, 4]


def _check_fits(drawn) -> list[String]:
    d = drawn.drawing
    assert d.width <= WIDTH + 1e-6 and d.height <= HEIGHT + 1e-6
    strings = []
    for shape, dx, dy in _walk(d):
        if isinstance(shape, Rect):
            assert shape.x + dx >= -6 and shape.x + dx + shape.width <= d.width + 6
            assert shape.y + dy >= -6 and shape.y + dy + shape.height <= d.height + 6
        if isinstance(shape, String):
            assert shape.fontSize >= LABEL_SIZE
            strings.append(shape)
    return strings


def test_pilot_plan_labels_every_rack_and_unit(pilot):
    p, res, data = pilot
    drawn = floor_drawing(build_floor_plan(p, res, data["floor_units"]), WIDTH, HEIGHT, fonts_for("en"), "en")
    texts = {s.text for s in _check_fits(drawn)}
    assert not drawn.rack_labels_omitted
    assert set(res.compiled.racks.names) <= texts
    for u in data["floor_units"]:
        assert f"{u['load_kw']:,.1f} / {u['capacity_kw']:,.1f} kW" in texts
    red = [s for s, _, _ in _walk(drawn.drawing) if isinstance(s, Rect) and s.fillColor is not None]
    assert any(r.fillColor.hexval() == "0xc62828" for r in red)  # the overloaded PDU


def test_1024_gpu_hall_fits_the_page_without_tiny_labels(hall_1024):
    p, res, data = hall_1024
    plan = build_floor_plan(p, res, data["floor_units"])
    assert len(plan.racks) >= 130
    drawn = floor_drawing(plan, WIDTH, HEIGHT, fonts_for("zh"), "zh")
    texts = {s.text for s in _check_fits(drawn)}
    assert drawn.scale_pt_per_m >= 8  # a 0.6 m rack is at least ~5 points wide
    assert drawn.rack_labels_omitted and not set(res.compiled.racks.names) & texts
    assert {r.label for r in plan.rows} <= texts  # rows stay labelled
    assert "冷通道" in texts and any(t.endswith("米") for t in texts)  # legend and scale bar in Chinese
