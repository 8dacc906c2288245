"""The design advisor's front for the report's "options considered" section: read from the designs.json
that `gpuplanner advise -o DIR` wrote (``--options DIR``), or searched now on the project's goal
(``--advise``). Results are not stored in the project file: the front is either a file the user keeps
beside it or a fresh search."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from gpuplanner.core.errors import ValidationError
from gpuplanner.text import Msg

_NUMBERS = ("gpus", "servers", "oversubscription", "facility_kw_max", "capex_usd", "tco_usd")
MAX_BYTES = 20_000_000


def read_options(path: str | Path) -> dict[str, Any]:
    """designs.json (or the folder holding it), checked: a goal the advisor accepts and rows with the
    figures the section prints. Raises ValidationError naming the file, the design and the field."""
    from gpuplanner.advisor.goal import goal_from_dict

    p = Path(path)
    if p.is_dir():
        p = p / "designs.json"
    if not p.is_file():
        raise ValidationError(Msg("error.report.no_designs"), file=str(p))
    if p.stat().st_size > MAX_BYTES:
        raise ValidationError(f"{p}: too large for a designs.json")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ValidationError(f"{p}: not a designs.json ({str(exc)[:80]})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("designs"), list):
        raise ValidationError(f"{p}: not a designs.json (no list of designs)")
    goal = goal_from_dict(data.get("goal"), f"{p}: goal")
    for i, row in enumerate(data["designs"], 1):
        where = f"{p}: design {i}"
        if not isinstance(row, dict):
            raise ValidationError(f"{where} is not a mapping")
        for key in _NUMBERS:
            v = row.get(key)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
                raise ValidationError(f"{where}: '{key}' is not a number ≥ 0", field=key, value=v)
        for key in ("server", "fabric", "binding_constraint"):
            if not isinstance(row.get(key), str):
                raise ValidationError(f"{where}: '{key}' is not text", field=key)
        if not isinstance(row.get("cooling"), list):
            raise ValidationError(f"{where}: 'cooling' is not a list", field="cooling")
    return {**data, "goal": goal.to_json()}


def advise_options(project: Any, file: str, workers: int | None = None) -> dict[str, Any]:
    """The front searched now for the project's goal (as `gpuplanner advise FILE --json` prints it)."""
    from gpuplanner.advisor import advise
    from gpuplanner.advisor.goal import goal_from_row
    from gpuplanner.cli.advise_cmd import designs_json

    goal = goal_from_row(project.goal, f"{file}: the project's goal")
    return designs_json(advise(goal, workers=workers, catalog=project.catalog))


def mark_other_goal(options: dict[str, Any], project: Any) -> dict[str, Any]:
    """``other_goal``: the front was searched for a goal other than the project's (or the project has none)."""
    from gpuplanner.advisor.goal import goal_from_dict, project_goal

    try:
        mine = project_goal(project)
    except ValidationError:
        mine = None
    theirs = goal_from_dict(options["goal"], "options")
    return {**options, "other_goal": mine is not None and mine != theirs}
