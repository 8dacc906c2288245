"""Cable schedule: one row per physical cable — from device/port/rack/U to device/port/rack/U, tier, medium,
cable part, length and the optics at each end.

Transceivers are counted the way the bill of materials counts them: a twin-port module (two cables in one
switch cage, e.g. 2 × 400G in an 800G OSFP) is shared, so each cable end carries its share of a module
(``transceiver_a_modules`` = 0.5); the column sums equal the BOM's module count. The CSV is read by
spreadsheets: UTF-8 with a byte-order mark (written by the caller) and formula-like cells neutralised."""

from __future__ import annotations

from gpuplanner.core.outfile import csv_text
from gpuplanner.exports.ports import cables

COLUMNS = (
    "cable", "link_id", "a_device", "a_port", "a_rack", "a_u", "b_device", "b_port", "b_rack", "b_u", "tier",
    "speed_gbps", "medium", "cable_part", "cable_name", "length_m", "transceiver_a", "transceiver_a_modules",
    "transceiver_b", "transceiver_b_modules",
)  # fmt: skip


def _share(modules: float, mult: int) -> str:
    return f"{modules / mult:g}" if mult and modules else ""


def cable_rows(project, results) -> list[list]:
    """The schedule's rows (``COLUMNS``), one per cable, as Python values."""
    c = results.compiled
    d, lk, plan = c.devices, c.links, results.fabric.cables
    cat = project.catalog
    racks = c.racks.names
    rows = []
    for n, cb in enumerate(cables(project, results), start=1):
        i = cb.link_row
        a, b = int(lk.a[i]), int(lk.b[i])
        mult = int(lk.multiplicity[i])
        part = plan.cable_id[i]
        entry = cat.entries.get(part) if part else None
        rows.append(
            [
                f"C{n:05d}",
                lk.ids[i],
                d.names[a],
                cb.a_port,
                racks[d.rack[a]] if d.rack[a] >= 0 else "",
                int(d.u_position[a]) if d.u_position[a] > 0 else "",
                d.names[b],
                cb.b_port,
                racks[d.rack[b]] if d.rack[b] >= 0 else "",
                int(d.u_position[b]) if d.u_position[b] > 0 else "",
                results.fabric.link_tier[i],
                float(lk.speed_gbps[i]),
                plan.medium[i],
                part,
                entry.name if entry is not None else "",
                round(float(lk.length_m[i]), 1),
                plan.transceiver_a[i],
                _share(float(plan.transceivers_a[i]), mult) if plan.transceiver_a[i] else "",
                plan.transceiver_b[i],
                _share(float(plan.transceivers_b[i]), mult) if plan.transceiver_b[i] else "",
            ]
        )
    return rows


def cables_csv(project, results) -> str:
    rows = [[f"{v:g}" if isinstance(v, float) else v for v in r] for r in cable_rows(project, results)]
    return csv_text(COLUMNS, rows)
