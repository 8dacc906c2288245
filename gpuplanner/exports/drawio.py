"""draw.io (diagrams.net) file of the topology as laid out on the canvas: the same positions (WYSIWYG), racks as
containers holding the devices framed in them, every cable a separate edge (a link of multiplicity m, e.g. 8
rails, gives m edges) coloured by the link's utilisation bucket, with the port name at each end as an edge
label — the things NetBox's topology-views export is criticised for lacking.

Geometry follows ``gpuplanner/ui/canvas/geometry.py`` (a device's (x, y) is its top-left corner, a rack's
(x, y) the top-left of its frame, ``U_PX`` per U; tests/e2e/test_diagrams.py checks the constants agree).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np

from gpuplanner.catalog.types import RackType, ServerType, StorageType, SwitchType
from gpuplanner.exports.ports import cables
from gpuplanner.topology.placement import U_PX

RACK_W, RACK_HEADER_H, FRAME_INSET = 130.0, 40.0, 8.0  # ui/canvas/geometry.py
FRAMED_W = RACK_W - 2 * FRAME_INSET
FREE_SWITCH_W, FREE_SWITCH_H, FREE_SERVER_MIN_H = 100.0, 28.0, 30.0
# Utilisation buckets and colours of the canvas (ui/theme.py): upper edges of buckets 1..4.
UTIL_EDGES = np.array([0.25, 0.5, 0.75, 0.9])
BUCKET_COLOURS = ("#969CA6", "#2EA043", "#9ABE28", "#E8A014", "#E66414", "#D72828")
BUCKET_LABELS = ("no traffic", "< 25 %", "25–50 %", "50–75 %", "75–90 %", "≥ 90 % (bottleneck)")
ROLE_FILL = {"compute": "#DAE8FC", "leaf": "#D5E8D4", "spine": "#B9E0A5", "core": "#97D077", "storage": "#FFE6CC",
             "storage-switch": "#FFCC99", "management": "#E1D5E7"}  # fmt: skip
_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(s: str) -> str:
    return _XML_INVALID.sub(" ", str(s))


def util_buckets(util: np.ndarray) -> np.ndarray:
    u = np.nan_to_num(np.asarray(util, dtype=np.float64), nan=0.0)
    out = np.searchsorted(UTIL_EDGES, u, side="right") + 1
    out[u <= 0.0] = 0
    return out


def _ru(project, type_id: str) -> int:
    return int(getattr(project.catalog.entries.get(type_id), "ru", 1) or 1)


def _rack_ru(project, rack) -> int:
    t = project.catalog.entries.get(rack.type_id)
    return int(t.ru) if isinstance(t, RackType) else 42


def _framed(project, dev) -> bool:
    rack = project.racks.get(dev.rack_id) if dev.rack_id else None
    if rack is None:
        return False
    cx = dev.x + FRAMED_W / 2
    cy = dev.y + _ru(project, dev.type_id) * U_PX / 2
    return rack.x <= cx <= rack.x + RACK_W and rack.y <= cy <= rack.y + _rack_ru(project, rack) * U_PX


def _size(project, dev, framed: bool) -> tuple[float, float]:
    ru = _ru(project, dev.type_id)
    if framed:
        return FRAMED_W, ru * U_PX
    e = project.catalog.entries.get(dev.type_id)
    if isinstance(e, ServerType):
        return FRAMED_W, max(ru * U_PX, FREE_SERVER_MIN_H)
    if isinstance(e, SwitchType | StorageType):
        return FREE_SWITCH_W, FREE_SWITCH_H
    return FREE_SWITCH_W, FREE_SWITCH_H


def _cell(root, cid: str, value: str = "", style: str = "", parent: str = "1", **attrs) -> ET.Element:
    el = ET.SubElement(root, "mxCell", {"id": cid, "value": _text(value), "style": style, "parent": parent})
    for k, v in attrs.items():
        el.set(k, str(v))
    return el


def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def _geometry(cell, x: float, y: float, w: float, h: float) -> None:
    ET.SubElement(
        cell, "mxGeometry", {"x": _n(x), "y": _n(y), "width": _n(w), "height": _n(h), "as": "geometry"}
    )


def _end_label(root, cid: str, edge: str, text: str, x: float) -> None:
    """A label riding on an edge near one end (draw.io's own form: a child vertex, relative geometry)."""
    c = _cell(
        root,
        cid,
        text,
        "edgeLabel;html=0;fontSize=8;labelBackgroundColor=#FFFFFF;",
        edge,
        vertex="1",
        connectable="0",
    )
    g = ET.SubElement(c, "mxGeometry", {"x": f"{x:g}", "relative": "1", "as": "geometry"})
    ET.SubElement(g, "mxPoint", {"as": "offset"})


def drawio_xml(project, results) -> str:
    """The mxfile text: one page, the canvas as drawn."""
    mxfile = ET.Element("mxfile", {"host": "gpuplanner", "type": "device"})
    diagram = ET.SubElement(mxfile, "diagram", {"id": "topology", "name": "Topology"})
    model = ET.SubElement(diagram, "mxGraphModel", {"grid": "1", "gridSize": "10", "page": "0", "math": "0"})
    root = ET.SubElement(model, "root")
    ET.SubElement(root, "mxCell", {"id": "0"})
    ET.SubElement(root, "mxCell", {"id": "1", "parent": "0"})
    rack_origin: dict[str, tuple[float, float]] = {}
    for r in project.racks.values():
        ru = _rack_ru(project, r)
        x, y = r.x, r.y - RACK_HEADER_H
        c = _cell(
            root, f"rack:{r.id}", r.name,
            f"swimlane;container=1;collapsible=0;startSize={RACK_HEADER_H:g};fillColor=#F5F5F5;strokeColor=#666666;",
            vertex="1",
        )  # fmt: skip
        _geometry(c, x, y, RACK_W, ru * U_PX + RACK_HEADER_H)
        rack_origin[r.id] = (x, y)
    for d in project.devices.values():
        framed = _framed(project, d)
        w, h = _size(project, d, framed)
        fill = ROLE_FILL.get(d.role, "#F5F5F5")
        style = f"rounded=0;whiteSpace=wrap;html=0;fontSize=9;fillColor={fill};strokeColor=#333333;"
        if framed:
            ox, oy = rack_origin[d.rack_id]
            c = _cell(root, f"dev:{d.id}", d.name, style, f"rack:{d.rack_id}", vertex="1")
            _geometry(c, d.x - ox, d.y - oy, w, h)
        else:
            c = _cell(root, f"dev:{d.id}", d.name, style, vertex="1")
            _geometry(c, d.x, d.y, w, h)
    lk = results.compiled.links
    bucket = util_buckets(results.link_util)
    util = np.nan_to_num(results.link_util)
    for cb in cables(project, results):
        i = cb.link_row
        lid = lk.ids[i]
        link = project.links[lid]
        eid = f"cable:{lid}/{cb.index}"
        colour = BUCKET_COLOURS[int(bucket[i])]
        width = 3 if bucket[i] == 5 else 1
        e = _cell(
            root, eid, "", f"endArrow=none;html=0;strokeColor={colour};strokeWidth={width};",
            edge="1", source=f"dev:{link.a_device}", target=f"dev:{link.b_device}",
        )  # fmt: skip
        ET.SubElement(e, "mxGeometry", {"relative": "1", "as": "geometry"})
        _end_label(root, f"{eid}:a", eid, cb.a_port, -0.8)
        _end_label(root, f"{eid}:b", eid, cb.b_port, 0.8)
        if cb.index == 1 and util[i] > 0:  # the link's utilisation, once, mid-edge
            _end_label(root, f"{eid}:u", eid, f"{util[i] * 100:.0f} %", 0.0)
    _legend(root, project)
    ET.indent(mxfile, space=" ")
    return ET.tostring(mxfile, encoding="unicode", xml_declaration=False) + "\n"


def _legend(root, project) -> None:
    xs = [d.x for d in project.devices.values()] or [0.0]
    ys = [d.y for d in project.devices.values()] or [0.0]
    x0, y0 = min(xs), min(ys) - 80 - RACK_HEADER_H
    for k, (colour, label) in enumerate(zip(BUCKET_COLOURS, BUCKET_LABELS, strict=True)):
        c = _cell(
            root, f"legend:{k}", label, f"text;html=0;fontSize=9;fontColor={colour};fontStyle=1;", vertex="1"
        )
        _geometry(c, x0 + k * 110, y0, 105, 20)
