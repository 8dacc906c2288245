"""Cable schedule CSV: from device/port to device/port, tier, medium, cable part, length and optics."""

from __future__ import annotations

import csv
import io

from gpuplanner.exports.ports import cables

COLUMNS = (
    "cable", "link_id", "a_device", "a_port", "a_rack", "b_device", "b_port", "b_rack", "tier", "speed_gbps",
    "medium", "cable_part", "cable_name", "length_m", "transceiver_a", "transceiver_b",
)  # fmt: skip


def cables_csv(project, results) -> str:
    c = results.compiled
    d, lk, plan = c.devices, c.links, results.fabric.cables
    cat = project.catalog
    racks = c.racks.names
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for n, cb in enumerate(cables(project, results), start=1):
        i = cb.link_row
        a, b = int(lk.a[i]), int(lk.b[i])
        part = plan.cable_id[i]
        entry = cat.entries.get(part) if part else None
        w.writerow(
            [
                f"C{n:05d}",
                lk.ids[i],
                d.names[a],
                cb.a_port,
                racks[d.rack[a]] if d.rack[a] >= 0 else "",
                d.names[b],
                cb.b_port,
                racks[d.rack[b]] if d.rack[b] >= 0 else "",
                results.fabric.link_tier[i],
                f"{lk.speed_gbps[i]:g}",
                plan.medium[i],
                part,
                entry.name if entry is not None else "",
                f"{lk.length_m[i]:.1f}",
                plan.transceiver_a[i],
                plan.transceiver_b[i],
            ]
        )
    return buf.getvalue()
