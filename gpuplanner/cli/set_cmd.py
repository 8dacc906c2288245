"""`gpuplanner set FILE KEY=VALUE …`: edit the project's settings, site limits, budget, phases, partitions and
workloads from the command line, through the same undoable commands and row validation as the window.
All the edits are applied together or not at all: a bad key or value leaves the file unchanged (exit 2).

Keys:
  name, customer, consultant, currency, exchange_rate, language        the project
  site.FIELD (any Site field), it_kw, utility_kw, margin (0.2 or 20%), budget (= budget_capex),
  budget_tco, region (ISO code), positions (24x40kW-air,8x120kW-liquid)  the site
  phase.NAME.FIELD        order, description, scheduler (the phase is created when new, and `set` says so)
  partition.NAME.servers  a glob of device names put in the partition (train-node-*)
  partition.NAME.phase    the phase (name or id) of the partition's servers, their racks and links
  workload.NAME.FIELD     any Workload field; `model` = model_id (created when new, and `set` says so)
  goal=FILE               the design goal from a YAML/JSON goal file (as `advise --goal`); goal=none clears it
  goal.FIELD              any goal field (kind, model_id, total_tokens, deadline_days, facility_kw_max,
                          rack_kw_max, racks_max, capex_usd_max, vendors, region, …; 0 = no limit, lists
                          comma-separated); a project without a goal gets a training goal
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import re
import typing
from typing import Any

from gpuplanner.cli.common import output_language, print_json
from gpuplanner.core.errors import ValidationError
from gpuplanner.text import Msg, render

PROJECT_ALIASES = {
    "name": "name",
    "customer": "customer",
    "consultant": "consultant",
    "currency": "currency",
    "exchange_rate": "usd_exchange_rate",
    "language": "language",
    "lang": "language",
}
SITE_ALIASES = {
    "it_kw": "it_kw_available",
    "utility_kw": "utility_kw_available",
    "margin": "feed_headroom",
    "budget": "budget_capex",
    "budget_capex": "budget_capex",
    "budget_tco": "budget_tco",
    "region": "region",
    "positions": "positions_json",
}
CURRENCIES = ("USD", "CNY", "EUR")
_SUFFIX = {"k": 1e3, "m": 1e6, "g": 1e9}


def _number(text: str, key: str, as_int: bool) -> float | int:
    t = text.strip().replace(",", "").replace("_", "")
    scale = 1.0
    if t.endswith("%"):
        t, scale = t[:-1], 0.01
    elif t and t[-1].lower() in _SUFFIX and not as_int:
        t, scale = t[:-1], _SUFFIX[t[-1].lower()]
    try:
        v = float(t) * scale
    except ValueError:
        raise ValidationError(
            Msg("error.set.not_number", {"key": key, "text": text}), field=key, value=text
        ) from None
    if as_int:
        if v != int(v):
            raise ValidationError(
                Msg("error.set.not_whole", {"key": key, "text": text}), field=key, value=text
            )
        return int(v)
    return v


def coerce(row: Any, fname: str, text: str, key: str) -> Any:
    """The text as the type of the row's field (str, int, float, bool, optional: 'none')."""
    fields = {f.name: f for f in dataclasses.fields(row)}
    if fname not in fields:
        names = ", ".join(sorted(fields))
        raise ValidationError(
            Msg("error.set.unknown_key", {"key": key}),
            field=key,
            hint=Msg("error.set.fields", {"names": names}),
        )
    hint = typing.get_type_hints(type(row))[fname]
    args = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
    optional = type(None) in typing.get_args(hint)
    if optional and text.strip().lower() in ("none", ""):
        return None
    t = args[0]
    if t is bool:
        low = text.strip().lower()
        if low not in ("yes", "no", "true", "false", "1", "0", "on", "off"):
            raise ValidationError(f"{key}: '{text}' is not yes/no", field=key, value=text)
        return low in ("yes", "true", "1", "on")
    if t is int:
        return _number(text, key, True)
    if t is float:
        return _number(text, key, False)
    return text


class _Edits:
    """The edits of one `set` run, applied one by one (each validated), reverted together on any error."""

    def __init__(self, project) -> None:
        self.project = project
        self.done: list = []
        self.serving_rows: set[str] = (
            set()
        )  # workloads whose serving settings are checked once all edits are in
        self.created: list[
            tuple[str, str]
        ] = []  # (table, name) of the rows a new name made: said in the output

    def run(self, cmd) -> None:
        cmd.apply(self.project)
        self.done.append(cmd)

    def set_fields(self, table: str, row_id: str, **fields: Any) -> None:
        from gpuplanner.commands import SetFields

        self.run(SetFields(self.project, table, row_id, **fields))

    def add(self, table: str, row) -> None:
        from gpuplanner.commands import AddRows

        self.run(AddRows(table, [row]))

    def revert(self) -> None:
        for cmd in reversed(self.done):
            cmd.revert(self.project)


def _phase_id(project, name: str, key: str) -> str:
    for p in project.tables["phases"].values():
        if name in (p.id, p.name):
            return p.id
    names = ", ".join(p.name for p in project.tables["phases"].values()) or "none yet"
    raise ValidationError(
        f"{key}: no phase '{name}' (the project has: {names})",
        field=key,
        value=name,
        hint="create it first: phase.NAME.order=N",
    )


