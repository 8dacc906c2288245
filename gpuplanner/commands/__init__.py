"""Undoable edits of the project model. Qt-free; the UI's QUndoStack only wraps these commands."""

from gpuplanner.commands.base import (
    AddRows,
    Command,
    Compound,
    MoveDevices,
    RemoveRows,
    ReplaceRows,
    SetFields,
    UndoStack,
)
from gpuplanner.commands.devices import EditDevices, edit_rows

__all__ = [
    "AddRows",
    "Command",
    "Compound",
    "EditDevices",
    "MoveDevices",
    "RemoveRows",
    "ReplaceRows",
    "SetFields",
    "UndoStack",
    "edit_rows",
]
