"""The checks a project passes on its way into a file and on its way out of one.

Opening and saving call the same functions, so that what saves also reopens: a save that would write a
file the next open refuses is itself refused, with the same message, and nothing is written.
(``model/validate.py`` owns the per-row rules; this module applies them to a whole project and adds what
only a file can get wrong: duplicate ids, catalog copies and prices that are not plain data.)
"""

from __future__ import annotations

import math
from typing import Any

from gpuplanner.core.errors import PlannerError, ProjectFileError
from gpuplanner.model.refs import REFERRING_TABLES
from gpuplanner.model.validate import check_references, validate_row
from gpuplanner.text import Msg

# Tables whose rows refer to other rows (model/refs.py), checked after every row has loaded.
REFERENCE_TABLES = REFERRING_TABLES
SINGLE_ROW_TABLES = ("project", "site", "goal")
# No list price in the catalog comes near this; a larger one is a typo or a damaged file.
MAX_PRICE_USD = 1e12


def row_error(
    table: str, row_id: Any, exc: PlannerError, file: str, what: str = "bad value"
) -> ProjectFileError:
    msg_id = "error.file.bad_reference" if what == "bad reference" else "error.file.bad_value"
    reason = exc.msg if exc.msg is not None else exc.message  # the row's own message, in its language
    return ProjectFileError(
        Msg(msg_id, {"table": table, "row": row_id, "reason": reason}),
        file=file,
        entry=None if row_id is None else str(row_id),
        field=exc.field,
        value=exc.value,
    )


def check_rows(project: Any, file: str) -> None:
    """Every row's values and ids (the checks the loader makes row by row)."""
    for table, rows in project.tables.items():
        if table in SINGLE_ROW_TABLES and len(rows) != 1:
            raise ProjectFileError(Msg("error.file.one_row", {"table": table}), file=file)
        for key, row in rows.items():
            if getattr(row, "id", None) != key:
                raise ProjectFileError(
                    Msg(
                        "error.file.row_id_mismatch",
                        {"table": table, "key": key, "id": getattr(row, "id", None)},
                    ),
                    file=file,
                )
            try:
                validate_row(table, row)
            except PlannerError as exc:
                raise row_error(table, key, exc, file) from exc


def check_project_references(project: Any, file: str) -> None:
    for table in REFERENCE_TABLES:
        for row in project.tables[table].values():
            try:
                check_references(table, row, project)
            except PlannerError as exc:
                raise row_error(table, row.id, exc, file, what="bad reference") from exc


def check_price(entry_id: str, data: Any, file: str) -> dict[str, Any]:
    """A project's copy of a price: a JSON object of the Price fields with sane values."""
    where = Msg("error.file.price_copy", {"entry": entry_id})
    if not isinstance(data, dict):
        raise ProjectFileError(Msg("error.file.not_object", {"what": where}), file=file, entry=entry_id)
    price = data.get("price_usd")
    if isinstance(price, bool) or not isinstance(price, int | float):
        raise ProjectFileError(
            Msg("error.file.price_not_number", {"what": where}), file=file, entry=entry_id, value=price
        )
    if not math.isfinite(price) or price < 0 or price > MAX_PRICE_USD:
        raise ProjectFileError(
            Msg("error.file.price_range", {"what": where, "max_usd": f"{MAX_PRICE_USD:,.0f}"}),
            file=file,
            entry=entry_id,
            field="price_usd",
            value=price,
        )
    for name in ("id", "unit", "source", "as_of", "note"):
        if name in data and not isinstance(data[name], str):
            raise ProjectFileError(
                Msg("error.file.not_text", {"what": where, "name": name}),
                file=file,
                entry=entry_id,
                field=name,
            )
    if "estimate" in data and not isinstance(data["estimate"], bool):
        raise ProjectFileError(
            Msg("error.file.estimate_not_bool", {"what": where}), file=file, entry=entry_id
        )
    allowed = {"id", "price_usd", "unit", "source", "as_of", "estimate", "note"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ProjectFileError(
            Msg("error.file.unknown_field", {"what": where, "name": unknown[0]}), file=file, entry=entry_id
        )
    return {**data, "price_usd": float(price)}


def check_saveable(project: Any, file: str) -> None:
    """Refuses (before anything is written) a project that ``open_project`` would refuse."""
    check_rows(project, file)
    check_project_references(project, file)
    check_catalog_copies(project, file)


def check_catalog_copies(project: Any, file: str) -> None:
    """Refuses a project whose catalog copies or prices ``open_project`` would refuse."""
    from gpuplanner.catalog.loader import entry_from_dict
    from gpuplanner.storage.projectfile import plain

    for tid in sorted(project.used_type_ids()):
        entry = project.catalog.entries.get(tid)
        if entry is None:
            continue  # check_project_references has named the row that uses it
        copy, errors = entry_from_dict(plain(entry.raw), origin=file)
        if copy is None:
            raise ProjectFileError(
                Msg("error.file.would_not_reopen", {"entry": tid, "reason": errors[0].message}),
                file=file,
                entry=tid,
            )
        price = project.catalog.prices.get(tid)
        if price is not None:
            check_price(tid, {"price_usd": price.price_usd}, file)
