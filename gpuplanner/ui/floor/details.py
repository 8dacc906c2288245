"""The floor plan's words about the selection: a rack's details (row and slot, power, cooling, its cable
runs and media) and, after a rack moved, how its cable runs changed. Counts go through Qt's %n plurals."""

from __future__ import annotations

import math

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject

from gpuplanner.ui import fmt
from gpuplanner.ui.canvas.annotations import rack_tooltip
from gpuplanner.ui.floor import layout as fl

# The cable media of ``engine.fabric.cabling.MEDIA`` in words (a slug such as "fiber-mmf" is no word for a user).
MEDIA = {
    "dac": QT_TRANSLATE_NOOP("floor", "copper DAC"),
    "acc": QT_TRANSLATE_NOOP("floor", "active copper"),
    "aec": QT_TRANSLATE_NOOP("floor", "active electrical cable"),
    "aoc": QT_TRANSLATE_NOOP("floor", "active optical cable"),
    "utp": QT_TRANSLATE_NOOP("floor", "twisted pair"),
    "fiber-mmf": QT_TRANSLATE_NOOP("floor", "multimode fibre"),
    "fiber-smf": QT_TRANSLATE_NOOP("floor", "single-mode fibre"),
    "none": QT_TRANSLATE_NOOP("floor", "no medium reaches"),
}


def medium_word(medium: str) -> str:
    word = MEDIA.get(medium)
    return QCoreApplication.translate("floor", word) if word else medium


def media_text(media: dict[str, int]) -> str:
    """ "multimode fibre × 32, twisted pair × 4": each medium in the window's language, with its run count."""
    return ", ".join(f"{medium_word(m)} × {fmt.number(n)}" for m, n in sorted(media.items()))


class FloorWords(QObject):
    """Sentences of the floor plan's side panel (a QObject so that lupdate sees the %n plurals)."""

    def rack_details(self, project, res, rack_id: str, kw_max: float = math.nan) -> str:
        rack = project.racks.get(rack_id)
        if rack is None:
            return ""
        lines = [
            f"<b>{rack.name}</b>",
            self.tr("row {row}, slot {slot}").format(row=rack.row, slot=fmt.number(rack.position)),
        ]
        tip = rack_tooltip(res, rack_id) if res is not None else ""
        if tip:  # power against budget, the cooling and whether it takes the rack, airflow and coolant
            lines += tip.split("\n")[1:]
        elif math.isfinite(kw_max):
            lines.append(self.tr("{kw} kW at maximum").format(kw=fmt.number(kw_max, 1)))
        cab = fl.rack_cables(res, rack_id)
        if cab:
            lines.append(
                self.tr("%Ln cable run(s) leave the rack: {media}", None, cab["links"]).format(
                    media=media_text(cab["media"]) or fmt.DASH
                )
            )
            lines.append(
                self.tr("longest run {longest} m; {total} m of cable in all").format(
                    longest=fmt.number(cab["longest_m"], 1), total=fmt.number(cab["total_m"])
                )
            )
            if cab["too_long"]:
                lines.append(
                    "<span style='color:#c00'>"
                    + self.tr("%Ln run(s) too long for any medium the ports take", None, cab["too_long"])
                    + "</span>"
                )
        return "<br>".join(lines)

    def cable_changes(self, project, res, pending: dict[str, dict]) -> list[str]:
        """After racks moved: per rack, how its cable runs changed (media and longest run)."""
        notes = []
        for rid, before in pending.items():
            after = fl.rack_cables(res, rid)
            rack = project.racks.get(rid)
            if not after or rack is None or after == before:
                continue
            media_b, media_a = media_text(before.get("media", {})), media_text(after["media"])
            if media_a != media_b:
                notes.append(
                    self.tr("{rack}: cables now {after} (were {before}); longest run {m} m").format(
                        rack=rack.name,
                        after=media_a,
                        before=media_b or fmt.DASH,
                        m=fmt.number(after["longest_m"], 1),
                    )
                )
            else:
                notes.append(
                    self.tr("{rack}: longest run {b} → {a} m, same media").format(
                        rack=rack.name,
                        b=fmt.number(before.get("longest_m", 0), 1),
                        a=fmt.number(after["longest_m"], 1),
                    )
                )
            if after["too_long"]:
                notes.append(
                    self.tr("{rack}: %Ln run(s) too long for any medium", None, after["too_long"]).format(
                        rack=rack.name
                    )
                )
        return notes

    def summary(self, racks: int, rows: int, units: int, over: int) -> str:
        parts = [
            self.tr("%Ln rack(s)", None, racks),
            self.tr("%Ln row(s)", None, rows),
            self.tr("%Ln unit(s) on the floor", None, units),
        ]
        if over:
            parts.append(self.tr("%Ln over their rating", None, over))
        return " · ".join(parts)

    def selected(self, n: int) -> str:
        return self.tr("%Ln item(s) selected", None, n)

    def move_items(self, n: int) -> str:
        return self.tr("Move %Ln item(s) on the floor", None, n)

    def delete_units(self, n: int) -> str:
        return self.tr("Delete %Ln floor unit(s)", None, n)
