"""Commands: ``apply``/``revert`` with before/after records; cascades are child commands.

Each command runs inside one ``project.batch()``, so one command emits exactly one ChangeSet, and a whole
drag (merged MoveDevices) is one undo step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from gpuplanner.core.errors import ValidationError
from gpuplanner.model import Project
from gpuplanner.model.refs import keys_to
from gpuplanner.text import Msg


class Command:
    text: str = ""
    merge_key: str | None = None

    def apply(self, project: Project) -> None:
        raise NotImplementedError

    def revert(self, project: Project) -> None:
        raise NotImplementedError

    def merge(self, other: Command) -> bool:
        """Absorb ``other`` (applied after self) into self; True when merged."""
        return False


class AddRows(Command):
    def __init__(self, table: str, rows: Iterable[Any], text: str = "") -> None:
        self.table = table
        self.rows = list(rows)
        self.text = text or f"Add {len(self.rows)} {table}"

    def apply(self, project: Project) -> None:
        with project.batch():
            done: list[str] = []
            try:
                for r in self.rows:
                    project.insert(self.table, r)
                    done.append(r.id)
            except Exception:
                for rid in reversed(done):  # leave the model as it was
                    project.delete(self.table, rid)
                raise

    def revert(self, project: Project) -> None:
        with project.batch():
            for r in reversed(self.rows):
                project.delete(self.table, r.id)


class ReplaceRows(Command):
    """Replace whole rows (same ids); remembers the old rows for revert."""

    def __init__(self, table: str, rows: Iterable[Any], text: str = "", merge_key: str | None = None) -> None:
        self.table = table
        self.new = list(rows)
        self.old: list[Any] = []
        self.text = text or f"Edit {len(self.new)} {table}"
        self.merge_key = merge_key

    def apply(self, project: Project) -> None:
        old = [project.row(self.table, r.id) for r in self.new]
        with project.batch():
            done: list[Any] = []
            try:
                for r in self.new:
                    project.replace(self.table, r)
                    done.append(r)
            except Exception:
                for r in reversed(old[: len(done)]):
                    project.replace(self.table, r)
                raise
        self.old = old

    def revert(self, project: Project) -> None:
        with project.batch():
            for r in reversed(self.old):
                project.replace(self.table, r)

    def merge(self, other: Command) -> bool:
        if (
            self.merge_key is None
            or not isinstance(other, ReplaceRows)
            or other.merge_key != self.merge_key
            or other.table != self.table
            or [r.id for r in other.new] != [r.id for r in self.new]
        ):
            return False
        self.new = other.new  # keep our `old`: one undo step back to before the first
        return True


def SetFields(project: Project, table: str, row_id: str, text: str = "", **fields: Any) -> Command:  # noqa: N802
    """The command that changes some fields of one row: a ReplaceRows, or for a device's model an
    ``EditDevices`` (its links move to the new model's port groups in the same step)."""
    from gpuplanner.commands.devices import edit_rows  # devices builds on this module

    row = project.row(table, row_id)
    names = {f.name for f in dataclasses.fields(row)}
    unknown = set(fields) - names
    if unknown:
        name = sorted(unknown)[0]
        raise ValidationError(Msg("error.edit.no_field", {"table": table, "name": name}), field=name)
    return edit_rows(
        project, table, [dataclasses.replace(row, **fields)], text=text or f"Edit {table} {row_id}"
    )


def MoveDevices(
    project: Project, positions: dict[str, tuple[float, float]], text: str = "Move"
) -> ReplaceRows:  # noqa: N802
    """Canvas move of devices; consecutive moves of the same selection merge into one undo step."""
    rows = [
        dataclasses.replace(project.devices[i], x=float(x), y=float(y)) for i, (x, y) in positions.items()
    ]
    key = "move:" + ",".join(sorted(positions))
    return ReplaceRows("devices", rows, text=text, merge_key=key)


class RemoveRows(Command):
    """Remove rows, with the cascades model/refs.py declares: a device's links go with it (and theirs with
    them), a rack's devices are taken out of it; a phase still named is refused by the model."""

    def __init__(self, table: str, ids: Iterable[str], text: str = "") -> None:
        self.table = table
        self.ids = list(dict.fromkeys(ids))
        self.text = text or f"Delete {len(self.ids)} {table}"
        self.removed: list[Any] = []
        self.children: list[Command] = []

    def _cascade(self, project: Project) -> list[Command]:
        """One child command per referring table: a RemoveRows of the rows whose keys cascade, else a
        ReplaceRows of the rows whose keys are set to None ("restrict" keys: Project.delete refuses)."""
        removed: dict[str, set[str]] = {}
        cleared: dict[str, dict[str, dict[str, Any]]] = {}  # table → row id → fields set to None
        for fk in keys_to(self.table):
            if fk.on_delete == "restrict":
                continue
            ids = project.referrers(fk, self.ids)
            if fk.on_delete == "cascade":
                removed.setdefault(fk.table, set()).update(ids)
            else:
                for i in ids:
                    fields = cleared.setdefault(fk.table, {}).setdefault(i, {})
                    fields.update(dict.fromkeys((fk.column, *fk.also_clear)))
        out: list[Command] = []
        for table, row_fields in cleared.items():
            gone = removed.get(table, set())
            rows = project.tables[table]
            # in table order, the rows that stay (a row both removed and cleared is only removed)
            moved = [dataclasses.replace(r, **row_fields[i]) for i, r in rows.items() if i in row_fields]
            moved = [r for r in moved if r.id not in gone]
            if moved:
                out.append(ReplaceRows(table, moved))
        out += [RemoveRows(table, sorted(ids)) for table, ids in removed.items() if ids]
        return out

    def apply(self, project: Project) -> None:
        for i in self.ids:
            project.row(self.table, i)  # raises before anything changes
        with project.batch():
            self.children = self._cascade(project)
            for c in self.children:
                c.apply(project)
            self.removed = [project.delete(self.table, i) for i in self.ids]

    def revert(self, project: Project) -> None:
        with project.batch():
            for r in self.removed:
                project.insert(self.table, r)
            for c in reversed(self.children):
                c.revert(project)


class Compound(Command):
    def __init__(self, text: str, children: Sequence[Command]) -> None:
        self.text = text
        self.children = list(children)

    def apply(self, project: Project) -> None:
        done: list[Command] = []
        with project.batch():
            try:
                for c in self.children:
                    c.apply(project)
                    done.append(c)
            except Exception:
                for c in reversed(done):
                    c.revert(project)
                raise

    def revert(self, project: Project) -> None:
        with project.batch():
            for c in reversed(self.children):
                c.revert(project)


class UndoStack:
    """A plain undo stack for the CLI and tests (the UI uses QUndoStack around the same commands)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.done: list[Command] = []
        self.undone: list[Command] = []

    def push(self, command: Command) -> None:
        with self.project.batch():  # all-or-nothing: a command that fails leaves the project as it was
            command.apply(self.project)
        self.undone.clear()
        if self.done and self.done[-1].merge(command):
            return
        self.done.append(command)

    def undo(self) -> bool:
        """Undo the last command; if its revert raises, the project is rolled back, the stack does not
        move and the error goes on to the caller."""
        if not self.done:
            return False
        c = self.done[-1]
        with self.project.batch():
            c.revert(self.project)
        self.done.pop()
        self.undone.append(c)
        return True

    def redo(self) -> bool:
        if not self.undone:
            return False
        c = self.undone[-1]
        with self.project.batch():
            c.apply(self.project)
        self.undone.pop()
        self.done.append(c)
        return True
