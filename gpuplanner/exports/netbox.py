"""NetBox bulk import: a folder of files in NetBox's import order — manufacturers, device roles, device types
(devicetype-library YAML with every interface and power port), site, locations (one per rack row), racks,
power panels (one per row) and feeds (A and B per rack, from the rack's PDU), devices with rack and U
position, breakout lanes, and cables with both terminations (device + interface).

Slugs are ASCII (Chinese names transliterated to pinyin); manufacturer, model and slug follow the community
devicetype-library where it has the model (``netbox_library``), so importing into a NetBox that loaded the
library finds the existing types. CSVs are UTF-8 without a byte-order mark: NetBox reads the header as is."""

from __future__ import annotations

import math
from pathlib import Path

import yaml

from gpuplanner.core.outfile import ExportError, csv_text, one_line, write_atomic
from gpuplanner.engine.compiled import ROLE_CODES
from gpuplanner.exports import netbox_library as lib
from gpuplanner.exports.names import slug
from gpuplanner.exports.ports import cables, interface_names

ROLE_NAMES = {v: k for k, v in ROLE_CODES.items()}

ROLE_COLOURS = {
    "compute": "2196f3", "leaf": "4caf50", "spine": "2e7d32", "core": "1b5e20", "storage": "ff9800",
    "storage-switch": "e65100", "management": "9c27b0", "other": "9e9e9e",
}  # fmt: skip
CABLE_TYPE = {"dac": "dac-passive", "acc": "dac-active", "aec": "dac-active", "aoc": "aoc", "utp": "cat6a",
              "fiber-mmf": "mmf-om4", "fiber-smf": "smf-os2"}  # fmt: skip
FILES = (
    "01-manufacturers.csv", "02-device-roles.csv", "03-device-types.yaml", "04-sites.csv", "05-locations.csv",
    "06-racks.csv", "07-power-panels.csv", "08-power-feeds.csv", "09-devices.csv", "10-breakout-interfaces.csv",
    "11-cables.csv",
)  # fmt: skip


def _csv(header: list[str], rows: list[list]) -> str:
    return csv_text(header, rows)


def _model(entry, tid: str) -> str:
    known = lib.model_and_slug(tid)
    if known:
        return known[0]
    return (entry.model or entry.name) if entry is not None else tid


def _type_slug(tid: str) -> str:
    known = lib.model_and_slug(tid)
    return known[1] if known else slug(tid)


def _vendor(entry) -> str:
    return lib.manufacturer(entry.vendor) if entry is not None else "Unknown"


def _power_ports(e) -> list[dict]:
    """One power port per PSU: maximum draw = the PSU's rating, allocated = typical draw shared by all PSUs."""
    n = int(getattr(e, "psu_count", 0) or 0)
    rating = float(getattr(e, "psu_rating_w", 0) or 0)
    typical = float(getattr(e, "power_typical_w", 0) or 0)
    if n <= 0 or rating <= 0:
        return []
    alloc = min(int(math.ceil(typical / n)), int(rating)) if typical > 0 else None
    return [
        {"name": f"PSU{k}", "maximum_draw": int(rating), **({"allocated_draw": alloc} if alloc else {})}
        for k in range(1, n + 1)
    ]


def device_types_yaml(project, results) -> str:
    docs = []
    for tid in sorted(set(results.compiled.devices.type_ids)):
        e = project.catalog.entries.get(tid)
        doc = {
            "manufacturer": _vendor(e),
            "model": _model(e, tid),
            "slug": _type_slug(tid),
            "u_height": int(getattr(e, "ru", 1) or 1),
            "is_full_depth": True,
        }
        roles = {pg.name: pg.role for pg in getattr(e, "port_groups", ()) or ()}
        types = {pg.name: pg.type for pg in getattr(e, "port_groups", ()) or ()}
        interfaces = [
            {
                "name": n,
                "type": types[g] or "other",
                **({"mgmt_only": True} if roles[g] == "management" else {}),
            }
            for g, names in interface_names(e).items()
            for n in names
        ]
        if interfaces:
            doc["interfaces"] = interfaces
        if _power_ports(e):
            doc["power-ports"] = _power_ports(e)
        docs.append(doc)
    return yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True)


def _devices_csv(project, results, site: str) -> str:
    c = results.compiled
    d, r = c.devices, c.racks
    cat = project.catalog.entries
    rows = []
    for i in range(len(d.ids)):
        e = cat.get(d.type_ids[i])
        k = int(d.rack[i])
        placed = k >= 0 and d.u_position[i] > 0
        rows.append(
            [
                d.names[i],
                ROLE_NAMES[int(d.role[i])],
                _vendor(e),
                _model(e, d.type_ids[i]),
                "planned",
                site,
                r.row_label[k] if k >= 0 else "",
                r.names[k] if k >= 0 else "",
                int(d.u_position[i]) if placed else "",
                "front" if placed else "",
            ]
        )
    header = [
        "name",
        "role",
        "manufacturer",
        "device_type",
        "status",
        "site",
        "location",
        "rack",
        "position",
        "face",
    ]
    return _csv(header, rows)


