"""NetBox bulk import: a folder of files in NetBox's import order — manufacturers, device roles, device types
(devicetype-library YAML with every interface), site, locations (one per rack row), racks, devices with rack
and U position, and cables with both terminations (device + interface)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import yaml

from gpuplanner.engine.compiled import ROLE_CODES
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
    "06-racks.csv", "07-devices.csv", "08-breakout-interfaces.csv", "09-cables.csv",
)  # fmt: skip


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:100] or "x"


def _csv(header: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def _model(entry, tid: str) -> str:
    return (entry.model or entry.name) if entry is not None else tid


def device_types_yaml(project, results) -> str:
    docs = []
    for tid in sorted(set(results.compiled.devices.type_ids)):
        e = project.catalog.entries.get(tid)
        doc = {
            "manufacturer": e.vendor if e is not None else "Unknown",
            "model": _model(e, tid),
            "slug": slug(tid),
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
                e.vendor if e is not None else "Unknown",
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


def netbox_files(project, results) -> dict[str, str]:
    """File name → text, in import order."""
    d, r = results.compiled.devices, results.compiled.racks
    cat = project.catalog.entries
    site = project.info.name or "GPU Planner site"
    cabling = cables(project, results)
    vendors = sorted({cat[t].vendor if t in cat else "Unknown" for t in set(d.type_ids)})
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
        FILES[6]: _devices_csv(project, results, site),
        FILES[7]: _breakouts_csv(project, results, cabling),
        FILES[8]: _cables_csv(project, results, cabling),
    }


def write_netbox(project, results, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text in netbox_files(project, results).items():
        p = folder / name
        p.write_text(text, encoding="utf-8")
        out.append(p)
    return out