def _site(ed: _Edits, fname: str, value: str, key: str) -> None:
    from gpuplanner.model.site_limits import positions_from_text

    site = ed.project.site
    if fname == "positions_json":
        ed.set_fields("site", "site", positions_json=positions_from_text(value))
        return
    v = coerce(site, fname, value.strip().upper() if fname == "region" else value, key)
    if fname == "feed_headroom" and not 0 <= v < 1:
        raise ValidationError(
            f"{key}: the design margin is a share from 0 to 1 (0.2 or 20%)", field=key, value=value
        )
    ed.set_fields("site", "site", **{fname: v})


def _phase(ed: _Edits, name: str, fname: str, value: str, key: str) -> None:
    from gpuplanner.model import Phase

    phases = ed.project.tables["phases"]
    row = next((p for p in phases.values() if name in (p.id, p.name)), None)
    if row is None:
        row = Phase(id=ed.project.new_id("phases"), name=name, order=len(phases) + 1)
        ed.add("phases", row)
        ed.created.append(("phases", name))
    ed.set_fields("phases", row.id, **{fname: coerce(row, fname, value, key)})


def _partition(ed: _Edits, name: str, what: str, value: str, key: str) -> None:
    p = ed.project
    if what == "servers":
        hit = [d for d in p.devices.values() if d.role == "compute" and fnmatch.fnmatchcase(d.name, value)]
        if not hit:
            raise ValidationError(f"{key}: no server is named like '{value}'", field=key, value=value)
        from gpuplanner.commands import ReplaceRows

        ed.run(ReplaceRows("devices", [dataclasses.replace(d, partition=name) for d in hit]))
        return
    if what != "phase":
        raise ValidationError(
            Msg("error.set.unknown_key", {"key": key}), field=key, hint=Msg("error.set.partition_keys")
        )
    ph = _phase_id(p, value, key)
    servers = [d for d in p.devices.values() if d.partition == name]
    if not servers:
        raise ValidationError(f"{key}: partition '{name}' has no servers", field=key, value=name)
    ids = {d.id for d in servers}
    racks = {d.rack_id for d in servers if d.rack_id}
    links = [lk for lk in p.links.values() if lk.a_device in ids or lk.b_device in ids]
    from gpuplanner.commands import ReplaceRows

    ed.run(ReplaceRows("devices", [dataclasses.replace(d, phase_id=ph) for d in servers]))
    ed.run(ReplaceRows("racks", [dataclasses.replace(p.racks[r], phase_id=ph) for r in sorted(racks)]))
    if links:
        ed.run(ReplaceRows("links", [dataclasses.replace(lk, phase_id=ph) for lk in links]))


def _workload(ed: _Edits, name: str, fname: str, value: str, key: str) -> None:
    from gpuplanner.catalog.types import ModelType
    from gpuplanner.model import Workload

    p = ed.project
    row = next((w for w in p.tables["workloads"].values() if name in (w.id, w.name)), None)
    if row is None:
        row = Workload(id=p.new_id("workloads"), name=name)
        ed.add("workloads", row)
        ed.created.append(("workloads", name))
    fname = "model_id" if fname == "model" else fname
    v = coerce(row, fname, value, key)
    if fname == "model_id" and v:
        entry = p.catalog.entries.get(v)
        if not isinstance(entry, ModelType):
            raise ValidationError(
                f"{key}: '{v}' is not a model in the catalog",
                field=key,
                value=v,
                hint="see `gpuplanner catalog list model`",
            )
    if fname == "partition" and v and not any(d.partition == v for d in p.devices.values()):
        raise ValidationError(f"{key}: the project has no partition '{v}'", field=key, value=v)
    _check_run_setting(row.name, fname, v)
    ed.set_fields("workloads", row.id, **{fname: v})
    if fname in ("serving_stack", "prompt_dataset", "prompt_len"):
        ed.serving_rows.add(row.id)


def _check_serving_settings(ed: _Edits) -> None:
    """The serving settings of each edited workload as the analysis reads them, once every edit is in (a
    prompt_dataset's mean must be the prompt_len, whichever of the two keys comes first)."""
    from gpuplanner.engine.workload_settings import workload_serving_settings

    for wid in sorted(ed.serving_rows):
        row = ed.project.tables["workloads"].get(wid)
        if row is not None:
            workload_serving_settings(row)


def _check_run_setting(name: str, fname: str, value: Any) -> None:
    """A run setting the engine would refuse is refused now (naming the workload, field and value), before
    anything is written; only the edited field is read (another bad one can be fixed after)."""
    from gpuplanner.engine.workload_settings import (
        CHOICE_SETTINGS,
        ON_OFF,
        workload_serving_settings,
        workload_settings,
    )
    from gpuplanner.model import Workload

    if fname in ON_OFF or fname in CHOICE_SETTINGS or fname == "stack":
        workload_settings(Workload(id="check", name=name, **{fname: value}))
    if fname == "serving_stack":
        workload_serving_settings(Workload(id="check", name=name, **{fname: value}))


