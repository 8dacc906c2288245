"""Engine results → what the canvas shows: rack kW text, status and cooling badge; link utilisation in the
layer's row order; tooltips that say the figures and why (busiest collective, the limit that binds).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP

from gpuplanner.engine.analysis import Results
from gpuplanner.model import Project
from gpuplanner.ui import fmt, theme
from gpuplanner.ui.canvas.ports import speed_label
from gpuplanner.ui.entry_names import entry_name
from gpuplanner.ui.i18n import translate
from gpuplanner.ui.plurals import counts

KIND_NAMES = {
    "tp": QT_TRANSLATE_NOOP("annotations", "tensor-parallel (TP)"),
    "cp": QT_TRANSLATE_NOOP("annotations", "context-parallel (CP)"),
    "dp": QT_TRANSLATE_NOOP("annotations", "data-parallel (DP) gradient reduction"),
    "pp": QT_TRANSLATE_NOOP("annotations", "pipeline (PP) activations"),
    "ep": QT_TRANSLATE_NOOP("annotations", "expert-parallel (EP) all-to-all"),
}


def fmt_kw(kw: float) -> str:
    if not np.isfinite(kw):
        return "–"
    return fmt.number(kw, 1 if kw < 1000 else 0)


@dataclass(frozen=True)
class RackNote:
    kw_text: str
    status: int
    badge: theme.Badge | None


def rack_status(res: Results) -> np.ndarray:
    """Per compiled rack: theme.RACK_OK / RACK_NEAR / RACK_BAD (over budget at load, or cooling too weak)."""
    pw, th = res.power, res.thermal
    budget = pw.rack_budget_kw
    near = pw.rack_over_budget_max | (
        np.isfinite(budget) & (pw.rack_kw_load >= theme.NEAR_BUDGET * np.nan_to_num(budget))
    )
    bad = pw.rack_over_budget | ~th.rack_cooling_ok
    return np.where(bad, theme.RACK_BAD, np.where(near, theme.RACK_NEAR, theme.RACK_OK)).astype(np.int8)


class RackNoteMaker:
    """The racks' notes (kW line, status, cooling badge) of one Results, each made when first asked for:
    the canvas asks only for the racks it has items for (a 131k plan opened collapsed: about a hundred of
    5,167), the rack elevation and the plots for all of them (``all``)."""

    def __init__(self, res: Results) -> None:
        self.res = res
        c, pw, th = res.compiled, res.power, res.thermal
        self._row = c.racks.row
        self._ids = c.racks.ids
        self._status = rack_status(res).tolist()
        self._badges = {m: theme.cooling_badge(m) for m in set(th.table.methods)}
        self._methods = th.table.methods
        self._cooling = th.rack_cooling.tolist()
        self._template = translate("annotations", "{load} / {budget} kW")
        self._loads, self._budgets = pw.rack_kw_load.tolist(), pw.rack_budget_kw.tolist()  # floats
        self._texts: dict[tuple[float, float], str] = {}  # racks at one load and budget share their text
        self._notes: dict[str, RackNote] = {}
        self._complete = False

    def _text(self, load: float, budget: float) -> str:
        key = (load, budget if budget == budget else -1.0)  # (NaN ≠ NaN: one key for "no budget")
        t = self._texts.get(key)
        if t is None:
            t = self._texts[key] = self._template.format(load=fmt_kw(load), budget=fmt_kw(budget))
        return t

    def get(self, rack_id: str) -> RackNote | None:
        note = self._notes.get(rack_id)
        if note is None:
            i = self._row.get(rack_id)
            if i is None:
                return None
            load = self._loads[i]
            note = self._notes[rack_id] = RackNote(
                self._text(load, self._budgets[i]),
                int(self._status[i]),
                self._badges[self._methods[int(self._cooling[i])]] if load > 0 else None,
            )
        return note

    def all(self) -> dict[str, RackNote]:
        if not self._complete:
            out: dict[str, RackNote] = {}
            for rid in self._ids:
                note = self.get(rid)
                if note is not None:
                    out[rid] = note
            self._notes, self._complete = out, True
        return self._notes


_MAKER: RackNoteMaker | None = None  # the last Results' notes (the canvas, the plots and the elevation share)


def rack_note_maker(res: Results) -> RackNoteMaker:
    global _MAKER
    if _MAKER is None or _MAKER.res is not res:
        _MAKER = RackNoteMaker(res)
    return _MAKER


def rack_notes(res: Results) -> dict[str, RackNote]:
    """Per rack id: its kW line, status and cooling badge (tooltips are built on demand: ``rack_tooltip``)."""
    return rack_note_maker(res).all()


def rack_tooltip(res: Results, rack_id: str) -> str:
    i = res.compiled.racks.row.get(rack_id)
    if i is None:
        return ""
    method = res.thermal.table.methods[int(res.thermal.rack_cooling[i])]
    return _rack_tooltip(res, i, method, bool(res.thermal.rack_cooling_ok[i]))


def _rack_tooltip(res: Results, i: int, method: str, cool_ok: bool) -> str:
    c, pw, th = res.compiled, res.power, res.thermal
    lines = [
        c.racks.names[i],
        translate(
            "annotations", "power: {load} kW at the predicted load, {peak} kW at maximum; budget {budget} kW"
        ).format(
            load=fmt_kw(pw.rack_kw_load[i]),
            peak=fmt_kw(pw.rack_kw_max[i]),
            budget=fmt_kw(pw.rack_budget_kw[i]),
        ),
    ]
    if pw.rack_over_budget[i]:
        lines.append(translate("annotations", "over budget at the predicted load"))
    elif pw.rack_over_budget_max[i]:
        lines.append(translate("annotations", "over budget at maximum draw"))
    cap = th.rack_cooling_max_kw[i]
    how = (
        translate("annotations", "chosen by you")
        if th.rack_cooling_pinned[i]
        else translate("annotations", "chosen automatically")
    )
    lines.append(
        translate("annotations", "cooling: {method} ({how}), takes up to {cap} kW per rack").format(
            method=theme.cooling_method_name(method), how=how, cap=fmt_kw(cap)
        )
    )
    if not cool_ok:
        lines.append(
            translate("annotations", "the cooling cannot take {peak} kW").format(
                peak=fmt_kw(pw.rack_kw_max[i])
            )
        )
    lines.append(
        translate(
            "annotations", "airflow {airflow} · coolant {lpm} L/min · liquid {liq} kW, air {air} kW"
        ).format(
            airflow=fmt.airflow(th.rack_airflow_m3_per_h[i], th.rack_airflow_cfm[i]),
            lpm=fmt.number(th.rack_coolant_l_per_min[i], 1),
            liq=fmt_kw(th.rack_liquid_kw[i]),
            air=fmt_kw(th.rack_air_kw[i]),
        )
    )
    return "\n".join(lines)


def link_util_for(res: Results, layer_ids: list[str], layer_index: dict[str, int]) -> np.ndarray:
    """The engine's per-link utilisation in the layer's row order (0 for links the results do not know)."""
    util = res.link_util
    ids = res.compiled.links.ids
    if not layer_ids:  # (a large plan's links not laid out yet)
        return np.zeros(0)
    if ids == layer_ids:
        return util.copy()
    out = np.zeros(len(layer_ids))
    for k, lid in enumerate(ids):
        j = layer_index.get(lid)
        if j is not None:
            out[j] = util[k]
    return out


def busiest_kinds(res: Results) -> dict[str, list[str]]:
    """Link id → collective kinds for which it is the busiest link."""
    out: dict[str, list[str]] = {}
    if res.workload is None:
        return out
    ids = res.compiled.links.ids
    for kind, row in res.workload.kind_busiest_link.items():
        if 0 <= int(row) < len(ids):
            out.setdefault(ids[int(row)], []).append(kind)
    return out


def link_tooltip(project: Project, res: Results | None, link_id: str, busiest: dict[str, list[str]]) -> str:
    lk = project.links.get(link_id)
    if lk is None:
        return ""
    a, b = project.devices[lk.a_device], project.devices[lk.b_device]
    speed = lk.speed_gbps
    lines = [
        f"{a.name}:{lk.a_group} ↔ {b.name}:{lk.b_group}",
        translate("annotations", "{n} × {speed} = {total} per direction").format(
            n=lk.multiplicity, speed=speed_label(speed), total=speed_label(speed * lk.multiplicity)
        ),
    ]
    row = res.compiled.links.row.get(link_id) if res is not None else None
    if res is None or row is None:
        lines.append(translate("annotations", "not analysed yet"))
        return "\n".join(lines)
    ab, ba = res.link_util_ab[row], res.link_util_ba[row]
    if res.workload is None:
        lines.append(translate("annotations", "no training workload: no predicted traffic"))
    else:
        lines.append(
            translate(
                "annotations", "utilisation over a training step: {ab} % {a}→{b}, {ba} % {b}→{a}"
            ).format(ab=fmt.number(ab * 100), ba=fmt.number(ba * 100), a=a.name, b=b.name)
        )
    kinds = busiest.get(link_id, [])
    if kinds:
        names = ", ".join(translate("annotations", KIND_NAMES.get(k, k)) for k in kinds)
        lines.append(
            translate("annotations", "busiest link for: {kinds} — it sets that traffic's speed").format(
                kinds=names
            )
        )
    tier = res.fabric.link_tier[row] if row < len(res.fabric.link_tier) else ""
    medium = res.fabric.cables.medium[row] if row < len(res.fabric.cables.medium) else ""
    length = res.compiled.links.length_m[row]
    lines.append(
        translate("annotations", "tier {tier} · {medium} · {length} m").format(
            tier=tier, medium=medium or "–", length=fmt.short(length, 1)
        )
    )
    return "\n".join(lines)


def device_tooltip(project: Project, res: Results | None, device_id: str) -> str:
    d = project.devices.get(device_id)
    if d is None:
        return ""
    entry = project.catalog.entries.get(d.type_id)
    model = entry_name(project.catalog, entry) if entry else d.type_id
    lines = [f"{d.name} — {model}", theme.role_name(d.role)]
    if d.rack_id and d.rack_id in project.racks:
        lines.append(
            translate("annotations", "rack {rack}, U{u}").format(
                rack=project.racks[d.rack_id].name, u=d.u_position or "?"
            )
        )
    gpus = getattr(entry, "gpu_count", 0) or 0
    if gpus:
        lines.append(counts().gpus(int(gpus)))
    if res is not None and device_id in res.compiled.devices.row:
        i = res.compiled.devices.row[device_id]
        lines.append(
            translate("annotations", "power {load} W at the predicted load (max {peak} W)").format(
                load=fmt.number(res.power.device_load_w[i]), peak=fmt.number(res.power.device_max_w[i])
            )
        )
    return "\n".join(lines)