def _breakouts_csv(project, results, cabling) -> str:
    """The breakout lanes the cables use, as child interfaces of their physical ports (same type)."""
    d, lk = results.compiled.devices, results.compiled.links
    types = {}
    for t in set(d.type_ids):
        e = project.catalog.entries.get(t)
        names = interface_names(e)
        for pg in getattr(e, "port_groups", ()) or ():
            for n in names.get(pg.name, []):
                types[(t, n)] = pg.type
    rows, seen = [], set()
    for cb in cabling:
        for dev, end in ((int(lk.a[cb.link_row]), cb.a), (int(lk.b[cb.link_row]), cb.b)):
            if end.parent and (dev, end.port) not in seen:
                seen.add((dev, end.port))
                rows.append(
                    [d.names[dev], end.port, types.get((d.type_ids[dev], end.parent), "other"), end.parent]
                )
    return _csv(["device", "name", "type", "parent"], rows)


def _cables_csv(project, results, cabling) -> str:
    d, lk, plan = results.compiled.devices, results.compiled.links, results.fabric.cables
    rows = []
    for cb in cabling:
        i = cb.link_row
        rows.append(
            [
                d.names[lk.a[i]], "dcim.interface", cb.a_port,
                d.names[lk.b[i]], "dcim.interface", cb.b_port,
                CABLE_TYPE.get(plan.medium[i], ""), "planned", f"{lk.length_m[i]:.1f}", "m", f"{lk.ids[i]}/{cb.index}",
            ]
        )  # fmt: skip
    header = ["side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name"]
    return _csv([*header, "type", "status", "length", "length_unit", "label"], rows)


def _racks_csv(results, site: str) -> str:
    r = results.compiled.racks
    rows = [
        [
            site,
            r.row_label[i],
            r.names[i],
            "planned",
            int(r.ru[i]),
            19,
            f"row {r.row_label[i]}, position {int(r.position[i])}",
        ]
        for i in range(len(r.ids))
    ]
    return _csv(["site", "location", "name", "status", "u_height", "width", "description"], rows)


def _power_csvs(project, results, site: str) -> tuple[str, str]:
    """Power panels (one per row) and feeds: per rack one per PDU (A, B …) with the PDU's supply."""
    r = results.compiled.racks
    cat = project.catalog.entries
    panels = sorted(set(r.row_label))
    feeds = []
    for i, tid in enumerate(r.type_ids):
        rt = cat.get(tid)
        pdu = cat.get(getattr(rt, "pdu", "") or "")
        count = int(getattr(rt, "pdu_count", 0) or 0)
        if pdu is None or count <= 0:
            continue
        phase = "three-phase" if int(getattr(pdu, "phases", 1) or 1) == 3 else "single-phase"
        for k in range(count):
            feeds.append(
                [site, f"Panel {r.row_label[i]}", r.row_label[i], r.names[i], f"{r.names[i]}-{chr(65 + k % 26)}",
                 "planned", "primary" if k == 0 else "redundant", "ac", phase, int(pdu.voltage_v),
                 int(pdu.current_a), 80]
            )  # fmt: skip
    panel_csv = _csv(["site", "location", "name"], [[site, row, f"Panel {row}"] for row in panels])
    header = ["site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase", "voltage",
              "amperage", "max_utilization"]  # fmt: skip
    return panel_csv, _csv(header, feeds)


def netbox_files(project, results) -> dict[str, str]:
    """File name → text, in import order."""
    d, r = results.compiled.devices, results.compiled.racks
    cat = project.catalog.entries
    site = one_line(project.info.name, 100) or "GPU Planner site"
    cabling = cables(project, results)
    vendors = sorted({_vendor(cat.get(t)) for t in set(d.type_ids)})
    panels, feeds = _power_csvs(project, results, site)
    roles = sorted({ROLE_NAMES[int(x)] for x in set(d.role.tolist())})
    return {
        FILES[0]: _csv(["name", "slug"], [[v, slug(v)] for v in vendors]),
        FILES[1]: _csv(
            ["name", "slug", "color"], [[x, slug(x), ROLE_COLOURS.get(x, "9e9e9e")] for x in roles]
        ),
        FILES[2]: device_types_yaml(project, results),
        FILES[3]: _csv(["name", "slug", "status"], [[site, slug(site), "planned"]]),
        FILES[4]: _csv(
            ["site", "name", "slug", "status"],
            [[site, row, slug(row), "planned"] for row in sorted(set(r.row_label))],
        ),
        FILES[5]: _racks_csv(results, site),
        FILES[6]: panels,
        FILES[7]: feeds,
        FILES[8]: _devices_csv(project, results, site),
        FILES[9]: _breakouts_csv(project, results, cabling),
        FILES[10]: _cables_csv(project, results, cabling),
    }


def write_netbox(project, results, folder: Path) -> list[Path]:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create the folder: {exc.strerror or exc}", file=str(folder)) from exc
    return [write_atomic(folder / name, text) for name, text in netbox_files(project, results).items()]