def _goal(ed: _Edits, fname: str | None, value: str, key: str) -> None:
    """goal=FILE (a whole goal), goal=none (no goal) or goal.FIELD=VALUE."""
    from gpuplanner.model import DesignGoal

    if fname is None:
        if value.strip().lower() in ("none", ""):
            ed.set_fields("goal", "goal", kind="")
            return
        from gpuplanner.advisor.goal import goal_row, read_goal

        row = goal_row(read_goal(value))
        ed.set_fields(
            "goal", "goal", **{f.name: getattr(row, f.name) for f in dataclasses.fields(DesignGoal)}
        )
        return
    _goal_fields(ed, {fname: (value, key)})


def _goal_fields(ed: _Edits, items: dict[str, tuple[str, str]]) -> None:
    """goal.FIELD=VALUE edits of one run, set together as one edit and validated together: rules joining
    fields (a serving goal's rate, fp4 only for a serving goal) hold whatever order the keys come in."""
    p = ed.project
    changes: dict[str, Any] = {}
    for fname, (value, key) in items.items():
        name = "model_id" if fname == "model" else fname
        changes[name] = coerce(p.goal, name, value.strip().upper() if name == "region" else value, key)
    if "kind" not in changes and not p.goal.kind:
        changes["kind"] = "training"  # a first goal field sets a goal
    row = dataclasses.replace(p.goal, **changes)
    if (
        row.kind
    ):  # the goal the advisor would search: a prompt dataset it knows, whose mean is the prompt length
        from gpuplanner.advisor.goal import goal_from_row

        goal_from_row(row, "goal")
    ed.set_fields("goal", "goal", **changes)


def apply_setting(ed: _Edits, key: str, value: str) -> None:
    parts = key.split(".")
    head = parts[0]
    if len(parts) == 1 and head in PROJECT_ALIASES:
        fname = PROJECT_ALIASES[head]
        v = coerce(ed.project.info, fname, value, key)
        if fname == "currency" and v not in CURRENCIES:
            raise ValidationError(f"{key}: '{v}' is not one of {', '.join(CURRENCIES)}", field=key, value=v)
        ed.set_fields("project", "project", **{fname: v})
    elif len(parts) == 1 and head in SITE_ALIASES:
        _site(ed, SITE_ALIASES[head], value, key)
    elif head == "site" and len(parts) == 2:
        _site(ed, SITE_ALIASES.get(parts[1], parts[1]), value, key)
    elif head == "project" and len(parts) == 2:
        ed.set_fields("project", "project", **{parts[1]: coerce(ed.project.info, parts[1], value, key)})
    elif (
        head in ("phase", "partition", "workload") and len(parts) >= 3
    ):  # a name may hold dots ("Llama 3.1 8B")
        name, field = ".".join(parts[1:-1]), parts[-1]
        {"phase": _phase, "partition": _partition, "workload": _workload}[head](ed, name, field, value, key)
    elif head == "goal" and len(parts) <= 2:
        _goal(ed, parts[1] if len(parts) == 2 else None, value, key)
    else:
        raise ValidationError(
            Msg("error.set.unknown_key", {"key": key}), field=key, hint=Msg("error.set.see_help")
        )


# KEY=VALUE: the key runs to the first "=" and may hold spaces (a workload, phase or partition name as the
# window shows it: workload.Llama 3 70B fine-tuning.active=false)
_PAIR = re.compile(r"^\s*([^=\s](?:[^=\n]*[^=\s])?)\s*=(.*)$", re.S)


def _cmd_set(args: argparse.Namespace) -> int:
    from gpuplanner.storage import open_project, save_project

    pairs = []
    for item in args.settings:
        m = _PAIR.match(item)
        if not m:
            raise ValidationError(f"'{item}' is not KEY=VALUE", value=item)
        pairs.append((m.group(1), m.group(2)))
    project = open_project(args.file)
    ed = _Edits(project)
    goal_fields: dict[str, tuple[str, str]] = {}  # goal.FIELD=VALUE: applied together, after the rest
    try:
        for key, value in pairs:
            parts = key.split(".")
            if len(parts) == 2 and parts[0] == "goal":
                goal_fields[parts[1]] = (value, key)
            else:
                apply_setting(ed, key, value)
        if goal_fields:
            _goal_fields(ed, goal_fields)
        _check_serving_settings(ed)
    except Exception:
        ed.revert()
        raise
    save_project(project, args.file)
    if args.json:
        created = [{"table": t, "name": n} for t, n in ed.created]
        print_json({"file": args.file, "edits": len(ed.done), "settings": dict(pairs), "created": created})
    else:
        lang = output_language(args)
        for table, name in ed.created:  # a new name makes a row: a typo in an existing name shows here
            print(render(f"cli.set.created_{table.removesuffix('s')}", lang, name=name))
        print(render("cli.set.applied", lang, file=args.file, n=len(pairs)))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "set",
        help="edit site, currency, budget, region, phases, partitions, workloads and the design goal (KEY=VALUE …)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file")
    p.add_argument("settings", nargs="+", metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_set)
